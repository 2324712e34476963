"""Reading the history: the filters of a listing, the SQL they become, and rows as entries or JSON.

:class:`Query` is a listing's filters; :func:`select_sql` the statement (newest first) the store
runs; :func:`entry_of_row` / :func:`json_lines_of_rows` turn the rows it reads into
:class:`~playground.history.entries.Entry` objects or the compact JSON lines of
``playground history --format json``; :func:`parse_when` reads ``--since`` / ``--before``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Any

from playground.history.entries import Entry, json_text

#: The largest integer SQLite stores (a signed 64-bit INTEGER): an id above it names no entry,
#: a limit above it means no limit (https://www.sqlite.org/datatype3.html).
SQLITE_MAX_INT = 2**63 - 1


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


def select_sql(q: Query, columns: str, join: bool) -> tuple[str, list[Any]]:
    """The SQL (and its parameters) selecting ``columns`` of the entries matching ``q``,
    newest first; ``join``: with their ``bodies`` row (alias ``b``)."""
    where: list[str] = []
    params: list[Any] = []
    if q.tool:
        where.append("e.tools LIKE ? ESCAPE '\\'")
        params.append(f"%,{like_pattern(q.tool)},%")
    if q.kind in ("call", "episode"):
        where.append("e.type = ?")
        params.append(q.kind)
    elif q.kind:
        where.append("e.kinds LIKE ? ESCAPE '\\'")
        params.append(f"%,{like_pattern(q.kind)},%")
    if q.question:
        where.append("e.question LIKE ? ESCAPE '\\'")
        params.append(f"%{like_pattern(q.question)}%")
    if q.text:
        for word in q.text.split():
            where.append("(" + " OR ".join(f"{c} LIKE ? ESCAPE '\\'" for c in TEXT_COLUMNS) + ")")
            params.extend([f"%{like_pattern(word)}%"] * len(TEXT_COLUMNS))
    if q.since is not None:
        where.append("e.created >= ?")
        params.append(q.since)
    if q.before is not None:
        where.append("e.created < ?")
        params.append(q.before)
    if q.older_than is not None:
        where.append("(e.created < ? OR (e.created = ? AND e.id < ?))")
        params.extend([q.older_than[0], q.older_than[0], min(int(q.older_than[1]), SQLITE_MAX_INT)])
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


def joined_list(values: Iterable[str]) -> str:
    items = [v for v in values if v]
    return f",{','.join(items)}," if items else ""


def split_list(text: str) -> list[str]:
    return text.strip(",").split(",") if text else []


def like_pattern(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def entry_of_row(row: tuple[Any, ...], with_data: bool) -> Entry:
    entry_id, created, type_, tool, tools, kinds, outcome, question, router, origin, rerun_of = row[
        :11
    ]
    entry = Entry(
        type=type_,
        data=None,
        created=created,
        id=entry_id,
        tool=tool,
        tools=split_list(tools),
        kinds=split_list(kinds),
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


def strict_json(text: str | None) -> str:
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


def json_lines_of_rows(rows: Iterable[tuple[Any, ...]]) -> Iterator[str]:
    """Rows of ``SUMMARY_COLUMNS, BODY_COLUMNS`` as the compact JSON of :meth:`Entry.to_json`
    (same keys, order and values; ``created`` written with 6 decimals, the value
    ``round(created, 6)``), the stored JSON texts written in as they are. Per row only the
    question and ``what`` are encoded; the values that repeat (type, tool, kinds, router,
    source, declaration hashes, ...) once per distinct value."""
    text = encode_basestring
    short = _Memo(lambda v: text(v or ""))
    listed = _Memo(lambda joined: "[" + ", ".join(text(v) for v in split_list(joined)) + "]")
    stored = _Memo(lambda raw: strict_json(raw))
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
            f'"mcp": {stored[mcp or "[]"]}, "data": {strict_json(data)}}}'
        )


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
