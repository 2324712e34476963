"""Rule ``cue_compound_no_value`` of the offline router (issue 23, near neighbours: "a value that
fits no parameter's shape is not a value").

Argument rule ``cue`` gives a text parameter the words right after its own name word ("using
the command netsh wlan disconnect", "the crime of theft"). When that is one lower-case word
written right after a name word that only qualifies the parameter's head (not the last word of
its name: ``cell`` of ``cell_type``, ``game`` of ``game_name``) -- nothing between them but a
space -- the two words are one noun or a noun and its verb: "the cell density"
(``cell_type='density'``), "games released in 2019" (``game_name='released'``), "a hotel room"
(``hotel_chain='room'``), "the method used". After the head word the value is its apposition
("the paint colour teal" for ``colour``) and stays.
Such a word is not the parameter's value: it is taken out, so the tool lacks it. A value after
a function word ("the crime of theft", "compartments of the nucleus"), a name, a quoted text or
a word with a digit stays.

Measured on the BFCL dev bench (``python bench/bfcl.py --without cue_compound_no_value``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from playground.routing import korean
from playground.routing.fill.specs import Fill, ParamSpec, drop_where
from playground.routing.rule_switches import known_rule

RULE_CUE_COMPOUND = known_rule(
    "cue_compound_no_value",
    "selection",
    "one lower-case word right after the parameter's word ('cell density') is no value",
)

_LOWER_WORD_RE = re.compile(r"[a-z]+")
_WORD_BEFORE_RE = re.compile(r"([A-Za-z]+) \Z")


def compound(value: str, start: int, question: str, param: str) -> bool:
    """True when ``value`` (from ``start`` of ``question``) is one lower-case word written right
    after a word of the parameter's name ``param`` that is not its last (its head: the
    ``colour`` of ``colour`` is the kind of the value after it, "the colour teal"; the ``cell``
    of ``cell_type`` only qualifies a type, "the cell density" is one noun)."""
    if not _LOWER_WORD_RE.fullmatch(value):
        return False
    before = _WORD_BEFORE_RE.search(question[max(0, start - 40) : start])
    if before is None or korean.is_stopword(before.group(1).lower()):
        return False
    parts = [korean.stem(p.lower()) for p in korean.split_identifier(param)]
    return korean.stem(before.group(1).lower()) in parts[:-1]


def drop_compounds(specs: Sequence[ParamSpec], fill: Fill, question: str) -> list[str]:
    """Take out of ``fill`` every ``cue`` value that is the second word of a :func:`compound`;
    the required ones join ``fill.missing``. Only a fill that lacks nothing is checked. Returns
    the parameters dropped, in declaration order."""

    def misfit(spec: ParamSpec, value: Any, ev: Mapping[str, Any]) -> bool:
        if not ev.get("span") or not isinstance(value, str):
            return False
        return compound(value, ev["span"][0], question, spec.name)

    return drop_where(specs, fill, {"cue"}, misfit)
