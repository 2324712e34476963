"""The history store: the SQLite file that keeps every hand-test call record and episode.

The store is the standard library's :mod:`sqlite3` in WAL mode (https://sqlite.org/wal.html:
readers never block the writer, and one writer at a time waits on ``busy_timeout``), so two
playground processes writing at once lose nothing. The schema is versioned with
``PRAGMA user_version`` and migrated forward by
:data:`~playground.history.migrations.MIGRATIONS`; ``PRAGMA application_id``
marks the file as a playground history, so a foreign SQLite file is never written into.

Where: ``.playground/history.db`` in the working directory, or ``--history PATH`` /
``PLAYGROUND_HISTORY=PATH``; ``--no-history`` or ``PLAYGROUND_HISTORY=off`` turns it off
(:func:`resolve_path`). The file is created with mode 0600: values may hold personal data.

Never fatal, never the user's file: a file that is not a playground history (not SQLite,
another program's database, unreadable without this playground's ``application_id`` in its
header) is refused — history is off for the run with one notice and the file is left as it is
(issue 28 item 4); a damaged history of ours is moved aside and a new one started; a
directory that cannot be written, or a database that fails later, turns history off for the
process with one notice. Notices are strings in :attr:`HistoryStore.notices` and passed to the
``notice`` callback; the CLI prints them on stderr, the TUI as notifications.

What is stored (:class:`~playground.history.entries.Entry`): the record or episode JSON
(``to_json()`` as given, after :func:`~playground.history.redaction.redact` removed API keys
and header values), the tool source, the time, the router, and the sha256 of each involved
contract's declaration (:meth:`Contract.declaration_hash`).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playground.history import pending
from playground.history.entries import Entry, json_text, what_of
from playground.history.migrations import MIGRATIONS, SCHEMA_VERSION
from playground.history.queries import (
    BODY_COLUMNS,
    LIST_COLUMNS,
    PAGE_ROWS,
    SQLITE_MAX_INT,
    SUMMARY_COLUMNS,
    Query,
    entry_of_row,
    joined_list,
    json_lines_of_rows,
    select_sql,
)
from playground.history.redaction import env_secrets, redact

#: ``PRAGMA application_id`` of a playground history file ("TPhi" as a big-endian int32).
APPLICATION_ID = 0x54506869
DEFAULT_PATH = Path(".playground") / "history.db"
ENV_VAR = "PLAYGROUND_HISTORY"
OFF_VALUES = frozenset({"off", "0", "no", "false", "none"})
#: How long a new file's first connections retry its creation while other processes create it
#: at the same moment (ms).
BUSY_TIMEOUT_MS = 10_000
#: How long a write waits for another process's write lock (ms): past it, the record is kept
#: beside the file (:mod:`playground.history.pending`) and added by the next write.
WRITE_WAIT_MS = 2_000
SQLITE_MAGIC = b"SQLite format 3\x00"
#: Characters of a value or reply :meth:`HistoryStore.glance` gives (a detail line's worth).
GLANCE_CHARS = 300
#: The largest stored record :meth:`HistoryStore.glance` reads (bytes); a bigger one is read
#: only when its entry is opened.
GLANCE_BYTES = 256 * 1024


class HistoryError(Exception):
    """A history database could not be opened or written (never leaves :class:`HistoryStore`)."""


class _Busy(HistoryError):
    """Another process held the file's write lock for the whole wait while it was opened."""


