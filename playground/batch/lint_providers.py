"""Lint rules for every provider's declaration rules (issue 11 item 7).

Each finding names the provider and the document its rule comes from:

* ``anthropic-name`` / ``openai-name`` (error): the tool name must match
  ``^[a-zA-Z0-9_-]{1,64}$`` (Anthropic Messages API ``tools[].name``; OpenAI Chat Completions
  ``tools[].function.name``). ``shop.search``, ``shop:lookup`` and 70-character names pass
  Gemini's rule (``name-invalid`` in :mod:`playground.batch.lint_rules`) but not these.
* ``anthropic-param-name`` (error): a parameter name must match ``^[a-zA-Z0-9_.-]{1,64}$``
  (the Anthropic API's error "Property keys should match pattern ..."): a Hangul parameter name
  is refused, and one bad key makes the API reject the whole request.
* ``anthropic-schema`` / ``openai-schema`` (error): the parameters schema must be an object
  schema without a combinator at its root.
* ``returns-unbounded`` (warning, :func:`budget_findings`): rows without ``max_rows`` /
  ``max_bytes`` can exceed the 25,000-token budget (Claude Code's MCP output cap).
* ``gemini-lossy`` (warning): a change the Gemini copy of the schema makes
  (:func:`playground.routing.gemini_schema.lossy_changes`) that an answer in the sent form
  cannot be mapped back from.

The checks themselves live with the provider shapes (:func:`playground.core.wire.declaration_problems`).
"""

from __future__ import annotations

import re

from playground.batch.lint_base import Finding, is_rows_list, make_finding
from playground.core.budget import DEFAULT_TOKEN_BUDGET
from playground.core.contracts import Contract
from playground.core.wire import declaration_problems
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
    accepts its declaration)."""
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
                "name": "rename it to ASCII letters, digits, _ and - (at most 64 characters), "
                f"e.g. {safe}",
                "parameter": "rename the parameter in ASCII (e.g. 상품ID → product_id); keep the "
                "Korean in its description",
                "schema": "take an object of named parameters",
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
    for change in lossy_changes(contract.parameters):
        out.append(
            make_finding(
                "gemini-lossy",
                contract,
                contract.name,
                contract.source,
                f"Gemini reads a different schema than the gate checks: {change}; an answer in the "
                "sent form cannot be mapped back (rule source: google-genai types.JSONSchema, "
                "routing/gemini_schema.py).",
                "use only keywords Gemini reads (type, enum, minimum, maximum, pattern, ...), or "
                "check the refused ones in the tool body.",
            )
        )
    return out


def budget_findings(contract: Contract) -> list[Finding]:
    """``returns-unbounded``: a result declared as rows (a list, or an object with ``rows_key``
    rows) with neither ``max_rows`` nor ``max_bytes`` can grow past the token budget
    (:data:`playground.core.budget.DEFAULT_TOKEN_BUDGET`) unnoticed by the gate's hard limits."""
    returns = contract.returns
    if not isinstance(returns, dict) or "max_rows" in returns or "max_bytes" in returns:
        return []
    rows_key = returns.get("rows_key", "rows")
    props = returns.get("properties") or {}
    is_rows = is_rows_list(returns) or (
        isinstance(props.get(rows_key), dict) and is_rows_list(props[rows_key])
    )
    if not is_rows or "maxItems" in returns:  # a bounded list: Field(max_length=...)
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
            'declare "max_rows" (and a limit argument) or "max_bytes" in its returns.',
        )
    ]
