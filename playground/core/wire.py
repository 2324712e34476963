"""Wire JSON: the exact JSON each provider's model reads back for one call's outcome.

* Gemini: a ``function_response`` Part as google-genai builds it (``types.Part`` with a
  ``types.FunctionResponse``, dumped to JSON; written out without importing the SDK), whose
  ``response`` is ``{"result": value}`` on success and ``{"error": message}`` on failure — as the SDK's automatic function calling builds it
  (``google/genai/_extra_utils.py``: ``{'result': ...}`` / ``{'error': str(e)}``).
* Anthropic: a ``tool_result`` content block with ``tool_use_id``; ``is_error: true`` on
  failures (Anthropic Messages API, "Handling tool use results"; seed 004).
* OpenAI: a ``{"role": "tool", "tool_call_id", "content"}`` message; the content is the JSON
  result, or states the error (OpenAI Chat Completions function calling guide).

Declarations: what a request to Anthropic or OpenAI carries for one tool
(:func:`anthropic_declaration`, :func:`openai_declaration`, in :data:`DECLARATION_VIEWS`); the
Gemini one is built by the Gemini router's own request builder
(:func:`playground.routing.gemini.request_declaration`), and
:func:`playground.routing.declarations.provider_declaration` picks the one builder per provider
that ``show``, the TUI and every request use. :func:`gemini_function_declaration` asks
google-genai for a plain function's declaration at load time (the contract's parameter schema;
google.genai is imported there only — the declaration cache of :mod:`playground.core.declcache`
keeps a warm ``playground call`` from ever importing it).

Hangul is kept as is (``ensure_ascii=False``). ``approx_tokens`` gives a rough token count.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.core.outcome import EMPTY, Outcome

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
    if outcome.kind == EMPTY and outcome.message:
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


def result_tokens(outcome: Outcome) -> int:
    """Approximate tokens (:func:`approx_tokens`) of the result text a model reads back: the
    value's compact JSON, as the Anthropic ``tool_result`` content and the OpenAI ``tool``
    content carry it. One measure for every record, whether or not its provider views were
    built, so ``call``, ``probe``, ``report`` and the TUI quote the same count."""
    return approx_tokens(_result_text(outcome))


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


def gemini_function_declaration(fn: Callable[..., Any]) -> dict[str, Any]:
    """The declaration google-genai sends for ``tools=[fn]``, as JSON: the SDK's own
    ``FunctionDeclaration.from_callable_with_api_option(callable=fn, api_option="GEMINI_API",
    use_json_schema=True)`` (``google/genai/_transformers.py: t_tool``) dumped with
    ``model_dump(mode="json", exclude_none=True)``: ``{"name", "description",
    "parameters_json_schema", ...}``. Imports google.genai. Raises ``ValueError`` (``"Type:
    message"`` of the SDK's error) when the SDK cannot describe ``fn``.
    """
    from google.genai import types

    try:
        decl = types.FunctionDeclaration.from_callable_with_api_option(
            callable=fn, api_option="GEMINI_API", use_json_schema=True
        )
    except Exception as exc:  # the SDK raises ValueError/TypeError/pydantic errors
        raise ValueError(f"{type(exc).__name__}: {exc}") from None
    return decl.model_dump(mode="json", exclude_none=True)


# ------------------------------------------------------------------------- declarations

#: Where each provider's declaration rules come from (cited by lint findings).
ANTHROPIC_TOOLS_DOC = "Anthropic Messages API, tool use: tools[].name"
ANTHROPIC_PROPERTY_DOC = (
    "Anthropic Messages API error 'tools.N.custom.input_schema.properties: Property keys should "
    "match pattern ^[a-zA-Z0-9_.-]{1,64}$'"
)
ANTHROPIC_SCHEMA_DOC = (
    "Anthropic Messages API, tool use: input_schema is a JSON Schema object "
    "(type 'object'; no oneOf/anyOf/allOf at the top level)"
)
OPENAI_FUNCTION_DOC = (
    "OpenAI Chat Completions API, tools[].function.name: 'Must be a-z, A-Z, 0-9, or contain "
    "underscores and dashes, with a maximum length of 64'"
)
OPENAI_SCHEMA_DOC = (
    "OpenAI function calling guide: parameters is a JSON Schema of type 'object' "
    "(no anyOf/oneOf/allOf/enum/not at the root)"
)

#: Tool names Anthropic and OpenAI accept (the documents above).
TOOL_NAME_RULES: dict[str, tuple[re.Pattern[str], str]] = {
    "anthropic": (re.compile(r"^[a-zA-Z0-9_-]{1,64}$"), ANTHROPIC_TOOLS_DOC),
    "openai": (re.compile(r"^[a-zA-Z0-9_-]{1,64}$"), OPENAI_FUNCTION_DOC),
}
#: Parameter (top-level property) names a provider accepts.
PARAMETER_NAME_RULES: dict[str, tuple[re.Pattern[str], str]] = {
    "anthropic": (re.compile(r"^[a-zA-Z0-9_.-]{1,64}$"), ANTHROPIC_PROPERTY_DOC),
}
_ROOT_REFUSED = ("anyOf", "oneOf", "allOf", "enum", "not")


def _parameters_or_empty(parameters: Any) -> dict[str, Any]:
    if isinstance(parameters, dict) and parameters:
        return parameters
    return {"type": "object", "properties": {}}


def anthropic_tool(declaration: dict[str, Any]) -> dict[str, Any]:
    """The Anthropic tool definition a model reads: ``{"name", "description",
    "input_schema"}`` (Messages API, tool use). ``declaration`` is the provider-neutral
    ``{"name", "description", "parameters"}``; a tool without parameters gets the empty object
    schema ``{"type": "object", "properties": {}}``."""
    return {
        "name": declaration.get("name"),
        "description": declaration.get("description") or "",
        "input_schema": _parameters_or_empty(declaration.get("parameters")),
    }


def openai_tool(declaration: dict[str, Any]) -> dict[str, Any]:
    """The OpenAI Chat Completions function tool: ``{"type": "function", "function": {"name",
    "description", "parameters"}}`` (OpenAI function calling guide)."""
    return {
        "type": "function",
        "function": {
            "name": declaration.get("name"),
            "description": declaration.get("description") or "",
            "parameters": _parameters_or_empty(declaration.get("parameters")),
        },
    }


@dataclass(frozen=True)
class ProviderDeclaration:
    """What a request to one provider carries for one tool.

    ``provider``: ``"gemini"``, ``"anthropic"`` or ``"openai"``. ``body``: the tool's
    declaration as JSON, exactly as the request carries it (Gemini: one entry of
    ``tools[].functionDeclarations``; Anthropic: one ``tools[]`` entry; OpenAI: one ``tools[]``
    function tool). ``notes``: one line per thing the provider cannot carry as the tool
    declares it — what was changed or dropped on the way (Gemini's conversion) or why the
    provider would refuse it (:func:`declaration_problems`); empty when it carries the
    declaration as it is.
    """

    provider: str
    body: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def _refusals(provider: str, declaration: dict[str, Any]) -> list[str]:
    title = {"anthropic": "Anthropic", "openai": "OpenAI"}[provider]
    return [
        f"{title} refuses it: {message} ({source})"
        for _rule, message, source in declaration_problems(provider, declaration)
    ]


def anthropic_declaration(declaration: dict[str, Any]) -> ProviderDeclaration:
    """What an Anthropic Messages request carries for one tool: :func:`anthropic_tool` (the
    parameter schema as it is: Anthropic reads JSON Schema, ``const``, ``oneOf``,
    ``additionalProperties`` and ``$defs`` included), with a note for each rule of
    :func:`declaration_problems` the declaration breaks. ``declaration``: the provider-neutral
    ``{"name", "description", "parameters"}``."""
    return ProviderDeclaration(
        "anthropic", anthropic_tool(declaration), _refusals("anthropic", declaration)
    )


def openai_declaration(declaration: dict[str, Any]) -> ProviderDeclaration:
    """What an OpenAI Chat Completions request carries for one tool: :func:`openai_tool` (the
    parameter schema as it is), with a note for each rule of :func:`declaration_problems` the
    declaration breaks. ``declaration``: the provider-neutral ``{"name", "description",
    "parameters"}``."""
    return ProviderDeclaration("openai", openai_tool(declaration), _refusals("openai", declaration))


#: The declaration builders of the providers without a router of their own (a router's
#: ``RouterSpec.declare`` comes first: :func:`playground.routing.declarations.provider_declaration`).
DECLARATION_VIEWS: dict[str, Callable[[dict[str, Any]], ProviderDeclaration]] = {
    "anthropic": anthropic_declaration,
    "openai": openai_declaration,
}


def declaration_problems(provider: str, declaration: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Why ``provider`` (``"anthropic"`` or ``"openai"``) would refuse this declaration.

    Returns ``(rule, message, source)`` triples; ``rule`` is ``"name"`` (the tool name breaks
    :data:`TOOL_NAME_RULES`), ``"parameter"`` (a parameter name breaks
    :data:`PARAMETER_NAME_RULES`, one triple per name) or ``"schema"`` (the parameters schema
    is not ``type: object`` or has a combinator at its root). ``[]`` when all is well; Gemini's
    own rules are checked by lint's ``gemini-name`` and the Gemini schema conversion. Raises
    ``ValueError`` for another provider."""
    if provider not in TOOL_NAME_RULES:
        raise ValueError(f"unknown provider {provider!r} (anthropic, openai)")
    out: list[tuple[str, str, str]] = []
    name = str(declaration.get("name") or "")
    pattern, source = TOOL_NAME_RULES[provider]
    if not pattern.match(name):
        bad = sorted({c for c in name if not re.match(r"[a-zA-Z0-9_-]", c)})
        why = []
        if bad:
            why.append("characters " + " ".join(repr(c) for c in bad[:6]))
        if len(name) > 64:
            why.append(f"{len(name)} characters (at most 64)")
        if not name:
            why.append("an empty name")
        out.append(("name", f"tool name {name!r} has {' and '.join(why)}", source))
    params = declaration.get("parameters")
    rule = PARAMETER_NAME_RULES.get(provider)
    props = params.get("properties") if isinstance(params, dict) else None
    if rule and isinstance(props, dict):
        for key in props:
            if not rule[0].match(str(key)):
                out.append(
                    (
                        "parameter",
                        f"parameter name {key!r} does not match {rule[0].pattern}",
                        rule[1],
                    )
                )
    if isinstance(params, dict) and params:
        doc = ANTHROPIC_SCHEMA_DOC if provider == "anthropic" else OPENAI_SCHEMA_DOC
        if params.get("type") != "object":
            out.append(("schema", f"parameters has type {params.get('type')!r}, not 'object'", doc))
        root = [k for k in _ROOT_REFUSED if k in params]
        if root:
            out.append(("schema", f"parameters has {', '.join(root)} at its root", doc))
    return out
