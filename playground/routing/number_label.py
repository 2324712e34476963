"""Rule ``labelled_number`` of the offline router (issue 23, near neighbours: "a value that fits
no parameter's shape is not a value").

The ``position`` argument rule gives a number parameter the next number the question has left,
whatever that number is of. When the question labels that number itself -- "a gain of $500",
"a height of 10 meters", "deposit: 1000", "yield = 5%" -- the label says what it is. A label
that is a word the tool's text never matched (not its name, description or parameters: the
question word matched nothing of the tool, and it is no part of the parameter's name) says the
number is of something the tool does not take: ``period_in_years=500`` from "a gain of $500",
``acceleration=10`` from "a height of 10 meters". Such a number is not the parameter's value;
it is taken out, so a required parameter is missing and the router asks for it (or, for a near
neighbour, calls nothing) instead of calling with it.

A label is the word right before "of", "is", "was", ``=`` or ``:`` that comes right before the
number (an "about", "approximately", "around" or "roughly" and a currency sign may stand
between): the phrasings of English that name a quantity and give its value. A stopword is no
label. Numbers paired by the words around them (rule ``number``) are not judged: their words
were read already; nor is a number written in a unit of the kind the parameter states ("a rate
of 6 m/s²" for an acceleration "in m/s^2": :func:`playground.routing.unit_dimension.unit_fits`).

Measured on the BFCL dev bench (``python bench/bfcl.py --without labelled_number``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from playground.routing import korean
from playground.routing.fill.specs import Fill, ParamSpec, drop_where
from playground.routing.rule_switches import known_rule
from playground.routing.unit_dimension import unit_fits

RULE_LABELLED_NUMBER = known_rule(
    "labelled_number",
    "selection",
    "a guessed number the question labels with a word the tool never uses is not its value",
)

#: How far before a number its label is looked for (characters).
_LOOK_BACK = 60
_LABEL_RE = re.compile(
    r"([A-Za-z][A-Za-z'-]*)(?:\s+(?:of|is|was)\s+|\s*[=:]\s*)"
    r"(?:(?:about|approximately|around|roughly)\s+)?[$€£₩]?\s*$"
)


def label(question: str, start: int) -> str | None:
    """The word labelling the number that starts at ``start`` of ``question`` ("a gain of
    $500" -> ``"gain"``), or ``None`` when the number is not written after such a label (see the
    module docstring) or the label is a stopword."""
    m = _LABEL_RE.search(question[max(0, start - _LOOK_BACK) : start])
    if m is None or korean.is_stopword(m.group(1).lower()):
        return None
    return m.group(1)


def _said(word: str, param: str, matched: Iterable[Mapping[str, Any]]) -> bool:
    """True when ``word`` matched the tool's text (``matched``: the row's matches) or names the
    parameter ``param`` (a part of its name, or the name whole)."""
    stem = korean.stem(word).lower()
    if word.lower() == param.lower():
        return True
    if any(stem == korean.stem(p).lower() for p in korean.split_identifier(param)):
        return True
    return any(
        m.get("word") == word or korean.stem(str(m.get("word", ""))).lower() == stem
        for m in matched
    )


def drop_labelled_elsewhere(
    specs: Sequence[ParamSpec],
    fill: Fill,
    question: str,
    matched: Sequence[Mapping[str, Any]],
) -> list[str]:
    """Take out of ``fill`` every number the ``position`` rule gave whose :func:`label` is a
    word the tool's text never matched (``matched``: the row's matches,
    :attr:`playground.routing.scoring.ScoreRow.matched`); a required one joins
    ``fill.missing``. Only a fill that lacks nothing is checked. Returns the parameters
    dropped, in declaration order."""

    def misfit(spec: ParamSpec, value: Any, ev: Mapping[str, Any]) -> bool:
        if not ev.get("span") or isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        word = label(question, ev["span"][0])
        if word is None or _said(word, spec.name, matched):
            return False
        return not unit_fits(spec, ev["span"], question)  # "a rate of 6 m/s²": an acceleration

    return drop_where(specs, fill, {"position"}, misfit)
