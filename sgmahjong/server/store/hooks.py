"""The hooks of :class:`~.sql.SqlStore` that its mixins (accounts, ratings, queue) use, declared once."""

from __future__ import annotations

import abc
import contextlib
from typing import Any


class SqlHooks(abc.ABC):
    @abc.abstractmethod
    def _tx(self) -> contextlib.AbstractContextManager[None]: ...

    @abc.abstractmethod
    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...

    @abc.abstractmethod
    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...

    @abc.abstractmethod
    def _guard(self, table_id: int) -> None: ...
