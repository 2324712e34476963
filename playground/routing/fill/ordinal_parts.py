"""The ``calls`` phase for ordinal parts: a question that describes several cases one after the
other, each opened by an ordinal ("The first triangle has a base of 12 ... The second triangle
has a base of 18 ..."), as one call per ordinal (:func:`ordinal_calls`).

Each part runs from its ordinal to the next ordinal or its sentence's end; parts of the same
ordinal join ("The first object ... and the second object ... If the first object ..."). The
text outside every part is the context its values share ("Both objects start from rest"). An
ordinal naming one of a numbered group of parameters ("the first charge" for ``charge1``,
``charge2``) is no part: it says which parameter, not which call. General English ordinals; no
domain words.
"""

from __future__ import annotations

import re
from typing import Any

from playground.routing import korean
from playground.routing.fill.formats import drop_nonconforming
from playground.routing.fill.ordinals import numbered_groups
from playground.routing.fill.pipeline import fill_loose, fill_structured
from playground.routing.fill.rules import enabled
from playground.routing.fill.series import series
from playground.routing.fill.specs import Fill, ParamSpec

_ORDINALS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "fifth": 5, "5th": 5, "sixth": 6, "6th": 6,
}  # fmt: skip
#: "the first triangle", "In the second round", "the third one"; "the last ..." after others.
_MARK_RE = re.compile(
    r"\bthe\s+(first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th|last)\b"
    r"(?:\s+([A-Za-z][\w-]*))?",
    re.I,
)
#: A sentence's end: a full stop, question or exclamation mark before a space or the end
#: (not a decimal point, not the dot of "D.C." followed by a comma).
_SENTENCE_END_RE = re.compile(r"[.?!](?=\s+[A-Z\"'(]|\s*$)")


def _marks(text: str, specs: list[ParamSpec]) -> list[tuple[int, int, int]]:
    """``(ordinal, start, end)`` of each ordinal that opens a part, in order of the text;
    ``[]`` unless the ordinals run from 1 without a gap. "the last" is the ordinal after the
    greatest one before it."""
    numbered = {korean.stem(stem) for stem in numbered_groups(specs)}
    out: list[tuple[int, int, int]] = []
    for m in _MARK_RE.finditer(text):
        word, noun = m.group(1).lower(), (m.group(2) or "").lower()
        if noun and korean.stem(noun) in numbered:
            continue  # "the first charge" for charge1/charge2
        if word == "last":
            if not out:
                continue
            k = max(o for o, _s, _e in out) + 1
        else:
            k = _ORDINALS[word]
        out.append((k, m.start(), m.end()))
    seen = sorted({k for k, _s, _e in out})
    if len(seen) < 2 or seen != list(range(1, len(seen) + 1)):
        return []
    return out


#: Rules that guess a value (the next one left, the words no rule took): a value the context
#: lists, one per part, wins over a part's guess.
_GUESSES = frozenset({"position", "leftover"})


def ordinal_parts(text: str, specs: list[ParamSpec]) -> tuple[dict[int, str], str]:
    """``(parts, context)``: per ordinal the text of its parts (joined with ". "), and the text
    outside every part. ``({}, text)`` when the question has no ordinal series."""
    marks = _marks(text, specs)
    if not marks:
        return {}, text
    parts: dict[int, list[str]] = {}
    context, prev = [], 0
    for n, (k, start, _end) in enumerate(marks):
        stop = marks[n + 1][1] if n + 1 < len(marks) else len(text)
        sentence_end = _SENTENCE_END_RE.search(text, start)
        if sentence_end is not None:
            stop = min(stop, sentence_end.end())
        context.append(text[prev:start])
        parts.setdefault(k, []).append(text[start:stop].strip(" ,;"))
        prev = stop
    context.append(text[prev:])
    return {k: ". ".join(v) for k, v in sorted(parts.items())}, " ".join(context)


def _fill(specs: list[ParamSpec], text: str) -> Fill:
    """What one text gives by the structured and loose rules (values outside an enum or
    format dropped)."""
    fill = fill_structured(specs, text)
    fill_loose(specs, text, fill)
    drop_nonconforming(specs, fill)
    return fill


def _shared(specs: list[ParamSpec], context: str, k: int) -> tuple[list[dict[str, Any]], set[str]]:
    """``(values, listed)``: the context's values for each of ``k`` parts -- the same for all,
    or, when the context lists ``k`` values of an argument ("on two datasets, 'dataset1' and
    'dataset2'"), one of them each in order (:func:`series`; ``listed`` names those)."""
    fill = _fill(specs, context)
    rows = series(context, fill.args, fill.evidence)
    if len(rows) != k:
        return [fill.args] * k, set()
    return rows, {name for name in fill.args if any(r[name] != rows[0][name] for r in rows)}


def ordinal_calls(
    specs: list[ParamSpec], question: str, args: dict[str, Any]
) -> list[dict[str, Any]]:
    """Rule ``ordinal_parts``: one call per ordinal part (:func:`ordinal_parts`), each with the
    values its own part gives, then the values the context gives (one each of a list of as
    many values as parts), then -- for a required
    parameter neither gives -- the whole question's value from ``args``. ``[args]`` when the
    question has no ordinal series or its parts give no values of their own."""
    if not enabled("ordinal_parts"):
        return [args]
    text = korean.normalize(question)
    parts, context = ordinal_parts(text, specs)
    if not parts:
        return [args]
    fills = [_fill(specs, part) for part in parts.values()]
    own = [f.args for f in fills]
    if not all(own) or all(o == own[0] for o in own):
        return [args]
    required = {s.name for s in specs if s.required}
    calls = []
    rows, listed = _shared(specs, context, len(own))
    for shared, fill in zip(rows, fills, strict=True):
        call = dict(shared)
        call.update(
            (k, v)
            for k, v in fill.args.items()
            if k not in listed or fill.evidence[k]["rule"] not in _GUESSES
        )
        call.update({k: v for k, v in args.items() if k in required and k not in call})
        calls.append(call)
    return calls
