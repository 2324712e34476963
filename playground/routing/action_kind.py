"""Rule ``action_kind`` of the offline router's selection: among tools that do different kinds
of action (create, delete, update, read), the request's verb decides which kind is meant.

Seed 002: a tool's name is a verb and a concrete object; the object says what the tool is
about, a generic verb (get, create, delete) only what it does, so such a verb counts half (rule
``generic_verb``). But when the declarations hold tools that do *different kinds* of action to
the same things -- a server's ``create_entities``, ``delete_entities``, ``search_nodes`` -- the
verb is what tells them apart. Without this rule "Create an entity named Alice of type person"
called ``delete_entities(entityNames=["Alice"])``: "entity" and a name fit it, while
``create_entities`` lacked its array of objects.

A write request that no tool of the declarations does ("Delete the note" where the tools
create, get and update notes) makes every tool of another kind irrelevant: the router calls
nothing and says so, rather than call ``create_note`` with the title.

The kinds and their words are language data (``ACTION_WORDS`` of :mod:`playground.routing.
fill.lang.en` and :mod:`~playground.routing.fill.lang.ko`). A tool's kind is that of the first
part of its name that has one (``create_entities``: create; ``entities_delete``: delete); the
question's kinds are those of its words. The rule acts on a tool only when a write kind (create, delete, update) is involved -- said
by the question, or done by the tool:

* a tool whose kind the question does not say costs :attr:`Weights.action
  <playground.routing.scoring.Weights.action>` (``action_penalty``; "does delete, the question
  asks to create") and is not the tool asked for (``offline._fit``: not relevant, even with an
  id of its shape in the question: "show event ev-12" never calls ``delete_event``);
* a tool of a write kind the question says gains the same as a matched word (``where``:
  ``"shape:action"``), when another tool of the declarations does another kind.

Reading questions ("find", "show") against read tools only never change: there the verb is the
generic verb seed 002 describes. Measured: ``python bench/bfcl.py --without action_kind``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from playground.routing import korean
from playground.routing.fill.lang import ACTION_WORDS, REQUEST_LEADS
from playground.routing.rule_switches import known_rule, rule_enabled
from playground.routing.shape_match import shape_match


class ActionRow(Protocol):
    """What the rule reads and sets on a :class:`playground.routing.scoring.ScoreRow` (a
    protocol: the scoring module imports this one)."""

    relevance: float
    matched: list[dict[str, Any]]
    action_penalty: float
    other_action: str


RULE_ACTION = known_rule(
    "action_kind",
    "selection",
    "a create/delete/update request counts for the tools whose name does it, against the others",
)

RULE_UNASKED_WRITE = known_rule(
    "delete_needs_request",
    "selection",
    "a tool that deletes is called only when the question asks for an action",
)

#: The kinds that change something: a tool of such a kind is never the answer to another kind.
WRITE_KINDS = frozenset({"create", "delete", "update"})

#: Snowball root of an English action word -> its kind.
_ROOTS: dict[str, str] = {
    korean.root(word): kind
    for kind, words in ACTION_WORDS.items()
    for word in words
    if word.isascii()
}
#: The Korean beginnings of request words, with their kinds, longest first.
_PREFIXES: tuple[tuple[str, str], ...] = tuple(
    sorted(
        (
            (word, kind)
            for kind, words in ACTION_WORDS.items()
            for word in words
            if not word.isascii()
        ),
        key=lambda wk: -len(wk[0]),
    )
)


def word_kind(stem: str) -> str:
    """The kind of action (``create``, ``delete``, ``update``, ``read``) a word's stem says, or
    ``""``: an English word by its Snowball root (creating, created -> create), a Korean one by
    its beginning (만들어줘 -> create)."""
    if not stem:
        return ""
    if stem.isascii():
        return _ROOTS.get(korean.root(stem.lower()), "")
    return next((kind for prefix, kind in _PREFIXES if stem.startswith(prefix)), "")


def name_kind(name: str) -> str:
    """The kind of action of a tool's name: that of its first part, else of its last
    (``create_entities`` -> create, ``getUser`` -> read, ``entities_update`` -> update), or
    ``""``. A name's verb stands at one of its ends; a word between is part of its object
    (``entropy_change_calculate`` does no update: it calculates an entropy change). A last
    part that is a plural names the object, not the action (``count_copies`` does not copy,
    ``list_updates`` does not update)."""
    parts = korean.split_identifier(name)
    ends = parts[:1] + [p for p in parts[1:][-1:] if not _plural(p)]
    for part in ends:
        kind = word_kind(korean.stem(part))
        if kind:
            return kind
    return ""


def _plural(word: str) -> bool:
    """An English plural by its ending, as the router's stemmer reads it (``copies``,
    ``updates``; not ``process``, ``status``, ``analysis``)."""
    return korean.stem_with_ending(word)[1] in ("s", "ies")


#: The punctuation that ends a clause: a word right after it opens a request ("…, and delete").
_CLAUSE_END = frozenset(",.;:!?\n")


def _in_request_position(text: str, tokens: Sequence[korean.Token], k: int) -> bool:
    """Whether English word ``k`` stands where a request's verb does: the question's first
    word, the first after a clause's end, or after a word that leads a request ("please",
    "to", "you", "and": ``REQUEST_LEADS``). "climate change", "the latest update", "a TV show"
    are nouns, not requests."""
    if k == 0:
        return True
    before = tokens[k - 1]
    if any(c in _CLAUSE_END for c in text[before.end : tokens[k].start]):
        return True
    return before.surface.lower() in REQUEST_LEADS


def _asks(text: str, tokens: Sequence[korean.Token], k: int) -> bool:
    """Whether English word ``k`` asks: not a past participle, and in request position."""
    return not tokens[k].surface.lower().endswith("ed") and _in_request_position(text, tokens, k)


def request_words(
    text: str, tokens: Sequence[korean.Token], weights: Sequence[float]
) -> list[tuple[korean.Token, str]]:
    """The question's words that ask for a kind of action, with the kind: an English word in
    request position (:func:`_in_request_position`) that is not a past participle (which
    describes a thing: "a registered trademark", "the deleted files"), or a Korean request
    word; never a word of a value (weight 0 and not a stop word: *get* in "Get the note" weighs
    nothing for relevance but is the request)."""
    out = []
    for k, (tok, weight) in enumerate(zip(tokens, weights, strict=True)):
        if weight <= 0 and not korean.is_stopword(tok.stem):
            continue
        kind = word_kind(tok.stem)
        if not kind:
            continue
        if tok.surface.isascii() and not _asks(text, tokens, k):
            continue
        out.append((tok, kind))
    return out


@dataclass(frozen=True)
class Request:
    """What a question asks for (:func:`read_request`): ``kinds`` of action, and per kind the
    first question word (as written) that asks for it (``words``; none for a kind only a
    question word implies)."""

    kinds: frozenset[str]
    words: dict[str, str]


def read_request(text: str, tokens: Sequence[korean.Token], weights: Sequence[float]) -> Request:
    """The kinds of action the question asks for (:func:`request_words`) and the words that
    say them; a question that asks for none but with a question word (what, which, 어디, 뭐)
    asks to read."""
    words: dict[str, str] = {}
    for tok, kind in request_words(text, tokens, weights):
        words.setdefault(kind, tok.surface)
    kinds = frozenset(words)
    if not kinds and any(tok.stem.lower() in korean.QUESTION_WORDS for tok in tokens):
        kinds = frozenset({"read"})
    return Request(kinds, words)


def weigh_actions(
    rows: Mapping[int, ActionRow],
    kinds: Sequence[str],
    done: frozenset[str],
    request: Request,
    points: float,
) -> None:
    """Apply rule ``action_kind`` to the rows the question touched (``rows``: tool index ->
    row; ``kinds``: each tool's :func:`name_kind`, by index, and ``done`` the kinds some tool
    does, both from the declarations' index; ``request``: the question's :func:`read_request`;
    ``points``: ``Weights.action``). Changes the rows in place: ``relevance`` and ``matched`` for a tool
    doing a write kind asked for, ``action_penalty`` and ``other_action`` for a tool doing
    another kind when a write kind is involved (asked, or done by the tool: "What is event
    ev-12?" never calls ``delete_event``, even when no tool reads). Nothing when the rule is
    off or the question asks for no kind."""
    asked = request.kinds
    undone = asked & WRITE_KINDS - done  # asked to delete, and no tool deletes
    if not asked:
        _unasked_writes(rows, kinds, points)
        return
    if not rule_enabled(RULE_ACTION):
        return
    for i, row in rows.items():
        kind = kinds[i]
        if not kind or not (kind in WRITE_KINDS or asked & WRITE_KINDS):
            continue
        if kind not in asked:
            row.action_penalty = points
            row.other_action = f"{kind}, the question asks to {' or '.join(sorted(asked))}"
            if undone:
                row.other_action += f"; no tool does {' or '.join(sorted(undone))}"
        elif kind in WRITE_KINDS and done - {kind}:
            row.relevance += points
            row.matched.append(_action_match(request.words.get(kind, kind), kind, points))


def _unasked_writes(rows: Mapping[int, ActionRow], kinds: Sequence[str], points: float) -> None:
    """Rule ``delete_needs_request``: a question that asks for no kind of action ("event ev-12")
    never calls a tool that deletes -- the router says what the tool would do instead of
    deleting because an id of its shape was written. Only deletion: a name's create or update
    part is often a noun ("entropy_change_calculate", "change_food" for "order a burger with
    no onions"; BFCL dev lost 3 cases when every write kind needed a request). Sets
    ``action_penalty`` and ``other_action`` on such rows, as :func:`weigh_actions` does."""
    if not rule_enabled(RULE_UNASKED_WRITE):
        return
    for i, row in rows.items():
        if kinds[i] == "delete":
            row.action_penalty = points
            row.other_action = f"{kinds[i]}, the question asks for no action"


def _action_match(word: str, kind: str, points: float) -> dict[str, Any]:
    how = "the request's kind of action is the name's"
    return shape_match(word, kind, "shape:action", how, points)
