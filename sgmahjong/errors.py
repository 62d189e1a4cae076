"""The exceptions of the rules core. Each says exactly what is wrong."""

from __future__ import annotations

Params = dict[str, str | int]


class SgMahjongError(Exception):
    """Base class of every error the rules core raises on purpose. ``reason_code`` and ``params``,
    where set, name the error for pages that say it in their language (the calculator shows
    ``error.<reason_code>`` of its strings filled with the params); the English message stays for the
    command line and the API."""

    reason_code: str | None = None
    params: Params | None = None


class NotationError(SgMahjongError, ValueError):
    """Bad tile, hand or action notation. ``column`` is 1-based where known."""

    def __init__(self, message: str, text: str | None = None, column: int | None = None, *,
                 code: str | None = None, params: Params | None = None) -> None:
        self.text = text
        self.column = column
        if column is not None:
            message = f"{message} at column {column}"
        super().__init__(message)
        if code is not None:
            self.reason_code = f"notation.{code}"
            self.params = {**(params or {}), **({} if column is None else {"column": column})}


class InvalidHandError(SgMahjongError, ValueError):
    """A hand that parses but cannot exist (too many copies, wrong size, bad meld)."""


def invalid_hand(reason_code: str, message: str, **params: str | int) -> InvalidHandError:
    """An :class:`InvalidHandError` with its ``reason_code`` and ``params``."""
    exc = InvalidHandError(message)
    exc.reason_code = reason_code
    exc.params = params or None
    return exc


class RuleSetError(SgMahjongError, ValueError):
    """An unknown rule key or a value a rule does not accept."""
