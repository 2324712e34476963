"""Units and listed values: the ``listed``/``unit`` rule (a value the description lists, or
a unit parameter's unit written after a number), the words that are not units, and the time
units a duration parameter is counted in."""

from __future__ import annotations

import re
from typing import Any

from playground.routing import korean, values
from playground.routing.fill.specs import ParamSpec

UNIT_NAME_RE = re.compile(r"(?:^|_)units?$", re.I)
_UNIT_AFTER_IN_RE = re.compile(
    r"\bin\s+(?:the\s+)?([A-Za-z°][A-Za-z°]*(?:/[A-Za-z]+(?:\^?\d|[²³])?)?)(?![\w/])"
)


#: A possessive right before a word: the word names a thing the user has, not an option.
_OWNED_RE = re.compile(r"(?i)\b(?:my|your|our|his|her|their|its)\s+$")


def listed_or_unit(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """A question word equal to a value the description quotes (rule ``listed``: "the
    temperature unit ('Celsius' or 'Fahrenheit')" + "in Celsius" -> ``Celsius``); for a
    parameter named ``unit``/``*_unit``, the unit written after "in" ("speed in km/h") or after
    a number ("a radius of 4 inches") (rule ``unit``). Weak evidence: it says which value, not
    which tool."""
    for value in spec.listed:
        m = re.search(rf"(?<![\w/]){re.escape(value)}(?![\w/])", text, re.I)
        if m and not spec.required and _OWNED_RE.search(text[: m.start()]):
            continue  # "the exports for my bot": a thing the user has, not an option chosen
        if m and values.outside(m.span(), used):
            return m.group(), {
                "rule": "listed",
                "span": list(m.span()),
                "text": m.group(),
                "detail": f"its description quotes {value!r}",
            }
    if not UNIT_NAME_RE.search(spec.name):
        return None
    found = [
        (m.start(1), m.end(1), "written after 'in'")
        for m in _UNIT_AFTER_IN_RE.finditer(text)
        if not korean.is_stopword(m.group(1).lower())
        and (m.group(1).islower() or "/" in m.group(1) or len(m.group(1)) <= 3)
    ]
    # a count in words ("two circles") counts things, it measures nothing
    units = [
        v
        for v in values.numbers(text)
        if v.unit and v.unit.isalpha() and v.unit not in NOT_UNITS and v.text[:1].isdigit()
    ]
    # "85 kilograms and 180 cm", "50 kilometers for 2 hours": numbers in different units say
    # no one unit for the tool
    if len({korean.stem(v.unit.lower()) for v in units}) == 1:
        found += [
            (v.end + len(text[v.end :]) - len(text[v.end :].lstrip()), 0, "the unit of a number")
            for v in units
        ]
    for start, end, why in found:
        if not end:
            end = start + len(re.match(r"[A-Za-z°/^\d]+", text[start:]).group())  # type: ignore[union-attr]
        if values.outside((start, end), used) and end > start:
            return text[start:end], {
                "rule": "unit",
                "span": [start, end],
                "text": text[start:end],
                "detail": f"a unit {why}",
            }
    return None


#: Units of time, and the words of a parameter that takes a time (general English / Korean).
TIME_UNITS = frozenset(
    [
        "second",
        "sec",
        "minute",
        "min",
        "hour",
        "hr",
        "day",
        "week",
        "month",
        "year",
        "yr",
        "초",
        "분",
        "시간",
        "일",
        "주",
        "개월",
        "년",
    ]
)
TIME_PARAM_RE = re.compile(
    r"time|duration|period|how\s+long|(?:^|_|\b)(?:years?|months?|weeks?|days?|hours?|"
    r"minutes?|seconds?)(?:$|_|\b)|기간|시간",
    re.I,
)


def per_unit(unit: str, text: str) -> bool:
    """True when ``unit`` (a number's, "kg") appears in ``text`` only inside a compound unit
    ("kJ/kg/K"): a value per kilogram is not a value in kilograms."""
    if "/" in unit:
        return False
    stem = korean.stem(unit.lower())
    hits = list(re.finditer(rf"(?<![A-Za-z0-9]){re.escape(stem)}s?(?![A-Za-z0-9])", text, re.I))
    return bool(hits) and all(
        re.search(r"(?:/|(?<![A-Za-z])per[\s_]+)$", text[max(0, m.start() - 6) : m.start()], re.I)
        or text[m.end() : m.end() + 1] == "/"
        for m in hits
    )


NOT_UNITS = frozenset(
    [
        "and",
        "or",
        "with",
        "in",
        "for",
        "to",
        "of",
        "at",
        "on",
        "respectively",
        "then",
        "is",
        "are",
        "was",
        "each",
        "also",
        "from",
        "by",
        "as",
        "the",
        "a",
        "an",
        "per",
        "than",
        "into",
    ]
)
