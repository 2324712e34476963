"""Rule ``sentence_start_no_name`` of the offline router (issue 23, near neighbours: "a value
that fits no parameter's shape is not a value").

English capitalises the first word of a sentence: "**Logistic regression is not present in the
text**" starts with a capital that names nothing. A loose argument rule reads capitalised words
as names, so such a word became a value (``statement='Logistic'``, ``size='Change'``). A single
capitalised word a loose rule gave a parameter, written first in a sentence (at the start of
the question, after ``.``/``!``/``?``, a line break -- also a literal ``\\n`` --, or an opening
``**``, quote or bracket) and followed by a word in lower case, is the sentence's first word:
it is taken out, so the tool lacks it. Kept: a word the question also writes capitalised
elsewhere, not first in a sentence (a name is capitalised everywhere), and a known place
(GeoNames, :func:`playground.routing.places.city` and the country and US state names: "Paris
is lovely in spring").

Measured on the BFCL dev bench (``python bench/bfcl.py --without sentence_start_no_name``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from playground.routing import places
from playground.routing.fill.specs import Fill, ParamSpec, drop_where
from playground.routing.rule_switches import known_rule

RULE_SENTENCE_START = known_rule(
    "sentence_start_no_name",
    "selection",
    "a capitalised first word of a sentence, lower case after it, is no name value",
)

#: Argument rules that read capitalised words as names (the loose phase).
LOOSE = frozenset({"string", "position", "leftover", "cue"})
#: What stands right before a sentence's first word: the start of the text, an end mark and
#: spaces, a line break (or a literal "\n"), markdown emphasis, an opening quote or bracket.
_OPENS_RE = re.compile(r"(?:\A|[.!?]\s+|\n|\\n)[\s*_\"'“‘(\[]*\Z")
_ONE_WORD_RE = re.compile(r"[A-Z][a-z]+")


def first_word_only(value: str, start: int, end: int, question: str) -> bool:
    """True when ``value`` (at ``start:end`` of ``question``) is one capitalised word written
    first in a sentence, followed by a lower-case word, that the question writes capitalised
    nowhere else and that is no known place."""
    if not _ONE_WORD_RE.fullmatch(value) or not _OPENS_RE.search(question[:start]):
        return False
    if not re.match(r"\s+[a-z]", question[end : end + 3]):
        return False
    for m in re.finditer(rf"\b{re.escape(value)}\b", question):
        if m.start() != start and not _OPENS_RE.search(question[: m.start()]):
            return False  # capitalised mid-sentence too: a name
    return not _known_place(value)


def _known_place(word: str) -> bool:
    return (
        places.city(word) is not None
        or places.state_code(word) is not None
        or (word.lower() in places.country_names())
    )


def drop_first_words(specs: Sequence[ParamSpec], fill: Fill, question: str) -> list[str]:
    """Take out of ``fill`` every value a loose rule (:data:`LOOSE`) gave that is a sentence's
    :func:`first word <first_word_only>`; the required ones join ``fill.missing``. Only a fill
    that lacks nothing is checked. Returns the parameters dropped, in declaration order."""

    def misfit(spec: ParamSpec, value: Any, ev: Mapping[str, Any]) -> bool:
        if not ev.get("span") or not isinstance(value, str):
            return False
        start, end = ev["span"]
        return first_word_only(value, start, end, question)

    return drop_where(specs, fill, LOOSE, misfit)