@contextmanager
def _immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """A write transaction: ``BEGIN IMMEDIATE`` (the write lock taken at once), ``COMMIT`` when
    the block ends; on any exception ``ROLLBACK`` (its own failure ignored) and the exception
    goes on."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise


class HistoryStore:
    """The history database at ``path``.

    ``notice``: called with each one-line notice (a file moved aside, history turned off).
    Opening is lazy (first read or write). When the store cannot work it turns itself off:
    :attr:`enabled` becomes ``False``, a notice says why, writes are skipped and reads return
    nothing. Methods never raise :mod:`sqlite3` errors.
    """

    def __init__(self, path: str | Path, notice: Callable[[str], None] | None = None) -> None:
        # absolute now: opening is lazy, and a tool body run in this process may change the
        # working directory before the first write (it went to /.playground/history.db)
        self.path = Path(os.path.abspath(path))
        self.notices: list[str] = []
        self.enabled = True
        #: SQLite's message when a read met a damaged page ('' while none did): the rows read
        #: before it stand; a write that meets the damage moves the file aside.
        self.damaged = ""
        #: Why the last open found the file locked ('' when it did not).
        self._busy = ""
        self._notice = notice
        self._conn: sqlite3.Connection | None = None
        # One connection shared by the TUI's worker threads: one statement at a time.
        self._lock = threading.RLock()

    # -- opening --------------------------------------------------------------------------------
    def _say(self, text: str) -> None:
        self.notices.append(text)
        if self._notice is not None:
            self._notice(text)

    def _off(self, why: str) -> None:
        if self.enabled:
            self.enabled = False
            self._say(
                f"history is off for this run: {why} (choose another file with --history PATH, "
                "or --no-history)"
            )
        self.close()

    def _read_failed(self, exc: sqlite3.Error) -> None:
        """A read stopped on ``exc``: a damaged page sets :attr:`damaged` (the rows read before
        it stand, the file is left for a writer to move aside); anything else turns history
        off with a notice."""
        if _is_corrupt(exc):
            self.damaged = _why(exc)
        else:
            self._off(f"cannot read {self.path}: {_why(exc)}")

    def _reader(self) -> sqlite3.Connection | None:
        """The connection for a read: ``None`` (nothing to read) when the file does not exist
        yet, so listing an empty history creates no file."""
        if self._conn is None and self.enabled and not self.path.exists():
            return None
        return self.connection()

    def connection(self) -> sqlite3.Connection | None:
        """The open connection (opening, creating and migrating the file on first use), or
        ``None`` when history is off."""
        if self._conn is not None or not self.enabled:
            return self._conn
        try:
            self._conn = self._open()
        except _Busy as exc:  # the caller keeps its record beside the file
            self._busy = str(exc)
        except HistoryError as exc:
            self._off(str(exc))
        else:  # closed (WAL checkpointed) at exit even while the store is still referenced
            weakref.finalize(self, self._conn.close)
        return self._conn

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise HistoryError(f"cannot create {self.path.parent}: {exc.strerror or exc}") from None
        if _special_file(self.path):  # a FIFO would hang every read; /dev/null grows a journal
            raise HistoryError(
                f"cannot use {self.path}: not a regular file (a FIFO, a device or a socket)"
            )
        why = self._foreign_reason()
        if why:
            raise HistoryError(self._refusal(why))
        try:
            conn = self._connect_and_migrate()
        except _Foreign as exc:  # its connection is closed
            if not self._ours():  # the user's file: never renamed, never written
                raise HistoryError(self._refusal(str(exc))) from None
            self._move_aside(str(exc))
            try:
                conn = self._connect()
                self._migrate(conn)
            except (sqlite3.Error, OSError, _Foreign) as exc2:
                raise HistoryError(f"cannot start {self.path}: {exc2}") from None
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise _Busy(_why(exc)) from None
            raise HistoryError(f"cannot write {self.path}: {_why(exc)}") from None
        except (sqlite3.Error, OSError) as exc:
            raise HistoryError(f"cannot write {self.path}: {_why(exc)}") from None
        return conn

    def _connect_and_migrate(self) -> sqlite3.Connection:
        """A connection to a file in WAL mode with the current schema. Switching a new file to
        WAL and migrating it take a lock that SQLite's busy handler does not always wait for
        (a connection that holds a read lock and asks for more gets SQLITE_BUSY at once, to
        avoid a deadlock: sqlite.org/c3ref/busy_handler.html), so when twenty processes start
        on one new file, some would see "database is locked" and record nothing. Such an
        attempt is closed and made again (tenacity, with jittered backoff) for up to
        ``BUSY_TIMEOUT_MS``; another error, or the lock still held then, is raised."""
        try:
            return self._connect_and_migrate_once()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
        from tenacity import Retrying as _Retrying
        from tenacity import (
            retry_if_exception,
            stop_after_delay,
            wait_random_exponential,
        )

        retrying = _Retrying(
            retry=retry_if_exception(
                lambda e: isinstance(e, sqlite3.OperationalError) and _is_busy(e)
            ),
            stop=stop_after_delay(BUSY_TIMEOUT_MS / 1000),
            wait=wait_random_exponential(multiplier=0.01, max=0.25),
            reraise=True,
        )
        return retrying(self._connect_and_migrate_once)

    def _connect_and_migrate_once(self) -> sqlite3.Connection:
        conn = self._connect()
        try:
            self._migrate(conn)
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
            raise
        return conn

    def _connect(self) -> sqlite3.Connection:
        # Create the file 0600 first: sqlite3 would create it with the umask's mode, and the
        # -wal / -shm files copy the main file's permissions.
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
        conn = sqlite3.connect(
            self.path, timeout=WRITE_WAIT_MS / 1000, isolation_level=None, check_same_thread=False
        )
        conn.execute(f"PRAGMA busy_timeout = {WRITE_WAIT_MS}")
        return conn

    def _refusal(self, why: str) -> str:
        return f"{self.path} is not a playground history ({why}); it was left as it is"

    def _ours(self) -> bool:
        """The file's SQLite header carries this playground's ``application_id`` (bytes 68–71,
        big-endian: sqlite.org/fileformat.html): a damaged history of ours, safe to move aside."""
        try:
            with open(self.path, "rb") as fh:
                head = fh.read(72)
        except OSError:
            return False
        return (
            head.startswith(SQLITE_MAGIC) and int.from_bytes(head[68:72], "big") == APPLICATION_ID
        )

    def _foreign_reason(self) -> str:
        """Why the existing file is not a SQLite database ('' when it is one or does not exist)."""
        try:
            with open(self.path, "rb") as fh:
                head = fh.read(len(SQLITE_MAGIC))
        except FileNotFoundError:
            return ""
        except OSError as exc:
            raise HistoryError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        if head and head != SQLITE_MAGIC:
            return "not a SQLite file"
        return ""

    def _migrate(self, conn: sqlite3.Connection) -> None:
        try:
            _check_ours(conn)  # before the first write (journal_mode rewrites the header)
            if _current(conn):  # WAL and this schema: nothing to write, no lock to wait for
                conn.execute("PRAGMA synchronous = NORMAL")
                return
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()
        except sqlite3.DatabaseError as exc:
            if _is_corrupt(exc):
                raise _Foreign(f"unreadable ({exc})") from None
            raise
        if mode and str(mode[0]).lower() != "wal":
            raise sqlite3.OperationalError(f"journal_mode is {mode[0]}, not wal")
        conn.execute("PRAGMA synchronous = NORMAL")  # WAL: durable across crashes of the process
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as exc:
            if _is_corrupt(exc):
                raise _Foreign(f"unreadable ({exc})") from None
            raise
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            _check_ours(conn)
            if version > SCHEMA_VERSION:
                raise HistoryError(
                    f"{self.path} has schema version {version}, newer than this playground's "
                    f"{SCHEMA_VERSION}"
                )
            for step in MIGRATIONS[version:]:
                for statement in step:
                    if callable(statement):
                        statement(conn)
                    else:
                        conn.execute(statement)
            if version < SCHEMA_VERSION:
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            if _is_corrupt(exc):
                raise _Foreign(f"unreadable ({exc})") from None
            raise
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise

    def _move_aside(self, why: str) -> None:
        stamp = time.strftime("%Y%m%dT%H%M%S")
        target = self.path.with_name(f"{self.path.name}.bad-{stamp}-{os.getpid()}")
        try:
            os.replace(self.path, target)
        except FileNotFoundError:
            return  # another process moved it first
        except OSError as exc:
            raise HistoryError(f"{self.path} is {why} and cannot be moved aside: {exc}") from None
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.replace(f"{self.path}{suffix}", f"{target}{suffix}")
        self._say(
            f"history: {self.path} was {why}; moved it to {target.name} and started a new "
            f"one (list what it still holds with --history {target})"
        )

    def close(self) -> None:
        """Close the connection (reopened on next use while enabled)."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    # -- writing --------------------------------------------------------------------------------
    def _add_unlocked(self, entry: Entry, *, retry: bool = True) -> int | None:
        """Store ``entry`` (``created`` defaults to now); returns its id, or ``None`` when history
        is off, the write failed (then history turns off with a notice) or the file was busy
        past :data:`WRITE_WAIT_MS` (then the entry is kept beside it: :mod:`.pending`). A file
        found damaged by this write is moved aside and the entry written to a new one (once:
        ``retry``). Records kept earlier beside the file are added in the same transaction."""
        if self.damaged and retry and self._conn is not None:  # a read of this run met it
            if not self._restart_damaged(sqlite3.DatabaseError(self.damaged)):
                return None
            self.damaged = ""
        row = _row_of(entry)
        conn = self.connection()
        if conn is None:
            if self._busy:
                self._keep_beside(row, self._busy)
            return None
        kept = pending.kept(self.path)
        try:
            with _immediate(conn):
                merged, added = self._add_kept(conn, kept)
                entry_id = _insert(conn, row)
        except sqlite3.Error as exc:
            if retry and _is_corrupt(exc) and self._restart_damaged(exc):
                return self._add_unlocked(entry, retry=False)
            if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
                self._keep_beside(row, _why(exc))
                return None
            self._off(f"cannot write {self.path}: {_why(exc)}")
            return None
        pending.forget(merged)
        if added:
            self._say(f"history: added {added} record(s) kept while {self.path} was busy")
        entry.id, entry.created, entry.what = entry_id, row["created"], row["what"]
        return entry.id

    def _add_kept(self, conn: sqlite3.Connection, files: list[Path]) -> tuple[list[Path], int]:
        """Insert the rows kept in ``files`` (inside the caller's transaction) that are not in
        the history yet; returns the files whose rows are now in it (to delete after the
        commit) and how many rows were inserted."""
        done: list[Path] = []
        added = 0
        for path in files:
            row = pending.read_kept(path)
            if row is None:
                continue
            there = conn.execute(
                "SELECT 1 FROM entries WHERE created = ? AND what = ?",
                (row["created"], row["what"]),
            ).fetchone()
            if there is None:
                _insert(conn, row)
                added += 1
            done.append(path)
        return done, added

    def _keep_beside(self, row: dict[str, Any], why: str) -> None:
        """The history is busy: keep ``row`` in a file beside it (:func:`.pending.keep`) with a
        notice; history turns off only when that cannot be written either."""
        self.close()
        self._busy = ""
        try:
            kept = pending.keep(self.path, row)
        except OSError as exc:
            self._off(f"cannot write {self.path}: {why}; nor keep the record beside it: {exc}")
            return
        self._say(
            f"history: {self.path} is busy (another process holds its write lock: {why}); "
            f"waited {WRITE_WAIT_MS / 1000:g} s and kept this record in {kept.name}, added to "
            "the history by the next run that records"
        )

    def _restart_damaged(self, exc: sqlite3.Error) -> bool:
        """A write met damage SQLite found only now (a page past the header: SQLITE_CORRUPT on
        the insert, not at open): move the file aside when it is ours and start a new one.
        Returns whether a new file is open (the write can be made again)."""
        self.close()
        if not self._ours():
            return False
        try:
            self._move_aside(f"damaged ({exc})")
            self._conn = self._connect()
            self._migrate(self._conn)
        except (HistoryError, _Foreign, sqlite3.Error, OSError) as exc2:
            self.close()
            self._off(f"cannot start {self.path}: {exc2}")
            return False
        return True

    def _clear_unlocked(self, before: float | None = None) -> int:
        """Delete every entry (or those created before Unix time ``before``); returns how many.
        Frees the space (``VACUUM``) when everything was deleted."""
        conn = self._reader()
        if conn is None:
            return 0
        try:
            with _immediate(conn):
                if before is None:
                    conn.execute("DELETE FROM bodies")
                    count = conn.execute("DELETE FROM entries").rowcount
                else:
                    conn.execute(
                        "DELETE FROM bodies WHERE id IN (SELECT id FROM entries WHERE created < ?)",
                        (before,),
                    )
                    count = conn.execute(
                        "DELETE FROM entries WHERE created < ?", (before,)
                    ).rowcount
            if before is None:
                conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            if _is_corrupt(exc) and self._restart_damaged(exc):
                return 0  # moved aside (a notice names it): the history is empty now
            self._off(f"cannot write {self.path}: {_why(exc)}")
            return 0
        return int(count)

    # -- reading --------------------------------------------------------------------------------
    def _list_unlocked(self, query: Query | None = None, *, with_data: bool = False) -> list[Entry]:
        """Entries matching ``query``, newest first (``data`` only when ``with_data``)."""
        conn = self._reader()
        if conn is None:
            return []
        columns = SUMMARY_COLUMNS + (f", {BODY_COLUMNS}" if with_data else "")
        sql, params = select_sql(query or Query(), columns, with_data)
        try:
            rows = conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            self._read_failed(exc)
            return []
        return [entry_of_row(row, with_data) for row in rows]

    def _get_unlocked(self, entry_id: int) -> Entry | None:
        """The entry with ``entry_id`` (with its data), or ``None`` (also for an id SQLite
        cannot hold: below 1 or above :data:`SQLITE_MAX_INT`)."""
        conn = self._reader()
        if conn is None or not 1 <= int(entry_id) <= SQLITE_MAX_INT:
            return None
        try:
            row = conn.execute(
                f"SELECT {SUMMARY_COLUMNS}, {BODY_COLUMNS} FROM entries e "
                "LEFT JOIN bodies b ON b.id = e.id WHERE e.id = ?",
                (int(entry_id),),
            ).fetchone()
        except sqlite3.Error as exc:
            if not _is_corrupt(exc):
                self._off(f"cannot read {self.path}: {_why(exc)}")
                return None
            return self._summary_of_damaged(conn, int(entry_id), exc)
        return entry_of_row(row, True) if row else None

    def _summary_of_damaged(
        self, conn: sqlite3.Connection, entry_id: int, exc: sqlite3.Error
    ) -> Entry | None:
        """What is still readable of an entry whose stored record is on a damaged page: its
        list row (id, time, type, outcome, what), with :attr:`Entry.unreadable` saying why the
        rest is not; ``None`` when even that row cannot be read (:attr:`damaged` is set)."""
        self.damaged = _why(exc)
        try:
            row = conn.execute(
                f"SELECT {SUMMARY_COLUMNS}, e.what FROM entries e WHERE e.id = ?", (entry_id,)
            ).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        entry = entry_of_row(row, False)
        entry.what, entry.unreadable = row[-1] or "", self.damaged
        return entry

    def _count_unlocked(self) -> int:
        """How many entries are stored (0 when history is off)."""
        conn = self._reader()
        if conn is None:
            return 0
        try:
            return int(conn.execute("SELECT count(*) FROM entries").fetchone()[0])
        except sqlite3.Error:
            return 0

    # -- public, thread-safe ----------------------------------------------------------------------
    def add(self, entry: Entry) -> int | None:
        """Store ``entry`` (``created`` defaults to now); returns its id, or ``None`` when history
        is off or the write failed (then history turns off with a notice)."""
        with self._lock:
            return self._add_unlocked(entry)

    def add_kept(self) -> int:
        """Add the records kept beside the file while it was busy (:mod:`.pending`); returns
        how many were added (0 when there were none, or the file is still busy: they wait for
        the next write, with a notice). A reading command calls it first, so it lists them."""
        with self._lock:
            files = pending.kept(self.path)
            if not files:
                return 0
            conn = self.connection()
            if conn is None:
                return 0
            try:
                with _immediate(conn):
                    merged, added = self._add_kept(conn, files)
            except sqlite3.Error as exc:
                self._say(
                    f"history: {len(files)} record(s) kept beside {self.path} while it was busy "
                    f"are not in it yet ({_why(exc)}); the next run that records adds them"
                )
                return 0
            pending.forget(merged)
            return added

    def clear(self, before: float | None = None) -> int:
        """Delete every entry (or those created before Unix time ``before``); returns how many.
        Frees the space (``VACUUM``) when everything was deleted."""
        with self._lock:
            return self._clear_unlocked(before)

    def entries(self, query: Query | None = None, *, with_data: bool = False) -> list[Entry]:
        """Entries matching ``query``, newest first (``data`` only when ``with_data``)."""
        with self._lock:
            return self._list_unlocked(query, with_data=with_data)

    def summaries(self, query: Query | None = None) -> list[Entry]:
        """Entries matching ``query``, newest first, as a list shows them: their list columns
        and ``what`` from the ``entries`` table alone — no stored record is read, so a page
        costs the same whatever the records hold (``data``, ``source`` and ``hashes`` stay
        empty: :meth:`get` reads one entry's). ``[]`` when history is off or the file cannot
        be read (:attr:`damaged` / a notice says why)."""
        with self._lock:
            conn = self._reader()
            if conn is None:
                return []
            sql, params = select_sql(query or Query(), f"{SUMMARY_COLUMNS}, e.what", False)
            try:
                rows = conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                self._read_failed(exc)
                return []
        out = []
        for row in rows:
            entry = entry_of_row(row, False)
            entry.what = row[-1] or ""
            out.append(entry)
        return out

    def glance(self, entry_id: int) -> dict[str, Any] | None:
        """What a detail line shows of one entry's stored record, without reading a big one:
        ``{"size": bytes of the stored record, "hashes": {contract: sha256}}``, and when the
        record is at most :data:`GLANCE_BYTES` (it is then read and parsed) also
        ``"verdict"``, ``"body_ran"``, ``"cache"``, ``"value"`` (JSON text) and ``"reply"``
        (text), each cut to :data:`GLANCE_CHARS` characters. The size comes from SQLite's
        incremental blob handle (:meth:`sqlite3.Connection.blobopen`), which reads no page of
        the record. ``None`` when there is no such entry or it cannot be read."""
        with self._lock:
            conn = self._reader()
            if conn is None or not 1 <= int(entry_id) <= SQLITE_MAX_INT:
                return None
            try:
                row = conn.execute(
                    "SELECT hashes FROM bodies WHERE id = ?", (int(entry_id),)
                ).fetchone()
                if row is None:
                    return None
                with conn.blobopen("bodies", "data", int(entry_id), readonly=True) as blob:
                    size = len(blob)
                    text = blob.read().decode("utf-8", "replace") if size <= GLANCE_BYTES else ""
            except sqlite3.Error as exc:
                if _is_corrupt(exc):
                    self.damaged = _why(exc)
                return None
        try:
            hashes = json.loads(row[0]) if row[0] else {}
        except ValueError:
            hashes = {}
        out: dict[str, Any] = {"size": size, "hashes": hashes if isinstance(hashes, dict) else {}}
        try:
            data = json.loads(text) if text else None
        except ValueError:
            data = None
        if isinstance(data, dict):
            out.update(
                verdict=data.get("verdict"),
                body_ran=bool(data.get("body_ran")),
                cache=data.get("cache"),
                value=json_text(data.get("value"))[:GLANCE_CHARS],
                reply=str(data.get("reply") or "")[:GLANCE_CHARS],
            )
        return out

    def json_lines(self, query: Query | None = None) -> Iterator[str]:
        """Each entry matching ``query`` (newest first) as one compact JSON object, the
        :meth:`Entry.to_json` shape with its ``data``, read a page at a time (memory stays flat).

        The stored record or episode text is written into the line as it is, not parsed and
        dumped again (it was stored as strict JSON by :func:`json_text`); a row stored by an
        older version with a bare ``NaN`` goes through :func:`json.loads` first. Stops (after a
        notice) when the file cannot be read."""
        columns = f"{SUMMARY_COLUMNS}, {BODY_COLUMNS}"
        for rows in self._pages(query or Query(), columns, True):
            yield from json_lines_of_rows(rows)

    def summary_rows(self, query: Query | None = None) -> Iterator[tuple[Any, ...]]:
        """What a list of the entries matching ``query`` shows, newest first: tuples of
        :data:`LIST_COLUMNS` (id, created, type, outcome, router, what, rerun_of), read from
        the ``entries_list`` index alone (no JSON is parsed) a page at a time, so a list of
        any length is printed in flat memory."""
        for rows in self.summary_pages(query):
            yield from rows

    def summary_pages(self, query: Query | None = None) -> Iterator[list[tuple[Any, ...]]]:
        """:meth:`summary_rows` a page (up to :data:`PAGE_ROWS` rows) at a time: a printer
        that formats a page with one comprehension pays no generator step per row."""
        return self._pages(query or Query(), LIST_COLUMNS, False)

    def summary_shape(self, query: Query | None = None) -> tuple[int, set[tuple[str, str, str]]]:
        """What a table needs to size its columns before its rows arrive: the largest id and
        the distinct ``(type, outcome, router)`` among the entries matching ``query``
        (``(0, set())`` when there are none or history is off)."""
        conn = self._reader()
        if conn is None:
            return 0, set()
        sql, params = select_sql(query or Query(), "e.id, e.type, e.outcome, e.router", False)
        with self._lock:
            try:
                top = conn.execute(f"SELECT max(id) FROM ({sql})", params).fetchone()[0]
                kinds = conn.execute(
                    f"SELECT DISTINCT type, outcome, router FROM ({sql})", params
                ).fetchall()
            except sqlite3.Error as exc:
                self._read_failed(exc)
                return 0, set()
        return int(top or 0), {(t, o, r) for t, o, r in kinds}

    def _pages(self, q: Query, columns: str, join: bool) -> Iterator[list[tuple[Any, ...]]]:
        """The rows of :func:`~playground.history.queries.select_sql` in pages of :data:`PAGE_ROWS` (stops after a notice when
        the file cannot be read)."""
        conn = self._reader()
        if conn is None:
            return
        sql, params = select_sql(q, columns, join)
        with self._lock:
            try:
                cursor = conn.execute(sql, params)
            except sqlite3.Error as exc:
                self._read_failed(exc)
                return
        done = 0
        while True:
            with self._lock:
                try:
                    rows = cursor.fetchmany(PAGE_ROWS)
                except sqlite3.Error as exc:
                    self._read_failed(exc)
                    rows = self._rows_before_damage(sql, params, done) if self.damaged else []
                    if rows:
                        yield rows
                    return
            if not rows:
                return
            done += len(rows)
            yield rows

    def _rows_before_damage(self, sql: str, params: list[Any], skip: int) -> list[tuple[Any, ...]]:
        """The rows of ``sql`` after the first ``skip`` that can be read before its damaged
        page, one at a time (a page read with ``fetchmany`` is lost whole at the damage)."""
        rows: list[tuple[Any, ...]] = []
        conn = self._conn
        if conn is None:
            return rows
        with contextlib.suppress(sqlite3.Error):
            cursor = conn.execute(sql, params)
            for _ in range(skip):
                cursor.fetchone()
            while (row := cursor.fetchone()) is not None:
                rows.append(row)
        return rows

    def get(self, entry_id: int) -> Entry | None:
        """The entry with ``entry_id`` (with its data), or ``None`` when there is none (any
        int: ids outside SQLite's 64-bit range are simply not found)."""
        with self._lock:
            return self._get_unlocked(entry_id)

    def count(self) -> int:
        """How many entries are stored (0 when history is off)."""
        with self._lock:
            return self._count_unlocked()


