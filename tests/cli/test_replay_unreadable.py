"""``playground replay`` of a file it cannot read: the table line gives the reason (not only
stderr), and the summary counts it apart from the files replayed."""

from __future__ import annotations

from pathlib import Path

from tests.in_process_cli import run_in_process

LIBRARY = Path(__file__).resolve().parents[1] / "fixtures" / "library.py"


def test_missing_and_garbage_files_say_why_and_are_not_counted_as_replayed(
    tmp_path: Path,
) -> None:
    good = tmp_path / "good.json"
    saved = run_in_process(
        "call", "search_catalog", "query=java", "--tools", LIBRARY, "--no-history", "--save", good
    )
    assert saved.returncode == 0, saved.stderr
    garbage = tmp_path / "garbage.json"
    garbage.write_text("garbage\n", encoding="utf-8")
    missing = tmp_path / "nonexist.json"
    result = run_in_process(
        "replay", missing, garbage, good, "--tools", LIBRARY, env={"COLUMNS": "250"}
    )
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"ERROR {missing}: no such file",
        f"ERROR {garbage}: not JSON (Expecting value: line 1 column 1 (char 0))",
        f'same  {good}: search_catalog({{"query": "java"}})',
        "1 replayed, 0 drifted, 2 could not be replayed",
    ]
    assert result.stderr.splitlines() == [
        f"error: {missing}: no such file",
        f"error: {garbage}: not JSON (Expecting value: line 1 column 1 (char 0))",
    ]


def test_only_a_missing_file_is_zero_replayed(tmp_path: Path) -> None:
    missing = tmp_path / "nonexist.json"
    result = run_in_process("replay", missing, "--tools", LIBRARY, env={"COLUMNS": "250"})
    assert (result.returncode, result.stdout.splitlines()) == (
        2,
        [f"ERROR {missing}: no such file", "0 replayed, 0 drifted, 1 could not be replayed"],
    )
