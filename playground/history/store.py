"""History: every hand-test call record and episode, kept in a local SQLite file (issue 14).

The store is the standard library's :mod:`sqlite3` in WAL mode (https://sqlite.org/wal.html:
readers never block the writer, and one writer at a time waits on ``busy_timeout``), so two
playground processes writing at once lose nothing. The schema is versioned with
``PRAGMA user_version`` and migrated forward by :data:`MIGRATIONS`; ``PRAGMA application_id``
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

What is stored (:class:`Entry`): the record or episode JSON (``to_json()`` as given, after
:func:`redact` removed API keys and header values), the tool source, the time, the router, and
the sha256 of each involved contract's declaration (:meth:`Contract.declaration_hash`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

#: ``PRAGMA application_id`` of a playground history file ("TPhi" as a big-endian int32).
APPLICATION_ID = 0x54506869
DEFAULT_PATH = Path(".playground") / "history.db"
ENV_VAR = "PLAYGROUND_HISTORY"
OFF_VALUES = frozenset({"off", "0", "no", "false", "none"})
#: How long a writer waits for another process's write to finish (ms).
BUSY_TIMEOUT_MS = 10_000
SQLITE_MAGIC = b"SQLite format 3\x00"
#: The largest integer SQLite stores (a signed 64-bit INTEGER): an id above it names no entry,
#: a limit above it means no limit (https://www.sqlite.org/datatype3.html).
SQLITE_MAX_INT = 2**63 - 1

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
#: The longest ``what`` stored (characters; longer ones end in ``…``): one line of a list.
WHAT_MAX = 200

#: Columns of a listing row, then of its body.
SUMMARY_COLUMNS = (
    "e.id, e.created, e.type, e.tool, e.tools, e.kinds, e.outcome, e.question, e.router, "
    "e.origin, e.rerun_of"
)
BODY_COLUMNS = "b.source, b.hashes, b.data, e.what, b.mcp"
#: Columns a word of ``Query.text`` (the TUI's filter box) is looked for in.
TEXT_COLUMNS = ("e.what", "e.tools", "e.kinds", "e.type", "e.router", "e.outcome")
#: Rows read at a time when a list is streamed (:meth:`HistoryStore.json_lines`).
PAGE_ROWS = 2000
#: Columns of a list's row (what ``playground history`` and the TUI print), in this order.
LIST_COLUMNS = "e.id, e.created, e.type, e.outcome, e.router, e.what, e.rerun_of"

# -- redaction -----------------------------------------------------------------------------------

#: Dict keys whose values are never stored (compared lower-case, ``-`` read as ``_``).
SECRET_KEYS = frozenset(
    {
        "headers",
        "authorization",
        "proxy_authorization",
        "api_key",
        "apikey",
        "x_goog_api_key",
        "x_api_key",
        "cookie",
        "set_cookie",
    }
)
#: Environment variables whose values are cut out of every stored string.
SECRET_ENV = ("GEMINI_API_KEY", "GOOGLE_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY")
REDACTED = "[redacted]"
_URL_USERINFO = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s]+@")


def redact(value: Any, secrets: Iterable[str] = ()) -> Any:
    """``value`` with header values and keys removed, for storing.

    Dict entries under :data:`SECRET_KEYS` become ``"[redacted]"``; every string has each of
    ``secrets`` (the values of :data:`SECRET_ENV` when set, at least 8 characters) and a URL's
    ``user:password@`` replaced by ``[redacted]``; then
    :func:`playground.core.redaction.redact`: values under secret names (``password``,
    ``token``, ``client_secret``, … at any depth) and key-looking strings. Returns a new value;
    ``value`` is unchanged.
    """
    from playground.core import redaction

    cut = [s for s in secrets if len(s) >= 8]

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            for secret in cut:
                if secret in v:
                    v = v.replace(secret, REDACTED)
            return _URL_USERINFO.sub(rf"\1{REDACTED}@", v) if "://" in v else v
        if isinstance(v, dict):
            return {
                k: (
                    REDACTED
                    if isinstance(k, str) and k.lower().replace("-", "_") in SECRET_KEYS
                    else walk(x)
                )
                for k, x in v.items()
            }
        if isinstance(v, (list, tuple)):
            return [walk(x) for x in v]
        return v

    return redaction.redact(walk(value))


def env_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """The values of :data:`SECRET_ENV` set in ``environ`` (default ``os.environ``)."""
    env = os.environ if environ is None else environ
    return [env[name] for name in SECRET_ENV if env.get(name)]


# -- entries -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Entry:
    """One history entry. ``id``: its row id (0 before it is stored). ``created``: Unix time
    (s). ``type``: ``call`` or ``episode``. ``data``: the record or episode JSON (``None`` in a
    listing that left it out; ``source`` and ``hashes`` too). ``hashes``: ``{contract: sha256}``. ``tools`` / ``kinds``: every
    tool called and every outcome kind. ``outcome``: a call's kind or an episode's ``end``."""

    type: str
    data: Any
    created: float = 0.0
    id: int = 0
    tool: str = ""
    tools: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    outcome: str = ""
    question: str | None = None
    router: str = ""
    source: str = ""
    origin: str = ""
    rerun_of: int | None = None
    hashes: dict[str, str] = field(default_factory=dict)
    what: str = ""
    mcp: list[dict[str, Any]] = field(default_factory=list)

    @property
    def time_text(self) -> str:
        """``created`` as local ``YYYY-MM-DD HH:MM:SS``."""
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.created))

    def to_json(self) -> dict[str, Any]:
        """``{"id", "time" (ISO 8601, local, seconds), "created" (Unix s), "type", "tool",
        "tools", "kinds", "outcome", "question", "router", "source", "origin", "rerun_of",
        "declaration_hashes", "what", "mcp", "data"}`` (``data`` only when it was loaded;
        ``what``: the list's one-line summary, :func:`what_of`; ``mcp``: the MCP servers the run
        used, without header or env values, as :func:`mcp_sources` gives)."""
        out: dict[str, Any] = {
            "id": self.id,
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(self.created)),
            "created": round(self.created, 6),
            "type": self.type,
            "tool": self.tool,
            "tools": list(self.tools),
            "kinds": list(self.kinds),
            "outcome": self.outcome,
            "question": self.question,
            "router": self.router,
            "source": self.source,
            "origin": self.origin,
            "rerun_of": self.rerun_of,
            "declaration_hashes": dict(self.hashes),
            "what": self.what,
            "mcp": list(self.mcp),
        }
        if self.data is not None:
            out["data"] = self.data
        return out


def call_entry(
    record: Mapping[str, Any],
    hashes: Mapping[str, str] | None = None,
    *,
    source: str = "",
    origin: str = "",
    rerun_of: int | None = None,
    mcp: Iterable[Mapping[str, Any]] = (),
) -> Entry:
    """An :class:`Entry` for one call record (``CallRecord.to_json()``, stored as given).
    ``mcp``: the MCP servers the run used (see :attr:`Entry.mcp`)."""
    tool = str(record.get("tool") or "")
    kind = str(record.get("kind") or "")
    return Entry(
        type="call",
        data=dict(record),
        tool=tool,
        tools=[tool] if tool else [],
        kinds=[kind] if kind else [],
        outcome=kind,
        source=source,
        origin=origin,
        rerun_of=rerun_of,
        hashes=dict(hashes or {}),
        what=what_of("call", record),
        mcp=[dict(m) for m in mcp],
    )


def episode_entry(
    episode: Mapping[str, Any],
    hashes: Mapping[str, str] | None = None,
    *,
    source: str = "",
    origin: str = "",
    rerun_of: int | None = None,
    mcp: Iterable[Mapping[str, Any]] = (),
) -> Entry:
    """An :class:`Entry` for one episode (``Episode.to_json()``, stored as given).
    ``mcp``: the MCP servers the run used (see :attr:`Entry.mcp`)."""
    calls = [c for c in episode.get("calls") or [] if isinstance(c, Mapping)]
    tools: list[str] = []
    kinds: list[str] = []
    for call in calls:
        for bucket, value in ((tools, call.get("tool")), (kinds, call.get("kind"))):
            if isinstance(value, str) and value and value not in bucket:
                bucket.append(value)
    question = episode.get("question")
    return Entry(
        type="episode",
        data=dict(episode),
        tool=tools[0] if tools else "",
        tools=tools,
        kinds=kinds,
        outcome=str(episode.get("end") or ""),
        question=question if isinstance(question, str) else None,
        router=str(episode.get("router") or ""),
        source=source,
        origin=origin,
        rerun_of=rerun_of,
        hashes=dict(hashes or {}),
        what=what_of("episode", episode),
        mcp=[dict(m) for m in mcp],
    )


@dataclass(frozen=True)
class Query:
    """Filters of a listing. ``tool``: an entry that called it. ``kind``: an outcome kind one
    of its calls had (``ok``, ``invalid_args``, ...), or the entry type ``call`` / ``episode``.
    ``question``: a substring of the question (case-insensitive for ASCII). ``text``: words
    that must each appear in the list's summary (``what``), the router, the type or a kind
    (the TUI's filter box). ``since`` / ``before``: Unix time (s). ``older_than``: ``(created,
    id)`` of the last row of the previous page: only the entries listed after it (a page that
    stays right while new entries arrive). ``limit``: rows, newest first (``None``: all)."""

    tool: str | None = None
    kind: str | None = None
    question: str | None = None
    since: float | None = None
    before: float | None = None
    limit: int | None = 50
    text: str | None = None
    older_than: tuple[float, int] | None = None


_CONTROL_CHARS = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x20), 0x7F)}


def what_of(kind: str, data: Any) -> str:
    """The one-line summary a list shows for a record or episode: ``tool({"a": 1})`` for a
    call (its arguments as compact JSON, Hangul as is), the question for a question episode,
    ``manual: tool`` for ``call --repair``. Control characters are escaped (``\\x1b``), and
    text past :data:`WHAT_MAX` characters is cut with ``…``."""
    d = data if isinstance(data, Mapping) else {}
    if kind == "call":
        text = f"{d.get('tool') or ''}({json_text(d.get('args'))})"
    elif isinstance(d.get("question"), str):
        text = d["question"]
    else:
        text = f"manual: {picked_call(d)[0] or ''}"
    text = text.translate(_CONTROL_CHARS)
    return text if len(text) <= WHAT_MAX else text[: WHAT_MAX - 1] + "…"


def json_text(value: Any) -> str:
    """``value`` as strict JSON text (RFC 8259; Hangul as is; objects JSON cannot carry via
    ``repr``): a non-finite float becomes the string ``"NaN"`` / ``"Infinity"`` /
    ``"-Infinity"``, so the stored text is always readable by any JSON parser."""
    try:
        return json.dumps(value, ensure_ascii=False, default=repr, allow_nan=False)
    except ValueError:
        return json.dumps(_finite(value), ensure_ascii=False, default=repr, allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and value != value:
        return "NaN"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


# -- the store -----------------------------------------------------------------------------------


class HistoryError(Exception):
    """A history database could not be opened or written (never leaves :class:`HistoryStore`)."""


class HistoryStore:
    """The history database at ``path``.

    ``notice``: called with each one-line notice (a file moved aside, history turned off).
    Opening is lazy (first read or write). When the store cannot work it turns itself off:
    :attr:`enabled` becomes ``False``, a notice says why, writes are skipped and reads return
    nothing. Methods never raise :mod:`sqlite3` errors.
    """

    def __init__(self, path: str | Path, notice: Callable[[str], None] | None = None) -> None:
        self.path = Path(path)
        self.notices: list[str] = []
        self.enabled = True
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
        why = self._foreign_reason()
        if why:
            raise HistoryError(self._refusal(why))
        try:
            conn = self._connect()
            self._migrate(conn)
        except _Foreign as exc:
            with contextlib.suppress(Exception):
                conn.close()
            if not self._ours():  # the user's file: never renamed, never written
                raise HistoryError(self._refusal(str(exc))) from None
            self._move_aside(str(exc))
            try:
                conn = self._connect()
                self._migrate(conn)
            except (sqlite3.Error, OSError, _Foreign) as exc2:
                raise HistoryError(f"cannot start {self.path}: {exc2}") from None
        except (sqlite3.Error, OSError) as exc:
            raise HistoryError(f"cannot write {self.path}: {_why(exc)}") from None
        return conn

    def _connect(self) -> sqlite3.Connection:
        # Create the file 0600 first: sqlite3 would create it with the umask's mode, and the
        # -wal / -shm files copy the main file's permissions.
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
        conn = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
        )
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
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
            f"history: {self.path} was {why}; moved it to {target.name} and started a new one"
        )

    def close(self) -> None:
        """Close the connection (reopened on next use while enabled)."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    # -- writing --------------------------------------------------------------------------------
    def _add_unlocked(self, entry: Entry) -> int | None:
        """Store ``entry`` (``created`` defaults to now); returns its id, or ``None`` when history
        is off or the write failed (then history turns off with a notice)."""
        conn = self.connection()
        if conn is None:
            return None
        created = entry.created or time.time()
        secrets = env_secrets()
        redacted = redact(entry.data, secrets)
        data = json_text(redacted)
        what = what_of(entry.type, redacted)  # from the redacted data: no key in the list
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                cursor = conn.execute(
                    "INSERT INTO entries (created, type, tool, tools, kinds, outcome, question, "
                    "router, origin, rerun_of, what) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        created,
                        entry.type,
                        entry.tool,
                        _joined(entry.tools),
                        _joined(entry.kinds),
                        entry.outcome,
                        entry.question,
                        entry.router,
                        entry.origin,
                        entry.rerun_of,
                        what,
                    ),
                )
                conn.execute(
                    "INSERT INTO bodies (id, source, hashes, data, mcp) VALUES (?, ?, ?, ?, ?)",
                    (
                        cursor.lastrowid,
                        redact(entry.source, secrets),
                        json.dumps(entry.hashes, sort_keys=True),
                        data,
                        json_text(redact(entry.mcp, secrets)),
                    ),
                )
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            self._off(f"cannot write {self.path}: {_why(exc)}")
            return None
        entry.id, entry.created, entry.what = int(cursor.lastrowid or 0), created, what
        return entry.id

    def _clear_unlocked(self, before: float | None = None) -> int:
        """Delete every entry (or those created before Unix time ``before``); returns how many.
        Frees the space (``VACUUM``) when everything was deleted."""
        conn = self._reader()
        if conn is None:
            return 0
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
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
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
            if before is None:
                conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            self._off(f"cannot write {self.path}: {_why(exc)}")
            return 0
        return int(count)

    # -- reading --------------------------------------------------------------------------------
    def _query(self, q: Query, columns: str, join: bool) -> tuple[str, list[Any]]:
        """The SQL (and its parameters) selecting ``columns`` of the entries matching ``q``,
        newest first; ``join``: with their ``bodies`` row (alias ``b``)."""
        where: list[str] = []
        params: list[Any] = []
        if q.tool:
            where.append("e.tools LIKE ? ESCAPE '\\'")
            params.append(f"%,{_like(q.tool)},%")
        if q.kind in ("call", "episode"):
            where.append("e.type = ?")
            params.append(q.kind)
        elif q.kind:
            where.append("e.kinds LIKE ? ESCAPE '\\'")
            params.append(f"%,{_like(q.kind)},%")
        if q.question:
            where.append("e.question LIKE ? ESCAPE '\\'")
            params.append(f"%{_like(q.question)}%")
        if q.text:
            for word in q.text.split():
                where.append(
                    "(" + " OR ".join(f"{c} LIKE ? ESCAPE '\\'" for c in TEXT_COLUMNS) + ")"
                )
                params.extend([f"%{_like(word)}%"] * len(TEXT_COLUMNS))
        if q.since is not None:
            where.append("e.created >= ?")
            params.append(q.since)
        if q.before is not None:
            where.append("e.created < ?")
            params.append(q.before)
        if q.older_than is not None:
            where.append("(e.created < ? OR (e.created = ? AND e.id < ?))")
            params.extend(
                [q.older_than[0], q.older_than[0], min(int(q.older_than[1]), SQLITE_MAX_INT)]
            )
        sql = f"SELECT {columns} FROM entries e"
        if join:
            sql += " LEFT JOIN bodies b ON b.id = e.id"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY e.created DESC, e.id DESC"
        if q.limit is not None:
            sql += " LIMIT ?"
            params.append(min(max(0, int(q.limit)), SQLITE_MAX_INT))
        return sql, params

    def _list_unlocked(self, query: Query | None = None, *, with_data: bool = False) -> list[Entry]:
        """Entries matching ``query``, newest first (``data`` only when ``with_data``)."""
        conn = self._reader()
        if conn is None:
            return []
        columns = SUMMARY_COLUMNS + (f", {BODY_COLUMNS}" if with_data else "")
        sql, params = self._query(query or Query(), columns, with_data)
        try:
            rows = conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            self._off(f"cannot read {self.path}: {_why(exc)}")
            return []
        return [_entry_of(row, with_data) for row in rows]

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
            self._off(f"cannot read {self.path}: {_why(exc)}")
            return None
        return _entry_of(row, True) if row else None

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

    def clear(self, before: float | None = None) -> int:
        """Delete every entry (or those created before Unix time ``before``); returns how many.
        Frees the space (``VACUUM``) when everything was deleted."""
        with self._lock:
            return self._clear_unlocked(before)

    def entries(self, query: Query | None = None, *, with_data: bool = False) -> list[Entry]:
        """Entries matching ``query``, newest first (``data`` only when ``with_data``)."""
        with self._lock:
            return self._list_unlocked(query, with_data=with_data)

    def json_lines(self, query: Query | None = None) -> Iterator[str]:
        """Each entry matching ``query`` (newest first) as one compact JSON object, the
        :meth:`Entry.to_json` shape with its ``data``, read a page at a time (memory stays flat).

        The stored record or episode text is written into the line as it is, not parsed and
        dumped again (it was stored as strict JSON by :func:`json_text`); a row stored by an
        older version with a bare ``NaN`` goes through :func:`json.loads` first. Stops (after a
        notice) when the file cannot be read."""
        columns = f"{SUMMARY_COLUMNS}, {BODY_COLUMNS}"
        for rows in self._pages(query or Query(), columns, True):
            yield from _json_lines(rows)

    def summary_rows(self, query: Query | None = None) -> Iterator[tuple[Any, ...]]:
        """What a list of the entries matching ``query`` shows, newest first: tuples of
        :data:`LIST_COLUMNS` (id, created, type, outcome, router, what, rerun_of), read from
        the ``entries_list`` index alone (no JSON is parsed) a page at a time, so a list of
        any length is printed in flat memory."""
        for rows in self._pages(query or Query(), LIST_COLUMNS, False):
            yield from rows

    def summary_shape(self, query: Query | None = None) -> tuple[int, set[tuple[str, str, str]]]:
        """What a table needs to size its columns before its rows arrive: the largest id and
        the distinct ``(type, outcome, router)`` among the entries matching ``query``
        (``(0, set())`` when there are none or history is off)."""
        conn = self._reader()
        if conn is None:
            return 0, set()
        sql, params = self._query(query or Query(), "e.id, e.type, e.outcome, e.router", False)
        with self._lock:
            try:
                top = conn.execute(f"SELECT max(id) FROM ({sql})", params).fetchone()[0]
                kinds = conn.execute(
                    f"SELECT DISTINCT type, outcome, router FROM ({sql})", params
                ).fetchall()
            except sqlite3.Error as exc:
                self._off(f"cannot read {self.path}: {_why(exc)}")
                return 0, set()
        return int(top or 0), {(t, o, r) for t, o, r in kinds}

    def _pages(self, q: Query, columns: str, join: bool) -> Iterator[list[tuple[Any, ...]]]:
        """The rows of :meth:`_query` in pages of :data:`PAGE_ROWS` (stops after a notice when
        the file cannot be read)."""
        conn = self._reader()
        if conn is None:
            return
        sql, params = self._query(q, columns, join)
        with self._lock:
            try:
                cursor = conn.execute(sql, params)
            except sqlite3.Error as exc:
                self._off(f"cannot read {self.path}: {_why(exc)}")
                return
        while True:
            with self._lock:
                try:
                    rows = cursor.fetchmany(PAGE_ROWS)
                except sqlite3.Error as exc:
                    self._off(f"cannot read {self.path}: {_why(exc)}")
                    return
            if not rows:
                return
            yield rows

    def get(self, entry_id: int) -> Entry | None:
        """The entry with ``entry_id`` (with its data), or ``None`` when there is none (any
        int: ids outside SQLite's 64-bit range are simply not found)."""
        with self._lock:
            return self._get_unlocked(entry_id)

    def count(self) -> int:
        """How many entries are stored (0 when history is off)."""
        with self._lock:
            return self._count_unlocked()


