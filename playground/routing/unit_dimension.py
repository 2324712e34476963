"""Rule ``quantity_fits_unit`` of the offline router (issue 23, near neighbours: "a value that
fits no parameter's shape is not a value").

A number written with a unit ("4 seconds", "2 kg", "12 months") measures one kind of quantity;
a parameter whose declaration states its unit ("The magnitude of the charge in coulombs",
``miles_driven``, "The change in time in seconds") takes quantities of that kind. When a loose
argument rule (one that pairs a number with a parameter by the words around it, or by position)
gave a parameter a number whose unit measures another kind of quantity than every unit the
parameter states -- ``charge2=4`` from "4 seconds", ``miles_driven=12`` from "12 months",
``acceleration=2`` from "a 2 kg sample" -- the number is not that parameter's value: it is taken
out, so a required parameter is missing and the router asks for it (or, on a near neighbour,
calls nothing) instead of calling with a quantity of the wrong kind.

What a unit measures is Pint's (:mod:`pint`, its default unit registry: the dimensionality of
the unit, ``[length]``, ``[time]``, ``[mass]``, ``[current] * [time]`` ...), not a word list of
this module. A parameter's units are the words after "in" in its description ("in meters",
"in m/s^2"), a word in parentheses ("(kg)"), the parts of its name that are units
(``miles_driven``, ``time_in_seconds``), and the words naming a base dimension
(:data:`DIMENSION_WORDS`, Pint's own: "time", "length", "mass", "temperature"). A unit a
description writes after "per" ("miles driven per year") divides, it is not the value's unit,
so it is not read. Words Pint reads as rare units but that are mostly English words or marks --
a stopword (``in`` the inch, ``a`` the year, ``at`` the atmosphere), one letter, a clock's
``am``/``pm``, an ordinal's ending (``14th``), ``unit`` itself -- are never units here. When
the parameter states no unit, or the number has none, nothing is judged.

Measured on the BFCL dev bench (``python bench/bfcl.py --without quantity_fits_unit``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from playground.routing import korean, values
from playground.routing.fill.specs import Fill, ParamSpec, drop_where
from playground.routing.rule_switches import known_rule

RULE_UNIT_DIMENSION = known_rule(
    "quantity_fits_unit",
    "selection",
    "a number in a unit of another kind than its parameter's stated unit is no value",
)

#: Argument rules that pair a number with a parameter by the words around it or by position
#: (the loose phase): the ones whose unit is checked.
LOOSE = frozenset({"number", "position", "string", "leftover", "cue", "assign"})
#: Words naming one of Pint's base dimensions, as a parameter's text may say them ("The
#: change in time in seconds", "the mass of the body").
DIMENSION_WORDS = {"time": "[time]", "length": "[length]", "mass": "[mass]"} | {
    "temperature": "[temperature]"
}
#: Marks Pint reads as units that are not units after a number in English text: a clock's
#: half of the day (``pm`` is the picometre), ordinals' endings (``th`` is the thermie), and
#: ``unit`` itself (Pint's "unit" is a luminous unit).
NOT_UNITS = frozenset({"am", "pm", "st", "nd", "rd", "th", "unit", "units"})

_IN_UNIT_RE = re.compile(r"\bin\s+([A-Za-z°µ][A-Za-z°µ/^\d]*)|\(([A-Za-z°µ][A-Za-z°µ/^\d]*)\)")

Dimension = frozenset[tuple[str, int]]


@functools.cache
def _registry() -> Any:
    """Pint's default unit registry, made on first use (about 0.2 s; never at import)."""
    import pint  # deferred: the router's import stays quick

    return pint.UnitRegistry()


@functools.lru_cache(maxsize=4096)
def dimension(word: str) -> Dimension | None:
    """What the unit ``word`` measures -- Pint's dimensionality as ``{(base, power)}``:
    ``"seconds"`` -> ``{("[time]", 1)}``, ``"m/s^2"`` -> ``{("[length]", 1), ("[time]", -2)}``
    -- or ``None`` when it is no unit here (unknown to Pint, dimensionless like a percent or a
    degree of angle, one letter, a stopword, or one of :data:`NOT_UNITS`)."""
    w = word.strip().lower()
    if len(w) < 2 or w in NOT_UNITS or korean.is_stopword(w):
        return None
    ureg = _registry()
    for form in (word.strip(), w):
        try:
            dims = ureg.parse_units(form).dimensionality
        except Exception:  # Pint raises several kinds of error for a word that is no unit
            continue
        return frozenset((str(k), int(v)) for k, v in dims.items()) or None
    return None


@functools.lru_cache(maxsize=4096)
def stated_dimensions(name: str, doc: str) -> frozenset[Dimension]:
    """The kinds of quantity a parameter named ``name`` and described ``doc`` states its value
    is in (see the module docstring); empty when it states none."""
    out: set[Dimension] = set()
    for word in re.findall(r"[A-Za-z]+", f"{name.replace('_', ' ')} {doc}"):
        base = DIMENSION_WORDS.get(word.lower())
        if base:
            out.add(frozenset({(base, 1)}))
    for m in _IN_UNIT_RE.finditer(doc):
        dims = dimension(m.group(1) or m.group(2))
        if dims:
            out.add(dims)
    for part in korean.split_identifier(name):
        dims = dimension(part) if len(part) >= 3 else None
        if dims:
            out.add(dims)
    return frozenset(out)


@functools.lru_cache(maxsize=256)
def _numbers(question: str) -> tuple[values.Value, ...]:
    return tuple(values.numbers(question))


def _unit_and_stated(
    spec: ParamSpec, span: Sequence[int], question: str
) -> tuple[str, Dimension, frozenset[Dimension]] | None:
    """The unit written after the number at ``span`` of ``question``, what it measures and the
    kinds of quantity ``spec`` states; ``None`` when the number has no unit here."""
    start = span[0]
    number = next((v for v in _numbers(question) if v.start <= start < v.end), None)
    if number is None or not number.unit:
        return None
    dims = dimension(number.unit)
    if dims is None:
        return None
    return number.unit, dims, stated_dimensions(spec.name, spec.doc)


def misfit_unit(spec: ParamSpec, span: Sequence[int], question: str) -> str | None:
    """The unit written after the number at ``span`` of ``question`` when it measures another
    kind of quantity than every unit ``spec`` states, else ``None``."""
    found = _unit_and_stated(spec, span, question)
    if found is None or not found[2] or found[1] in found[2]:
        return None
    return found[0]


def unit_fits(spec: ParamSpec, span: Sequence[int], question: str) -> bool:
    """True when the number at ``span`` of ``question`` is written in a unit of a kind ``spec``
    states ("6 m/s²" for an acceleration "in m/s^2"): its unit says it is this parameter's."""
    found = _unit_and_stated(spec, span, question)
    return found is not None and found[1] in found[2]


def drop_unit_misfits(specs: Sequence[ParamSpec], fill: Fill, question: str) -> list[str]:
    """Take out of ``fill`` every number a loose rule (:data:`LOOSE`) gave whose unit is a
    :func:`misfit <misfit_unit>` for its parameter; a required one joins ``fill.missing``. Only
    a fill that lacks nothing is checked (one that lacks a value is not called anyway). Returns
    the parameters dropped, in declaration order."""

    def misfit(spec: ParamSpec, value: Any, ev: Mapping[str, Any]) -> bool:
        if not ev.get("span") or isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return misfit_unit(spec, ev["span"], question) is not None

    return drop_where(specs, fill, LOOSE, misfit)
