"""A history whose write lock another process holds (``BEGIN EXCLUSIVE``, the tester's case: a
call stalled 20 s, then recorded nothing): the call waits a bounded time, says so in one note,
keeps its record beside the file, and the next command that opens the history adds it. Real
SQLite files, the CLI as real subprocesses."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

from playground.history import pending
from playground.history.entries import call_entry
from playground.history.store import WRITE_WAIT_MS, HistoryStore
from tests.playground_cli import run_playground

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tools" / "shop.py"


def cli(*args: object) -> subprocess.CompletedProcess[str]:
    return run_playground(*args, env={"PLAYGROUND_FIXTURES": str(REPO / "fixtures")})


def test_a_call_on_a_locked_history_keeps_its_record_and_the_next_command_adds_it(tmp_path):
    db = tmp_path / "history.db"
    store = HistoryStore(db)
    store.add(call_entry({"tool": "t", "args": {"i": 0}, "kind": "ok"}))
    store.close()
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        called = cli("call", "get_order_status", "order_id=HR20260604", "--tools", SHOP,
                     "--history", db, "--format", "json")  # fmt: skip
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert called.returncode == 0, called.stderr
    record = json.loads(called.stdout)
    notes = called.stderr.splitlines()
    assert len(notes) == 1 and notes[0].startswith(f"note: history: {db} is busy")
    assert (
        f"waited {WRITE_WAIT_MS / 1000:g} s and kept this record in history.db.pending-"
        in (notes[0])
    )
    assert "history is off" not in called.stderr
    kept = pending.kept(db)
    assert len(kept) == 1 and (kept[0].stat().st_mode & 0o777) == 0o600

    listed = cli("history", "--history", db, "--format", "jsonl")
    assert listed.returncode == 0, listed.stderr
    lines = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [e["id"] for e in lines] == [2, 1]
    assert lines[0]["data"] == record and lines[0]["what"].startswith("get_order_status(")
    assert pending.kept(db) == []
    again = cli("history", "--history", db, "--format", "jsonl")
    assert len(again.stdout.splitlines()) == 2  # added once


def test_a_kept_record_already_in_the_history_is_not_added_twice(tmp_path):
    """A process that stopped between its commit and deleting the kept file."""
    db = tmp_path / "history.db"
    store = HistoryStore(db)
    store.add(call_entry({"tool": "t", "args": {"i": 0}, "kind": "ok"}))
    conn = sqlite3.connect(db)
    columns = ", ".join(f"{'e' if i < 11 else 'b'}.{k}" for i, k in enumerate(pending.ROW_KEYS))
    row = conn.execute(f"SELECT {columns} FROM entries e JOIN bodies b ON b.id = e.id").fetchone()
    conn.close()
    pending.keep(db, dict(zip(pending.ROW_KEYS, row, strict=True)))
    other = dict(zip(pending.ROW_KEYS, row, strict=True))
    other.update(created=row[0] + 1e-6, what="t({})")
    pending.keep(db, other)
    assert store.add(call_entry({"tool": "u", "args": {}, "kind": "ok"})) == 3
    assert [r[5] for r in store.summary_rows()] == ["u({})", "t({})", 't({"i": 0})']
    assert pending.kept(db) == []
    assert any("added 1 record(s) kept while" in n for n in store.notices)
    store.close()
