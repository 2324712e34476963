"""One line of a case file that is not UTF-8, or larger than the JSON size limit, is a malformed
line like the others (bad JSON, an array, a missing key): listed with its line (and byte),
skipped, and the rest judged — in ``eval``, ``check`` and the TUI's reader (the tester's
``bad.jsonl``: ``tests/fixtures/bad_lines.jsonl``). The limit is lowered to keep tests fast."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playground.batch import caselines
from playground.batch.caselines import case_file_lines
from playground.batch.evalstream import load_cases
from playground.core import canonical
from tests.in_process_cli import run_in_process

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LIBRARY = FIXTURES / "library.py"
BAD_LINES = FIXTURES / "bad_lines.jsonl"

PROBLEMS = [
    (2, "not valid JSON (Expecting property name enclosed in double quotes at column 2)"),
    (3, "a case must be a JSON object, got a JSON array"),
    (4, "'question' must be a non-empty string, got a JSON integer"),
    (5, "'expect_tool' is missing; write null for a question that needs no tool"),
    (6, "'question' must be a non-empty string, got nothing"),
    (7, "not UTF-8 text (invalid start byte at byte 177 of the file)"),
]


def test_eval_lists_the_line_that_is_not_utf8_and_judges_the_rest() -> None:
    result = run_in_process(
        "eval", BAD_LINES, "--tools", LIBRARY, "--format", "json", env={"PLAYGROUND_HISTORY": "off"}
    )
    report = json.loads(result.stdout)
    assert [(p["line"], p["message"]) for p in report["problems"]] == PROBLEMS
    assert [(r["line"], r["category"]) for r in report["results"]] == [(1, "selected")]
    assert result.returncode == 1  # malformed lines fail the run, as before
    assert result.stderr.splitlines()[-1] == (
        f"error: {BAD_LINES}: line 7: not UTF-8 text (invalid start byte at byte 177 of the file)"
    )


def test_eval_table_lists_it_under_the_malformed_lines() -> None:
    result = run_in_process("eval", BAD_LINES, "--tools", LIBRARY, env={"NO_COLOR": "1"})
    assert "not UTF-8 text (invalid start byte at byte 177 of the file)" in result.stdout
    assert "1 passed, 0 failed" in result.stdout


def test_the_tui_reader_lists_it_too() -> None:
    read = load_cases(BAD_LINES)
    assert [(p.line, p.message) for p in read.problems] == PROBLEMS
    assert [(c.line, c.question) for c in read.cases] == [(1, "채식주의자 책")]


def test_check_lists_it_as_a_failed_case_and_runs_the_others(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes(
        b'{"tool": "search_catalog", "args": {"query": "java"}, "expect": {"kind": "ok"}}\n'
        b'{"tool": "search_catalog", "args": {"query": "caf\xe9"}}\n'
        b"# a comment in Latin-1: caf\xe9\n"
        b'{"tool": "member_loans", "args": {"member_id": "M-1"}, "expect": {"kind": "ok"}}\n'
    )
    result = run_in_process("check", cases, "--tools", LIBRARY, "--format", "json")
    report = json.loads(result.stdout)
    assert [(c["line"], c["passed"], c["mismatches"]) for c in report["cases"]] == [
        (1, True, []),
        (2, False, ["line 2: not UTF-8 text (invalid continuation byte at byte 129 of the file)"]),
        (4, True, []),
    ]
    assert result.returncode == 1


def spy_on_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every ``readline`` of a file opened with ``Path.open`` from now on."""
    read: list[int] = []
    real_open = Path.open

    def spied(self: Path, *args: object, **kwargs: object):
        handle = real_open(self, *args, **kwargs)
        readline = handle.readline

        def measured(size: int = -1) -> bytes:
            line = readline(size)
            read.append(len(line))
            return line

        handle.readline = measured
        return handle

    monkeypatch.setattr(Path, "open", spied)
    return read


def test_a_line_over_the_size_limit_is_skipped_unread_and_the_rest_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(canonical, "MAX_JSON_BYTES", 100_000)
    monkeypatch.setattr(caselines, "_SKIP_CHUNK", 4096)
    huge = json.dumps({"question": "책" * 50_000, "expect_tool": "x"}, ensure_ascii=False)
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        f"{huge}\n# {'주석' * 40_000}\n"
        + json.dumps(
            {"question": "채식주의자 책", "expect_tool": "search_catalog"}, ensure_ascii=False
        )
        + "\n",
        encoding="utf-8",
    )
    read = spy_on_reads(monkeypatch)
    assert list(case_file_lines(cases)) == [
        (1, "", "larger than 0.0953674 MB (the most the playground reads as one JSON document)"),
        (3, '{"question": "채식주의자 책", "expect_tool": "search_catalog"}', ""),
    ]
    assert max(read) == 100_002  # never the whole 150 KB line at once
    monkeypatch.undo()
    monkeypatch.setattr(canonical, "MAX_JSON_BYTES", 100_000)
    result = run_in_process("eval", cases, "--tools", LIBRARY, "--format", "json")
    report = json.loads(result.stdout)
    assert report["problems"] == [
        {
            "line": 1,
            "message": "larger than 0.0953674 MB (the most the playground reads as one JSON "
            "document)",
        }
    ]
    assert [(r["line"], r["category"]) for r in report["results"]] == [(3, "selected")]


def test_the_progress_count_reads_the_file_as_the_run_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal ``eval`` counts the cases first for its progress bar: with the same
    bounded reader (a huge line is skipped, not held whole), so the count is the run's."""
    import sys

    from playground.cli import cmd_eval

    monkeypatch.setattr(canonical, "MAX_JSON_BYTES", 1000)
    monkeypatch.setattr(caselines, "_SKIP_CHUNK", 512)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes(b'{"question": "' + b"a" * 5000 + b'"}\n# note\n\n{"q": 1}\n\xff\n')
    read = spy_on_reads(monkeypatch)
    assert cmd_eval._count_cases(cases) == 3
    assert read and max(read) <= 1002  # a line at a time, never more than the limit
