"""Parameters named in order (``first_number``, ``second_number``, ``num1``): their values
in the order the question writes them (:func:`number_order`)."""

from __future__ import annotations

import re

from playground.routing.fill.rules import enabled
from playground.routing.fill.specs import Fill, ParamSpec

_ORDINALS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "first": 1, "second": 2, "third": 3, "fourth": 4,
    "a": 1, "b": 2, "c": 3, "d": 4,
}  # fmt: skip
_NUMBERED_RE = re.compile(r"^(.*?)[_-]?(\d|one|two|three|four|first|second|third|fourth|[abcd])$")


def numbered_groups(specs: list[ParamSpec]) -> dict[str, list[ParamSpec]]:
    """Parameters whose names differ by a number, ordinal or letter (``color1``/``color2``,
    ``option_one``/``option_two``), by their shared stem, each group in number order."""
    groups: dict[str, list[tuple[int, ParamSpec]]] = {}
    for spec in specs:
        m = _NUMBERED_RE.match(spec.name)
        if m and m.group(1):
            k = m.group(2).lower()
            groups.setdefault(m.group(1).lower(), []).append((int(_ORDINALS.get(k, k)), spec))
    return {
        stem: [s for _k, s in sorted(members, key=lambda m: m[0])]
        for stem, members in groups.items()
        if len(members) > 1
    }


def number_order(specs: list[ParamSpec], fill: Fill) -> None:
    """Numbered parameters (``color1``/``color2``, ``option_one``/``option_two``,
    ``species_a``/``species_b``) take the values the loose rules gave them in the order the
    question writes them ("mix yellow and blue" -> color1 yellow, color2 blue). Values written
    as ``name=value`` keep their parameter. Changes ``fill`` in place."""
    if not enabled("number_order"):
        return
    for members in numbered_groups(specs).values():
        names = [s.name for s in members]
        if len(names) < 2 or any(
            n not in fill.evidence
            or fill.evidence[n]["span"][0] < 0
            or fill.evidence[n]["rule"] == "assign"
            for n in names
        ):
            continue
        by_place = sorted(
            ((n, fill.evidence[n]) for n in names), key=lambda p: int(p[1]["span"][0])
        )
        if [n for n, _ev in by_place] == names:
            continue
        moved = [(fill.args[n], ev) for n, ev in by_place]
        for name, (value, ev) in zip(names, moved, strict=True):
            fill.args[name] = value
            fill.evidence[name] = {
                **ev,
                "detail": f"{ev['detail']}; numbered: in the order written",
            }
