"""Argument rule ``action_enum``: an enum parameter whose values are kinds of action takes the
one the request's verb asks for.

A tool that does several kinds of action through one parameter -- ``todo(type, content)`` with
``type`` one of ``add``, ``delete``, ``update`` -- was asked about rather than called: "Remove
the 'todo random' item from my todo list" says *remove*, which is no enum value, so ``type``
stayed missing. The values and the request's words share kinds of action
(:func:`playground.routing.action_kind.word_kind`: remove and delete are both *delete*, create
and add both *create*): when an enum's string values say at least two kinds, and the question's
request words (:func:`~playground.routing.action_kind.request_words`) ask for exactly one of
them, that value is taken, its evidence the request word. Weak evidence (``fill/rules.py``): it
never makes a tool fit on its own. Measured: ``python bench/bfcl.py --without action_enum``.
"""

from __future__ import annotations

from collections.abc import Sequence

from playground.routing import korean
from playground.routing.action_kind import word_kind
from playground.routing.fill.rules import enabled
from playground.routing.fill.specs import Fill, ParamSpec

RULE = "action_enum"


def action_values(spec: ParamSpec) -> dict[str, str]:
    """``{kind: value}`` of ``spec``'s string enum values that say a kind of action (the first
    value of each kind), or ``{}`` when fewer than two kinds are said."""
    out: dict[str, str] = {}
    for value in spec.enum:
        if isinstance(value, str):
            kind = word_kind(korean.stem(value))
            if kind:
                out.setdefault(kind, value)
    return out if len(out) > 1 else {}


def fill_action_enums(
    specs: Sequence[ParamSpec], fill: Fill, said: Sequence[tuple[korean.Token, str]]
) -> None:
    """Give each unfilled enum parameter of ``specs`` whose values say kinds of action the
    value of the one kind the request words ``said`` (``(token, kind)`` pairs) ask for, in
    ``fill`` (evidence rule ``action_enum``, the request word's span). Nothing when the rule
    is off, or the words ask for none or several of the value's kinds."""
    if not said or not enabled(RULE):
        return
    first: dict[str, korean.Token] = {}
    for tok, kind in said:
        first.setdefault(kind, tok)
    for spec in specs:
        if spec.name in fill.args or not spec.enum:
            continue
        values = action_values(spec)
        asked = [kind for kind in values if kind in first]
        if len(asked) != 1:
            continue
        tok = first[asked[0]]
        fill.args[spec.name] = values[asked[0]]
        fill.evidence[spec.name] = {
            "rule": RULE,
            "span": [tok.start, tok.end],
            "text": tok.surface,
            "detail": f"the request {tok.surface!r} asks to {asked[0]}, as the value does",
        }
        fill.consumed.append((tok.start, tok.end))
