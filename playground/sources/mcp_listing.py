"""A ``tools/list`` page read tool by tool (issue 25, newcomer/breaker findings, item 1).

The SDK (``mcp`` 2.3) checks a ``tools/list`` result as one document: one entry that is no
MCP ``Tool`` (an ``inputSchema`` that is not an object, a missing ``name``) makes
``ClientSession.list_tools`` raise ``pydantic.ValidationError`` and every tool of the server
is lost. The playground's dispatcher (:func:`listing_dispatcher`) keeps the raw result of each
``tools/list`` it carries, so when the SDK refuses a page, :func:`read_tools_page` checks its
entries one by one with the same rules — the protocol version's own result type (the SDK's
``mcp_types.methods.validate_server_result``), then ``mcp.types.Tool``, then for protocol
2026-07-28 the ``x-mcp-header`` rule the SDK applies to a listing — and keeps every
well-formed tool. A page the SDK accepts may still have lost a tool: in the 2026-07-28 era the
SDK drops one whose ``x-mcp-header`` is invalid with only a log line;
:func:`dropped_problems` names it. Each refused entry becomes one line naming the entry (its position, its
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
    server sent for it (a dict, as received), until the reader pops it
    (``McpSource._tools_page``: a big listing is not kept twice)."""
    dispatcher = _keeping_dispatcher_class()(read, write)
    dispatcher.tool_pages = {}
    return dispatcher


def _sent(entry: Any) -> str:
    from playground.core.canonical import shorten

    return shorten(json.dumps(entry, ensure_ascii=False, default=repr), SENT_CHARS)


def why_refused(exc: Exception) -> str:
    """What the SDK's check said: pydantic's errors as ``loc: message`` (at most three; an
    entry's own path, without ``tools.N``), else the exception's text (at most 200
    characters)."""
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return " ".join(str(exc).split())[:200]
    return _error_text(exc.errors(include_url=False))


def _error_text(errors: Any) -> str:
    parts = []
    for error in list(errors)[:3]:
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


def read_tools_page(raw: Any, version: str, only: set[int] | None = None) -> ToolsPage:
    """The well-formed tools of one raw ``tools/list`` result, and a problem per entry that is
    no MCP tool.

    ``raw``: the result as the server sent it. ``version``: the negotiated protocol version
    (``""`` before a handshake: checked with ``mcp.types.Tool`` alone). ``only``: the entry
    numbers (1-based) to read, ``None`` for all. An entry is kept when the version's
    ``ListToolsResult`` finds no fault inside it, ``mcp.types.Tool.model_validate`` accepts it
    and, for 2026-07-28, its ``x-mcp-header`` is valid; a problem reads ``tools/list tool 3
    ('bad') was left out: inputSchema: Input should be a valid dictionary …; the server sent
    {…}``. A fault of the page's own fields (2026-07-28's ``ttlMs`` …) is one ``tools/list page
    refused: …`` problem, its tools read all the same. A result whose ``tools`` is not a list
    gives no tools and one problem. Never raises.
    """
    from mcp_types import methods

    page = ToolsPage()
    if not isinstance(raw, dict) or not isinstance(raw.get("tools"), list):
        sent = raw.get("tools") if isinstance(raw, dict) else raw
        page.problems.append(f"tools/list sent no list of tools: the server sent {_sent(sent)}")
        return page
    cursor = raw.get("nextCursor")
    page.next_cursor = cursor if isinstance(cursor, str) and cursor else None
    surface = ("tools/list", version) in methods.SERVER_RESULTS
    rest = {k: v for k, v in raw.items() if k != "tools"}
    if surface and only is None:  # the page's own fields, without its tools
        try:
            methods.validate_server_result("tools/list", version, {**rest, "tools": []})
        except Exception as exc:
            page.problems.append(f"tools/list page refused: {why_refused(exc)}")
    for number, entry in enumerate(raw["tools"], 1):
        if only is not None and number not in only:
            continue
        tool, why = _read_entry(entry, version, rest if surface else None)
        if tool is None:
            page.problems.append(
                f"tools/list {_entry_label(number, entry)} was left out: {why}; "
                f"the server sent {_sent(entry)}"
            )
        else:
            page.tools.append(tool)
    return page


