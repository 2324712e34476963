"""The history store (playground.history) on real SQLite files in tmp_path."""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from pathlib import Path

import pytest

from playground.history.entries import call_entry, episode_entry
from playground.history.migrations import SCHEMA_VERSION
from playground.history.queries import LocalTimes, Query, parse_when
from playground.history.redaction import redact
from playground.history.store import (
    APPLICATION_ID,
    DEFAULT_PATH,
    HistoryStore,
    open_history,
    resolve_path,
)
from playground.workbench import open_playground

REPO = Path(__file__).resolve().parents[2]


def record(tool="get_order_status", kind="ok", **extra):
    data = {"tool": tool, "args": {"order_id": "HR1"}, "kind": kind, "verdict": "", "value": 1}
    data.update(extra)
    return data


def test_a_new_file_is_wal_versioned_marked_and_private(tmp_path):
    path = tmp_path / "sub" / "history.db"
    store = HistoryStore(path)
    entry_id = store.add(call_entry(record(), {"get_order_status": "ab" * 32}))
    assert entry_id == 1
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"entries_list", "entries_tool", "entries_outcome"} <= indexes
    plan = conn.execute(
        "EXPLAIN QUERY PLAN SELECT e.id, e.created, e.type, e.outcome, e.router, e.what, "
        "e.rerun_of FROM entries e ORDER BY e.created DESC, e.id DESC"
    ).fetchall()
    assert "COVERING INDEX entries_list" in plan[0][-1]  # a list never reads the table rows
    got = store.get(1)
    assert (
        got is not None and got.data == record() and got.hashes == {"get_order_status": "ab" * 32}
    )
    assert got.type == "call" and got.tool == "get_order_status" and got.outcome == "ok"


def test_filters_newest_first_and_limit(tmp_path):
    store = HistoryStore(tmp_path / "h.db")
    now = time.time()
    store.add(at(call_entry(record("check_stock", "invalid_args")), now - 7200))
    store.add(at(call_entry(record("get_order_status", "ok")), now - 60))
    episode = {
        "question": "텀블러 어디쯤이에요?",
        "router": "offline",
        "end": "answered",
        "calls": [record("track_shipping", "ok"), record("get_order_status", "empty")],
    }
    store.add(at(episode_entry(episode), now))
    assert [e.id for e in store.entries()] == [3, 2, 1]
    assert [e.id for e in store.entries(Query(tool="get_order_status"))] == [3, 2]
    assert [e.id for e in store.entries(Query(kind="empty"))] == [3]
    assert [e.id for e in store.entries(Query(kind="call"))] == [2, 1]
    assert [e.id for e in store.entries(Query(kind="episode"))] == [3]
    assert [e.id for e in store.entries(Query(question="텀블러"))] == [3]
    assert [e.id for e in store.entries(Query(since=now - 3600))] == [3, 2]
    assert [e.id for e in store.entries(Query(limit=1))] == [3]
    # a LIKE wildcard in a filter is literal text
    assert store.entries(Query(tool="get_order%")) == []
    assert store.clear(before=now - 3600) == 1
    assert [e.id for e in store.entries()] == [3, 2]
    assert store.clear() == 2 and store.count() == 0


def at(entry, created: float):
    entry.created = created
    return entry


