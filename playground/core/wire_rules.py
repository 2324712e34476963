"""What each provider refuses in a tool's parameters schema, beyond names and the root shape.

:func:`playground.core.wire.declaration_problems` owns the name rules and the root rule
(``parameters`` is an object schema); this module walks the whole schema for the rules below.
Every function returns :class:`SchemaProblem` records (``[]`` when all is well), never raises,
and never changes its input. The schema walked is the one each provider is sent: the
contract's ``parameters`` as they are for Anthropic (``input_schema``) and OpenAI
(``function.parameters``); for Gemini the root rule is checked on the same schema, since the
router's converted copy keeps its root type (:mod:`playground.routing.gemini_schema`).

Rules and their sources:

* OpenAI, every request (:func:`openai_array_problems`): an array schema without ``items`` is
  refused with ``400 invalid_function_parameters`` "Invalid schema for function 'f': In
  context=('properties', 'tags'), array schema missing items." (the API's error, quoted in
  mark3labs/mcphost#35, sigoden/aichat#1049, gumloop/guMCP#136 — nested arrays too:
  ``('properties', 'values', 'items')``). An array with ``prefixItems`` (a tuple) is not
  flagged: no refusal of one is documented.
* OpenAI ``strict: true`` (:func:`openai_strict_problems`), OpenAI Structured Outputs guide,
  "Supported schemas": ``additionalProperties: false`` must be set in every object; every key
  of ``properties`` must be in ``required`` (optional fields are written as a union with
  ``null``); the supported string formats are ``date-time``, ``time``, ``date``, ``duration``,
  ``email``, ``hostname``, ``ipv4``, ``ipv6``, ``uuid`` (the API: "'uri' is not a valid
  format", can1357/oh-my-pi#206); the supported keywords are listed per type (strings:
  ``pattern``, ``format``; numbers: ``multipleOf``, ``maximum``, ``exclusiveMaximum``,
  ``minimum``, ``exclusiveMinimum``; arrays: ``minItems``, ``maxItems``), and "not yet
  supported": ``allOf``, ``not``, ``dependentRequired``, ``dependentSchemas``, ``if``,
  ``then``, ``else``, and for objects and arrays ``patternProperties``,
  ``unevaluatedProperties``, ``propertyNames``, ``minProperties``, ``maxProperties``,
  ``unevaluatedItems``, ``contains``, ``minContains``, ``maxContains``, ``uniqueItems``;
  ``oneOf`` is refused ("'oneOf' is not permitted", the API's error quoted on the OpenAI
  community forum, thread 932422); ``minLength``/``maxLength`` are not among the supported
  string keywords. A ``$ref`` beside other keywords is refused, which is why openai-python's
  ``to_strict_json_schema`` (``src/openai/lib/_pydantic.py``) unravels such refs. Limits: at
  most 5,000 object properties in all, 10 levels of object nesting, 1,000 enum values in all.
  ``default`` is NOT flagged: once refused ("'default' is not permitted", instructor#1074,
  2024), it was accepted by api.openai.com in 2026 (openai-agents-python#4390).
* Anthropic ``strict: true`` (:func:`anthropic_strict_problems`), Anthropic docs, "Structured
  outputs", "JSON Schema limitations" (shared by JSON outputs and strict tool use): supported
  are the basic types, ``enum`` of strings, numbers, booleans or nulls (no complex types),
  ``const``, ``anyOf`` and ``allOf`` (``allOf`` with ``$ref`` not supported), ``$ref``,
  ``$defs``, ``definitions`` (no external ``$ref``), ``default``, ``required``,
  ``additionalProperties`` (must be ``false`` for objects), the formats ``date-time``,
  ``time``, ``date``, ``duration``, ``email``, ``hostname``, ``uri``, ``ipv4``, ``ipv6``,
  ``uuid``, ``minItems`` of 0 or 1, and ``pattern`` without backreferences, lookaround or
  ``\\b``/``\\B``. Not supported: recursive schemas, numerical constraints (``minimum``,
  ``maximum``, ``multipleOf``, ...), string constraints (``minLength``, ``maxLength``), other
  array constraints. "If you use an unsupported feature, you'll receive a 400 error."
* Gemini (:func:`gemini_root_problems`): ``FunctionDeclaration.parameters_json_schema``
  (google-genai 3.6.1 ``types.py``): "The schema must describe an object where the properties
  are the parameters to the function."

Annotations (``title``, ``description``, ``examples``, ``$schema``, ``$comment``, ``$id``,
``deprecated``, ``readOnly``, ``writeOnly``) are never flagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

OPENAI_STRICT_DOC = (
    "OpenAI Structured Outputs guide, 'Supported schemas' (function calling strict: true)"
)
OPENAI_ITEMS_DOC = (
    "OpenAI API error 400 invalid_function_parameters: \"In context=('properties', ...), "
    'array schema missing items."'
)
ANTHROPIC_STRICT_DOC = (
    "Anthropic docs, Structured outputs: 'JSON Schema limitations' (strict tool use)"
)
GEMINI_PARAMETERS_DOC = (
    "google-genai 3.6.1 FunctionDeclaration.parameters_json_schema: 'The schema must describe "
    "an object where the properties are the parameters to the function.'"
)

#: Keywords that only annotate; no provider rule here is about them.
ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "examples",
        "$schema",
        "$comment",
        "$id",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)

OPENAI_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
#: Keywords OpenAI's strict mode refuses (module docstring).
OPENAI_STRICT_REFUSED = frozenset(
    {
        "allOf",
        "oneOf",
        "not",
        "dependentRequired",
        "dependentSchemas",
        "if",
        "then",
        "else",
        "patternProperties",
        "unevaluatedProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "unevaluatedItems",
        "contains",
        "minContains",
        "maxContains",
        "uniqueItems",
        "minLength",
        "maxLength",
    }
)
OPENAI_MAX_PROPERTIES = 5000
OPENAI_MAX_NESTING = 10
OPENAI_MAX_ENUM_VALUES = 1000

ANTHROPIC_STRICT_FORMATS = frozenset(
    {
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    }
)
#: Keywords Anthropic's strict tool use supports (module docstring), annotations aside.
ANTHROPIC_STRICT_KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "anyOf",
        "allOf",
        "$ref",
        "$defs",
        "definitions",
        "default",
        "required",
        "additionalProperties",
        "properties",
        "items",
        "format",
        "minItems",
        "pattern",
    }
)
_ANTHROPIC_PATTERN_REFUSED = re.compile(r"\\[1-9]|\(\?<?[=!]|\\[bB]")


@dataclass(frozen=True)
class SchemaProblem:
    """One thing a provider refuses in a parameters schema.

    ``rule``: ``"openai-array-items"``, ``"openai-strict"``, ``"anthropic-strict"`` or
    ``"gemini-schema"``. ``kind``: what is wrong, for the fix: ``"items"``, ``"additional"``
    (``additionalProperties`` not ``false``), ``"required"`` (a property not in
    ``required``), ``"keyword"``, ``"format"``, ``"ref"`` (``$ref`` beside other keywords),
    ``"enum"``, ``"pattern"``, ``"recursive"``, ``"limit"`` or ``"root"``. ``path``: where, as
    the keys from the root joined by dots (``"properties.tags.items"``; ``"(root)"``), the way
    OpenAI's errors give their ``context``. ``param``: the top-level parameter the path is
    under (``""`` at the root or in ``$defs``). ``detail``: one phrase, e.g. ``"array without
    items"``, ``"keyword 'minLength'"``, ``"format 'uri'"``.
    """

    rule: str
    kind: str
    path: str
    param: str
    detail: str


def _walk(
    schema: Any, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every subschema of ``schema`` with its path (``("properties", "tags", "items")``)."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key in ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas"):
        subs = schema.get(key)
        if isinstance(subs, dict):
            for name, sub in subs.items():
                yield from _walk(sub, (*path, key, str(name)))
    for key in (
        "items",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
    ):
        if isinstance(schema.get(key), dict):
            yield from _walk(schema[key], (*path, key))
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        subs = schema.get(key)
        if isinstance(subs, list):
            for i, sub in enumerate(subs):
                yield from _walk(sub, (*path, key, str(i)))
    if isinstance(schema.get("items"), list):  # draft-07 tuple form
        for i, sub in enumerate(schema["items"]):
            yield from _walk(sub, (*path, "items", str(i)))


def _where(path: tuple[str, ...]) -> str:
    return ".".join(path) if path else "(root)"


def _param(path: tuple[str, ...]) -> str:
    return path[1] if len(path) >= 2 and path[0] == "properties" else ""


def _types(schema: dict[str, Any]) -> set[str]:
    t = schema.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def _is_object(schema: dict[str, Any]) -> bool:
    return "object" in _types(schema) or (
        "type" not in schema and isinstance(schema.get("properties"), dict)
    )


def _problem(rule: str, kind: str, path: tuple[str, ...], detail: str) -> SchemaProblem:
    return SchemaProblem(rule, kind, _where(path), _param(path), detail)


def openai_array_problems(parameters: Any) -> list[SchemaProblem]:
    """``openai-array-items``: each array schema (``type`` ``"array"`` or a type list holding
    it) with neither ``items`` nor ``prefixItems``. OpenAI refuses the whole request, strict or
    not (module docstring)."""
    out = []
    for path, node in _walk(parameters):
        if "array" in _types(node) and "items" not in node and "prefixItems" not in node:
            out.append(_problem("openai-array-items", "items", path, "array without items"))
    return out


def _strict_object_problems(
    rule: str, path: tuple[str, ...], node: dict[str, Any], *, all_required: bool
) -> list[SchemaProblem]:
    out = []
    if _is_object(node) and node.get("additionalProperties") is not False:
        shown = node.get("additionalProperties", "absent")
        what = "true" if shown is True else "absent" if shown == "absent" else "a schema"
        out.append(_problem(rule, "additional", path, f"additionalProperties is {what}, not false"))
    props = node.get("properties")
    if all_required and isinstance(props, dict):
        listed = node.get("required")
        required: list[Any] = listed if isinstance(listed, list) else []
        missing = [str(k) for k in props if k not in required]
        for name in missing:
            out.append(
                _problem(rule, "required", (*path, "properties", name), f"{name!r} is not required")
            )
    return out


def openai_strict_problems(parameters: Any) -> list[SchemaProblem]:
    """``openai-strict``: what keeps OpenAI from accepting this schema with ``strict: true``
    (module docstring): ``additionalProperties`` not ``false`` in an object, a property not in
    ``required``, a refused keyword or format, a ``$ref`` beside other keywords, and the size
    limits. The root rule (an object, no ``anyOf`` at the root) is ``openai-schema``'s."""
    out: list[SchemaProblem] = []
    n_props = 0
    n_enum = 0
    deepest: tuple[int, tuple[str, ...]] = (0, ())
    for path, node in _walk(parameters):
        out.extend(_strict_object_problems("openai-strict", path, node, all_required=True))
        for key in sorted(OPENAI_STRICT_REFUSED & node.keys()):
            out.append(_problem("openai-strict", "keyword", path, f"keyword {key!r}"))
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in OPENAI_STRICT_FORMATS:
            out.append(_problem("openai-strict", "format", path, f"format {fmt!r}"))
        if "$ref" in node and len(node) > 1:
            others = ", ".join(sorted(set(node) - {"$ref"}))
            out.append(_problem("openai-strict", "ref", path, f"$ref beside {others}"))
        if isinstance(node.get("properties"), dict):
            n_props += len(node["properties"])
        if isinstance(node.get("enum"), list):
            n_enum += len(node["enum"])
        level = sum(1 for p in path if p == "properties") + 1
        if _is_object(node) and level > deepest[0]:
            deepest = (level, path)
    if n_props > OPENAI_MAX_PROPERTIES:
        out.append(
            _problem(
                "openai-strict",
                "limit",
                (),
                f"{n_props} object properties (at most {OPENAI_MAX_PROPERTIES})",
            )
        )
    if deepest[0] > OPENAI_MAX_NESTING:
        out.append(
            _problem(
                "openai-strict",
                "limit",
                deepest[1],
                f"{deepest[0]} levels of object nesting (at most {OPENAI_MAX_NESTING})",
            )
        )
    if n_enum > OPENAI_MAX_ENUM_VALUES:
        out.append(
            _problem(
                "openai-strict",
                "limit",
                (),
                f"{n_enum} enum values (at most {OPENAI_MAX_ENUM_VALUES})",
            )
        )
    return out


