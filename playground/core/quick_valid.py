"""A quick "valid" for the gate's usual case: ``jsonschema-rs`` answers, ``jsonschema`` explains.

Most calls send valid arguments and get a valid result back; the gate then needs one bit, not
every error. :func:`surely_valid` asks ``jsonschema-rs`` (a compiled Draft 2020-12 validator,
~1 µs for a tool's arguments where ``jsonschema`` takes ~20-50 µs) and says ``True`` only when
it finds the value valid. Every other answer (invalid, a schema it will not take, a keyword
listed below) is ``False``, and the gate then validates with ``jsonschema`` exactly as before,
so every reason, message and path stays ``jsonschema``'s (docs/performance.md, "Quick valid").

The schemas it declines are those where the two libraries could disagree on what is valid:
``format`` (the gate's format checkers are jsonschema's plus the ``x-python-…`` formats of
:mod:`playground.core.type_formats`), a ``pattern`` (or ``patternProperties`` key) outside the
syntax both read alike (:func:`_plain_pattern`; the gate's are ECMA-262 through ``regress``,
:mod:`playground.core.ecma`), ``multipleOf`` (float division is
done differently), numeric bounds at or beyond 2**53 (where a float cannot hold the integer),
``$ref`` other than to a place in the schema itself (never fetched from a network),
``$id``/``$dynamicRef``/``$recursiveRef``, content keywords, and a ``$schema`` other than
2020-12's. ``tests/core/test_quick_valid.py`` compares both libraries on the bundled tools'
schemas and on the edge cases of each kind (integers as floats, booleans, Hangul lengths, enum
equality).
"""

from __future__ import annotations

import json
from typing import Any

#: keywords whose presence anywhere in a schema sends it to ``jsonschema`` alone
DECLINED = frozenset(
    {
        "format",
        "multipleOf",
        "$id",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
    }
)
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_DRAFT = "https://json-schema.org/draft/2020-12/schema"
_SAFE = 2**53
_MAX_KEPT = 512

# id(schema) -> (schema, its JSON text when compiled, the validator or None when declined)
_kept: dict[int, tuple[dict[str, Any], str, Any]] = {}


def surely_valid(schema: dict[str, Any], instance: Any) -> bool:
    """``True`` when ``instance`` is valid against ``schema`` (JSON Schema 2020-12) by
    ``jsonschema-rs``; ``False`` when it is not, or when ``schema`` is one this module declines
    (see the module docstring) or cannot compile. Never raises. ``instance`` must be plain JSON
    data (the gate checks its shape first). The compiled validator is kept per schema object
    and rebuilt when the schema's JSON text changes (an edit in place, at any depth, is seen)."""
    try:
        text = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return False
    entry = _kept.get(id(schema))
    if entry is None or entry[0] is not schema or entry[1] != text:
        entry = (schema, text, _compile(schema))
        if len(_kept) >= _MAX_KEPT:
            _kept.pop(next(iter(_kept)), None)
        _kept[id(schema)] = entry
    validator = entry[2]
    if validator is None:
        return False
    try:
        return bool(validator.is_valid(instance))
    except Exception:  # a value it cannot read (e.g. an integer past its range): jsonschema says
        return False


def _compile(schema: dict[str, Any]) -> Any:
    """A ``jsonschema_rs`` Draft 2020-12 validator for ``schema``, or ``None`` (declined, or a
    schema ``jsonschema-rs`` refuses: ``jsonschema`` then gives the gate's usual message)."""
    if not _accepted(schema):
        return None
    import jsonschema_rs

    try:
        return jsonschema_rs.Draft202012Validator(schema, validate_formats=False)
    except Exception:
        return None


#: escapes both engines read alike (``\\d`` is ``[0-9]``, ``\\w`` ASCII, ``\\s`` ECMA's white space)
_CLASS_ESCAPES = frozenset("dDwWsS")
_PUNCTUATION = frozenset(".-[](){}*+?^$|/\\")


def _plain_pattern(pattern: Any) -> bool:
    """Whether ``pattern`` is a regular expression read alike by ECMA-262 with the ``u`` flag
    (the gate's, :mod:`playground.core.ecma`) and by ``jsonschema-rs``: it compiles with
    ``regress`` under ``u``, its escapes are only ``\\d \\D \\w \\W \\s \\S`` or an escaped
    punctuation mark, and its only ``(?`` group is ``(?:``. Word boundaries, back-references,
    property classes, code-point escapes and lookarounds are declined (``\\b`` is Unicode
    in ``jsonschema-rs``, ASCII in ECMA)."""
    if not isinstance(pattern, str):
        return False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            escaped = pattern[i + 1 : i + 2]
            if not escaped or (escaped not in _CLASS_ESCAPES and escaped not in _PUNCTUATION):
                return False
            i += 2
            continue
        if char == "(" and pattern[i + 1 : i + 2] == "?" and pattern[i + 2 : i + 3] != ":":
            return False
        i += 1
    import regress

    try:
        regress.Regex(pattern, "u")
    except regress.RegressError:
        return False
    return True


def _accepted(schema: Any) -> bool:
    """Whether no part of ``schema`` uses what :data:`DECLINED` lists (or a ``$ref`` outside
    the schema, a bound past 2**53, another draft's ``$schema``). Iterative: any depth."""
    stack = [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
            continue
        if not isinstance(item, dict):
            continue
        if not DECLINED.isdisjoint(item):
            return False
        ref = item.get("$ref")
        if ref is not None and not (isinstance(ref, str) and ref.startswith("#")):
            return False
        if item.get("$schema", _DRAFT) != _DRAFT:
            return False
        patterns = [item["pattern"]] if "pattern" in item else []
        if isinstance(item.get("patternProperties"), dict):
            patterns += list(item["patternProperties"])
        if not all(_plain_pattern(p) for p in patterns):
            return False
        for key in _BOUNDS:
            bound = item.get(key)
            if isinstance(bound, (int, float)) and not -_SAFE < bound < _SAFE:
                return False
        stack.extend(item.values())
    return True
