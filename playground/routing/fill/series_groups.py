"""The ``calls`` phase for groups of a series: when the values listed for one argument each
come with values of their own ("stage 7 in easy mode and stage 3 in hard mode", "solar energy
for 12 months and wind energy for 8 months"), each call takes the values of its own group
(:func:`group_rows`).

The question is cut into one group per listed value, at the last "and" or comma between two
consecutive values; each group is filled on its own, and an argument every group gives (by a
rule that reads a label or a shape, not a guess) with values that differ between groups takes
each group's value. General English connectives; no domain words.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from playground.routing import korean
from playground.routing.fill.formats import conforms, drop_nonconforming
from playground.routing.fill.pipeline import fill_loose, fill_structured
from playground.routing.fill.rules import enabled
from playground.routing.fill.specs import ParamSpec

#: Where one group ends and the next begins: "and", a comma, a semicolon.
_CUT_RE = re.compile(r",?\s+and\s+|,\s*|;\s*")
#: Rules that guess a value rather than read it: no group value.
_GUESSES = frozenset({"position", "leftover", "free_text", "default"})


def _positions(text: str, values: list[Any]) -> list[tuple[int, int]] | None:
    """Where each listed value is written, in order; None when one is not found after the
    one before."""
    out, pos = [], 0
    for value in values:
        m = re.search(rf"(?<!\w){re.escape(str(value))}(?!\w)", text[pos:], re.I)
        if m is None:
            return None
        out.append((pos + m.start(), pos + m.end()))
        pos += m.end()
    return out


def groups(text: str, values: list[Any]) -> list[str] | None:
    """The question cut into one group per listed value (at the last and/comma between two
    consecutive values); None when the values are not found in order or nothing cuts them."""
    at = _positions(text, values)
    if at is None:
        return None
    cuts = []
    for (_a, end), (start, _b) in itertools.pairwise(at):
        last = None
        for m in _CUT_RE.finditer(text, end, start):
            last = m
        if last is None:
            return None
        cuts.append((last.start(), last.end()))
    bounds = [0] + [e for _s, e in cuts]
    ends = [s for s, _e in cuts] + [len(text)]
    return [text[a:b] for a, b in zip(bounds, ends, strict=True)]


def _group_values(specs: list[ParamSpec], part: str) -> dict[str, Any]:
    """The values one group gives by a rule that reads them (not a guess)."""
    fill = fill_structured(specs, part)
    fill_loose(specs, part, fill)
    drop_nonconforming(specs, fill)
    return {k: v for k, v in fill.args.items() if fill.evidence[k]["rule"] not in _GUESSES}


def group_rows(
    specs: list[ParamSpec], question: str, rows: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Rule ``series_groups``: ``rows`` (one argument dict per listed value, from
    :func:`playground.routing.fill.series.series`) with each group's own values (see the module
    docstring). ``rows`` unchanged when no argument lists scalar values in order, or no other
    argument differs from group to group. A listed value outside its parameter's enum or
    format is replaced by its group's value."""
    if len(rows) < 2 or not enabled("series_groups"):
        return rows
    text = korean.normalize(question)
    by_name = {s.name: s for s in specs}
    # a listed value outside its enum or format ("bake mode" for an enum mode) is no list
    wrong = {
        k for k in rows[0] if k in by_name and not all(conforms(by_name[k], r[k]) for r in rows)
    }
    varying = [
        k
        for k in rows[0]
        if isinstance(rows[0][k], (str, int, float))
        and not isinstance(rows[0][k], bool)
        and k not in wrong
        and len({str(r.get(k)) for r in rows}) == len(rows)
    ]
    parts = next((g for k in varying if (g := groups(text, [r[k] for r in rows]))), None)
    if parts is None:
        return rows
    found = [_group_values(specs, part) for part in parts]
    own = [
        k
        for k in found[0]
        if k not in varying and all(k in f for f in found) and len({str(f[k]) for f in found}) > 1
    ]
    if not own:
        return rows
    return [{**row, **{k: f[k] for k in own}} for row, f in zip(rows, found, strict=True)]
