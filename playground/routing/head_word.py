"""Rule ``head_word_unsaid`` of the offline router's relevance (issue 23, near neighbours).

A question names what it asks about in its opening noun phrase, after an article ("Calculate
the *hypotenuse* of a right triangle", "the *circumference* of a circle", "the *projected*
population growth"). A near neighbour shares later words (triangle, circle, growth) but not
that one, and an object word of its own name is something the question never says (``area`` of
``calc_area_triangle``, ``image`` of ``generate_circle_image``). When both hold -- the tool's
text does not match the question's head word, and an object word of the tool's name is unsaid
(:mod:`playground.routing.name_object`) -- the question asks about something else: the tool is
not relevant, unless a structured value supports it (decided first,
:func:`playground.routing.offline.structured`).

The head word is the first topic word (a content word that is not a value of the tool,
:func:`playground.routing.scoring._coverage`) right after an article of
:data:`playground.routing.fill.lang.HEAD_OPENERS` in the question's opening
(:func:`playground.routing.fill.head.head_candidates`). A comparative or
superlative says its adjective ("nearest" says the "nearby" of ``parks_find_nearby``).

Measured on the BFCL dev bench (``python bench/bfcl.py --without head_word_unsaid``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from playground.routing import korean
from playground.routing.fill.head import head_candidates
from playground.routing.rule_switches import known_rule, rule_enabled

RULE_HEAD_WORD = known_rule(
    "head_word_unsaid",
    "relevance",
    "the question's head word is not the tool's and its name's object is unsaid",
)

#: Endings of English comparatives and superlatives ("nearest", "closer").
_DEGREE_ENDINGS = ("est", "er")
#: How many letters an adjective without its degree ending must keep to be compared.
_MIN_ROOT = 4


def head_word(
    text: str,
    tokens: Sequence[korean.Token],
    topic: Sequence[int],
    said: set[int],
    terms: Mapping[str, Any],
    objects: tuple[Sequence[str], Sequence[str]],
) -> tuple[str, bool]:
    """``(head word, whether the tool says it)`` of a question for one tool, or ``("", True)``
    when it has none: ``text`` the question, ``tokens`` its words, ``topic`` the indexes of its topic
    words for this tool, ``said`` the indexes the tool's text matched, ``terms`` the tool's
    stems, ``objects`` its name's object words and those the question does not say
    (:mod:`playground.routing.name_object`). The rule reads near neighbours: a tool whose name
    shares no object word with the question is left to rule ``name_object_unsaid`` (the head
    word counts as said). A head word that qualifies the next word ("a fraud *case*") is said
    when that word is the head of the tool's name (its last object word: ``case`` of
    ``law_case_search``). Only the first sentence is read, and an ordinal ("the first
    rectangle") is no head word."""
    names, unsaid = objects
    if not names or len(unsaid) >= len(names):
        return "", True
    heads = set(head_candidates(text, tokens))
    for k in topic:
        if k not in heads:
            continue
        word = tokens[k].surface
        if k in said or _said_by_degree(word.lower(), terms):
            return word, True
        noun = tokens[k + 1].stem.lower() if k + 1 < len(tokens) else ""
        return word, k + 1 in said and noun == names[-1] and noun not in unsaid
    return "", True


def _said_by_degree(word: str, terms: Mapping[str, Any]) -> bool:
    """True when ``word`` is a comparative or superlative whose adjective begins a term of
    ``terms`` ("nearest" and ``nearby``)."""
    for end in _DEGREE_ENDINGS:
        root = word.removesuffix(end)
        if root != word and len(root) >= _MIN_ROOT and any(t.startswith(root) for t in terms):
            return True
    return False


def head_unsaid(head: str, head_said: bool, unsaid: Sequence[str]) -> bool:
    """True when rule ``head_word_unsaid`` stops a tool: its text does not say the question's
    head word ``head`` (``head_said`` False, of :func:`head_word`) and an object word of its
    name is unsaid (``unsaid``, :func:`playground.routing.name_object.unsaid`)."""
    return bool(head) and not head_said and bool(unsaid) and rule_enabled(RULE_HEAD_WORD)
