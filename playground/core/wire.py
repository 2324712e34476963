"""Wire JSON: the exact JSON each provider's model reads back for one call's outcome.

* Gemini: a ``function_response`` Part as google-genai builds it (``types.Part`` with a
  ``types.FunctionResponse``, dumped to JSON; written out without importing the SDK), whose
  ``response`` is ``{"result": value}`` on success and ``{"error": message}`` on failure — as the SDK's automatic function calling builds it
  (``google/genai/_extra_utils.py``: ``{'result': ...}`` / ``{'error': str(e)}``).
* Anthropic: a ``tool_result`` content block with ``tool_use_id``; ``is_error: true`` on
  failures (Anthropic Messages API, "Handling tool use results"; seed 004).
* OpenAI: a ``{"role": "tool", "tool_call_id", "content"}`` message; the content is the JSON
  result, or states the error (OpenAI Chat Completions function calling guide).

Hangul is kept as is (``ensure_ascii=False``). ``approx_tokens`` gives a rough token count.
"""

from __future__ import annotations

import json
import math
from typing import Any

from playground.core.outcome import Outcome

#: The providers whose views every record carries, in display order.
PROVIDERS = ("gemini", "anthropic", "openai")


def gemini_response_payload(outcome: Outcome) -> dict[str, Any]:
    """The ``function_response.response`` dict: ``{"result": v}`` or ``{"error": message}``.

    An empty result is not an error (seed 004, "빈 결과는 오류가 아니다"): ``{"result": v}`` with
    the empty note added as ``v["note"]`` when ``v`` is an object that has none, or as a
    sibling ``{"result": [], "note": ...}`` when ``v`` is not an object.
    """
    if outcome.is_error:
        return {"error": outcome.message or outcome.error}
    value = outcome.value
    if outcome.kind == "empty" and outcome.message:
        if isinstance(value, dict):
            if "note" not in value:
                value = {**value, "note": outcome.message}
        else:
            return {"result": value, "note": outcome.message}
    return {"result": value}


def _result_text(outcome: Outcome) -> str:
    """The text of a successful result for Anthropic/OpenAI: the value's JSON (with the empty
    note, as in :func:`gemini_response_payload`)."""
    payload = gemini_response_payload(outcome)
    return _text(payload if "note" in payload else payload["result"])


def gemini_part(name: str, call_id: str | None, outcome: Outcome) -> dict[str, Any]:
    """The Gemini ``function_response`` Part, as JSON: ``{"function_response": {"id", "name",
    "response"}}`` (``id`` left out when ``None``).

    This is exactly ``types.Part(function_response=types.FunctionResponse(id=..., name=...,
    response=...)).model_dump(mode="json", exclude_none=True)`` of google-genai (a test pins the
    equality), written out so that a call does not pay the SDK's ~1.3 s import: ``exclude_none``
    drops only the Part's own unset fields, never ``null`` values inside ``response``.
    """
    response: dict[str, Any] = {}
    if call_id is not None:
        response["id"] = call_id
    response["name"] = name
    response["response"] = gemini_response_payload(outcome)
    return {"function_response": response}


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)


def anthropic_block(call_id: str | None, outcome: Outcome) -> dict[str, Any]:
    """The Anthropic ``tool_result`` block; ``is_error: true`` on failures."""
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id or "toolu_local"}
    if outcome.is_error:
        block["content"] = outcome.message or outcome.error
        block["is_error"] = True
    else:
        block["content"] = _result_text(outcome)
    return block


def openai_message(call_id: str | None, outcome: Outcome) -> dict[str, Any]:
    """The OpenAI ``tool`` message; a failure states the error in the content as JSON."""
    if outcome.is_error:
        content = _text({"error": outcome.error, "message": outcome.message})
    else:
        content = _result_text(outcome)
    return {"role": "tool", "tool_call_id": call_id or "call_local", "content": content}


def approx_tokens(payload: Any) -> int:
    """A rough token count of a payload's compact JSON: one per 4 ASCII characters, one per
    non-ASCII character (Hangul syllables are about one token each in common tokenizers)."""
    text = payload if isinstance(payload, str) else _text(payload)
    ascii_chars = len(text.encode("ascii", "ignore"))
    return math.ceil(ascii_chars / 4) + (len(text) - ascii_chars)


def provider_views(name: str, call_id: str | None, outcome: Outcome) -> dict[str, Any]:
    """All three views plus approximate tokens: ``{"gemini", "anthropic", "openai", "tokens"}``."""
    views = {
        "gemini": gemini_part(name, call_id, outcome),
        "anthropic": anthropic_block(call_id, outcome),
        "openai": openai_message(call_id, outcome),
    }
    views["tokens"] = {k: approx_tokens(v) for k, v in views.items()}
    return views


def group_for_provider(provider: str, views: list[dict[str, Any]]) -> Any:
    """Group several calls' views of one turn the way each provider requires.

    Gemini: one ``Content`` (role ``user``) with one ``function_response`` part per call.
    Anthropic: one ``user`` message whose content holds every ``tool_result`` block.
    OpenAI: one ``tool`` message per call, in order. Raises ``ValueError`` for another name.
    """
    if provider == "gemini":
        return {"role": "user", "parts": [v["gemini"] for v in views]}
    if provider == "anthropic":
        return {"role": "user", "content": [v["anthropic"] for v in views]}
    if provider == "openai":
        return [v["openai"] for v in views]
    raise ValueError(f"unknown provider {provider!r} (gemini, anthropic, openai)")


def gemini_declaration_from_mcp(tool: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    """The Gemini ``FunctionDeclaration`` google-genai sends for an MCP tool, as JSON.

    ``tool``: the MCP tool as listed (JSON by alias: ``name``, ``description``,
    ``inputSchema``). Built by google-genai's own MCP conversion
    (``google/genai/_mcp_utils.py: mcp_to_gemini_tool``, what ``tools=[mcp_tool]`` and
    ``tools=[session]`` use: the ``inputSchema`` filtered to the fields Gemini supports and
    converted to a ``types.Schema``). ``name``: the name to show when the playground registered
    the tool under another one (a clash prefix). Imports ``google.genai`` (about 1 s).
    """
    import mcp.types
    from google.genai import _mcp_utils

    shaped = mcp.types.Tool(
        name=tool["name"],
        description=tool.get("description"),
        input_schema=tool.get("inputSchema") or {"type": "object", "properties": {}},
    )
    declarations = _mcp_utils.mcp_to_gemini_tool(shaped).function_declarations or []
    dumped: dict[str, Any] = declarations[0].model_dump(mode="json", exclude_none=True)
    if name is not None:
        dumped["name"] = name
    return dumped