def test_keys_and_header_values_are_never_stored(tmp_path, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", "AIzaSECRET-123456789")
    store = HistoryStore(tmp_path / "h.db")
    data = record(
        message="called with key AIzaSECRET-123456789",
        request={
            "headers": {"x-goog-api-key": "AIzaSECRET-123456789"},
            "Authorization": "Bearer t",
        },
    )
    store.add(call_entry(data, source="https://user:pa55word@example.com/mcp"))
    # the list's summary of a call shows its arguments: redacted the same way
    with_key = record(args={"q": "AIzaSECRET-123456789", "headers": {"Cookie": "c00kie-v"}})
    store.add(call_entry(with_key))
    raw = (tmp_path / "h.db").read_bytes() + (tmp_path / "h.db-wal").read_bytes()
    assert b"AIzaSECRET" not in raw and b"pa55word" not in raw and b"Bearer t" not in raw
    assert b"c00kie-v" not in raw
    assert next(store.summary_rows())[5] == (
        'get_order_status({"q": "[redacted]", "headers": "[redacted]"})'
    )
    got = store.get(1)
    assert got.data["message"] == "called with key [redacted]"
    assert got.data["request"] == {"headers": "[redacted]", "Authorization": "[redacted]"}
    assert got.source == "https://[redacted]@example.com/mcp"
    # arguments and values a tool returns are kept as they are (they are the test)
    assert got.data["args"] == {"order_id": "HR1"}
    assert redact({"a": ["x"]}) == {"a": ["x"]}


def test_secret_query_parameters_and_command_options_are_never_stored():
    """An ``--mcp-url`` with ``?api_key=`` and an ``--mcp`` command line with ``--token=`` /
    ``--password x`` were stored in the history as typed (only ``user:password@`` was cut)."""
    entry = {
        "mcp_url": "http://user:SECRETPW@127.0.0.1:8766/mcp?api_key=SECRETQ&token=SECRETT&n=5",
        "other": "http://h/mcp?access_token=SECRETA2&apikey=SECRETB2#top",
        "mcp": "python3 raw.py --token=SECRETARG3 --password hunter2SECRET --api-key K1 "
        "--port 8080 -v --token-file /run/t",
        "plain": "npx -y @modelcontextprotocol/server-everything --mode fast -p 3",
    }
    assert redact(entry) == {
        "mcp_url": "http://[redacted]@127.0.0.1:8766/mcp?api_key=[redacted]&token=[redacted]&n=5",
        "other": "http://h/mcp?access_token=[redacted]&apikey=[redacted]#top",
        "mcp": "python3 raw.py --token=[redacted] --password [redacted] --api-key [redacted] "
        "--port 8080 -v --token-file /run/t",
        "plain": "npx -y @modelcontextprotocol/server-everything --mode fast -p 3",
    }


def test_a_file_that_is_not_sqlite_is_refused_and_left_as_it_is(tmp_path):
    path = tmp_path / "notes.txt"
    text = b"this is my shopping list, not a database\n" * 50
    path.write_bytes(text)
    notices: list[str] = []
    store = HistoryStore(path, notices.append)
    assert store.add(call_entry(record())) is None
    assert store.entries() == [] and not store.enabled
    assert len(notices) == 1 and "not a playground history (not a SQLite file)" in notices[0]
    assert "left as it is" in notices[0]
    assert path.read_bytes() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # nothing renamed


def test_a_damaged_history_of_ours_is_moved_aside(tmp_path):
    path = tmp_path / "history.db"
    HistoryStore(path).add(call_entry(record()))
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the schema page; the header (our id) stays
    path.write_bytes(bytes(data))
    notices: list[str] = []
    store = HistoryStore(path, notices.append)
    assert store.add(call_entry(record())) == 1
    assert len(notices) == 1 and "malformed" in notices[0] and "moved it to" in notices[0]
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("history.db.bad-")]
    assert len(aside) == 1 and aside[0].read_bytes() == bytes(data)


def test_a_corrupt_sqlite_file_without_our_id_is_refused(tmp_path):
    path = tmp_path / "history.db"
    HistoryStore(path).add(call_entry(record()))
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    data = bytearray(path.read_bytes())
    data[16:100] = b"\xff" * 84  # the header after the magic string: page size, id etc.
    path.write_bytes(bytes(data))
    notices: list[str] = []
    store = HistoryStore(path, notices.append)
    assert store.add(call_entry(record())) is None
    assert len(notices) == 1 and "not a playground history" in notices[0]
    assert path.read_bytes() == bytes(data)
    assert not [p for p in tmp_path.iterdir() if ".bad-" in p.name]


def test_another_programs_sqlite_database_is_refused_and_not_written_into(tmp_path):
    path = tmp_path / "history.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('kim', '010')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    notices: list[str] = []
    store = HistoryStore(path, notices.append)
    assert store.add(call_entry(record())) is None
    assert len(notices) == 1 and "another program's SQLite database" in notices[0]
    assert path.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if ".bad-" in p.name]
    tables = sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("contacts",)]