def _row_of(entry: Entry) -> dict[str, Any]:
    """The columns :func:`_insert` writes for ``entry`` (keys :data:`.pending.ROW_KEYS`),
    redacted (:func:`redact`): ``created`` defaults to now, ``what`` comes from the redacted
    data, so no key is in the list."""
    secrets = env_secrets()
    redacted = redact(entry.data, secrets)
    return {
        "created": entry.created or time.time(),
        "type": entry.type,
        "tool": entry.tool,
        "tools": joined_list(entry.tools),
        "kinds": joined_list(entry.kinds),
        "outcome": entry.outcome,
        "question": entry.question,
        "router": entry.router,
        "origin": entry.origin,
        "rerun_of": entry.rerun_of,
        "what": what_of(entry.type, redacted),
        "source": redact(entry.source, secrets),
        "hashes": json.dumps(entry.hashes, sort_keys=True),
        "data": json_text(redacted),
        "mcp": json_text(redact(entry.mcp, secrets)),
    }


def _insert(conn: sqlite3.Connection, row: Mapping[str, Any]) -> int:
    """Insert one entry's ``row`` (:func:`_row_of`) into ``entries`` and ``bodies`` inside the
    caller's transaction; returns its id."""
    cursor = conn.execute(
        "INSERT INTO entries (created, type, tool, tools, kinds, outcome, question, "
        "router, origin, rerun_of, what) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        tuple(row[k] for k in pending.ROW_KEYS[:11]),
    )
    entry_id = int(cursor.lastrowid or 0)
    conn.execute(
        "INSERT INTO bodies (id, source, hashes, data, mcp) VALUES (?, ?, ?, ?, ?)",
        (entry_id, *(row[k] for k in pending.ROW_KEYS[11:])),
    )
    return entry_id