def _recursive_refs(parameters: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """``(path, ref)`` of each local ``$ref`` that leads back to a schema it is inside of."""
    out = []
    for path, node in _walk(parameters):
        ref = node.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#"):
            continue
        target = tuple(t for t in ref.lstrip("#").split("/") if t)
        if path[: len(target)] == target:  # the ref sits inside what it points to
            out.append((path, ref))
            continue
        seen = {target}
        todo = [target]
        while todo:  # follow the refs inside the target: does one lead back to it?
            here = todo.pop()
            node_here: Any = parameters
            for token in here:
                node_here = node_here.get(token) if isinstance(node_here, dict) else None
            for _, sub in _walk(node_here):
                sub_ref = sub.get("$ref")
                if not isinstance(sub_ref, str) or not sub_ref.startswith("#"):
                    continue
                nxt = tuple(t for t in sub_ref.lstrip("#").split("/") if t)
                if path[: len(nxt)] == nxt:
                    out.append((path, ref))
                    todo = []
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    return out


def anthropic_strict_problems(parameters: Any) -> list[SchemaProblem]:
    """``anthropic-strict``: what keeps Anthropic from accepting this ``input_schema`` with
    ``strict: true`` (module docstring): ``additionalProperties`` not ``false`` in an object, a
    keyword outside the supported list, ``minItems`` above 1, a format outside the list, an
    enum holding an object or array, ``allOf`` with ``$ref``, an external ``$ref``, a
    ``pattern`` with a backreference, lookaround or word boundary, a recursive schema."""
    out: list[SchemaProblem] = []
    if not isinstance(parameters, dict):
        return out
    for path, node in _walk(parameters):
        out.extend(_strict_object_problems("anthropic-strict", path, node, all_required=False))
        for key in sorted(set(node) - ANTHROPIC_STRICT_KEYWORDS - ANNOTATIONS):
            out.append(_problem("anthropic-strict", "keyword", path, f"keyword {key!r}"))
        min_items = node.get("minItems")
        if isinstance(min_items, int) and min_items > 1:
            out.append(_problem("anthropic-strict", "keyword", path, f"minItems {min_items}"))
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in ANTHROPIC_STRICT_FORMATS:
            out.append(_problem("anthropic-strict", "format", path, f"format {fmt!r}"))
        enum = node.get("enum")
        if isinstance(enum, list) and any(isinstance(v, (dict, list)) for v in enum):
            out.append(_problem("anthropic-strict", "enum", path, "an enum of objects or arrays"))
        all_of = node.get("allOf")
        if isinstance(all_of, list) and any(isinstance(s, dict) and "$ref" in s for s in all_of):
            out.append(_problem("anthropic-strict", "ref", path, "allOf with $ref"))
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            out.append(_problem("anthropic-strict", "ref", path, f"external $ref {ref!r}"))
        pattern = node.get("pattern")
        if isinstance(pattern, str) and _ANTHROPIC_PATTERN_REFUSED.search(pattern):
            out.append(
                _problem(
                    "anthropic-strict",
                    "pattern",
                    path,
                    f"pattern {pattern!r} (backreference, lookaround or \\b)",
                )
            )
    for path, ref in _recursive_refs(parameters):
        out.append(_problem("anthropic-strict", "recursive", path, f"recursive $ref {ref!r}"))
    return out


def gemini_root_problems(parameters: Any) -> list[SchemaProblem]:
    """``gemini-schema``: parameters that are not an object schema (``type`` other than
    ``"object"``, or none with no ``properties``). ``None`` or ``{}`` (no parameters) is
    fine: the router leaves ``parameters`` unset then."""
    if not isinstance(parameters, dict) or not parameters:
        return []
    if _is_object(parameters):
        return []
    what = parameters.get("type", "no type")
    return [_problem("gemini-schema", "root", (), f"parameters of type {what!r}, not an object")]
