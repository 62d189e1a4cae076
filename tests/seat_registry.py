"""Seat token -> the session cookie of the player who took the seat, for the test clients.

Its own module so that there is one registry however conftest.py is imported (pytest loads it as
``conftest``; test modules import it as ``tests.conftest``: two module objects)."""

from __future__ import annotations

SEAT_COOKIES: dict[str, str] = {}