class _Foreign(Exception):
    """The file is SQLite but not ours, or unreadable: refused, or moved aside when its header
    says it is a playground history (:meth:`HistoryStore._ours`)."""


def _current(conn: sqlite3.Connection) -> bool:
    """Whether the file is already in WAL mode with this playground's id and schema version:
    then opening it needs no write (a reader's snapshot is enough, so a process holding the
    write lock does not hold up the open)."""
    mode, version, app_id = conn.execute(
        "SELECT (SELECT journal_mode FROM pragma_journal_mode()), "
        "(SELECT user_version FROM pragma_user_version()), "
        "(SELECT application_id FROM pragma_application_id())"
    ).fetchone()
    return str(mode).lower() == "wal" and version == SCHEMA_VERSION and app_id == APPLICATION_ID


def _check_ours(conn: sqlite3.Connection) -> None:
    """Raise :class:`_Foreign` when the database is another program's: an ``application_id``
    that is not ours, or none and tables of its own. Only reads, in one statement: two would be
    two snapshots, and a process creating the file between them would show tables without
    the id it set in the same transaction."""
    app_id, tables = conn.execute(
        "SELECT (SELECT application_id FROM pragma_application_id()), "
        "(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name != 'sqlite_sequence')"
    ).fetchone()
    if int(app_id) not in (0, APPLICATION_ID) or (int(app_id) == 0 and tables):
        raise _Foreign("another program's SQLite database")


