"""Rule ``result_count``: how many results the question asks for, given to the parameter that
sizes the result ("Show the last 3 commits" -> ``max_count=3``; "the 5 most recent orders",
"top 10 results", "the top five restaurants", "최근 3건").

A number that counts the things a listing returns stands after a word of recency or rank
(last, latest, first, top, recent, newest, oldest; 최근, 마지막, 최신, 상위) and before a plural
noun that is not a unit of time ("the last 3 days" is a period, not a count). The parameter is
an integer whose name or description says it sizes the result (``max_count``, ``limit``,
``top_k``, "maximum number of results": :func:`sizes_result`). Strong evidence: a number in the
shape of a count of results shows the question asks for a listing this tool makes.
"""

from __future__ import annotations

import re
from typing import Any

from playground.routing import values
from playground.routing.fill.specs import ParamSpec

#: An integer parameter named for the size of the result (general API naming).
_COUNT_NAME_RE = re.compile(
    r"^(?:limit|max_?(?:count|results|items|rows|entries|records|num)|top_?[kn]?|count|"
    r"n_?results|num_?results|page_?size|per_?page|n)$",
    re.I,
)
#: A description saying the parameter sizes the result.
_COUNT_DOC_RE = re.compile(
    r"how\s+many\b.*\breturn|(?:max(?:imum)?|number)\s+of\s+(?:results|rows|items|records|entries)|"
    r"돌려받을|반환할|돌려줄|최대\s*\S*\s*(?:건|개|곳|수)",
    re.I,
)
_TIME_UNITS = r"(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?|centur(?:y|ies))"
#: "last 3 commits", "top 10 results", "3 most recent orders", "최근 3건"; not "the first one
#: has ..." ("one" is a pronoun there, and a count of one names no plural) nor a verb in -s
#: ("has", "is", "was") for the plural noun.
_COUNT_RE = re.compile(
    r"\b(?:last|latest|first|top|recent|newest|oldest|most\s+recent)\s+(?!one\b)(\d{1,4}|[a-z]+)\s+"
    rf"(?!{_TIME_UNITS}\b)(?:[^\W\d_]+\s+){{0,2}}(?!(?:has|is|was|does)\b)[^\W\d_]+s\b"
    r"|\b(\d{1,4})\s+(?:most\s+recent|latest|newest|last|recent)\s+[^\W\d_]+s\b"
    r"|(?:최근|마지막|최신|상위)\s*(\d{1,4})\s*(?:개|건|번)?",
    re.I,
)


def sizes_result(spec: ParamSpec) -> bool:
    """True when ``spec`` is an integer that sizes the result (name or description)."""
    return "integer" in spec.types and bool(
        _COUNT_NAME_RE.match(spec.name) or _COUNT_DOC_RE.search(spec.doc or "")
    )


def result_count(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[int, dict[str, Any]] | None:
    """``(count, evidence)`` of rule ``result_count`` for ``spec`` in ``text`` (spans in
    ``used`` are taken), or ``None``; the count stays within ``minimum``/``maximum``."""
    for m in _COUNT_RE.finditer(text):
        group = next(g for g in (1, 2, 3) if m.group(g))
        span = m.span(group)
        said = m.group(group)
        n = int(said) if said.isdigit() else values.english_number(said)
        if n is None or not values.outside(span, used):
            continue
        if (spec.minimum is not None and n < spec.minimum) or (
            spec.maximum is not None and n > spec.maximum
        ):
            continue
        return n, {
            "rule": "result_count",
            "span": list(span),
            "text": m.group(),
            "detail": "how many results the question asks for",
        }
    return None
