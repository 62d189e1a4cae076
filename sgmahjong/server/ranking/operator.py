"""The operator's view of the ladder (docs/security.md, "The operator's view"): which accounts were
seen together at rated tables, from one device or one address; voiding a match; every rating computed
again from the record. Served by ``sgmahjong ladder`` and the admin routes (``http/admin.py``)."""

from __future__ import annotations

import time
from itertools import combinations
from typing import Any

ALTS_LIMIT = 500  # rated matches looked at, at most, by one view


def seen_together(store: Any, limit: int = 100) -> list[dict[str, Any]]:
    """The last ``limit`` rated matches with two or more accounts seen on one device or from one
    address: each with its table, when, the accounts and what they share (newest first)."""
    records = store.rated_records(min(max(1, limit), ALTS_LIMIT))
    ids = sorted({a for _code, _when, record, _voided in records for a in record.accounts})
    values: dict[tuple[str, str], set[int]] = {}
    for s in store.sightings(ids):
        values.setdefault((s.kind, s.value), set()).add(s.account_id)
    names = {}
    for a in ids:
        row = store.account(a)
        names[a] = row.name if row is not None else "a deleted player"
    out = []
    for code, when, record, voided in records:
        seated = set(record.accounts)
        shared = [{"kind": kind, "value": value, "accounts": sorted(names[a] for a in found & seated)}
                  for (kind, value), found in sorted(values.items()) if len(found & seated) >= 2]
        if shared:
            out.append({"table": code, "rated": when, "voided": voided,
                        "accounts": [names[a] for a in record.accounts], "shared": shared})
    return out


def pairs(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """How often each pair of accounts shared a device or an address at a rated table."""
    counts: dict[tuple[str, str], int] = {}
    for row in rows:
        together: set[tuple[str, str]] = {(min(p), max(p)) for s in row["shared"]
                                          for p in combinations(s["accounts"], 2)}
        for pair in together:
            counts[pair] = counts.get(pair, 0) + 1
    return [{"accounts": list(k), "matches": v} for k, v in sorted(counts.items(), key=lambda kv: -kv[1])]


def void(store: Any, code: str, leave_points: int) -> dict[str, Any]:
    """Void the rated match of table ``code`` and compute every rating again without it."""
    if not store.void_match(code, time.time()):
        return {"voided": False, "error": "no rated match at that table (or voided already)"}
    return {"voided": True, "recomputed": store.recompute_ratings(leave_points)}


def recompute(store: Any, leave_points: int) -> dict[str, Any]:
    return {"recomputed": store.recompute_ratings(leave_points)}
