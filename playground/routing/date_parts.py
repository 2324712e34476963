"""Rule ``date_parts_no_numbers`` of the offline router (issue 23, near neighbours: "a value
that fits no parameter's shape is not a value").

The numbers of a date the question writes -- "the 2nd of march 2023", "April 22nd 2023",
"2023-04-22" -- are a date, not numbers of their own. When a loose argument rule gave a number
parameter (or a number array) numbers that lie inside a written date -- ``coordinates=[22,
2023]`` from "in Sacramento on April 22nd 2023" -- they are not its value: it is taken out, so
the tool lacks it and the router asks (or, for a near neighbour, calls nothing). A list written
partly outside the date keeps its other numbers ("at 38.58 and -121.49 on April 22nd 2023" ->
``[38.58, -121.49]``). A parameter
about a date or a part of one (its name says date, day, month, year, time: ``year``,
``birth_year``, ``check_in_date``) is not judged: a year or a day is its value.

The dates are those the date rule reads (:data:`playground.routing.fill.dates.DATE_SPAN_RE`).

Measured on the BFCL dev bench (``python bench/bfcl.py --without date_parts_no_numbers``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from playground.routing import korean, values
from playground.routing.fill.dates import DATE_SPAN_RE, is_date_param
from playground.routing.fill.specs import Fill, ParamSpec, drop_values
from playground.routing.rule_switches import known_rule

RULE_DATE_PARTS = known_rule(
    "date_parts_no_numbers",
    "selection",
    "the numbers of a written date are no values of a number parameter",
)

#: Argument rules that pair numbers with a parameter by the words around them or by position.
LOOSE = frozenset({"number", "position", "list", "assign"})
#: Name words of a parameter that takes a date or a part of one (general English).
DATE_PART_WORDS = frozenset({"date", "day", "month", "year", "time", "datetime", "week"})


@functools.lru_cache(maxsize=256)
def date_spans(question: str) -> tuple[tuple[int, int], ...]:
    """Where ``question`` writes a date (``(start, end)`` characters), in order."""
    return tuple(m.span() for m in DATE_SPAN_RE.finditer(question))


def _about_dates(spec: ParamSpec) -> bool:
    words = {korean.stem(w.lower()) for w in korean.split_identifier(spec.name)}
    return is_date_param(spec) or bool(words & DATE_PART_WORDS)


def _outside_dates(
    items: list[Any],
    span: tuple[int, int],
    question: str,
    spans: tuple[tuple[int, int], ...],
) -> list[Any]:
    """``items`` without the numbers written inside a date, when ``items`` are the numbers
    written in ``span`` of ``question`` in order; otherwise (the value was read another way)
    ``items`` whole, or nothing when the span lies inside a date."""
    start, end = span
    written = [v for v in values.numbers(question) if start <= v.start and v.end <= end]
    if [v.value for v in written] != items:
        inside = any(a <= start and end <= b for a, b in spans)
        return [] if inside else list(items)
    return [v.value for v in written if not any(a <= v.start and v.end <= b for a, b in spans)]


def drop_date_parts(specs: Sequence[ParamSpec], fill: Fill, question: str) -> list[str]:
    """Take out of ``fill`` every number (or list of numbers) a loose rule (:data:`LOOSE`) gave
    from inside a written date, for a parameter not about dates (a list written partly outside
    the date keeps its other numbers); the required ones join ``fill.missing``. Only a fill that lacks nothing is checked. Returns the parameters
    dropped, in declaration order."""
    if fill.missing:
        return []
    spans = date_spans(question)
    if not spans:
        return []
    dropped: list[str] = []
    for spec in specs:
        ev = fill.evidence.get(spec.name)
        if ev is None or ev.get("rule") not in LOOSE or not ev.get("span"):
            continue
        value = fill.args.get(spec.name)
        items = value if isinstance(value, list) else [value]
        if not items or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in items
        ):
            continue
        start, end = ev["span"]
        if _about_dates(spec) or not any(a < end and start < b for a, b in spans):
            continue
        kept = _outside_dates(items, (start, end), question, spans)
        if kept and isinstance(value, list):  # "38.58 and -121.49 on April 22nd 2023"
            fill.args[spec.name] = kept
            fill.evidence[spec.name] = {
                **ev,
                "detail": f"{ev.get('detail', '')}; a date's numbers left out",
            }
        elif not kept:
            dropped.append(spec.name)
    return drop_values(specs, fill, dropped)
