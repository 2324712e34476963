"""A huge question (or other case text) is shown cut to a bounded width with ``…`` in tables and
one-line summaries; JSON/JSONL output keeps it whole. (The tester's line was 6 million Hangul;
the question here is 20,000 characters, enough to tell a bounded cell from a wrapped one.)"""

from __future__ import annotations

import json
from pathlib import Path

from playground.batch.html_report import eval_page
from playground.core.cells import QUESTION_CHARS, REASON_CHARS, cell
from tests.in_process_cli import run_in_process

LIBRARY = Path(__file__).resolve().parents[1] / "fixtures" / "library.py"
QUESTION = "책" * 20_000  # fails: the router answers it with no tool call


def write(tmp_path: Path, *cases: dict) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text(
        "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8"
    )
    return path


def test_cell_cuts_with_an_ellipsis() -> None:
    assert cell("책" * 400) == "책" * (QUESTION_CHARS - 1) + "…"
    assert cell("short") == "short" and cell(None) == ""
    assert len(cell("x" * 10_000, REASON_CHARS)) == REASON_CHARS == 500


def test_eval_table_shows_the_question_cut_and_json_keeps_it_whole(tmp_path: Path) -> None:
    cases = write(tmp_path, {"question": QUESTION, "expect_tool": "search_catalog"})
    table = run_in_process("eval", cases, "--tools", LIBRARY, env={"COLUMNS": "120"})
    assert table.returncode == 0, table.stderr  # no threshold given
    assert table.stdout.count("책") == QUESTION_CHARS - 1
    assert "…" in table.stdout
    assert len(table.stdout) < 8_000  # the whole question would be over 20,000 characters
    lines = run_in_process("eval", cases, "--tools", LIBRARY, "--format", "jsonl")
    first = json.loads(lines.stdout.splitlines()[0])  # the case; a summary line follows
    assert (first["line"], first["question"]) == (1, QUESTION)


def test_eval_summary_table_and_html_cut_it_too(tmp_path: Path) -> None:
    """The failing-questions table printed at the end (--html keeps every result)."""
    cases = write(tmp_path, {"question": QUESTION, "expect_tool": "search_catalog"})
    html = tmp_path / "eval.html"
    table = run_in_process(
        "eval", cases, "--tools", LIBRARY, "--html", html, env={"COLUMNS": "120"}
    )
    assert table.stdout.count("책") == QUESTION_CHARS - 1 and "…" in table.stdout
    assert html.read_text(encoding="utf-8").count("책") == 2 * (QUESTION_CHARS - 1)


def test_the_html_report_cuts_it_and_keeps_no_megabyte_cell(tmp_path: Path) -> None:
    run = {
        "label": "base",
        "router": "offline",
        "metrics": {},
        "results": [
            {"line": 1, "question": QUESTION, "expect_tool": "x", "passed": False, "reason": "r"}
        ],
    }
    page = eval_page([run], [])
    assert page.count("책") == 2 * (QUESTION_CHARS - 1)  # the failing table and every case


def test_check_table_cuts_huge_arguments(tmp_path: Path) -> None:
    cases = write(tmp_path, {"tool": "search_catalog", "args": {"query": QUESTION}})
    table = run_in_process("check", cases, "--tools", LIBRARY, env={"COLUMNS": "120"})
    assert table.returncode == 0, table.stderr
    assert table.stdout.count("책") == QUESTION_CHARS - 1 - len('{"query": "')
    full = run_in_process("check", cases, "--tools", LIBRARY, "--format", "json")
    assert json.loads(full.stdout)["cases"][0]["args"] == {"query": QUESTION}
