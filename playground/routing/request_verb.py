"""Rule ``request_verb_named`` of the offline router's selection: among tools about the same
things, the one whose name's verb is the request's verb is the one asked for.

Seed 002: a tool's name is a verb and an object; a generic verb (get, search, find) counts half,
since the object decides. On one server every tool is about the same object -- the memory
server's ``read_graph``, ``search_nodes``, ``open_nodes`` are all about the knowledge graph --
and there only the verb tells them apart: "Search the knowledge graph for Alice" called
``read_graph`` (its name says *graph*) instead of ``search_nodes(query="Alice")``.

A question word in request position that says a kind of action
(:func:`playground.routing.action_kind.request_words`: "Search ...", "please find ...") and has
the Snowball root of a tool's name's first part gains that tool :attr:`Weights.action
<playground.routing.scoring.Weights.action>` (a ``shape:verb`` match), when the tool's text
matched some other question word too and another tool of the declarations starts its name with
another verb. Measured: ``python bench/bfcl.py --without request_verb_named``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from playground.routing import korean
from playground.routing.action_kind import ActionRow
from playground.routing.rule_switches import known_rule, rule_enabled
from playground.routing.shape_match import shape_match

RULE_REQUEST_VERB = known_rule(
    "request_verb_named",
    "selection",
    "the request's verb said by a tool's name counts for it among tools about the same things",
)


def first_root(name: str) -> str:
    """The Snowball root of the first part of a tool's name (``search_nodes`` -> ``search``),
    or ``""``."""
    parts = korean.split_identifier(name)
    return korean.root(parts[0].lower()) if parts and parts[0].isascii() else ""


def weigh_request_verb(
    rows: Mapping[int, ActionRow],
    names: Sequence[str],
    verbs: frozenset[str],
    said: Sequence[str],
    points: float,
) -> None:
    """Apply the rule to the rows the question touched (``rows``: tool index -> row; ``names``:
    every tool's name by index; ``verbs``: the first roots of every name; ``said``: the
    question's request words as written, :attr:`~playground.routing.action_kind.Request.words`;
    ``points``: ``Weights.action``). Changes ``relevance`` and ``matched`` in place."""
    if not said or len(verbs) < 2 or not rule_enabled(RULE_REQUEST_VERB):
        return
    roots = {korean.root(word.lower()): word for word in said if word.isascii()}
    gains = []
    for i, row in rows.items():
        verb = first_root(names[i])
        word = roots.get(verb)
        if word is not None and _shares_words(row, word, rows, names, verb):
            gains.append((row, word, verb))
    for row, word, verb in gains:
        row.relevance += points
        row.matched.append(_verb_match(word, verb, points))


def _words(row: ActionRow, verb_word: str) -> set[str]:
    """The question words (lowercase) that matched ``row``'s text, ``verb_word`` left out."""
    return {m["word"].lower() for m in row.matched if m["points"] > 0} - {verb_word.lower()}


def _shares_words(
    row: ActionRow, word: str, rows: Mapping[int, ActionRow], names: Sequence[str], verb: str
) -> bool:
    """Whether another touched tool whose name starts with another verb matched a question
    word ``row`` matched too (beside the request's ``word``): the tools are about the same
    things, and only the verb tells them apart."""
    own = _words(row, word)
    return bool(own) and any(
        other is not row and first_root(names[j]) != verb and own & _words(other, word)
        for j, other in rows.items()
    )


def _verb_match(word: str, verb: str, points: float) -> dict[str, Any]:
    how = "the request's verb is the first word of the name"
    return shape_match(word, verb, "shape:verb", how, points)
