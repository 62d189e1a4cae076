"""The store's accounts: their rows, the methods every :class:`~.base.Store` has for them
(:class:`AccountMethods`) and their SQL, written once for both backends (:class:`SqlAccounts`).

An account owns the browser identities (``players``) that signed in to it, so its history is theirs;
it has passkeys, signed-in sessions (devices), one-time device link codes and passkey ceremonies in
progress (flows). Session ids and link codes arrive here already hashed; nothing secret is stored.
"""

from __future__ import annotations

import abc
import time
from dataclasses import dataclass
from typing import Any

from .hooks import SqlHooks


@dataclass
class AccountRow:
    id: int
    name: str
    handle: str  # the passkeys' WebAuthn user handle (random, base64url)
    created: float


@dataclass
class PasskeyRow:
    id: int
    account_id: int
    credential_id: str  # base64url
    public_key: str  # base64url (COSE)
    sign_count: int
    created: float
    last_used: float | None
    label: str


@dataclass
class FlowRow:
    """A passkey ceremony in progress: ``kind`` register (a new account ``name`` with ``handle``, or a
    passkey added to ``account_id``) or signin; its challenge (base64url)."""

    kind: str
    challenge: str
    account_id: int | None
    name: str | None
    handle: str | None
    expires: float


class AccountMethods(abc.ABC):
    """The accounts part of :class:`~.base.Store` (see the module docstring)."""

    @abc.abstractmethod
    def create_account(self, name: str, name_key: str, handle: str) -> int | None:
        """A new account; its id, or None when ``name_key`` (the name compared) is taken."""

    @abc.abstractmethod
    def account(self, account_id: int) -> AccountRow | None: ...

    @abc.abstractmethod
    def account_named(self, name_key: str) -> bool:
        """Whether an account has the name compared as ``name_key``."""

    @abc.abstractmethod
    def account_players(self, account_id: int) -> list[int]:
        """The browser identities (player ids) of the account."""

    @abc.abstractmethod
    def claim_player(self, player_id: int, account_id: int) -> bool:
        """Give the account a player that has none (a guest, with its history); whether it is the
        account's now."""

    @abc.abstractmethod
    def add_passkey(self, account_id: int, credential_id: str, public_key: str, sign_count: int,
                    label: str) -> None: ...

    @abc.abstractmethod
    def passkey(self, credential_id: str) -> PasskeyRow | None: ...

    @abc.abstractmethod
    def passkeys(self, account_id: int) -> list[PasskeyRow]: ...

    @abc.abstractmethod
    def use_passkey(self, passkey_id: int, sign_count: int) -> None: ...

    @abc.abstractmethod
    def delete_passkey(self, account_id: int, passkey_id: int) -> bool: ...

    @abc.abstractmethod
    def add_link_code(self, code_hash: str, account_id: int, expires: float, keep: int) -> None:
        """A link code of the account; its oldest live codes beyond ``keep`` are revoked."""

    @abc.abstractmethod
    def use_link_code(self, code_hash: str, now: float) -> int | None:
        """Spend a link code: its account if it was unused and unexpired (then never again)."""

    @abc.abstractmethod
    def add_flow(self, id_hash: str, flow: FlowRow, now: float, owner: str, per_owner: int,
                 most: int) -> None:
        """Keep a passkey ceremony begun by ``owner`` (a hashed address): the expired ones are forgotten,
        and the oldest beyond ``per_owner`` of that owner's and beyond ``most`` in all are dropped."""

    @abc.abstractmethod
    def flow_count(self) -> int:
        """Passkey ceremonies kept (live or not yet purged)."""

    @abc.abstractmethod
    def take_flow(self, id_hash: str, now: float) -> FlowRow | None:
        """The ceremony of ``id_hash``, once (it is deleted), if it has not expired."""


