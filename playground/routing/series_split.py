"""Rule ``series_one_parameter`` of the offline router (issue 23, near neighbours: "a value that
fits no parameter's shape is not a value").

Items a question joins with "and" or "or" -- "Apple and Microsoft", "point and rebound stats",
"the artists Taylor Swift and Maroon 5" -- are things of one kind: values of one argument
(a list, or one call each). When the loose argument rules gave the two items to two different
parameters, neither is that parameter's value: ``get_metal_price(metal='Apple',
measure='Microsoft')``, ``get_most_played(region='Taylor Swift', genre='Maroon 5')``. Both are
taken out, so the tool lacks them and the router asks (or, for a near neighbour, calls
nothing) instead of calling with a series torn in two.

Two parameters that do take the two items of a series are kept: numbered siblings
(``color1``/``color2``, ``number1``/``number2``) and the two ends of a range or a route
(``start_location``/``end_location``, ``origin``/``destination``; "between New York and
Boston": :func:`playground.routing.fill.roles.role_of`). Items joined by a comma alone
("Sydney, Australia", "London, UK") are no series here: a place and its country.

Measured on the BFCL dev bench (``python bench/bfcl.py --without series_one_parameter``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from playground.routing.fill.roles import role_of
from playground.routing.fill.specs import Fill, ParamSpec, drop_values
from playground.routing.rule_switches import known_rule

RULE_SERIES_ONE = known_rule(
    "series_one_parameter",
    "selection",
    "the two items of 'A and B' are no values of two unrelated parameters",
)

#: Argument rules that pair a text with a parameter by the words around it or by position
#: (the loose phase): the ones whose values are checked.
LOOSE = frozenset({"string", "position", "leftover", "cue", "word", "modifier"})

_JOIN_RE = re.compile(r"\s*,?\s*(?:and|or)\s*", re.I)
_NUMBERED_RE = re.compile(r"_?\d+$")


def _siblings(a: ParamSpec, b: ParamSpec) -> bool:
    """True when ``a`` and ``b`` may take two items of one series: numbered siblings, or the
    two ends of a range or route."""
    if _NUMBERED_RE.search(a.name) and _NUMBERED_RE.sub("", a.name) == _NUMBERED_RE.sub("", b.name):
        return True
    ra, rb = role_of(a), role_of(b)
    return bool(ra and rb and ra != rb)


def torn_series(specs: Sequence[ParamSpec], fill: Fill, question: str) -> list[str]:
    """The parameters (in declaration order) whose text values, given by a loose rule
    (:data:`LOOSE`), are two items of one series in ``question`` -- one written right after the
    other with only "and" or "or" between -- given to parameters that are not
    :func:`siblings <_siblings>`."""
    texts = [
        (s, fill.evidence[s.name]["span"])
        for s in specs
        if isinstance(fill.args.get(s.name), str)
        and fill.evidence.get(s.name, {}).get("rule") in LOOSE
        and fill.evidence[s.name].get("span")
    ]
    torn: set[str] = set()
    for a, span_a in texts:
        for b, span_b in texts:
            if a is b or span_a[1] > span_b[0]:
                continue
            if _JOIN_RE.fullmatch(question[span_a[1] : span_b[0]]) and not _siblings(a, b):
                torn.update((a.name, b.name))
    return [s.name for s in specs if s.name in torn]


def drop_torn_series(specs: Sequence[ParamSpec], fill: Fill, question: str) -> list[str]:
    """Take the :func:`torn_series` values out of ``fill``; the required ones join
    ``fill.missing``. Only a fill that lacks nothing is checked. Returns the parameters
    dropped."""
    if fill.missing:
        return []
    return drop_values(specs, fill, torn_series(specs, fill, question))
