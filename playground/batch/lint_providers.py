"""Lint rules for every provider's declaration rules (issue 11 item 7, issue 20 item 6).

Each finding names the provider and the document its rule comes from, and its fix fits where
the tool comes from (:func:`playground.batch.lint_base.fix_for`): what to change in the code
for a Python function, in the ``TOOLS`` table for a table entry, and what to ask of the
server's author for an MCP server's tool (the playground sends that tool as listed).

Refused as sent (``error``):

* ``anthropic-name`` / ``openai-name``: the tool name must match ``^[a-zA-Z0-9_-]{1,64}$``
  (Anthropic Messages API ``tools[].name``; OpenAI Chat Completions
  ``tools[].function.name``). ``shop.search``, ``shop:lookup`` and 70-character names pass
  Gemini's rule (``gemini-name`` in :mod:`playground.batch.lint_rules`) but not these.
* ``anthropic-param-name``: a parameter name must match ``^[a-zA-Z0-9_.-]{1,64}$`` (the
  Anthropic API's error "Property keys should match pattern ..."): a Hangul parameter name is
  refused, and one bad key makes the API reject the whole request.
* ``anthropic-schema`` / ``openai-schema``: the parameters schema must be an object schema
  without a combinator at its root (:func:`playground.core.wire.declaration_problems`).
* ``gemini-schema``: ``parameters_json_schema`` "must describe an object"
  (:func:`playground.core.wire_rules.gemini_root_problems`).
* ``openai-array-items``: an array schema without ``items`` — OpenAI answers 400 "array
  schema missing items" whether or not ``strict`` is set
  (:func:`playground.core.wire_rules.openai_array_problems`). One finding per array.

What blocks ``strict: true`` (``info``: the playground does not send ``strict``, so nothing
is refused today; the finding says what a strict declaration would need):

* ``openai-strict``: OpenAI Structured Outputs' supported schemas
  (:func:`playground.core.wire_rules.openai_strict_problems`): ``additionalProperties: false``
  in every object, every property in ``required``, supported keywords and formats, limits.
* ``anthropic-strict``: Anthropic's structured-output JSON Schema limitations
  (:func:`playground.core.wire_rules.anthropic_strict_problems`).

One finding per tool for each strict rule, listing every blocker with its path.

Changed in the copy sent (``warning``):

* ``gemini-lossy``: a change the Gemini copy of the schema makes
  (:func:`playground.routing.gemini_schema.lossy_changes`) that an answer in the sent form
  cannot be mapped back from.

Budget (``warning``, :func:`budget_findings`): ``returns-unbounded`` — rows without
``max_rows`` / ``max_bytes`` can exceed the 25,000-token budget (Claude Code's MCP output cap).
"""

from __future__ import annotations

import re

from playground.batch.lint_base import Finding, fix_for, is_rows_list, make_finding
from playground.core.budget import DEFAULT_TOKEN_BUDGET
from playground.core.contracts import Contract
from playground.core.wire import declaration_problems
from playground.core.wire_rules import (
    ANTHROPIC_STRICT_DOC,
    GEMINI_PARAMETERS_DOC,
    OPENAI_ITEMS_DOC,
    OPENAI_STRICT_DOC,
    SchemaProblem,
    anthropic_strict_problems,
    gemini_root_problems,
    openai_array_problems,
    openai_strict_problems,
)
from playground.routing.gemini_schema import lossy_changes

_RULE_IDS = {
    ("anthropic", "name"): "anthropic-name",
    ("openai", "name"): "openai-name",
    ("anthropic", "parameter"): "anthropic-param-name",
    ("anthropic", "schema"): "anthropic-schema",
    ("openai", "schema"): "openai-schema",
}
_PROVIDER_TITLES = {"anthropic": "Anthropic", "openai": "OpenAI"}


def provider_findings(contract: Contract) -> list[Finding]:
    """The findings of the provider rules above for one contract (``[]`` when every provider
    accepts its declaration, strict or not)."""
    out = _declaration_findings(contract)
    out.extend(_gemini_root_findings(contract))
    out.extend(_array_items_findings(contract))
    out.extend(_strict_findings(contract, "openai-strict", "OpenAI", OPENAI_STRICT_DOC))
    out.extend(_strict_findings(contract, "anthropic-strict", "Anthropic", ANTHROPIC_STRICT_DOC))
    out.extend(_lossy_findings(contract))
    return out


