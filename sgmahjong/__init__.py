"""sgmahjong: Singapore Mahjong rules core, game engine, server and bots."""

__version__ = "0.1.0"

from . import native

native.install()  # a stale compiled module (or SGMAHJONG_PURE=1) loads the source instead