class SqlAccounts(SqlHooks, AccountMethods):
    """The SQL of :class:`AccountMethods` (mixed into :class:`~.sql.SqlStore`)."""

    def create_account(self, name: str, name_key: str, handle: str) -> int | None:
        with self._tx():
            rows = self._run(
                "INSERT INTO accounts (name, name_key, handle, created) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (name_key) DO NOTHING RETURNING id", (name, name_key, handle, time.time()))
        return int(rows[0][0]) if rows else None

    def account(self, account_id: int) -> AccountRow | None:
        rows = self._read("SELECT id, name, handle, created FROM accounts WHERE id = ? AND deleted IS NULL",
                          (account_id,))
        return AccountRow(int(rows[0][0]), rows[0][1], rows[0][2], float(rows[0][3])) if rows else None

    def account_named(self, name_key: str) -> bool:
        return bool(self._read("SELECT 1 FROM accounts WHERE name_key = ?", (name_key,)))

    def account_players(self, account_id: int) -> list[int]:
        rows = self._read("SELECT id FROM players WHERE account_id = ? AND deleted IS NULL ORDER BY id",
                          (account_id,))
        return [int(r[0]) for r in rows]

    def claim_player(self, player_id: int, account_id: int) -> bool:
        with self._tx():
            self._run("UPDATE players SET account_id = ? WHERE id = ? AND account_id IS NULL"
                      " AND deleted IS NULL", (account_id, player_id))
            rows = self._run("SELECT account_id FROM players WHERE id = ?", (player_id,))
        return bool(rows) and rows[0][0] is not None and int(rows[0][0]) == account_id

    def add_passkey(self, account_id: int, credential_id: str, public_key: str, sign_count: int,
                    label: str) -> None:
        with self._tx():
            self._run("INSERT INTO passkeys (account_id, credential_id, public_key, sign_count, created,"
                      " label) VALUES (?, ?, ?, ?, ?, ?)",
                      (account_id, credential_id, public_key, sign_count, time.time(), label))

    def passkey(self, credential_id: str) -> PasskeyRow | None:
        rows = self._read(f"SELECT {_PASSKEY} FROM passkeys WHERE credential_id = ?", (credential_id,))
        return _passkey(rows[0]) if rows else None

    def passkeys(self, account_id: int) -> list[PasskeyRow]:
        rows = self._read(f"SELECT {_PASSKEY} FROM passkeys WHERE account_id = ? ORDER BY id", (account_id,))
        return [_passkey(r) for r in rows]

    def use_passkey(self, passkey_id: int, sign_count: int) -> None:
        with self._tx():
            self._run("UPDATE passkeys SET sign_count = ?, last_used = ? WHERE id = ?",
                      (sign_count, time.time(), passkey_id))

    def delete_passkey(self, account_id: int, passkey_id: int) -> bool:
        with self._tx():
            rows = self._run("DELETE FROM passkeys WHERE account_id = ? AND id = ? RETURNING id",
                             (account_id, passkey_id))
        return bool(rows)

    def add_link_code(self, code_hash: str, account_id: int, expires: float, keep: int) -> None:
        now = time.time()
        with self._tx():
            self._run("DELETE FROM link_codes WHERE expires <= ? OR used IS NOT NULL", (now,))
            self._run("INSERT INTO link_codes (code_hash, account_id, created, expires) VALUES (?, ?, ?, ?)",
                      (code_hash, account_id, now, expires))
            self._run("DELETE FROM link_codes WHERE account_id = ? AND code_hash NOT IN (SELECT code_hash"
                      " FROM link_codes WHERE account_id = ? ORDER BY created DESC, code_hash LIMIT ?)",
                      (account_id, account_id, keep))

    def use_link_code(self, code_hash: str, now: float) -> int | None:
        with self._tx():  # one statement: two workers spending the same code at once, one succeeds
            rows = self._run("UPDATE link_codes SET used = ? WHERE code_hash = ? AND used IS NULL"
                             " AND expires > ? RETURNING account_id", (now, code_hash, now))
        return int(rows[0][0]) if rows else None

    def add_flow(self, id_hash: str, flow: FlowRow, now: float, owner: str, per_owner: int,
                 most: int) -> None:
        with self._tx():
            self._run("DELETE FROM auth_flows WHERE expires <= ?", (now,))
            self._run("INSERT INTO auth_flows (id_hash, kind, challenge, account_id, name, handle, expires,"
                      " owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                      (id_hash, flow.kind, flow.challenge, flow.account_id, flow.name, flow.handle,
                       flow.expires, owner))
            self._run("DELETE FROM auth_flows WHERE owner = ? AND id_hash NOT IN (SELECT id_hash FROM"
                      " auth_flows WHERE owner = ? ORDER BY expires DESC, id_hash LIMIT ?)",
                      (owner, owner, per_owner))
            over = int(self._run("SELECT COUNT(*) FROM auth_flows")[0][0]) - most
            if over > 0:
                self._run("DELETE FROM auth_flows WHERE id_hash IN (SELECT id_hash FROM auth_flows"
                          " ORDER BY expires, id_hash LIMIT ?)", (over,))

    def flow_count(self) -> int:
        return int(self._read("SELECT COUNT(*) FROM auth_flows")[0][0])

    def take_flow(self, id_hash: str, now: float) -> FlowRow | None:
        with self._tx():
            rows = self._run("DELETE FROM auth_flows WHERE id_hash = ? RETURNING kind, challenge, account_id,"
                             " name, handle, expires", (id_hash,))
        if not rows or float(rows[0][5]) <= now:
            return None
        r = rows[0]
        return FlowRow(r[0], r[1], None if r[2] is None else int(r[2]), r[3], r[4], float(r[5]))


_PASSKEY = "id, account_id, credential_id, public_key, sign_count, created, last_used, label"


def _passkey(r: tuple[Any, ...]) -> PasskeyRow:
    return PasskeyRow(int(r[0]), int(r[1]), r[2], r[3], int(r[4]), float(r[5]),
                      None if r[6] is None else float(r[6]), r[7])
