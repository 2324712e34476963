"""A parameter nothing describes is a lint finding naming it (issue 25, item 4), and the lint
table shows identical findings once, naming every tool they are about; ``--format json`` keeps
each one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playground.batch.lint import lint_registry
from playground.batch.lint_base import Finding
from playground.cli.cmd_lint import folded
from playground.sources.loading import load_registry
from tests.in_process_cli import run_in_process

TOOLS = '''
def find_order(order_id: str, region: str = "kr") -> dict:
    """Find an order by its id.

    Args:
        order_id: the order id, e.g. "HR20260604".
    """
    return {"order_id": order_id, "region": region}


def ship_order(order_id: str, carrier: str) -> dict:
    """Ship an order."""
    return {}


__tools__ = [find_order, ship_order]
'''


@pytest.fixture(scope="module")
def tools_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("undoc") / "undoc.py"
    path.write_text(TOOLS, encoding="utf-8")
    return path


def _undocumented(tools_file: Path) -> list[Finding]:
    registry = load_registry([tools_file])
    return [f for f in lint_registry(registry) if f.rule == "param-undocumented"]


def test_each_undocumented_parameter_is_a_finding_naming_it(tools_file: Path) -> None:
    found = _undocumented(tools_file)
    assert [(f.location, f.severity) for f in found] == [
        ("find_order.region", "warning"),
        ("ship_order.carrier", "warning"),
        ("ship_order.order_id", "warning"),
    ]
    region, carrier, _ = found
    assert carrier.message == (
        "carrier has no description: the docstring's Args section does not document it; the "
        "model sees only its name and type, and guesses what to send."
    )
    assert carrier.suggestion == (
        "add it under Args: in the docstring: `carrier: what it is, its format, an example`"
    )
    # an optional one is told to say when to omit it, in the same finding (not two)
    assert region.suggestion.endswith(
        '(it is optional: say when to leave it out too, e.g. "Omit it unless the user gives one.")'
    )


def test_a_documented_parameter_is_not_reported(tools_file: Path) -> None:
    assert "find_order.order_id" not in {f.location for f in _undocumented(tools_file)}


def _finding(tool: str, message: str = "same words") -> Finding:
    return Finding("openai-strict", "info", tool, tool, f"{tool}.py:1", message, "fix it")


def test_identical_findings_fold_into_one_in_first_seen_order() -> None:
    a, b, c, d = _finding("a"), _finding("b", "other words"), _finding("c"), _finding("d")
    assert [(f.tool, [g.tool for g in same]) for f, same in folded([a, b, c, d])] == [
        ("a", ["a", "c", "d"]),
        ("b", ["b"]),
    ]


def test_the_lint_table_shows_a_repeated_finding_once_and_json_keeps_each() -> None:
    table = run_in_process("lint", "--tools", "tools", env={"COLUMNS": "160"})
    assert table.returncode == 0
    rows = [line for line in table.stdout.splitlines() if " anthropic-strict " in line]
    # 11 tools share the words; stock_lookup's finding says more, so it keeps its own row
    assert len(rows) == 2
    assert "11 tools, the same finding" in rows[0] and " stock_lookup " in rows[1]
    assert table.stdout.count("Anthropic would refuse this schema") == 2
    assert table.stdout.rstrip().endswith("13 tool(s): 0 error(s), 14 warning(s), 23 info")
    done = run_in_process("lint", "--tools", "tools", "--format", "json")
    findings = json.loads(done.stdout)["findings"]
    assert sum(f["rule"] == "anthropic-strict" for f in findings) == 12
