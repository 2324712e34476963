"""A ``tools/list`` page read tool by tool (issue 25, newcomer/breaker findings, item 1).

The SDK (``mcp`` 2.3) checks a ``tools/list`` result as one document: one entry that is no
MCP ``Tool`` (an ``inputSchema`` that is not an object, a missing ``name``) makes
``ClientSession.list_tools`` raise ``pydantic.ValidationError`` and every tool of the server
is lost. The playground's dispatcher (:func:`listing_dispatcher`) keeps the raw result of each
``tools/list`` it carries, so when the SDK refuses a page, :func:`read_tools_page` checks its
entries one by one with the same rules — the protocol version's own result type (the SDK's
``mcp_types.methods.validate_server_result``), then ``mcp.types.Tool`` — and keeps every
well-formed tool. Each refused entry becomes one line naming the entry (its position, its
``name`` when it has one), what is wrong (pydantic's location and message) and what the
server sent (its JSON, cut to :data:`SENT_CHARS` characters).

Nothing here imports the SDK at module level.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: Longest excerpt of a refused entry's JSON quoted in its problem (characters).
SENT_CHARS = 240


@dataclass
class ToolsPage:
    """One ``tools/list`` page read entry by entry.

    ``tools``: the well-formed tools (JSON by alias: ``inputSchema`` …), in the server's order.
    ``problems``: one line per refused entry (or for the page itself). ``next_cursor``: the
    page's ``nextCursor`` when it is a string, else ``None``."""

    tools: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    next_cursor: str | None = None


@functools.cache
def _keeping_dispatcher_class() -> type[Any]:
    """The SDK's ``JSONRPCDispatcher`` that also keeps each raw ``tools/list`` result, keyed by
    the request's ``cursor`` (``None`` for the first page)."""
    from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

    class ListingDispatcher(JSONRPCDispatcher[Any]):
        tool_pages: dict[str | None, dict[str, Any]]

        async def send_raw_request(
            self, method: str, params: Mapping[str, Any] | None, opts: Any = None, **kw: Any
        ) -> dict[str, Any]:
            raw = await super().send_raw_request(method, params, opts, **kw)
            if method == "tools/list":
                cursor = (params or {}).get("cursor")
                self.tool_pages[cursor if isinstance(cursor, str) else None] = raw
            return raw

    return ListingDispatcher


def listing_dispatcher(read: Any, write: Any) -> Any:
    """A ``JSONRPCDispatcher`` over the transport's ``read`` / ``write`` streams whose
    ``tool_pages`` maps a ``tools/list`` cursor (``None``: the first page) to the raw result the
    server sent for it (a dict, as received)."""
    dispatcher = _keeping_dispatcher_class()(read, write)
    dispatcher.tool_pages = {}
    return dispatcher


def _sent(entry: Any) -> str:
    text = json.dumps(entry, ensure_ascii=False, default=repr)
    return text if len(text) <= SENT_CHARS else text[: SENT_CHARS - 1] + "…"


def why_refused(exc: Exception) -> str:
    """What the SDK's check said: pydantic's errors as ``loc: message`` (at most three; an
    entry's own path, without ``tools.N``), else the exception's text (at most 200
    characters)."""
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return " ".join(str(exc).split())[:200]
    parts = []
    for error in exc.errors(include_url=False)[:3]:
        loc = [str(p) for p in error["loc"]]
        if loc[:1] == ["tools"]:
            loc = loc[2:]
        parts.append(f"{'.'.join(loc) or 'the entry'}: {error['msg']}")
    return "; ".join(parts)


def _entry_label(number: int, entry: Any) -> str:
    name = entry.get("name") if isinstance(entry, dict) else None
    if isinstance(name, str) and name:
        return f"tool {number} ({name!r})"
    return f"tool {number} (no name)"


def read_tools_page(raw: Any, version: str) -> ToolsPage:
    """The well-formed tools of one raw ``tools/list`` result, and a problem per entry that is
    no MCP tool.

    ``raw``: the result as the server sent it. ``version``: the negotiated protocol version
    (``""`` before a handshake: checked with ``mcp.types.Tool`` alone). An entry is kept when
    the version's ``ListToolsResult`` accepts it alone and ``mcp.types.Tool.model_validate``
    does; a problem reads ``tools/list tool 3 ('bad') was left out: inputSchema: Input should
    be a valid dictionary …; the server sent {…}``. A result whose ``tools`` is not a list
    gives no tools and one problem. Never raises.
    """
    import mcp.types as types
    from mcp_types import methods

    page = ToolsPage()
    if not isinstance(raw, dict) or not isinstance(raw.get("tools"), list):
        sent = raw.get("tools") if isinstance(raw, dict) else raw
        page.problems.append(f"tools/list sent no list of tools: the server sent {_sent(sent)}")
        return page
    cursor = raw.get("nextCursor")
    page.next_cursor = cursor if isinstance(cursor, str) and cursor else None
    for number, entry in enumerate(raw["tools"], 1):
        try:
            if (("tools/list", version)) in methods.SERVER_RESULTS:
                methods.validate_server_result("tools/list", version, {"tools": [entry]})
            tool = types.Tool.model_validate(entry, by_name=False)
        except Exception as exc:  # pydantic's ValidationError, or a TypeError on odd input
            page.problems.append(
                f"tools/list {_entry_label(number, entry)} was left out: {why_refused(exc)}; "
                f"the server sent {_sent(entry)}"
            )
            continue
        page.tools.append(tool.model_dump(mode="json", by_alias=True, exclude_none=True))
    return page