def test_a_newer_schema_turns_history_off_without_touching_the_file(tmp_path):
    path = tmp_path / "history.db"
    HistoryStore(path).add(call_entry(record()))
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    notices: list[str] = []
    store = HistoryStore(path, notices.append)
    assert store.add(call_entry(record())) is None
    assert not store.enabled and "newer than this playground" in notices[0]
    assert not [p for p in tmp_path.iterdir() if ".bad-" in p.name]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_turns_history_off_with_a_notice(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        notices: list[str] = []
        store = HistoryStore(folder / ".playground" / "history.db", notices.append)
        assert store.add(call_entry(record())) is None
        assert store.entries() == [] and not store.enabled
        assert len(notices) == 1 and notices[0].startswith("history is off for this run")
    finally:
        folder.chmod(0o700)


def test_a_read_only_file_turns_history_off_with_a_notice(tmp_path):
    """A database the process may not write (the root-proof version of a read-only folder:
    the file is opened with SQLite's read-only URI and cannot take the write)."""
    path = tmp_path / "history.db"
    HistoryStore(path).add(call_entry(record()))
    notices: list[str] = []
    store = HistoryStore(path, notices.append)
    store._conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    assert store.add(call_entry(record())) is None
    assert not store.enabled and "read-only" in notices[0]


def test_where_the_history_goes():
    assert resolve_path(environ={}) == DEFAULT_PATH
    assert resolve_path(environ={"PLAYGROUND_HISTORY": "/x/h.db"}) == Path("/x/h.db")
    assert resolve_path("/y.db", environ={"PLAYGROUND_HISTORY": "/x/h.db"}) == Path("/y.db")
    assert resolve_path("/y.db", disabled=True, environ={}) is None
    assert resolve_path(environ={"PLAYGROUND_HISTORY": "off"}) is None
    assert open_history(environ={"PLAYGROUND_HISTORY": ""}) is None


def test_parse_when():
    now = 1_800_000_000.0
    assert parse_when("2h", now) == now - 7200
    assert parse_when("7d", now) == now - 7 * 86400
    assert parse_when("2026-11-30T00:00:00+00:00") == 1795996800.0
    with pytest.raises(ValueError, match="not a date"):
        parse_when("yesterday")


def test_declaration_hash_is_sha256_of_the_canonical_declaration(tmp_path):
    pg = open_playground([REPO / "tools" / "shop.py"], wire=False)
    contract = pg.registry.get("track_shipping")
    digest = contract.declaration_hash()
    assert len(digest) == 64 and digest == contract.declaration_hash()
    import hashlib
    import json

    text = json.dumps(
        contract.declaration(), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    assert digest == hashlib.sha256(text.encode()).hexdigest()
    contract.description += " 바뀜"
    assert contract.declaration_hash() != digest


def test_reading_an_empty_history_creates_no_file(tmp_path):
    store = HistoryStore(tmp_path / ".playground" / "history.db")
    assert store.entries() == [] and store.get(1) is None and store.count() == 0
    assert store.clear() == 0 and store.enabled
    assert not (tmp_path / ".playground").exists()


def test_list_rows_are_the_list_columns_and_json_lines_equal_to_json(tmp_path, monkeypatch):
    """A listing reads the small columns only; a JSON line splices the stored record text and
    is exactly ``Entry.to_json()`` (a non-finite number is stored as a string, strict JSON)."""
    import json

    monkeypatch.setenv("TZ", "Asia/Kolkata")  # a half-hour offset
    time.tzset()
    try:
        store = HistoryStore(tmp_path / "h.db")
        now = 1_780_000_000.25
        store.add(at(call_entry(record(value=float("nan"), args={"q": "키\x1b보드"})), now - 60))
        episode = {"question": "텀블러 어디쯤이에요?", "router": "offline", "end": "answered"}
        store.add(at(episode_entry(episode, mcp=[{"mcp": "python s.py"}]), now))
        rerun = call_entry(record("check_stock"), rerun_of=1)
        rerun.created = now + 1
        store.add(rerun)
        rows = list(store.summary_rows(Query(limit=None)))
        # (id, created, type, outcome, router, what, rerun_of)
        assert rows == [
            (3, now + 1, "call", "ok", "", 'check_stock({"order_id": "HR1"})', 1),
            (2, now, "episode", "answered", "offline", "텀블러 어디쯤이에요?", None),
            (1, now - 60, "call", "ok", "", 'get_order_status({"q": "키\\u001b보드"})', None),
        ]  # (the control character is escaped by the JSON of the arguments)
        assert LocalTimes().text(rows[1][1]) == "2026-05-29 01:56:40"  # 20:26:40 UTC + 05:30
        assert store.summary_shape(Query(limit=None)) == (
            3,
            {("call", "ok", ""), ("episode", "answered", "offline")},
        )
        lines = list(store.json_lines(Query(limit=None)))
        full = store.entries(Query(limit=None), with_data=True)
        assert [json.loads(line) for line in lines] == [e.to_json() for e in full]
        assert json.loads(lines[2])["data"]["value"] == "NaN"
        assert json.loads(lines[1])["mcp"] == [{"mcp": "python s.py"}]
        assert json.loads(lines[1])["time"] == "2026-05-29T01:56:40+0530"
        assert [r[0] for r in store.summary_rows(Query(text="텀블러 offline"))] == [2]
        assert [r[0] for r in store.summary_rows(Query(text="check_stock"))] == [3]
        # a page after the row (created, id) of the last one shown
        assert [r[0] for r in store.summary_rows(Query(older_than=(now, 2)))] == [1]
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_schema_1_file_is_migrated_and_its_list_summaries_filled(tmp_path):
    """A history written before the list columns existed: the migration adds them and fills
    ``what`` from each stored record, in the same transaction; nothing is lost."""
    import json

    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    from playground.history.migrations import MIGRATIONS

    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.execute(
        "INSERT INTO entries (created, type, tool, tools, kinds, outcome) "
        "VALUES (1, 'call', 'get_order_status', ',get_order_status,', ',ok,', 'ok')"
    )
    conn.execute(
        "INSERT INTO bodies (id, source, hashes, data) VALUES (1, '', '{}', ?)",
        (json.dumps(record(value=1.5)),),
    )
    conn.execute(
        "INSERT INTO entries (created, type, outcome, question) "
        "VALUES (2, 'episode', 'answered', '재고 있어요?')"
    )
    conn.execute(
        "INSERT INTO bodies (id, data) VALUES (2, ?)", (json.dumps({"question": "재고 있어요?"}),)
    )
    conn.commit()
    conn.close()
    store = HistoryStore(path)
    rows = store.summary_rows(Query(limit=None))
    assert [(r[0], r[5]) for r in rows] == [
        (2, "재고 있어요?"),
        (1, 'get_order_status({"order_id": "HR1"})'),
    ]
    assert store.get(1).data == record(value=1.5) and store.get(1).mcp == []
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store.notices == []
