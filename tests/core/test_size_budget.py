"""Huge results are named (issue 11 item 13): a result over the token budget (default 25,000
approximate tokens of result JSON, Claude Code's MCP output cap) is still ``ok`` but carries a
warning on its record and in lint/probe; ``max_rows`` / ``max_bytes`` remain the hard limits."""

from __future__ import annotations

import pytest

from playground.batch.lint import lint_registry
from playground.batch.probe import probe_contract
from playground.core.budget import DEFAULT_TOKEN_BUDGET, token_budget_from_env
from playground.errors import UsageError

TOOLS = '''
def dump_rows(n: int) -> dict:
    """Return n rows.

    Args:
        n: how many rows, e.g. 3
    """
    return {"rows": [{"id": i, "name": f"item {i}"} for i in range(n)]}


def capped_rows(n: int) -> dict:
    """Return n rows, at most 10.

    Args:
        n: how many rows, e.g. 3
    """
    return {"rows": [{"id": i} for i in range(n)]}


__tools__ = [dump_rows, capped_rows]
__contracts__ = {
    "dump_rows": {"returns": {"type": "object", "properties": {"rows": {"type": "array"}}}},
    "capped_rows": {"returns": {"type": "object", "max_rows": 10}},
}
'''


def test_fifty_thousand_rows_are_ok_with_a_warning(make_gate):
    gate = make_gate(TOOLS, name="big", wire=True)
    record = gate.call("dump_rows", {"n": 50_000})
    assert record.kind == "ok"
    (warning,) = record.warnings
    assert warning.startswith("result:over_budget: dump_rows returned about")
    assert "25,000" in warning
    assert record.to_json()["warnings"] == [warning]
    small = gate.call("dump_rows", {"n": 3})
    assert small.kind == "ok" and small.warnings == []


def test_one_count_whether_or_not_the_wire_views_are_built(make_gate):
    """call (wire views built) and probe (none built) quote the same count: the tokens of the
    result JSON a model reads, not the largest provider view's escaped copy."""
    import json
    import math

    value = {"rows": [{"id": i, "name": f"item {i}"} for i in range(200)]}
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    expected = math.ceil(len(text) / 4)  # all ASCII: one token per 4 characters
    warnings = [
        make_gate(TOOLS, name=f"big_w{wire}", wire=wire, token_budget=10)
        .call("dump_rows", {"n": 200})
        .warnings
        for wire in (True, False)
    ]
    assert warnings[0] == warnings[1]
    assert f"returned about {expected:,} tokens of result JSON" in warnings[0][0]


def test_the_budget_is_configurable(make_gate, monkeypatch):
    gate = make_gate(TOOLS, name="big2", token_budget=50)
    assert gate.call("dump_rows", {"n": 30}).warnings
    assert not gate.call("dump_rows", {"n": 1}).warnings
    monkeypatch.setenv("PLAYGROUND_TOKEN_BUDGET", "1_000")
    assert token_budget_from_env() == 1000
    monkeypatch.setenv(
        "PLAYGROUND_TOKEN_BUDGET", "lots"
    )  # a bad value is an error, not the default
    with pytest.raises(UsageError) as refused:
        token_budget_from_env()
    assert str(refused.value) == (
        "PLAYGROUND_TOKEN_BUDGET='lots': expected a whole number above 0 (approximate tokens "
        "of result JSON before a result gets a warning; default 25000)"
    )
    monkeypatch.delenv("PLAYGROUND_TOKEN_BUDGET")
    assert token_budget_from_env() == DEFAULT_TOKEN_BUDGET


def test_max_rows_stays_the_hard_limit(make_gate):
    gate = make_gate(TOOLS, name="big3", token_budget=1)
    record = gate.call("capped_rows", {"n": 11})
    assert (record.kind, record.error) == ("bad_result", "result:too_big")
    assert record.warnings == []  # a failure is not also a size warning


def test_probe_and_lint_name_it(make_gate):
    gate = make_gate(TOOLS, name="big4", token_budget=5)
    report = probe_contract(gate, "dump_rows")
    data = report.to_json()
    assert data["warnings"] and data["warnings"][0].startswith("result:over_budget")
    found = {(f.rule, f.tool) for f in lint_registry(gate.registry)}
    assert ("returns-unbounded", "dump_rows") in found
    assert ("returns-unbounded", "capped_rows") not in found