def _read_entry(
    entry: Any, version: str, rest: dict[str, Any] | None
) -> tuple[dict[str, Any] | None, str]:
    """``(the tool as JSON by alias, "")``, or ``(None, why it is left out)``. ``rest``: the
    page's other fields, to check the entry in a page of its own as the version's
    ``ListToolsResult`` checks it (only the faults inside the entry count); ``None``: no
    version's check."""
    import mcp.types as types
    from mcp_types import methods
    from pydantic import ValidationError

    try:
        if rest is not None:
            try:
                methods.validate_server_result("tools/list", version, {**rest, "tools": [entry]})
            except ValidationError as exc:
                own = [e for e in exc.errors() if tuple(e["loc"][:2]) == ("tools", 0)]
                if own:
                    return None, _error_text(own)
        tool = types.Tool.model_validate(entry, by_name=False)
    except Exception as exc:  # pydantic's ValidationError, or a TypeError on odd input
        return None, why_refused(exc)
    header_fault = _header_fault(tool.input_schema, version)
    if header_fault:
        return None, (
            f"{header_fault} (a {version} client must not use a tool whose x-mcp-header is invalid)"
        )
    return tool.model_dump(mode="json", by_alias=True, exclude_none=True), ""


def _header_fault(input_schema: Any, version: str) -> str:
    """Why the SDK drops a tool of a 2026-07-28 listing for its ``x-mcp-header`` annotations
    (``mcp.shared.inbound.find_invalid_x_mcp_header``: the spec's MUST), else ``""``."""
    from mcp.shared.inbound import find_invalid_x_mcp_header
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    if version not in MODERN_PROTOCOL_VERSIONS:
        return ""
    return find_invalid_x_mcp_header(input_schema) or ""


def dropped_problems(raw: Any, kept: list[str], version: str) -> list[str]:
    """The problems of the entries of raw ``tools/list`` result ``raw`` whose names are not in
    ``kept`` (the tools the SDK's ``list_tools`` returned): the SDK drops a 2026-07-28 tool with
    an invalid ``x-mcp-header`` with only a log line; this names it like any refused entry.
    ``[]`` when the SDK kept every entry."""
    listed = raw.get("tools") if isinstance(raw, dict) else None
    if not isinstance(listed, list) or len(listed) == len(kept):
        return []
    names = set(kept)
    lost = {
        n for n, e in enumerate(listed, 1) if not (isinstance(e, dict) and e.get("name") in names)
    }
    return read_tools_page(raw, version, only=lost).problems if lost else []


def absorb_kept_tools(session: Any, tools: list[dict[str, Any]], *, complete: bool) -> None:
    """Hand the SDK's ``session`` the ``tools`` kept from a page it refused (JSON by alias, as
    :func:`read_tools_page` gives them) as it takes those of a page it accepts
    (``ClientSession._absorb_tool_listing``, what ``list_tools`` does with a result): in the
    2026-07-28 era it then sends each such tool's ``x-mcp-header`` arguments as
    ``Mcp-Param-*`` headers on ``tools/call`` (the spec's MUST; a server checks them and
    refuses a call without them), and it knows their output schemas. ``complete``: the
    listing had one page (the SDK then forgets the tools it did not list). An SDK without
    that method is left as it is."""
    import mcp.types as types

    absorb = getattr(session, "_absorb_tool_listing", None)
    if absorb is None:
        return
    listed = [types.Tool.model_validate(tool, by_name=False) for tool in tools]
    absorb(types.ListToolsResult(tools=listed), complete=complete)
