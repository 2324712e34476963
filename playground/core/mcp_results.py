"""What an MCP ``tools/call`` answer means to the gate: a value, or an error as data.

* ``structuredContent`` is the value when present (validated later by the gate against the
  contract's ``returns``, which is the tool's ``outputSchema``);
* otherwise the content blocks, each shown by kind (:func:`block_value`): text as its string
  (one text block alone is the value itself), image/audio as ``{"type", "mimeType", "bytes"}``
  (the base64 data is not copied into records), resource links as ``{"type", "uri", "name"}``,
  embedded resources with their text or blob size; no blocks at all is an empty result (``[]``,
  which the gate reports as ``empty``);
* ``isError: true`` becomes a :class:`RaisedError` classified like a Python exception (issue 10,
  item 3): words for rate limits, temporary unavailability or timeouts → ``transient``;
  unauthorized / forbidden → ``permission``; anything else → ``raised``;
* a JSON-RPC error answer (:class:`mcp.MCPError`): invalid params (-32602) → ``invalid_args``
  with the server's message; other codes → ``raised``.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

import mcp.types as types

from playground.core import outcome as oc
from playground.core.toolsource import RaisedError

_TRANSIENT_WORDS = re.compile(
    r"rate[- ]?limit|too many requests|\b429\b|temporar(?:il)?y|unavailable|try again|"
    r"timed? ?out|timeout|\b50[234]\b|overloaded|busy|일시적|잠시 후",
    re.I,
)
_PERMISSION_WORDS = re.compile(
    r"unauthori[sz]ed|forbidden|not allowed|permission denied|access denied|\b40[13]\b|권한",
    re.I,
)


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


#: The largest image (base64 characters) a record keeps with its data (:func:`result_media`).
MEDIA_LIMIT_CHARS = 1_000_000
_MEDIA_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


def result_media(
    result: types.CallToolResult, limit: int = MEDIA_LIMIT_CHARS
) -> list[dict[str, Any]]:
    """The image blocks of a result with their data, ``[{"type": "image", "mimeType", "data"}]``
    (PNG, JPEG, GIF or WebP; at most ``limit`` base64 characters each, larger ones left out).
    The value keeps only ``{"type", "mimeType", "bytes"}`` (it is what the model reads back);
    this is for showing the picture (``--html``), never part of the wire JSON."""
    return [
        {"type": "image", "mimeType": b.mime_type, "data": b.data}
        for b in result.content
        if isinstance(b, types.ImageContent)
        and b.mime_type in _MEDIA_TYPES
        and len(b.data) <= limit
    ]


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


def classify_error_text(text: str) -> tuple[str, str]:
    """``(kind, reason)`` for the text of an ``isError`` result: transient / permission words
    first (seed 004's kinds), else ``raised``."""
    if _PERMISSION_WORDS.search(text):
        return oc.PERMISSION, "isError"
    if _TRANSIENT_WORDS.search(text):
        return oc.TRANSIENT, "isError"
    return oc.RAISED, "isError"


def error_of_result(server: str, result: types.CallToolResult) -> RaisedError:
    """The :class:`RaisedError` for an ``isError: true`` result of server ``server``."""
    text = " ".join(result_text(result).split()) or "(no message)"
    kind, reason = classify_error_text(text)
    cut = text if len(text) <= 300 else text[:297] + "..."
    return RaisedError(
        type_name="McpToolError",
        text=f"McpToolError: {cut}",
        kind=kind,
        reason=reason,
        details={"server": server, "isError": True},
    )


def error_of_rpc(server: str, code: int, message: str) -> RaisedError:
    """The :class:`RaisedError` for a JSON-RPC error answer: invalid params → ``invalid_args``
    (the server's ``message`` kept for the model), other codes → ``raised``."""
    message = " ".join(message.split()) or "(no message)"
    if code == types.INVALID_PARAMS:
        kind, reason = oc.INVALID_ARGS, "invalid_params"
    else:
        kind, reason = oc.RAISED, f"jsonrpc_{code}"
    return RaisedError(
        type_name="McpError",
        text=f"McpError: {message}",
        kind=kind,
        reason=reason,
        details={"server": server, "code": code, "message": message},
    )