class _Foreign(Exception):
    """The file is SQLite but not ours, or unreadable: refused, or moved aside when its header
    says it is a playground history (:meth:`HistoryStore._ours`)."""


def _check_ours(conn: sqlite3.Connection) -> None:
    """Raise :class:`_Foreign` when the database is another program's: an ``application_id``
    that is not ours, or none and tables of its own. Only reads."""
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if app_id not in (0, APPLICATION_ID) or (app_id == 0 and (tables - {"sqlite_sequence"})):
        raise _Foreign("another program's SQLite database")


def _is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text or "corrupt" in text


def _why(exc: BaseException) -> str:
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return "the file or its folder is read-only"
    if "unable to open" in text:
        return "the file cannot be opened (is its folder writable?)"
    return text


def _joined(values: Iterable[str]) -> str:
    items = [v for v in values if v]
    return f",{','.join(items)}," if items else ""


def _split(text: str) -> list[str]:
    return text.strip(",").split(",") if text else []


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _entry_of(row: tuple[Any, ...], with_data: bool) -> Entry:
    entry_id, created, type_, tool, tools, kinds, outcome, question, router, origin, rerun_of = row[
        :11
    ]
    entry = Entry(
        type=type_,
        data=None,
        created=created,
        id=entry_id,
        tool=tool,
        tools=_split(tools),
        kinds=_split(kinds),
        outcome=outcome,
        question=question,
        router=router,
        origin=origin,
        rerun_of=rerun_of,
    )
    if with_data and len(row) > 11:
        source, hashes, data, entry.what, mcp = row[11:16]
        try:
            mcp_list = json.loads(mcp) if mcp else []
        except ValueError:
            mcp_list = []
        entry.mcp = (
            [m for m in mcp_list if isinstance(m, dict)] if isinstance(mcp_list, list) else []
        )
        entry.source = source or ""
        try:
            hash_map = json.loads(hashes) if hashes else {}
        except ValueError:
            hash_map = {}
        entry.hashes = hash_map if isinstance(hash_map, dict) else {}
        try:
            entry.data = json.loads(data) if data is not None else None
        except ValueError:
            entry.data = data
    return entry


