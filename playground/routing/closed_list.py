"""Rule ``closed_list_values`` of the offline router (issue 23, near neighbours: "a value that
fits no parameter's shape is not a value").

A parameter whose description closes the list of its values -- "Can be 'melting', 'freezing',
'vaporization', 'condensation'", "Valid values include: 'spades', 'clubs', 'hearts',
'diamonds'", "one of 'asc' or 'desc'" -- takes one of them. A value a loose argument rule
gave it that is none of them (``suit='king'`` from "drawing a king from a deck of cards",
``phase_transition='capacity'``) is not its value: it is taken out, so the tool lacks it and
the router asks (or, for a near neighbour, calls nothing) instead of calling with it. A list
the description leaves open ("like 'ounce' or 'kg'", "e.g.", "such as", "Supports 'cup',
etc.") is a list of examples, not of the values, and is not judged; nor is a parameter with a
schema ``enum`` (the enum rules read it).

The quoted values are :attr:`ParamSpec.listed <playground.routing.fill.specs.ParamSpec.listed>`;
the phrasings closing a list are English (:data:`CLOSING_RE`).

Measured on the BFCL dev bench (``python bench/bfcl.py --without closed_list_values``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from playground.routing.fill.specs import Fill, ParamSpec, drop_where
from playground.routing.rule_switches import known_rule

RULE_CLOSED_LIST = known_rule(
    "closed_list_values",
    "selection",
    "a parameter whose description closes its list of values ('Can be ...') takes one of them",
)

#: Phrasings that close a description's list of values (English).
CLOSING_RE = re.compile(
    r"\b(?:can\s+be|valid\s+(?:values|options)|possible\s+values|allowed\s+values|one\s+of|"
    r"must\s+be|either)\b",
    re.I,
)
#: Phrasings that leave a list open: its quoted values are examples.
OPEN_RE = re.compile(r"\b(?:e\.?g\.?|such\s+as|like|for\s+example|etc\.?)(?!\w)", re.I)
#: Argument rules that pair a text with a parameter by the words around it or by position.
LOOSE = frozenset({"string", "position", "leftover", "cue", "modifier", "assign"})


def closed_values(spec: ParamSpec) -> frozenset[str]:
    """The values (lower case) ``spec``'s description closes its list to, or an empty set when
    it does not close one (no closing phrase, an open one, or a schema enum)."""
    doc = spec.doc or ""
    if spec.enum or not spec.listed or not CLOSING_RE.search(doc) or OPEN_RE.search(doc):
        return frozenset()
    return frozenset(v.lower() for v in spec.listed)


def _outside(value: Any, allowed: frozenset[str]) -> bool:
    items = value if isinstance(value, list) else [value]
    return any(isinstance(v, str) and v.lower() not in allowed for v in items)


def drop_unlisted(specs: Sequence[ParamSpec], fill: Fill) -> list[str]:
    """Take out of ``fill`` every text a loose rule (:data:`LOOSE`) gave that is none of the
    :func:`closed_values` of its parameter; the required ones join ``fill.missing``. Only a fill
    that lacks nothing is checked. Returns the parameters dropped, in declaration order."""

    def misfit(spec: ParamSpec, value: Any, ev: Mapping[str, Any]) -> bool:
        allowed = closed_values(spec)
        return bool(allowed) and _outside(value, allowed)

    return drop_where(specs, fill, LOOSE, misfit)
