"""How many calls a question asks for, when it says so in words ("the area of two
triangles") (:func:`stated_count`)."""

from __future__ import annotations

import re

from playground.routing import korean
from playground.routing.fill.rules import enabled

_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_STATED_COUNT_RE = re.compile(
    r"\b(two|three|four|five|six|seven|eight)\s+((?:[A-Za-z-]+\s+){0,2}?)([A-Za-z]+s)\b", re.I
)


def stated_count(question: str, vocabulary: set[str] | frozenset[str]) -> int | None:
    """How many things the question says it asks about: a spelled number before a plural noun
    of the tool's ``vocabulary`` (stems of its name, description and parameters): "the area of
    two triangles" -> 2. ``None`` when it says no such count. (BFCL ``parallel``: the calls are
    one per thing counted.)"""
    if not enabled("stated_count"):
        return None
    for m in _STATED_COUNT_RE.finditer(korean.normalize(question)):
        noun = korean.stem(m.group(3).lower())
        if noun in vocabulary or noun.rstrip("s") in vocabulary:
            return _COUNT_WORDS[m.group(1).lower()]
    return None
