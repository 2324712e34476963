"""The history file's schema: the migrations that take ``PRAGMA user_version`` forward.

The store (:meth:`playground.history.store.HistoryStore`) runs the steps a file lacks in one
transaction when it opens it. Append a step, never edit one.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from playground.history.entries import what_of

#: Schema migrations: ``MIGRATIONS[i]`` takes ``user_version`` i to i + 1 (SQL statements, or a
#: function of the connection for a step SQL cannot do), in one transaction. Append, never edit.
MIGRATIONS: tuple[tuple[str | Callable[[sqlite3.Connection], None], ...], ...] = (
    (
        # One small row per entry (what a listing reads: 100,000 of them in well under 300 ms)
        # and its bulky parts in ``bodies``, read for one entry or a page of them.
        """CREATE TABLE entries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            created REAL NOT NULL,            -- Unix time, seconds
            type TEXT NOT NULL,               -- 'call' | 'episode'
            tool TEXT NOT NULL DEFAULT '',    -- the first tool called ('' when none)
            tools TEXT NOT NULL DEFAULT '',   -- ',a,b,': every tool called, for --tool
            kinds TEXT NOT NULL DEFAULT '',   -- ',ok,invalid_args,': every outcome kind
            outcome TEXT NOT NULL DEFAULT '', -- a call's kind, an episode's end
            question TEXT,                    -- an episode's question (NULL for calls)
            router TEXT NOT NULL DEFAULT '',  -- 'offline', 'gemini', 'manual', '' for a call
            origin TEXT NOT NULL DEFAULT '',  -- 'cli', 'tui', 'rerun'
            rerun_of INTEGER                  -- the entry this one re-ran
        )""",
        """CREATE TABLE bodies (
            id INTEGER PRIMARY KEY,           -- = entries.id
            source TEXT NOT NULL DEFAULT '',  -- the tool source (module paths, a server)
            hashes TEXT NOT NULL DEFAULT '{}',-- {contract: sha256 of its declaration}
            data TEXT NOT NULL                -- the record or episode JSON
        )""",
        "CREATE INDEX entries_created ON entries (created)",
        "CREATE INDEX entries_tool ON entries (tool, created)",
        "CREATE INDEX entries_outcome ON entries (outcome, created)",
    ),
    (
        # What the list shows on each row, stored at write time so that a listing reads only
        # the small columns it prints (no JSON is parsed per row), and the MCP servers a run
        # used, for ``history rerun`` to reconnect them.
        "ALTER TABLE entries ADD COLUMN what TEXT NOT NULL DEFAULT ''",  # see what_of()
        "ALTER TABLE bodies ADD COLUMN mcp TEXT NOT NULL DEFAULT '[]'",  # see Entry.mcp
        lambda conn: _backfill_what(conn),
        # A list reads its rows newest first from this index alone (LIST_COLUMNS), never
        # jumping to the table row by row; it also serves --since (it replaces entries_created).
        "CREATE INDEX entries_list ON entries (created, id, type, outcome, router, rerun_of, what)",
        "DROP INDEX entries_created",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


def _backfill_what(conn: sqlite3.Connection) -> None:
    """Schema 1 → 2: fill ``entries.what`` from each stored record or episode (:func:`what_of`)."""
    rows = conn.execute(
        "SELECT e.id, e.type, b.data FROM entries e JOIN bodies b ON b.id = e.id"
    ).fetchall()
    updates = []
    for entry_id, type_, data in rows:
        try:
            parsed = json.loads(data) if data else {}
        except ValueError:
            parsed = {}
        updates.append((what_of(type_, parsed), entry_id))
    conn.executemany("UPDATE entries SET what = ? WHERE id = ?", updates)
