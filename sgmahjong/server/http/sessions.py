"""Signed-in accounts (a visitor's session with an account: :mod:`.identity`), account names and
device link codes.

A device link code is 10 characters of Crockford base32 (50 bits), shown as ``XXXXX-XXXXX``,
stored only as its SHA-256, valid ``link_code_seconds`` and spent at its first use.
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection

from ..store.accounts import AccountRow
from ..store.identity_sql import SessionRow
from ..table.seats import hash_token
from . import identity

digest = hash_token  # how session ids and link codes are stored: their SHA-256

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
CODE_LENGTH = 10  # characters: 50 bits
CODE_BITS = 5 * CODE_LENGTH


def name_key(name: str) -> str:
    """How account names are compared (unique among accounts): NFKC, case-folded, spaces squeezed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def new_code() -> str:
    """A fresh device link code, ``XXXXX-XXXXX``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:5]}-{raw[5:]}"


def normalize_code(text: str) -> str | None:
    """A typed code as issued (case, spaces and dashes ignored; O read as 0, I and L as 1), or None."""
    raw = "".join(text.split()).replace("-", "").upper()
    raw = raw.translate(str.maketrans("OIL", "011"))
    if len(raw) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in raw):
        return None
    return f"{raw[:5]}-{raw[5:]}"


@dataclass
class Signed:
    """The signed-in account of a request, and its session."""

    account: AccountRow
    session: SessionRow


def current(server: Any, conn: HTTPConnection) -> Signed | None:
    """The request's signed-in account (from its session: :func:`.identity.visitor`), or None."""
    found = identity.visitor(server, conn)
    if found is None or found.account is None:
        return None
    return Signed(found.account, found.session)


def device_ref(session: SessionRow) -> str:
    """A session's name in the list of devices (a prefix of its hash: it signs nobody in)."""
    return session.id_hash[:16]
