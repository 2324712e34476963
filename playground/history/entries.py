"""History entries: one hand-test call record or episode as stored, and its one-line summary.

:class:`Entry` is what the store writes and reads; :func:`call_entry` / :func:`episode_entry`
build one from ``CallRecord.to_json()`` / ``Episode.to_json()``; :func:`what_of` is the line a
list shows; :func:`json_text` the strict JSON text a record is stored as.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: The longest ``what`` stored (characters; longer ones end in ``…``): one line of a list.
WHAT_MAX = 200


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
    #: Why the stored record could not be read ('' when it was, or was not asked for): the
    #: history file is damaged where it is kept; the other fields come from the list's row.
    unreadable: str = ""

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
