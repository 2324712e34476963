"""A history damaged past its header (the tester's ``hist_corrupt.db``: bytes overwritten from
8192 on) is found on the write or the read that meets the damage, not only at open: a run that
records moves it aside and starts a new one, reading commands print what is readable and say
where the damage is. Real SQLite files damaged in place; the CLI as real subprocesses."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from playground.history.entries import call_entry
from playground.history.queries import Query
from playground.history.store import HistoryStore
from tests.playground_cli import run_playground

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tools" / "shop.py"
PAGE = 4096


def cli(*args: object) -> subprocess.CompletedProcess[str]:
    return run_playground(
        *args, env={"PLAYGROUND_FIXTURES": str(REPO / "fixtures"), "COLUMNS": "200"}
    )


def history_of(path: Path, n: int = 120) -> None:
    store = HistoryStore(path)
    for i in range(n):
        store.add(call_entry({"tool": "t", "args": {"i": i}, "kind": "ok", "value": "x" * 1500}))
    store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def pages_of(path: Path, name: str) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno",
            (name,),
        ).fetchall()
    finally:
        conn.close()
    return [r[0] for r in rows]


def overwrite(path: Path, start: int, size: int) -> None:
    with open(path, "r+b") as fh:
        fh.seek(start)
        fh.write(b"\xa5" * size)


@pytest.fixture(scope="module")
def damaged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """120 entries, then pages 3-5 (from byte 8192: the bodies table's root) overwritten: the
    header, the entries and the list index are intact, every stored record is not."""
    path = tmp_path_factory.mktemp("damaged") / "history.db"
    history_of(path)
    overwrite(path, 2 * PAGE, 3 * PAGE)
    return path


def test_a_call_that_meets_the_damage_moves_the_file_aside_and_is_recorded(damaged, tmp_path):
    db = tmp_path / "history.db"
    db.write_bytes(damaged.read_bytes())
    before = db.read_bytes()
    first = cli("call", "get_order_status", "order_id=HR20260604", "--tools", SHOP,
                "--history", db)  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert "history is off" not in first.stderr
    notes = [line for line in first.stderr.splitlines() if line.startswith("note: history")]
    assert len(notes) == 1 and "malformed" in notes[0] and "moved it to history.db.bad-" in notes[0]
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("history.db.bad-")]
    assert len(aside) == 1 and aside[0].read_bytes() == before  # kept exactly as it was
    second = cli("call", "get_order_status", "order_id=HR20260604", "--tools", SHOP,
                 "--history", db)  # fmt: skip
    assert second.returncode == 0 and "note:" not in second.stderr
    listed = cli("history", "--history", db, "--format", "jsonl")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == 2 and all('"what": "get_order_status(' in line for line in lines)


def test_show_prints_what_is_readable_of_a_record_on_a_damaged_page(damaged):
    shown = cli("history", "show", "51", "--history", damaged)
    assert shown.returncode == 2
    assert shown.stdout.split()[:2] == ["#51", shown.stdout.split()[1]]
    assert 't({"i": 50})' in shown.stdout
    assert shown.stderr.strip().startswith("error: #51's record cannot be read:")
    assert "damaged (database disk image is malformed)" in shown.stderr
    assert "no history to read" not in shown.stderr
    missing = cli("history", "show", "500", "--history", damaged)
    assert missing.returncode == 2 and "no history entry #500" in missing.stderr


def test_a_list_that_meets_damage_on_a_later_page_keeps_the_rows_it_read(tmp_path):
    db = tmp_path / "history.db"
    history_of(db, 400)
    leaves = pages_of(db, "entries_list")
    assert len(leaves) >= 2
    overwrite(db, (leaves[0] - 1) * PAGE, PAGE)  # the oldest entries' leaf: read last
    listed = cli("history", "--history", db, "--limit", "0")
    assert listed.returncode == 2
    rows = [line.split()[0] for line in listed.stdout.splitlines()[2:]]
    assert rows[0] == "400" and 1 < len(rows) < 400
    assert rows == [str(n) for n in range(400, 400 - len(rows), -1)]
    assert "damaged (database disk image is malformed): only the entries listed above" in (
        listed.stderr
    )
    # a write through the same store after such a read starts a new file
    store = HistoryStore(db)
    assert len(list(store.summary_rows(Query(limit=None)))) == len(rows) and store.damaged
    new_id = store.add(call_entry({"tool": "t", "args": {}, "kind": "ok"}))
    assert new_id == 1 and store.enabled and store.count() == 1
    assert any("moved it to history.db.bad-" in n for n in store.notices)
    store.close()


def test_clear_of_a_damaged_history_moves_it_aside(damaged, tmp_path):
    db = tmp_path / "history.db"
    db.write_bytes(damaged.read_bytes())
    cleared = cli("history", "clear", "--history", db)
    assert cleared.returncode == 0, cleared.stderr
    assert "moved it to history.db.bad-" in cleared.stderr
    assert [p.name.startswith("history.db.bad-") for p in tmp_path.glob("history.db.bad-*")] == [
        True
    ]
    listed = cli("history", "--history", db)
    assert listed.returncode == 0 and "no history entries" in listed.stderr
