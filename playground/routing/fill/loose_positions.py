"""Loose rules by position: values matched to parameters in the order both are
written, a spare name value for a name parameter, and the first required parameter taking the
only value left."""

from __future__ import annotations

import re

from playground.routing import values
from playground.routing.fill.fits import fitted_value
from playground.routing.fill.loose_state import LooseFill
from playground.routing.fill.specs import plain_string


def fill_by_position(st: LooseFill) -> None:
    """Required values still empty: the remaining fitting ones in schema order."""
    open_specs, text, fill, cands, taken, give = (
        st.open_specs,
        st.text,
        st.fill,
        st.cands,
        st.taken,
        st.give,
    )
    for spec in open_specs:  # required values still empty: the remaining ones in order
        if spec.name in fill.args or not spec.required or "boolean" in spec.types:
            continue
        for ci, v in enumerate(cands):
            if ci in taken:
                continue
            value = fitted_value(spec, v)
            if value is None or (v.kind == "number" and v.unit in ("번째",)):
                continue
            if (
                v.kind == "name"
                and " " not in str(v.value)
                and re.search(r"(?:^|[.?!]\s+)$", text[: v.start])
            ):
                continue  # a capitalised word opening a sentence is not known to be a name
            taken.add(ci)
            as_fraction = (
                f"; {v.text.strip()} as a fraction" if v.percent and value != v.value else ""
            )
            give(
                spec,
                value,
                "position",
                v.start,
                v.end,
                f"the next unused {v.kind} in the question{as_fraction}",
            )
            break


def loose_spare_name(st: LooseFill) -> None:
    """The one name nobody took goes to the one optional parameter that takes names ("a
    film with Duane Whitaker" for cast: "Names of leading actors")."""
    open_specs, fill, used, cands, taken, give = (
        st.open_specs,
        st.fill,
        st.used,
        st.cands,
        st.taken,
        st.give,
    )
    held_now = used + [tuple(ev["span"]) for ev in fill.evidence.values()]
    spare = [
        c
        for i, c in enumerate(cands)
        if i not in taken
        and c.kind == "name"
        and " " in str(c.value)
        and not re.search(r"[.!?]\s", str(c.value))
        and values.outside((c.start, c.end), held_now)
    ]
    takers = [
        s
        for s in open_specs
        if s.name not in fill.args
        and not s.required
        and plain_string(s)
        and re.search(r"\bnames?\b", s.doc, re.I)
    ]
    if len(spare) == 1 and len(takers) == 1:
        v = spare[0]
        give(takers[0], str(v.value), "position", v.start, v.end, "the one name left, for names")


def loose_required_first(st: LooseFill) -> None:
    """A required parameter comes first: a name an optional one took by a weak label moves
    to a required string still empty ("the footballer Lionel Messi" for celebrity_name, not for
    the optional sports)."""
    open_specs, fill = st.open_specs, st.fill
    for spec in open_specs:
        if spec.name in fill.args or not spec.required or not plain_string(spec):
            continue
        donor = next(
            (
                o
                for o in open_specs
                if not o.required
                and o.name in fill.args
                and fill.evidence[o.name]["rule"] in ("string", "position")
                and isinstance(fill.args[o.name], str)
                and plain_string(o)
            ),
            None,
        )
        if donor is not None:
            fill.args[spec.name] = fill.args.pop(donor.name)
            ev = fill.evidence.pop(donor.name)
            fill.evidence[spec.name] = {
                **ev,
                "detail": f"{ev['detail']}; moved from the optional {donor.name}: "
                "a required parameter comes first",
            }
