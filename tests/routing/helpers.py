"""Helpers the routing tests import: one offline move on a question, and what it filled."""

from __future__ import annotations

from typing import Any

from playground.routing.base import Move, Turn
from playground.routing.offline import OfflineRouter


def move(question: str, *decls: dict[str, Any]) -> Move:
    """The offline router's first move on ``question`` over the declarations ``decls``."""
    return OfflineRouter().next_move([Turn(role="user", text=question)], list(decls))


def row(mv: Move, name: str) -> dict[str, Any]:
    """The explanation row of tool ``name`` in the move ``mv``."""
    return next(t for t in mv.explanation["tools"] if t["name"] == name)


def call(question: str, decl: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The arguments of the one call ``question`` makes to ``decl`` (asserted), with their
    evidence (``{arg: {rule, span, text, detail}}``)."""
    mv = move(question, decl)
    assert [c.name for c in mv.calls] == [decl["name"]]
    return mv.calls[0].args, row(mv, decl["name"])["arg_evidence"]


def args_of(question: str, decl: dict[str, Any]) -> dict[str, Any]:
    """The arguments of the one call ``question`` makes to ``decl`` (asserted)."""
    return call(question, decl)[0]