#: SQLite's primary result codes of a damaged file (sqlite.org/rescode.html): SQLITE_CORRUPT,
#: SQLITE_NOTADB.
_DAMAGE_CODES = frozenset({11, 26})


def _is_corrupt(exc: BaseException) -> bool:
    """Whether SQLite said the file is damaged: the error's primary result code (the low byte
    of ``sqlite_errorcode``, so SQLITE_CORRUPT_INDEX and the other extended codes count) is
    SQLITE_CORRUPT or SQLITE_NOTADB. Found on whatever statement first reads a damaged page:
    at open, on a write, or on a later page of a list."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return (code & 0xFF) in _DAMAGE_CODES
    text = str(exc).lower()  # an error raised without a code (our own OperationalError)
    return "not a database" in text or "malformed" in text


def _why(exc: BaseException) -> str:
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return "the file or its folder is read-only"
    if "unable to open" in text:
        return "the file cannot be opened (is its folder writable?)"
    return text


def resolve_path(
    option: str | Path | None = None,
    *,
    disabled: bool = False,
    environ: Mapping[str, str] | None = None,
) -> Path | None:
    """The history file to use, or ``None`` when history is off.

    Order: ``disabled`` (``--no-history``) → ``option`` (``--history PATH``) →
    ``PLAYGROUND_HISTORY`` (``off``/``0``/``no``/``false``/``none`` or empty: off) →
    ``.playground/history.db`` in the working directory.
    """
    if disabled:
        return None
    if option is not None and str(option) != "":
        return Path(option)
    env = os.environ if environ is None else environ
    if ENV_VAR in env:
        value = env[ENV_VAR].strip()
        if not value or value.lower() in OFF_VALUES:
            return None
        return Path(value)
    return DEFAULT_PATH


def open_history(
    option: str | Path | None = None,
    *,
    disabled: bool = False,
    notice: Callable[[str], None] | None = None,
    environ: Mapping[str, str] | None = None,
) -> HistoryStore | None:
    """A :class:`HistoryStore` at :func:`resolve_path`'s file, or ``None`` when history is off."""
    path = resolve_path(option, disabled=disabled, environ=environ)
    return None if path is None else HistoryStore(path, notice)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether ``exc`` is SQLite's "database is locked" / "database is busy" (SQLITE_BUSY,
    SQLITE_LOCKED): another connection holds the lock; trying again may succeed."""
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _special_file(path: Path) -> bool:
    """Whether ``path`` exists and is neither a regular file nor a folder (a FIFO, a device,
    a socket; links followed)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))
