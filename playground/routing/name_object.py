"""Rule ``name_object_unsaid`` of the offline router's relevance: a tool whose name's object the
question does not say is a near neighbour, not the tool asked for.

Seed 002: a tool's name is a verb and a concrete object (``geometry_area_circle``,
``get_sculpture_value``); the object says what the tool is about. A near neighbour shares a
word with the question ("the area of a *triangle*" and ``geometry_area_circle`` share *area*)
but its object is another thing (*circle*). The object words of a name are those its
description's first paragraph uses too (:func:`name_objects`): a namespace or an abbreviation in
a name (``cmd_controller_execute``, ``stats_t_test``) is not repeated there, so it never
counts. When the question says none of them -- no question word matched the stem -- and the
tool's text covers less than :data:`offline.COVERAGE_SHARE <playground.routing.offline.
COVERAGE_SHARE>` of the question's topic words, the question is about something else: the tool
is not relevant (unless a structured value supports it: an enum, pattern or id shape the
question writes; :func:`playground.routing.offline.structured`).

Measured on the BFCL dev bench (``python bench/bfcl.py --without name_object_unsaid``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from playground.routing import korean
from playground.routing.fill.specs import ParamSpec
from playground.routing.rule_switches import known_rule

RULE_NAME_OBJECT = known_rule(
    "name_object_unsaid",
    "relevance",
    "a tool whose name's object (a name word its description repeats) the question never says",
)


#: JSON Schema type names (and their Python spellings): in a name they say the shape of what
#: is passed (``answer_string``), not what the tool is about.
SCHEMA_KINDS = frozenset(
    korean.stem(k)
    for k in ("string", "str", "number", "integer", "int", "float", "boolean", "bool", "array")
    + ("list", "object", "dict")
)
#: Argument rules whose value is a guess (a modifier, the rest of the question, a default):
#: such a value does not say the parameter. A leftover noun does ("order a burger" says the
#: ``food`` of ``change_food``).
GUESS_RULES = frozenset({"modifier", "free_text", "default"})


def name_objects(name: str, summary_stems: Iterable[str]) -> tuple[str, ...]:
    """The object words of a tool's name: the stems of its content parts (not a generic verb,
    not a number, not a schema type name of :data:`SCHEMA_KINDS`) that ``summary_stems`` (the
    stems of its description's summary) holds too, in name order. ``geometry_area_circle``
    described "Calculate the area of a circle" -> ``("area", "circle")``;
    ``cmd_controller_execute`` described "Execute a command" -> ``()``."""
    said = set(summary_stems)
    out: list[str] = []
    for part in korean.split_identifier(name):
        if not korean.is_content(part) or part[:1].isdigit():
            continue
        stem = korean.stem(part)
        if stem in said and stem not in SCHEMA_KINDS and not korean.is_generic(stem):
            out.append(stem)
    return tuple(dict.fromkeys(out))


#: How many leading letters a question word must share with an object word to say it
#: ("analyze" says the "analysis" of ``sentiment_analysis``).
SHARED_PREFIX = 5


def _shares_prefix(a: str, b: str) -> bool:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= SHARED_PREFIX


def unsaid(
    objects: tuple[str, ...],
    matched: Sequence[Mapping[str, Any]],
    question_stems: Iterable[str],
    specs: Iterable[ParamSpec],
    evidence: Mapping[str, Mapping[str, Any]],
) -> list[str]:
    """The ``objects`` (of :func:`name_objects`) the question does not say, in name order. An
    object is said when a question word matched it (``matched``: the row's ``{word, term, ...}``
    matches, :attr:`playground.routing.scoring.ScoreRow.matched`, by term or by the word's
    stem), when a question stem (``question_stems``, lower case) shares its first
    :data:`SHARED_PREFIX` letters, or when it names a parameter the question gave a value that
    is not a guess (``evidence``: the fill's ``{arg: {rule, ...}}``; not :data:`GUESS_RULES`,
    and not a ``position`` value of a parameter that is not a number): "the President in 1940"
    says the ``year`` of ``get_president_by_year``."""
    if not objects:
        return []
    said = {str(m["term"]) for m in matched} | {korean.stem(str(m["word"])) for m in matched}
    left = [o for o in objects if o not in said]
    if left:
        stems = [s for s in question_stems if len(s) >= SHARED_PREFIX]
        left = [o for o in left if not any(_shares_prefix(o, s) for s in stems)]
    if left:
        types = {s.name: s.types for s in specs}
        for arg, ev in evidence.items():
            rule = ev.get("rule")
            numeric = {"number", "integer"} & set(types.get(arg, ()))
            if rule in GUESS_RULES or (rule == "position" and not numeric):
                continue
            said.update(korean.stem(p) for p in korean.split_identifier(arg))
        left = [o for o in left if o not in said]
    return left


def not_about(
    objects: tuple[str, ...], unsaid_objects: list[str], covered: int, topic: int
) -> bool:
    """Rule ``name_object_unsaid``: True when the question is about something else than the
    tool -- an object word of its name is unsaid (``unsaid_objects``, of :func:`unsaid`) and
    the tool's text covers few of the question's topic words (``covered`` of ``topic``): less
    than :data:`HEAD_SHARE` when the unsaid word is the name's head (its last object word:
    ``circle`` of ``geometry_area_circle``), less than :data:`MODIFIER_SHARE` when it only
    qualifies the head (``law`` of ``law_case_search`` for "a fraud case")."""
    if not unsaid_objects or topic <= 0:
        return False
    share = HEAD_SHARE if unsaid_objects[-1] == objects[-1] else MODIFIER_SHARE
    return covered < share * topic


#: The share of the question's topic words a tool must cover when the head of its name is
#: unsaid, and when only a qualifier is (set on the BFCL dev bench: the near neighbours it stops
#: against the right calls it loses, ``bench/bfcl.py --without name_object_unsaid``).
HEAD_SHARE = 0.5
MODIFIER_SHARE = 1 / 3
