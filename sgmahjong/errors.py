"""The exceptions of the rules core. Each says exactly what is wrong."""

from __future__ import annotations


class SgMahjongError(Exception):
    """Base class of every error the rules core raises on purpose."""


class NotationError(SgMahjongError, ValueError):
    """Bad tile, hand or action notation. ``column`` is 1-based where known."""

    def __init__(self, message: str, text: str | None = None, column: int | None = None) -> None:
        self.text = text
        self.column = column
        if column is not None:
            message = f"{message} at column {column}"
        super().__init__(message)


class InvalidHandError(SgMahjongError, ValueError):
    """A hand that parses but cannot exist (too many copies, wrong size, bad meld). ``reason_code``,
    where set, names the error for pages that say it in their language (the calculator)."""

    reason_code: str | None = None


def invalid_hand(reason_code: str, message: str) -> InvalidHandError:
    """An :class:`InvalidHandError` with its ``reason_code``."""
    exc = InvalidHandError(message)
    exc.reason_code = reason_code
    return exc


class RuleSetError(SgMahjongError, ValueError):
    """An unknown rule key or a value a rule does not accept."""
