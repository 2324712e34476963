"""Routing regressions: one case file per selection rule under tests/routing/cases/.

A case file is JSON: ``rule`` (a name registered with :mod:`playground.routing.rule_switches`),
``summary``, ``tools`` (declarations, or a path under cases/ to a JSON list of them), optional
``synonyms`` (``{word: [words]}``) and ``source``, and ``cases``: each a ``question`` and an
``expect`` -- ``"abstain"`` (no call, no question back), ``{"ask": TOOL}`` (the clarify move
for that tool), ``{"call": TOOL, "args": {...}, "n": CALLS}`` (the first call; ``args`` and
``n`` checked when given) or ``{"calls": [[TOOL, ARGS], ...]}`` (every call, in order).
``reason_contains`` checks the explanation's reason; ``without_rule`` is the expectation with
the case file's rule switched off, so each file shows what its rule does (``without_also``: other
rules switched off with it, where two rules stop the same call).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from playground.routing.base import Move, Turn
from playground.routing.offline import OfflineRouter
from playground.routing.rule_switches import known_rules, switched

CASES = Path(__file__).parent / "cases"
FILES = sorted(CASES.glob("*.json"))


def _tools(spec: Any) -> list[dict[str, Any]]:
    return json.loads((CASES / spec).read_text(encoding="utf-8")) if isinstance(spec, str) else spec


def _params() -> list[Any]:
    out = []
    for path in FILES:
        body = json.loads(path.read_text(encoding="utf-8"))
        for k, case in enumerate(body["cases"]):
            out.append(pytest.param(body, case, id=f"{body['rule']}-{k}"))
    return out


def _move(body: dict[str, Any], question: str) -> Move:
    synonyms = {k: tuple(v) for k, v in (body.get("synonyms") or {}).items()}
    router = OfflineRouter(synonyms=synonyms)
    return router.next_move([Turn(role="user", text=question)], _tools(body["tools"]))


def _check(move: Move, expect: Any) -> None:
    exp = move.explanation or {}
    if expect == "abstain":
        assert move.calls == [] and not exp.get("asks_for"), exp.get("reason")
    elif "ask" in expect:
        assert move.calls == [], exp.get("reason")
        assert (exp.get("asks_for") or {}).get("tool") == expect["ask"], exp.get("reason")
    elif "calls" in expect:
        assert [[c.name, c.args] for c in move.calls] == expect["calls"], exp.get("reason")
    else:
        assert move.calls, exp.get("reason")
        assert move.calls[0].name == expect["call"], exp.get("reason")
        if "args" in expect:
            assert move.calls[0].args == expect["args"]
        if "n" in expect:
            assert len(move.calls) == expect["n"]


@pytest.mark.parametrize(("body", "case"), _params())
def test_routing_case(body: dict[str, Any], case: dict[str, Any]) -> None:
    move = _move(body, case["question"])
    _check(move, case["expect"])
    if "reason_contains" in case:
        assert case["reason_contains"] in (move.explanation or {})["reason"]
    if "without_rule" in case:
        with switched(without=[body["rule"], *case.get("without_also", [])]):
            _check(_move(body, case["question"]), case["without_rule"])


def test_every_selection_rule_has_a_case_file() -> None:
    import playground.routing.offline  # noqa: F401  (registers its rules)

    rules = {
        r.name
        for r in known_rules()
        if r.phase in ("selection", "relevance", "decision") and not r.name.startswith("test_")
    }
    files = {p.stem for p in FILES}
    assert rules - files == set()
    assert {json.loads(p.read_text(encoding="utf-8"))["rule"] for p in FILES} == files
