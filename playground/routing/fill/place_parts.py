"""A place written in parts: a street address shaped like the parameter's format, and
a "City, Region" value split over a city parameter and a region parameter."""

from __future__ import annotations

import re

from playground.routing import places, values
from playground.routing.fill.specs import Fill, ParamSpec, plain_string

NEXT_PART_RE = re.compile(r",\s*([A-Z][\w.'’-]*(?:\s+[A-Z][\w'’-]*)*)")


#: A format whose first part is a street address ("in the format of 'Street Address, City,
#: State (abbr), Country'").
STREET_FORMAT_RE = re.compile(r"(?i)format[^'\"]*['\"]\s*street")
#: A street address right before a place's comma: a house number and capitalised words
#: ("2020 Addison Street, " / "221B Baker Street, ").
_STREET_BEFORE_RE = re.compile(r"(?<![\w-])\d+[A-Za-z]?(?:\s+[A-Z][\w.'’-]*){1,5},\s*$")


#: What follows a house number: capitalised words up to a comma (" Addison Street,").
HOUSE_NUMBER_RE = re.compile(r"[A-Za-z]?(?:\s+[A-Z][\w.'’-]*){1,5},")


def place_shape(spec: ParamSpec, text: str, fill: Fill) -> None:
    """Give a name the shape the parameter's examples show (issue 12: "by schema"): with
    ``'San Francisco, CA'`` as the example, ``Naples`` followed by ``, Florida`` becomes
    ``Naples, Florida``; with examples that have no comma (``'San Francisco'``), ``Marshall, MN``
    becomes ``Marshall``. Only names and quoted values given by the loose rules change."""
    ev = fill.evidence.get(spec.name)
    value = fill.args.get(spec.name)
    if ev is None or not isinstance(value, str) or ev["rule"] not in ("string", "position"):
        return
    start, end = ev["span"]
    if spec.joined > 0:
        for _ in range(spec.joined - value.count(",")):
            m = NEXT_PART_RE.match(text, end)
            if not m:
                break
            end = m.end()
        if STREET_FORMAT_RE.search(spec.doc):
            # 'Street Address, City, State (abbr), Country': the house number before the street
            # ("221B Baker Street, ..."), or the whole street before the city
            number = re.search(r"(?<![\w-])\d+[A-Za-z]?\s+$", text[:start])
            street = _STREET_BEFORE_RE.search(text[:start])
            if number:
                start = number.start()
            elif street and text[start:end].count(",") < spec.joined:
                start = street.start()
    elif spec.joined < 0 and "," in value:
        if any(v.start == start for v in values.verbatim(text)):
            return  # "verbatim: no onions, extra cheese" is kept whole
        end = start + value.index(",")
    else:
        return
    new = text[start:end]
    stop = re.search(r"(?<=[a-z]{2})[.!?]\s", new)  # the qualifier ends with its sentence
    new = (new[: stop.start()] if stop else new).rstrip(".")
    if spec.joined == 1 and "," not in new:
        # "weather in Boston" for 'City, State' such as 'San Francisco, CA': what a reader
        # knows of the city completes it (Boston, MA; Tel Aviv, Israel)
        example = next((e for e in spec.examples if e.count(",") == 1), None)
        known = places.complete(new, example, spec.doc) if example else None
        if known is not None:
            new = known[0]
            ev["detail"] = f"{ev.get('detail', '')}; {known[1]}".lstrip("; ")
    if new != value:
        fill.args[spec.name] = new
        ev.update(span=[start, start + len(new)], text=new)
        ev["detail"] += f"; shaped like its examples as {new!r}"


PLACE_DOC_RE = re.compile(
    r"location|city|country|place|region|state|area|town|address|where|venue|위치|지역|도시|장소|나라",
    re.I,
)
PLACE_CUE_RE = re.compile(r"\b(?:in|at|near|around|from|to)\s+(?:the\s+)?$|에서\s*$", re.I)


_REGION_NAME_RE = re.compile(r"country|state|province|region|county|nation|prefecture", re.I)


#: A parameter named for a city alone, whose description asks for nothing more.
_CITY_ONLY_NAME_RE = re.compile(r"(?i)city(?:[_ ]?name)?")
_CITY_MORE_DOC_RE = re.compile(r"(?i)\b(?:state|country|region|province|format|e\.g\.|such as)\b|,")


def split_place(specs: list[ParamSpec], fill: Fill, text: str) -> None:
    """A place written "City, Country" ("London, UK") given whole to one parameter while a
    required country/state/region parameter is still empty: the part after the comma goes to
    that parameter, unless the first parameter's examples or format keep the comma (``joined``
    > 0: "in the format of 'City, State'"). Changes ``fill`` in place."""
    for spec in specs:
        ev = fill.evidence.get(spec.name)
        value = fill.args.get(spec.name)
        if (
            ev is None
            or ev["rule"] not in ("string", "position")
            or not isinstance(value, str)
            or value.count(", ") != 1
            or spec.joined > 0
            or _REGION_NAME_RE.search(spec.name)
        ):
            continue
        taker = next(
            (
                s
                for s in specs
                if s.required
                and s.name not in fill.args
                and plain_string(s)
                and _REGION_NAME_RE.search(s.name)
            ),
            None,
        )
        head, tail = value.split(", ")
        start = ev["span"][0]
        if taker is None:
            if (
                _CITY_ONLY_NAME_RE.fullmatch(spec.name)
                and not _CITY_MORE_DOC_RE.search(spec.doc)
                and places.is_state_code(tail)
            ):
                # "the name of the city" asks for the city: "Marshall, MN" -> "Marshall"
                fill.args[spec.name] = head
                ev.update(span=[start, start + len(head)], text=head)
                ev["detail"] += f"; {tail!r} after the comma is a US state, not the city's name"
            continue
        fill.args[spec.name] = head
        ev.update(span=[start, start + len(head)], text=head)
        ev["detail"] += f"; {tail!r} after the comma is its {taker.name}"
        t0 = start + value.index(", ") + 2
        fill.args[taker.name] = tail
        fill.evidence[taker.name] = {
            "rule": "string",
            "span": [t0, t0 + len(tail)],
            "text": text[t0 : t0 + len(tail)],
            "detail": f"the part of {value!r} after the comma, for {taker.name}",
        }