def _declaration_findings(contract: Contract) -> list[Finding]:
    out: list[Finding] = []
    declaration = contract.declaration()
    for provider, title in _PROVIDER_TITLES.items():
        for kind, message, source in declaration_problems(provider, declaration):
            rule = _RULE_IDS.get((provider, kind))
            if rule is None:  # pragma: no cover - every (provider, kind) pair is mapped
                continue
            where = contract.name
            if kind == "parameter":
                where = f"{contract.name}.{message.split(chr(39))[1]}"
            safe = re.sub(r"[^a-zA-Z0-9_-]+", "_", contract.name).strip("_")[:64] or "tool_name"
            fix = {
                "name": fix_for(
                    contract,
                    code="rename the function to ASCII letters, digits, _ and - (at most 64 "
                    f"characters), e.g. {safe}",
                    table=f"rename the TOOLS entry to ASCII letters, digits, _ and -, e.g. {safe}",
                    mcp=f"rename the tool to ASCII letters, digits, _ and - (e.g. {safe})",
                ),
                "parameter": fix_for(
                    contract,
                    code="rename the parameter in ASCII (e.g. 상품ID → product_id); keep the "
                    "Korean in its Args: line",
                    table="rename the argument in ASCII (e.g. 상품ID → product_id); keep the "
                    "Korean in its description",
                    mcp="rename the parameter in the tool's inputSchema to ASCII (e.g. 상품ID → "
                    "product_id), keeping the Korean in its description",
                ),
                "schema": fix_for(
                    contract,
                    code="take named parameters (the function's signature is the object)",
                    mcp="make the tool's inputSchema an object of named parameters",
                ),
            }[kind]
            out.append(
                make_finding(
                    rule,
                    contract,
                    where,
                    contract.source,
                    f"{title} refuses this declaration: {message} (rule source: {source}).",
                    fix + ".",
                )
            )
    return out


def _gemini_root_findings(contract: Contract) -> list[Finding]:
    return [
        make_finding(
            "gemini-schema",
            contract,
            contract.name,
            contract.source,
            f"Gemini refuses this declaration: {p.detail} (rule source: {GEMINI_PARAMETERS_DOC}).",
            fix_for(
                contract,
                code="take named parameters (the function's signature is the object)",
                mcp="make the tool's inputSchema an object of named parameters",
            )
            + ".",
        )
        for p in gemini_root_problems(contract.parameters)
    ]


def _array_items_findings(contract: Contract) -> list[Finding]:
    out = []
    for p in openai_array_problems(contract.parameters):
        where = f"{contract.name}.{p.param}" if p.param else contract.name
        fix = fix_for(
            contract,
            code=f"annotate {p.param or 'the parameter'} with its item type, e.g. list[str] "
            "(google-genai then declares items)",
            table='the TOOLS table\'s "list" type cannot declare an item type: write this tool '
            "as a plain function with list[str] (or the item type it takes)",
            mcp=f'give the array at {p.path} an "items" schema in the tool\'s inputSchema, e.g. '
            '"items": {"type": "string"}',
        )
        out.append(
            make_finding(
                "openai-array-items",
                contract,
                where,
                contract.source,
                f"OpenAI refuses the whole request: {p.path} is an array without items "
                f"(rule source: {OPENAI_ITEMS_DOC}).",
                fix + ".",
            )
        )
    return out


