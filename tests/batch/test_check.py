"""The headless check runner (playground.batch.check): parsing, matching, one gate per file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from playground.batch.check import (
    Case,
    check_file,
    compare,
    parse_case,
    read_cases,
    run_cases,
    same,
    subset_mismatches,
)
from playground.core.gate import Gate
from playground.core.record import CallRecord
from playground.errors import UsageError
from playground.sources.loading import load_registry

REPO = Path(__file__).resolve().parents[2]

TOOL_MODULE = '''
def count_words(text: str, limit: int) -> dict:
    """Count the words of a text, at most limit of them.

    Args:
        text: any text. e.g. "안녕 하세요"
        limit: the most words to count, 1..10. e.g. 3
    """
    words = text.split()[:limit]
    return {"count": len(words), "words": words}

__tools__ = [count_words]
__contracts__ = {"count_words": {"returns": {"type": "object", "required": ["count", "words"]}}}
'''


@pytest.fixture
def gate(tmp_path) -> Gate:
    module = tmp_path / "words.py"
    module.write_text(TOOL_MODULE, encoding="utf-8")
    registry = load_registry([module])
    assert registry.problems == []
    return Gate(registry, wire=False)


def case_line(tool="count_words", args=None, expect=None, **extra) -> str:
    data = {"tool": tool, "args": {"text": "가 나 다", "limit": 2} if args is None else args}
    if expect is not None:
        data["expect"] = expect
    data.update(extra)
    return json.dumps(data, ensure_ascii=False)


# --- parsing --------------------------------------------------------------------------------------


def cases_in_file(tmp_path: Path, lines: list[str]) -> list[Case]:
    """``lines`` written as a case file and read back as ``check`` reads it."""
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return read_cases(path)


def test_blank_and_comment_lines_are_skipped_and_numbers_are_file_lines(tmp_path):
    lines = ["", "# note", case_line(), "   ", case_line(expect={"ok": True})]
    cases = cases_in_file(tmp_path, lines)
    assert [c.line for c in cases] == [3, 5]
    assert cases[1] == Case(5, "count_words", {"text": "가 나 다", "limit": 2}, {"ok": True})


def test_args_default_to_an_empty_object_and_id_note_are_allowed():
    case = parse_case('{"tool": "t", "id": "c1", "note": "why"}', 1)
    assert case == Case(1, "t", {}, {}, "")


@pytest.mark.parametrize(
    "text, problem",
    [
        (
            "{oops",
            "line 7: not valid JSON (Expecting property name enclosed in double quotes at column 2)",
        ),
        ('"a string"', "line 7: a case must be a JSON object, got a JSON string"),
        ('{"args": {}}', 'line 7: missing "tool" (the tool name to call)'),
        ('{"tool": ""}', "line 7: \"tool\" must be a non-empty string, got ''"),
        ('{"tool": 3}', 'line 7: "tool" must be a non-empty string, got 3'),
        ('{"tool": "t", "expect": ["ok"]}', 'line 7: "expect" must be an object, got ["ok"]'),
        (
            '{"tool": "t", "expect": {"kinds": "ok"}}',
            "line 7: unknown expect key(s) kinds (known: kind, verdict, body_ran, body_runs, cache, ok, error, value)",
        ),
        (
            '{"tool": "t", "expected": {}}',
            "line 7: unknown key(s) expected (a case has tool, args, expect, id, note, declaration_hash)",
        ),
    ],
)
def test_malformed_lines_become_cases_with_a_problem(text, problem):
    case = parse_case(text, 7)
    assert case is not None and case.problem == problem


def test_read_cases_errors(tmp_path):
    with pytest.raises(UsageError, match="no such case file"):
        read_cases(tmp_path / "missing.jsonl")
    with pytest.raises(UsageError, match="is a folder"):
        read_cases(tmp_path)
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"tool": "caf\xe9"}\n')
    with pytest.raises(UsageError, match="not UTF-8"):
        read_cases(latin)
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes("\ufeff".encode() + case_line().encode() + b"\n")
    assert read_cases(bom)[0].tool == "count_words"


# --- matching ------------------------------------------------------------------------------------


def test_same_keeps_booleans_apart_from_numbers():
    assert same(1, 1.0) and same({"a": [1, "x"]}, {"a": [1.0, "x"]})
    assert not same(True, 1) and not same(0, False) and not same(1, True)
    assert not same({"a": 1}, {"a": 1, "b": 2}) and not same([1], [1, 1]) and not same("1", 1)


def test_subset_match_of_values():
    actual = {"count": 2, "words": ["가", "나"], "extra": {"k": 1}}
    assert subset_mismatches({"count": 2}, actual) == []
    assert subset_mismatches({"words": ["가", "나"], "extra": {}}, actual) == []
    assert subset_mismatches({"count": 3, "missing": 1}, actual) == [
        "value.count: expected 3, got 2",
        "value.missing: missing (expected 1)",
    ]
    assert subset_mismatches({"words": ["가"]}, actual) == ["value.words: expected 1 items, got 2"]
    assert subset_mismatches({"words": [{"a": 1}, "나"]}, actual) == [
        "value.words[0]: expected an object, got '가'"
    ]
    assert subset_mismatches({"count": True}, {"count": 1}) == ["value.count: expected true, got 1"]
    assert subset_mismatches([1], None) == ["value: expected an array, got null"]


def test_compare_reports_each_expected_field_in_a_fixed_order():
    record = CallRecord(
        tool="t",
        args={},
        verdict="type:limit",
        body_ran=False,
        body_runs=0,
        cache="skip",
        ok=False,
        kind="invalid_args",
        error="args:type:limit",
    )
    assert compare({}, record) == []
    assert (
        compare({"verdict": "type:limit", "ok": False, "body_ran": False, "body_runs": 0}, record)
        == []
    )
    assert compare({"ok": 0, "kind": "ok", "cache": "hit", "value": {"a": 1}}, record) == [
        "kind: expected 'ok', got 'invalid_args'",
        "cache: expected 'hit', got 'skip'",
        "ok: expected 0, got false",
        "value: expected an object, got null",
    ]


# --- running -------------------------------------------------------------------------------------


def test_one_gate_for_the_file_so_the_cache_carries_across_lines(gate, tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text(
        "\n".join(
            [
                case_line(
                    args={"text": "가 나 다", "limit": 2},
                    expect={
                        "kind": "ok",
                        "cache": "stored",
                        "body_runs": 1,
                        "value": {"count": 2, "words": ["가", "나"]},
                    },
                ),
                case_line(
                    args={"limit": 2, "text": "가 나 다"},
                    expect={"cache": "hit", "body_ran": False, "body_runs": 1},
                ),
                case_line(
                    args={"limit": 2.0, "text": "가 나 다"}, expect={"cache": "hit", "body_runs": 1}
                ),
                case_line(
                    args={"text": "가", "limit": True},
                    expect={"verdict": "type:limit", "body_ran": False},
                ),
                case_line(args='{"text": "가", "limit": 1}', expect={"verdict": "shape"}),
                case_line(tool="count_word", expect={"kind": "unknown_tool"}),
                "not json",
                case_line(
                    args={"text": "라 마", "limit": 5},
                    expect={"body_runs": 2, "value": {"count": 2}},
                ),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    seen = []
    report = check_file(gate, path, on_result=lambda r: seen.append(r.case.line))
    assert seen == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r.passed for r in report.results] == [True, True, True, True, True, True, False, True]
    assert (report.passed, report.failed, report.ok) == (7, 1, False)
    assert report.results[6].record is None
    assert report.results[6].mismatches[0].startswith("line 7: not valid JSON")
    assert gate.body_runs["count_words"] == 2


def test_report_json_shape(gate, tmp_path):
    cases = cases_in_file(tmp_path, [case_line(expect={"kind": "ok"}), "[]"])
    report = run_cases(gate, cases, source="x.jsonl")
    data = report.to_json()
    assert set(data) == {"file", "cases", "passed", "failed"}
    assert (data["file"], data["passed"], data["failed"]) == ("x.jsonl", 1, 1)
    ok, bad = data["cases"]
    assert (
        ok["line"] == 1
        and ok["passed"] is True
        and ok["mismatches"] == []
        and ok["tool"] == "count_words"
    )
    assert ok["value"] == {"count": 2, "words": ["가", "나"]} and ok["cache"] == "stored"
    assert bad == {
        "tool": None,
        "line": 2,
        "passed": False,
        "mismatches": ["line 2: a case must be a JSON object, got a JSON array"],
    }
    json.dumps(data, ensure_ascii=False)  # all JSON


def test_an_empty_case_file_passes(gate, tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("# nothing yet\n\n", encoding="utf-8")
    report = check_file(gate, path)
    assert report.results == [] and report.ok


def test_the_runner_imports_no_ui_libraries():
    code = (
        "import sys\n"
        "import playground.batch.check\n"
        "print(','.join(m for m in ('typer', 'rich', 'textual') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_a_valid_verdict_is_spelled_valid_and_old_empty_spelling_still_matches():
    record = CallRecord(tool="t", args={}, kind="ok", ok=True)
    assert record.verdict == "valid" and record.to_json()["verdict"] == "valid"
    assert compare({"verdict": "valid"}, record) == []
    assert compare({"verdict": ""}, record) == []  # case files written before issue 13
    refused = CallRecord(tool="t", args={}, verdict="missing:sku", kind="invalid_args")
    assert compare({"verdict": ""}, refused) == ["verdict: expected 'valid', got 'missing:sku'"]
