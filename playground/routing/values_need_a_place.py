"""Rule ``values_need_a_place`` of the offline router's relevance (issue 23, near neighbours: the
question asks about a different thing than the tool acts on).

A question that writes values -- a number in digits ("latitude 37.8715"), a name after a
preposition of place ("in Mumbai", "near Berkeley") -- asks for something done with them. A tool
that takes none of them (its fill is empty: it has no parameter for them, or none its words
reach) is not what the question asks for, however well a word of its name matches: "list movies
in Mumbai?" is not ``find_movies(director, genre, cast)``, and "the current temperature in
Berkeley using latitude 37.8715 and longitude -122.2730" is not ``get_current_loc()``. Such a
tool does not make the question fit; a tool that takes one of the values still can.

The values are read from the question alone, once per question (never per tool): numbers of
:func:`playground.routing.values.numbers` written with a digit, and capitalised words right
after *in*, *at*, *near* or *from* (English prepositions of place, data in
:data:`PLACE_PREPOSITIONS`). A question in Hangul is not judged (its particles mark places).

Measured on the BFCL dev bench (``python bench/bfcl.py --without values_need_a_place``).
"""

from __future__ import annotations

import functools
import re

from playground.routing import korean, values
from playground.routing.rule_switches import known_rule, rule_enabled

RULE_VALUES_PLACE = known_rule(
    "values_need_a_place",
    "relevance",
    "a tool that takes none of the question's values (digits, a place name) does not fit it",
)

#: English prepositions that put a place name after them ("in Mumbai", "near City Hall").
PLACE_PREPOSITIONS = ("in", "at", "near", "from")

_PLACE_RE = re.compile(
    r"\b(?:" + "|".join(PLACE_PREPOSITIONS) + r")\s+((?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*)*)"
)


@functools.lru_cache(maxsize=256)
def written_values(question: str) -> tuple[str, ...]:
    """The values ``question`` writes that a tool would take (see the module docstring), as
    written, in order: ``"list movies in Mumbai?"`` -> ``("Mumbai",)``; ``()`` for a question in
    Hangul or one without such values."""
    if korean.has_hangul(question):
        return ()
    found = [
        (v.start, question[v.start : v.end])
        for v in values.numbers(question)
        if any(c.isdigit() for c in question[v.start : v.end])
    ]
    found += [(m.start(1), m.group(1)) for m in _PLACE_RE.finditer(question)]
    return tuple(text for _start, text in sorted(found))


def unplaced(question: str, args: dict[str, object]) -> tuple[str, ...]:
    """Rule ``values_need_a_place``: the values ``question`` writes when the tool's fill
    ``args`` took none of them (it is empty), else ``()`` (also when the rule is off)."""
    if args or not rule_enabled(RULE_VALUES_PLACE):
        return ()
    return written_values(question)
