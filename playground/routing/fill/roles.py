"""Which end of a range or a route a parameter is (``start``/``end``, from its name) and
which end the words before a value open or close ("from", "between", "until")."""

from __future__ import annotations

import re

from playground.routing import korean
from playground.routing.fill.specs import ParamSpec

_START_WORDS = frozenset(
    [
        "start",
        "origin",
        "from",
        "source",
        "departure",
        "depart",
        "initial",
        "begin",
        "min",
        "lower",
        "first",
        "since",
    ]
)
_END_WORDS = frozenset(
    [
        "end",
        "destination",
        "dest",
        "to",
        "target",
        "arrival",
        "arrive",
        "final",
        "finish",
        "max",
        "upper",
        "second",
        "until",
    ]
)
_START_CUE_RE = re.compile(
    r"\b(?:from|between|starting(?:\s+(?:at|from|on))?|since|after)\s+(?:the\s+)?"
    r"(?:[a-z]\s*=\s*)?\$?$",
    re.I,
)
_END_CUE_RE = re.compile(
    r"\b(?:to|until|till|through|ending(?:\s+(?:at|on))?|before)\s+(?:the\s+)?(?:[a-z]\s*=\s*)?\$?$",
    re.I,
)
_AND_CUE_RE = re.compile(r"\bbetween\b[^.?!]{1,60}\band\s+(?:the\s+)?(?:[a-z]\s*=\s*)?\$?$", re.I)


def role_of(spec: ParamSpec) -> str:
    """``start`` or ``end`` when the parameter's name says which end of a range or route it
    is (from_year, start_location, origin; to_date, destination, end_x), else ``""``."""
    words = {w.lower() for w in korean.split_identifier(spec.name)}
    if words & _START_WORDS:
        return "start"
    if words & _END_WORDS:
        return "end"
    return ""


def role_cue_at(text: str, start: int) -> str:
    """``start`` when the words before ``start`` open a range or a route (from, between,
    since), ``end`` when they close one (to, until, "between X and")."""
    before = text[max(0, start - 80) : start]
    if _AND_CUE_RE.search(before) or _END_CUE_RE.search(before[-24:]):
        return "end"
    if _START_CUE_RE.search(before[-24:]):
        return "start"
    return ""
