"""The declared formats a value is checked against (:data:`CHECKED_FORMATS`, with
jsonschema's format checker): a value that does not conform is dropped from the fill."""

from __future__ import annotations

from typing import Any

from playground.routing.fill import identifiers, naive
from playground.routing.fill.specs import Fill, ParamSpec

#: The ``format`` values whose filled value is checked before it is used (the ones a question's
#: words are turned into: dates and times, RFC 3339 / JSON Schema 2020-12 §7.3.1).
CHECKED_FORMATS = frozenset({"date", "time", "date-time"})
_FORMAT_SCHEMAS: dict[str, dict[str, Any]] = {}


def conforms(spec: ParamSpec, value: Any) -> bool:
    """True when ``value`` is one of ``spec``'s ``enum`` values (when it lists any) and passes
    its ``format`` as the gate checks it (the Draft 2020-12 format checker of
    :func:`playground.core.validators.validator_for`); formats outside
    :data:`CHECKED_FORMATS` and non-strings are not format-checked here. A word a rule took
    from the question ("scheduled" after the parameter's own word) is no listed value."""
    if spec.enum and not any(
        value == v and isinstance(value, bool) == isinstance(v, bool) for v in spec.enum
    ):
        return False
    if identifiers.unlike_examples(spec.examples, value):
        return False  # 'Tokyo' where every example is shaped 'America/New_York'
    if spec.format not in CHECKED_FORMATS or not isinstance(value, str):
        return True
    if spec.format != "date" and naive.takes_naive(spec.doc) and naive.is_iso(value):
        return True  # a plain datetime parameter takes a local time without an offset
    from playground.core.validators import validator_for  # jsonschema only when a format is met

    schema = _FORMAT_SCHEMAS.setdefault(spec.format, {"type": "string", "format": spec.format})
    return bool(validator_for(schema).is_valid(value))


def drop_nonconforming(specs: list[ParamSpec], fill: Fill) -> list[str]:
    """Remove from ``fill`` every value outside its parameter's enum or format (:func:`conforms`):
    such a value would be refused by the gate, so the parameter counts as not given (the router
    asks for it). Returns the names dropped."""
    dropped = [s.name for s in specs if s.name in fill.args and not conforms(s, fill.args[s.name])]
    for name in dropped:
        del fill.args[name]
        fill.evidence.pop(name, None)
    return dropped
