"""Rule ``guesses_need_words`` of the offline router's relevance (issue 23, near neighbours: 21 of
35 should-not calls carried an obviously wrong value, ``url='information'``).

Two argument rules fill a required text parameter with a guess: ``position`` (the next value
left in the question, whatever it is) and ``leftover`` (the words no tool's vocabulary took).
Such a value shows only that the question holds *some* words, not that they are this
parameter's: "the top chess players in New York" gives ``sport='New York'``. A tool whose required
text values are guesses fits the question only when its words also cover at least
:data:`GUESS_SHARE` of the question's topic words (:attr:`ScoreRow.covered
<playground.routing.scoring.ScoreRow.covered>` of ``topic``) -- or when a structured value
supports it (an enum, pattern or example shape the question writes; those are decided first).

Measured on the BFCL dev bench (``python bench/bfcl.py --without guesses_need_words``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from playground.routing import values
from playground.routing.fill.specs import ParamSpec
from playground.routing.rule_switches import known_rule

RULE_GUESSES = known_rule(
    "guesses_need_words",
    "relevance",
    "a tool whose required text values are guesses fits only if its words cover half the topic",
)

#: Argument rules whose value for a text parameter is a guess (see the module docstring).
GUESSING_RULES = frozenset({"position", "leftover"})
#: A tool whose text matches this many of the question's topic words is what the question is
#: about, whatever the share (a long word problem: "John and Mary each choose two numbers and
#: calculate the greatest common divisor ...").
ENOUGH_WORDS = 5
#: How many required non-text values the ``position`` rule (the next number left, in schema
#: order) must have given before they count as guesses: one number in the wrong slot is common
#: and harmless ("500 meters in 25 seconds"), several are a question about other quantities.
MIN_NUMBER_GUESSES = 2
#: The share of the question's topic words a tool with guessed required values must cover
#: (set on the BFCL dev bench like ``offline.COVERAGE_SHARE``).
GUESS_SHARE = 0.5


def guessed(
    specs: Iterable[ParamSpec],
    evidence: Mapping[str, Mapping[str, Any]],
    marked: frozenset[str] = frozenset(),
) -> list[str]:
    """The required text parameters (type string, or untyped) whose value a guessing rule
    (:data:`GUESSING_RULES`) gave, and the other required ones the ``position`` rule gave when
    they are at least :data:`MIN_NUMBER_GUESSES`, in declaration order; ``evidence`` is the fill's
    ``{arg: {rule, ...}}``. None when a value is introduced by its parameter's own word (rule
    ``cue``: "with the modification: no onions" shows what the question is about), and a value
    in ``marked`` (the texts the question quotes or marks verbatim) is no guess."""
    rules = {ev.get("rule") for ev in evidence.values()}
    if "cue" in rules or not rules & GUESSING_RULES:
        return []
    texts, numbers = [], []
    for spec in specs:
        ev = evidence.get(spec.name)
        if not spec.required or ev is None or ev.get("rule") not in GUESSING_RULES:
            continue
        if str(ev.get("text", "")).strip() in marked:
            continue
        if not spec.types or "string" in spec.types:
            texts.append(spec.name)
        elif ev.get("rule") == "position":
            numbers.append(spec.name)
    if len(numbers) >= MIN_NUMBER_GUESSES:
        texts += numbers
    return [s.name for s in specs if s.name in texts]


def marked_values(question: str) -> frozenset[str]:
    """The texts ``question`` quotes or gives word for word ("the following words verbatim:
    ..."): :func:`playground.routing.values.quoted` and :func:`~playground.routing.values.
    verbatim`."""
    return frozenset(
        str(v.value).strip() for v in values.quoted(question) + values.verbatim(question)
    )


def short_of_words(guesses: list[str], covered: int, topic: int) -> bool:
    """True when ``guesses`` (of :func:`guessed`) is not empty and the tool's words cover less
    than :data:`GUESS_SHARE` of the question's ``topic`` words (``covered`` of them) and fewer
    than :data:`ENOUGH_WORDS` (a long story covering ten of the tool's words is about it)."""
    return bool(guesses) and covered < min(GUESS_SHARE * topic, ENOUGH_WORDS)
