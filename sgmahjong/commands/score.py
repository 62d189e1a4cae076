"""``sgmahjong score HAND``: the tai and payments of a winning hand (:mod:`sgmahjong.calculator`, which
the server's ``/api/score`` runs too)."""

from __future__ import annotations

from ..calculator import add_arguments, run, score_json

__all__ = ["add_arguments", "run", "score_json"]
