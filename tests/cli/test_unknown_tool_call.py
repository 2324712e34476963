"""``playground call`` of a name that is not registered is a usage error, whatever its spelling:
one line suggesting the closest registered names, exit 2, no record printed and no history
entry (the tester's tool module: ``tests/fixtures/library.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.in_process_cli import run_in_process

LIBRARY = Path(__file__).resolve().parents[1] / "fixtures" / "library.py"
REGISTERED = "search_catalog, check_availability, checkout_book, member_loans"


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("searchcatalog", "error: no tool named 'searchcatalog'; did you mean: search_catalog"),
        ("search catalog", "error: no tool named 'search catalog'; did you mean: search_catalog"),
        ("SEARCH-CATALOG", "error: no tool named 'SEARCH-CATALOG'; did you mean: search_catalog"),
        ("loans", "error: no tool named 'loans'; did you mean: member_loans"),
        ("", f"error: no tool named ''; registered: {REGISTERED}"),
        ("재고조회", f"error: no tool named '재고조회'; registered: {REGISTERED}"),
    ],
)
@pytest.mark.parametrize("fmt", ["table", "json"])
def test_unknown_name_is_one_line_exit_2_and_no_history(
    tmp_path: Path, name: str, line: str, fmt: str
) -> None:
    history = tmp_path / "history.db"
    result = run_in_process(
        "call", name, "query=x", "--tools", LIBRARY, "--history", history, "--format", fmt
    )
    assert (result.returncode, result.stdout, result.stderr) == (2, "", line + "\n")
    listed = run_in_process("history", "--history", history, "--format", "json")
    assert json.loads(listed.stdout) == []


def test_a_registered_name_still_prints_its_record_and_exits_0(tmp_path: Path) -> None:
    result = run_in_process(
        "call",
        "search_catalog",
        "query=java",
        "--tools",
        LIBRARY,
        "--no-history",
        "--format",
        "json",
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["value"] == [
        {"isbn": "978-0134685991", "title": "Effective Java", "available": 2}
    ]