def _strict_fix(contract: Contract, problems: list[SchemaProblem]) -> str:
    """What to change so that the provider accepts the schema with ``strict: true``, one clause
    per kind of blocker, fitting the contract's source (:func:`fix_for`)."""
    kinds = {p.kind for p in problems}
    code: list[str] = []
    table: list[str] = []
    mcp: list[str] = []
    additional = [p for p in problems if p.kind == "additional"]
    if any(p.path == "(root)" for p in additional):
        sdk = {
            "openai-strict": "openai-python's to_strict_json_schema",
            "anthropic-strict": "the anthropic SDK's transform_schema",
        }.get(problems[0].rule, "the provider's SDK")
        code.append(
            "the parameters object google-genai builds has no additionalProperties: whoever "
            f"sends strict: true adds false at its root ({sdk} does)"
        )
    if any(p.path != "(root)" for p in additional):
        code.append(
            "take a pydantic model with model_config = ConfigDict(extra='forbid') for each "
            "object parameter (a bare dict allows any key)"
        )
        table.append(
            'a TOOLS "dict" argument allows any key: write the tool as a function taking a '
            "pydantic model with extra='forbid'"
        )
    if additional:
        mcp.append('set "additionalProperties": false on every object of the inputSchema')
    if "required" in kinds:
        code.append(
            "a strict declaration requires every parameter: give each optional one the type "
            "X | None and no default (the model then sends null for 'not given')"
        )
        table.append(
            'mark every argument "required": True and say in its description which value '
            "means 'not given'"
        )
        mcp.append(
            'list every property in "required" and make the optional ones nullable '
            '(["string", "null"])'
        )
    if kinds & {"keyword", "format", "ref", "enum", "pattern", "recursive", "limit"}:
        code.append(
            "drop the refused constraints from the annotations (Field(...) bounds, formats, "
            "Literal of objects) and check them in the body"
        )
        table.append("drop the refused keywords from the TOOLS entry and check them in the body")
        mcp.append(
            "keep to the keywords the provider supports in the inputSchema and check the rest "
            "in the server"
        )
    return fix_for(contract, code="; ".join(code), table="; ".join(table), mcp="; ".join(mcp))


def _strict_findings(contract: Contract, rule: str, title: str, doc: str) -> list[Finding]:
    check = openai_strict_problems if rule == "openai-strict" else anthropic_strict_problems
    problems: list[SchemaProblem] = check(contract.parameters or {"type": "object"})
    if not problems:
        return []
    shown = "; ".join(f"{p.path}: {p.detail}" for p in problems[:8])
    if len(problems) > 8:
        shown += f"; and {len(problems) - 8} more"
    return [
        make_finding(
            rule,
            contract,
            contract.name,
            contract.source,
            f"{title} would refuse this schema with strict: true (the playground sends no "
            f"strict flag, so calls work without the guarantee): {shown} (rule source: {doc}).",
            _strict_fix(contract, problems) + ".",
        )
    ]


def _lossy_findings(contract: Contract) -> list[Finding]:
    return [
        make_finding(
            "gemini-lossy",
            contract,
            contract.name,
            contract.source,
            f"Gemini reads a different schema than the gate checks: {change}; an answer in the "
            "sent form cannot be mapped back (rule source: google-genai types.JSONSchema, "
            "routing/gemini_schema.py).",
            fix_for(
                contract,
                code="use only constraints Gemini reads (type, enum, minimum, maximum, pattern, "
                "...), or check the refused ones in the tool body",
                mcp="use only keywords Gemini reads in the inputSchema (type, enum, minimum, "
                "maximum, pattern, ...), or check the refused ones in the server",
            )
            + ".",
        )
        for change in lossy_changes(contract.parameters)
    ]


def budget_findings(contract: Contract) -> list[Finding]:
    """``returns-unbounded``: a result declared as rows (a list, or an object with ``rows_key``
    rows) with neither ``max_rows`` nor ``max_bytes`` can grow past the token budget
    (:data:`playground.core.budget.DEFAULT_TOKEN_BUDGET`) unnoticed by the gate's hard limits."""
    returns = contract.returns
    if not isinstance(returns, dict) or "max_rows" in returns or "max_bytes" in returns:
        return []
    rows_key = returns.get("rows_key", "rows")
    props = returns.get("properties") or {}
    rows = returns if is_rows_list(returns) else props.get(rows_key)
    if not isinstance(rows, dict) or not is_rows_list(rows):
        return []
    if "maxItems" in rows:  # a bounded list: Field(max_length=...), an MCP outputSchema's maxItems
        return []
    return [
        make_finding(
            "returns-unbounded",
            contract,
            f"{contract.name}.returns",
            contract.source,
            f"{contract.name} returns rows with no max_rows or max_bytes: a big result reaches the "
            f"model whole (the gate only warns past {DEFAULT_TOKEN_BUDGET:,} approximate tokens; "
            "Claude Code caps MCP tool output at 25,000 tokens).",
            fix_for(
                contract,
                code='declare "max_rows" (and a limit argument) or "max_bytes" in its returns '
                "in __contracts__, or annotate the return Annotated[list[Row], "
                "Field(max_length=N)]",
                table='declare "max_len" under "rows" in its returns (and a limit argument)',
                mcp="bound the result: a limit argument, and maxItems on the rows in the "
                "tool's outputSchema",
            )
            + ".",
        )
    ]
