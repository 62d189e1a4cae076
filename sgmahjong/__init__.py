"""sgmahjong: Singapore Mahjong rules core, game engine, server and bots."""

__version__ = "0.1.0"
