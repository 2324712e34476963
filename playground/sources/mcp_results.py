"""What an MCP ``tools/call`` answer means to the gate: a value, or an error as data.

* ``structuredContent`` is the value when present (validated later by the gate against the
  contract's ``returns``, which is the tool's ``outputSchema``);
* otherwise the content blocks, each shown by kind (:func:`block_value`): text as its string
  (one text block alone is the value itself), image/audio as ``{"type", "mimeType", "bytes"}``
  (the base64 data is not copied into records), resource links as ``{"type", "uri", "name"}``,
  embedded resources with their text or blob size; no blocks at all is an empty result (``[]``,
  which the gate reports as ``empty``);
* ``isError: true`` is the tool's own error (issue 21, item 3): a :class:`RaisedError` of kind
  ``raised`` carrying the server's text verbatim (every text block, newlines kept), whatever the
  text says — the words of a message never decide a kind;
* a JSON-RPC error answer (:class:`mcp.MCPError`) is classified by protocol signals only: its
  code (invalid params -32602 → ``invalid_args`` with the server's message; method not found
  -32601 and others → ``raised``) and, over HTTP, the response status (401/403 →
  ``permission``; 408/429/5xx → ``transient``, its ``Retry-After`` honoured), read by
  :func:`playground.core.outcome.classify_status`.

The result exactly as the server sent it (every block with its data, annotations, ``_meta``,
``structuredContent``) is :func:`result_as_sent`; it goes into the record's ``mcp`` field and,
for the blocks, into each provider's wire JSON (:mod:`playground.core.wire`).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

import mcp.types as types

from playground.core import outcome as oc
from playground.core.toolsource import RaisedError


def _size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return len(data)


def block_value(block: Any) -> Any:
    """One content block as JSON data, by kind (see the module docstring)."""
    if isinstance(block, types.TextContent):
        return block.text
    if isinstance(block, (types.ImageContent, types.AudioContent)):
        return {"type": block.type, "mimeType": block.mime_type, "bytes": _size(block.data)}
    if isinstance(block, types.ResourceLink):
        shown: dict[str, Any] = {"type": "resource_link", "uri": str(block.uri), "name": block.name}
        if block.mime_type:
            shown["mimeType"] = block.mime_type
        return shown
    if isinstance(block, types.EmbeddedResource):
        res = block.resource
        shown = {"type": "resource", "uri": str(res.uri)}
        if res.mime_type:
            shown["mimeType"] = res.mime_type
        if isinstance(res, types.TextResourceContents):
            shown["text"] = res.text
        else:
            shown["bytes"] = _size(res.blob)
        return shown
    dumped = block.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def result_text(result: types.CallToolResult) -> str:
    """The text blocks of a result joined with newlines (what an ``isError`` result says)."""
    return "\n".join(b.text for b in result.content if isinstance(b, types.TextContent)).strip()


def result_value(result: types.CallToolResult) -> Any:
    """The value of a successful result: ``structuredContent`` when present, else the blocks
    (a lone text block as its string; no blocks as ``[]``)."""
    if result.structured_content is not None:
        return result.structured_content
    blocks = [block_value(b) for b in result.content]
    if len(blocks) == 1 and isinstance(blocks[0], str):
        return blocks[0]
    return blocks


def result_as_sent(result: types.CallToolResult) -> dict[str, Any]:
    """The ``tools/call`` result as JSON, by alias, as the server sent it: ``content`` (each
    block whole: base64 ``data``, ``annotations``, ``_meta``), ``structuredContent``,
    ``isError``, ``_meta``."""
    return result.model_dump(mode="json", by_alias=True, exclude_unset=True)


def empty_content_warning(result: types.CallToolResult) -> str:
    """A warning when ``structuredContent`` comes with no content blocks (clients that read only
    ``content`` show nothing; the spec says a tool returning structured content SHOULD also
    return it serialised in a text block), else ``""``."""
    if result.structured_content is not None and not result.content:
        return (
            "the result has structuredContent but an empty content list: clients that read "
            "only content (most chat clients) show nothing (MCP spec, tools: structured "
            "content SHOULD also be returned as a TextContent block)"
        )
    return ""


def error_of_result(server: str, result: types.CallToolResult) -> RaisedError:
    """The :class:`RaisedError` for an ``isError: true`` result of server ``server``: the tool's
    own error, kind ``raised``, reason ``isError``; ``text`` is ``McpToolError: `` and the
    server's text verbatim (``(no message)`` when it sent no text)."""
    text = result_text(result) or "(no message)"
    return RaisedError(
        type_name="McpToolError",
        text=f"McpToolError: {text}",
        kind=oc.RAISED,
        reason="isError",
        details={"server": server, "isError": True, "text": text},
    )


def error_of_rpc(
    server: str,
    code: int,
    message: str,
    http_status: int | None = None,
    retry_after_s: float | None = None,
    data: Any = None,
) -> RaisedError:
    """The :class:`RaisedError` for a JSON-RPC error answer.

    ``code``: the JSON-RPC code; ``http_status``: the HTTP status of the response that carried
    it (Streamable HTTP / SSE), else ``None``; ``retry_after_s``: its ``Retry-After`` in
    seconds. Invalid params → ``invalid_args`` (the server's ``message`` kept for the model);
    an HTTP status of 401/403 → ``permission``, 408/409/425/429/5xx → ``transient`` (RFC 9110;
    :data:`playground.core.outcome.TRANSIENT_STATUSES`); anything else → ``raised`` with reason
    ``jsonrpc_<code>``. ``data``: the error's ``data`` member, kept in ``details``.
    """
    message = message.strip() or "(no message)"
    details: dict[str, Any] = {"server": server, "code": code, "message": message}
    if data is not None:
        details["data"] = data
    if http_status is not None:
        details["http_status"] = http_status
    found = oc.kind_of_status(http_status) if http_status is not None else None
    if code == types.INVALID_PARAMS and found is None:
        kind, reason = oc.INVALID_ARGS, "invalid_params"
    elif found is not None:
        kind, reason = found, f"http_{http_status}"
    elif code == types.METHOD_NOT_FOUND:
        kind, reason = oc.RAISED, "method_not_found"
    else:
        kind, reason = oc.RAISED, f"jsonrpc_{code}"
    return RaisedError(
        type_name="McpError",
        text=f"McpError: {message}",
        kind=kind,
        reason=reason,
        retry_after_s=retry_after_s if kind == oc.TRANSIENT else None,
        details=details,
    )


def result_cap_bytes() -> int:
    """The largest result accepted, in bytes: ``PLAYGROUND_RESULT_CAP_MB`` (default 16 MB), the
    cap Python results have in the worker (:data:`playground.sources.worker.RESULT_CAP_BYTES`)."""
    from playground.core.settings import setting
    from playground.sources.worker import RESULT_CAP_BYTES

    return int(setting("PLAYGROUND_RESULT_CAP_MB", RESULT_CAP_BYTES / 1048576) * 1048576)


def too_big_message(tool: str, value: Any, cap: int) -> str:
    """``""`` when ``value``'s JSON is at most ``cap`` bytes (UTF-8), else the model-facing
    sentence refusing it as ``result:too_big`` with its size — so an MCP result is bounded like
    a Python one (issue 28 item 7)."""
    size = len(json.dumps(value, ensure_ascii=False, default=str).encode("utf-8"))
    if size <= cap:
        return ""
    return (
        f"{tool} returned {size:,} bytes of data; the playground refuses results over "
        f"{cap:,} bytes (the result cap, PLAYGROUND_RESULT_CAP_MB)."
    )