def _strict(text: str | None) -> str:
    """Stored JSON text as strict JSON: as it is, unless an older version stored a bare
    ``NaN``/``Infinity`` (or the text is not JSON at all: then it becomes a JSON string)."""
    if text is None:
        return "null"
    if "NaN" not in text and "Infinity" not in text:
        return text
    try:
        return json_text(json.loads(text))
    except ValueError:
        return json_text(text)


#: ``MM:SS`` for each second of an hour.
_MINUTE_SECOND = [f"{m:02d}:{s:02d}" for m in range(60) for s in range(60)]


class LocalTimes:
    """Unix times (s) as local date-times, fast for many rows: the UTC offset is looked up once
    per quarter hour (:func:`time.localtime`'s ``tm_gmtoff``, so daylight saving is followed:
    offsets and their changes fall on quarter hours) and the ``YYYY-MM-DD HH`` text once per
    local hour; minutes and seconds come from a table. Same text as :func:`time.strftime` with
    :func:`time.localtime` (whole seconds, truncated)."""

    def __init__(self) -> None:
        self._offsets: dict[int, tuple[int, str]] = {}
        self._hours: dict[int, str] = {}

    def _offset(self, quarter: int) -> tuple[int, str]:
        """``(local - UTC seconds, "+HHMM")`` in the quarter hour ``quarter`` (Unix s / 900)."""
        off = time.localtime(quarter * 900).tm_gmtoff
        sign, mins = ("-", -off // 60) if off < 0 else ("+", off // 60)
        found = self._offsets[quarter] = (off, f"{sign}{mins // 60:02d}{mins % 60:02d}")
        return found

    def _hour(self, local_hour: int) -> str:
        """``YYYY-MM-DD HH`` of a local hour (local Unix s / 3600)."""
        text = self._hours[local_hour] = time.strftime(
            "%Y-%m-%d %H", time.gmtime(local_hour * 3600)
        )
        return text

    def text(self, created: float) -> str:
        """``YYYY-MM-DD HH:MM:SS`` (local; :attr:`Entry.time_text`)."""
        whole = int(created // 1)
        off = (self._offsets.get(whole // 900) or self._offset(whole // 900))[0]
        local = whole + off
        hour = self._hours.get(local // 3600) or self._hour(local // 3600)
        return f"{hour}:{_MINUTE_SECOND[local % 3600]}"

    def iso(self, created: float) -> str:
        """``YYYY-MM-DDTHH:MM:SS+HHMM`` (local; the ``time`` of :meth:`Entry.to_json`)."""
        whole = int(created // 1)
        off, zone = self._offsets.get(whole // 900) or self._offset(whole // 900)
        local = whole + off
        hour = self._hours.get(local // 3600) or self._hour(local // 3600)
        return f"{hour[:10]}T{hour[11:]}:{_MINUTE_SECOND[local % 3600]}{zone}"


class _Memo(dict[Any, str]):
    """``memo[value]``: ``make(value)``, made once per distinct value (a C-level lookup after)."""

    def __init__(self, make: Callable[[Any], str]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> str:
        made = self[key] = self.make(key)
        return made


def _json_lines(rows: Iterable[tuple[Any, ...]]) -> Iterator[str]:
    """Rows of ``SUMMARY_COLUMNS, BODY_COLUMNS`` as the compact JSON of :meth:`Entry.to_json`
    (same keys, order and values; ``created`` written with 6 decimals, the value
    ``round(created, 6)``), the stored JSON texts written in as they are. Per row only the
    question and ``what`` are encoded; the values that repeat (type, tool, kinds, router,
    source, declaration hashes, ...) once per distinct value."""
    text = encode_basestring
    short = _Memo(lambda v: text(v or ""))
    listed = _Memo(lambda joined: "[" + ", ".join(text(v) for v in _split(joined)) + "]")
    stored = _Memo(lambda raw: _strict(raw))
    iso = LocalTimes().iso
    for row in rows:
        entry_id, created, type_, tool, tools, kinds, outcome, question, router, origin = row[:10]
        rerun_of, source, hashes, data, what, mcp = row[10:16]
        yield (
            f'{{"id": {entry_id}, "time": "{iso(created)}", "created": {created:.6f}, '
            f'"type": {short[type_]}, "tool": {short[tool]}, "tools": {listed[tools]}, '
            f'"kinds": {listed[kinds]}, "outcome": {short[outcome]}, '
            f'"question": {"null" if question is None else text(question)}, '
            f'"router": {short[router]}, "source": {short[source]}, "origin": {short[origin]}, '
            f'"rerun_of": {"null" if rerun_of is None else rerun_of}, '
            f'"declaration_hashes": {stored[hashes or "{}"]}, "what": {text(what or "")}, '
            f'"mcp": {stored[mcp or "[]"]}, "data": {_strict(data)}}}'
        )


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


def contract_hashes(registry: Any, names: Iterable[str] | None = None) -> dict[str, str]:
    """``{name: Contract.declaration_hash()}`` for ``names`` that are registered (default:
    every contract of ``registry``), sorted by name."""
    wanted = list(registry.contracts) if names is None else list(names)
    out: dict[str, str] = {}
    for name in sorted(set(wanted)):
        contract = registry.get(name) if isinstance(name, str) else None
        if contract is not None:
            out[name] = contract.declaration_hash()
    return out


def picked_call(data: Mapping[str, Any]) -> tuple[str | None, Any]:
    """The tool and args a manual episode (``call --repair``) started with: its ``pick`` step,
    else its first call; ``(None, None)`` when it has neither."""
    for step in data.get("steps") or []:
        if isinstance(step, Mapping) and step.get("node") == "pick" and step.get("tool"):
            return str(step["tool"]), step.get("args")
    calls = [c for c in data.get("calls") or [] if isinstance(c, Mapping)]
    if calls:
        return str(calls[0].get("tool") or ""), calls[0].get("args")
    return None, None


def touched_hashes(registry: Any, kind: str, data: Mapping[str, Any]) -> dict[str, str]:
    """The declaration hashes of the contracts a run touched: for a question episode every
    contract (the router was shown every declaration); for a call or a manual episode the
    tools it called (and the one picked)."""
    if kind == "episode" and data.get("question") is not None:
        return contract_hashes(registry)
    names = [c.get("tool") for c in data.get("calls") or [] if isinstance(c, Mapping)]
    names.append(picked_call(data)[0] if kind == "episode" else data.get("tool"))
    return contract_hashes(registry, [n for n in names if isinstance(n, str)])


def record_run(
    store: HistoryStore | None,
    registry: Any,
    kind: str,
    data: Mapping[str, Any],
    *,
    source: str = "",
    origin: str = "",
    rerun_of: int | None = None,
    mcp: Iterable[Mapping[str, Any]] = (),
) -> int | None:
    """Store one call record (``kind == "call"``) or episode with the declaration hashes it
    touched (:func:`touched_hashes`); ``mcp``: the MCP servers it used (:attr:`Entry.mcp`).
    Returns the entry id, ``None`` when history is off or the write failed (a notice says
    why). Never raises."""
    if store is None or not store.enabled:
        return None
    hashes = touched_hashes(registry, kind, data)
    build = call_entry if kind == "call" else episode_entry
    return store.add(build(data, hashes, source=source, origin=origin, rerun_of=rerun_of, mcp=mcp))


def mcp_sources(sources: Any) -> list[dict[str, Any]]:
    """What a history entry keeps of the MCP servers a run used, to reconnect them on
    ``history rerun``: never a header value, an ``env`` value or a key. ``sources``:
    ``Registry.sources`` (an MCP source has ``label`` ``mcp:NAME`` and ``spec``, a
    :class:`~playground.core.mcp_config.McpServerSpec`).

    One dict per MCP server, in the order they were given: ``{"name", "mcp": "COMMAND ARG...",
    "cwd"}`` for ``--mcp`` (the directory it started in), ``{"name", "mcp_url",
    "header_names": [...]}`` for ``--mcp-url`` (the names of its headers only), ``{"name",
    "mcp_config": ABSOLUTE PATH, "server"}`` for an entry of an ``mcpServers`` file (read
    again on rerun, so its ``env`` and headers never enter the history). Sources that are not
    MCP servers are left out."""
    out: list[dict[str, Any]] = []
    for source in sources:
        spec = getattr(source, "spec", None)
        if spec is None or not str(getattr(source, "label", "")).startswith("mcp:"):
            continue
        if spec.origin == "--mcp":
            out.append(
                {
                    "name": spec.name,
                    "mcp": shlex.join([spec.command, *spec.args]),
                    "cwd": spec.cwd or os.getcwd(),
                }
            )
        elif spec.origin == "--mcp-url":
            out.append(
                {"name": spec.name, "mcp_url": spec.url, "header_names": sorted(spec.headers)}
            )
        else:
            out.append(
                {
                    "name": spec.name,
                    "mcp_config": str(Path(spec.origin).resolve()),
                    "server": spec.name,
                }
            )
    return out


def source_text(paths: Iterable[str | Path]) -> str:
    """The tool source of a run as stored: the absolute module paths joined by ``os.pathsep``."""
    return os.pathsep.join(str(Path(p).resolve()) for p in paths)


_RELATIVE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d|w)\s*$", re.IGNORECASE)
_UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_when(text: str, now: float | None = None) -> float:
    """Unix time (s) of ``--since`` / ``--before``: an ISO 8601 date or date-time in local time
    (``2026-11-30``, ``2026-11-30T20:15``, ``2026-11-30 20:15:00+09:00``) or an age (``30m``,
    ``2h``, ``7d``, ``1w``: that long before ``now``). Raises :class:`ValueError` with a
    one-line message for anything else."""
    from datetime import datetime

    value = str(text).strip()
    match = _RELATIVE.match(value)
    if match:
        age = float(match.group(1)) * _UNIT_S[match.group(2).lower()]
        return (time.time() if now is None else now) - age
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a date (2026-11-30, 2026-11-30T20:15) or an age (30m, 2h, 7d)"
        ) from None
    return moment.timestamp()  # a naive date-time is local time
