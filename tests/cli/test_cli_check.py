"""``playground check CASES.jsonl`` through typer's CliRunner, against the real example tools."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from playground.cli.main import app

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "tools"
INVENTORY = TOOLS / "inventory.py"
SHOP = TOOLS / "shop.py"
FIXTURES = REPO / "fixtures"

runner = CliRunner()


def write_cases(tmp_path: Path, *lines: str | dict) -> Path:
    path = tmp_path / "cases.jsonl"
    text = "\n".join(
        line if isinstance(line, str) else json.dumps(line, ensure_ascii=False) for line in lines
    )
    path.write_text(text + "\n", encoding="utf-8")
    return path


def check(path: Path, *extra: str, tools: Path = INVENTORY, fmt: str = "jsonl"):
    return runner.invoke(app, ["check", str(path), "--tools", str(tools), "--format", fmt, *extra])


def jsonl(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_same_args_in_another_key_order_hit_the_cache(tmp_path):
    path = write_cases(
        tmp_path,
        {
            "tool": "stock_lookup",
            "args": {"sku": "KB-101", "region": "seoul", "limit": 3},
            "expect": {"kind": "ok", "cache": "stored", "body_ran": True},
        },
        {
            "tool": "stock_lookup",
            "args": {"limit": 3, "region": "seoul", "sku": "KB-101"},
            "expect": {"kind": "ok", "cache": "hit", "body_ran": False},
        },
    )
    result = check(path)
    assert result.exit_code == 0, result.stderr
    first, second = jsonl(result)
    assert (first["line"], second["line"]) == (1, 2)
    assert (
        first["passed"] and second["passed"] and first["mismatches"] == second["mismatches"] == []
    )
    assert first["cache"] == "stored" and second["cache"] == "hit"
    assert first["body_runs"] == second["body_runs"] == 1
    assert second["body_ran"] is False
    assert second["value"] == first["value"] and len(second["value"]["rows"]) == 3
    assert first["cache_key"] == second["cache_key"]


def test_a_failed_expectation_exits_1_and_says_what_differs(tmp_path):
    path = write_cases(
        tmp_path,
        {
            "tool": "legacy_stock",
            "args": {"sku": "KB-101", "region": "seoul"},
            "expect": {"kind": "bad_result", "error": "result:too_big", "body_ran": True},
        },
        {
            "tool": "stock_lookup",
            "args": {"sku": "KB-101", "region": "seoul", "limit": 2},
            "expect": {
                "kind": "ok",
                "cache": "hit",
                "value": {"rows": [{"store": "강남점"}, {"count": 99}]},
            },
        },
    )
    result = check(path)
    assert result.exit_code == 1
    legacy, lookup = jsonl(result)
    assert (
        legacy["passed"] is True
        and legacy["kind"] == "bad_result"
        and legacy["error"] == "result:too_big"
    )
    assert lookup["passed"] is False
    assert lookup["mismatches"] == [
        "cache: expected 'hit', got 'stored'",
        "value.rows[1].count: expected 99, got 4",
    ]


def test_malformed_lines_fail_with_their_line_number_and_the_rest_still_runs(tmp_path):
    path = write_cases(
        tmp_path,
        "# a comment",
        "",
        '{"tool": "stock_lookup", "args": ',
        "[1, 2]",
        '{"args": {}}',
        '{"tool": "stock_lookup", "expect": "ok"}',
        '{"tool": "stock_lookup", "args": {"sku": "KB-101", "region": "seoul"}, "expect": {"verdct": ""}}',
        {
            "tool": "stock_lookup",
            "args": {"sku": "KB-101", "region": "seoul"},
            "expect": {"verdict": "missing:limit", "body_ran": False},
        },
    )
    result = check(path, fmt="json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert (report["passed"], report["failed"]) == (1, 5)
    cases = report["cases"]
    assert [c["line"] for c in cases] == [3, 4, 5, 6, 7, 8]
    assert cases[0]["mismatches"][0].startswith("line 3: not valid JSON")
    assert cases[1]["mismatches"] == ["line 4: a case must be a JSON object, got a JSON array"]
    assert cases[2]["mismatches"] == ['line 5: missing "tool" (the tool name to call)']
    assert cases[3]["mismatches"] == ['line 6: "expect" must be an object, got "ok"']
    assert cases[4]["mismatches"][0].startswith("line 7: unknown expect key(s) verdct")
    assert cases[5]["passed"] is True and cases[5]["verdict"] == "missing:limit"


def test_a_missing_case_file_exits_2(tmp_path):
    result = check(tmp_path / "nope.jsonl")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"error: {tmp_path / 'nope.jsonl'}: no such case file\n"


def test_load_problems_make_the_exit_code_2_even_when_cases_pass(tmp_path):
    path = write_cases(
        tmp_path,
        {
            "tool": "stock_lookup",
            "args": {"sku": "KB-101", "region": "busan", "limit": 1},
            "expect": {"ok": True},
        },
    )
    missing = tmp_path / "gone"
    result = runner.invoke(
        app,
        [
            "check",
            str(path),
            "--tools",
            str(INVENTORY),
            "--tools",
            str(missing),
            "--format",
            "jsonl",
        ],
    )
    assert result.exit_code == 2
    assert jsonl(result)[0]["passed"] is True
    assert result.stderr == f"error: {missing}: no such file or folder\n"


def test_table_has_a_row_per_case_and_a_summary(tmp_path):
    path = write_cases(
        tmp_path,
        {"tool": "get_order_status", "args": {"order_id": "HR20260604"}, "expect": {"kind": "ok"}},
        {
            "tool": "get_order_status",
            "args": {"order_id": 20260604},
            "expect": {"verdict": "type:order_id"},
        },
        {"tool": "get_order_status", "args": {}, "expect": {"verdict": "shape"}},
    )
    result = check(path, tools=SHOP, fmt="table")
    assert result.exit_code == 1
    out = result.stdout
    assert "2 passed, 1 failed, 3 cases" in out
    assert "FAIL" in out and "pass" in out
    assert "verdict: expected 'shape', got 'missing:order_id'" in " ".join(out.split())


def test_shipped_case_files_pass_with_the_shipped_tools():
    for name in ("inventory_checks.jsonl", "shop_checks.jsonl"):
        result = runner.invoke(
            app, ["check", str(FIXTURES / name), "--tools", str(TOOLS), "--format", "json"]
        )
        report = json.loads(result.stdout)
        failures = [(c["line"], c["mismatches"]) for c in report["cases"] if not c["passed"]]
        assert failures == [] and result.exit_code == 0, (name, failures, result.stderr)
        assert report["passed"] == len(report["cases"]) > 10
