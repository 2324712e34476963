"""Rule ``value_fits_shape`` of the offline router (issue 23, policy: "a value that fits no
parameter's shape is not a value" -- no ``order_id='pair'``).

A parameter whose name says it holds a number-like thing -- its last word is an id, a number, a
count, a date, a time or a year (``order_id``, ``ticket_number``, ``departure_time``,
``start_date``) -- takes a value with a digit in it, or (a date or time) a calendar word
("tomorrow", "friday", :data:`playground.routing.korean.CALENDAR_WORDS`). A text value without
one that a loose rule paired with such a parameter (``flight_id='Paris'``,
``departure_time='Indigo'``) is not a value: the parameter is left unfilled, so a required one
is missing and the router asks for it instead of calling with a wrong value. Values of the
structured rules (an enum, a pattern, a declared format or example shape) are the declaration's
own shapes and are kept.

Measured on the BFCL dev bench (``python bench/bfcl.py --without value_fits_shape``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from playground.routing import korean
from playground.routing.fill.specs import Fill, ParamSpec, drop_where
from playground.routing.rule_switches import known_rule

RULE_VALUE_SHAPE = known_rule(
    "value_fits_shape",
    "selection",
    "a word without a digit is no id/number/date value, nor one without '/' or '.' a URL",
)

#: The last words of a parameter name that say its value is number-like (general English
#: naming, never a domain's words).
NUMBER_LIKE = frozenset({"id", "ids", "number", "num", "no", "count", "year"})
#: The last words of a parameter name that say its value is a date or a time.
DATE_LIKE = frozenset({"date", "time", "datetime", "timestamp", "day"})
#: The last words of a parameter name that say its value is an address: a URL (with a slash or a
#: dot: ``example.com``, ``https://…``) or an e-mail address (with an ``@``).
ADDRESS_LIKE = {"url": "/.", "uri": "/.", "link": "/.", "endpoint": "/.", "email": "@"}
#: Argument rules that pair a value with a parameter by the words around it (the loose phase):
#: the ones whose value's shape is checked. Structured rules read the declared shape already.
LOOSE = frozenset({"string", "position", "leftover", "modifier", "cue", "assign"})

_DIGIT_RE = re.compile(r"\d")
_WORD_RE = re.compile(r"[^\W\d_]+")
_JOINED_RE = re.compile(r"\w[-_/.:@]\w")


def _last_word(name: str) -> str:
    parts = korean.split_identifier(name)
    return parts[-1].lower() if parts else ""


def fits(spec: ParamSpec, value: Any, question: str = "") -> bool:
    """True unless ``value`` is text without a digit for a parameter whose name's last word is
    number-like (:data:`NUMBER_LIKE`) or, without a calendar word either, date-like
    (:data:`DATE_LIKE`), or an address without its mark for an address-like name
    (:data:`ADDRESS_LIKE`: ``url='information'``). Only string parameters (or untyped ones) are judged; a value the
    ``question`` quotes ('R vs Adams') or one joined by separators (``my-bot-id``: an
    identifier's shape) fits."""
    if not isinstance(value, str) or (spec.types and "string" not in spec.types):
        return True
    if _JOINED_RE.search(value) or any(f"{q}{value}{q}" in question for q in "'\"`"):
        return True
    last = _last_word(spec.name)
    if last in ADDRESS_LIKE:
        return any(c in value for c in ADDRESS_LIKE[last])
    if last not in NUMBER_LIKE and last not in DATE_LIKE:
        return True
    if _DIGIT_RE.search(value):
        return True
    if last in DATE_LIKE:
        return any(w.lower() in korean.CALENDAR_WORDS for w in _WORD_RE.findall(value))
    return False


def drop_misfits(specs: Sequence[ParamSpec], fill: Fill, question: str) -> list[str]:
    """Take out of ``fill`` every value a loose rule (:data:`LOOSE`) gave that does not
    :func:`fit <fits>` its parameter in ``question``; a required one joins ``fill.missing``, so
    the router asks for it rather than calling with the misfit. Only a fill that lacks nothing
    is checked (one that lacks a value is not called anyway; the question back ranks the tools
    by what they have). Returns the parameters dropped (in declaration order)."""
    return drop_where(specs, fill, LOOSE, lambda spec, value, ev: not fits(spec, value, question))
