"""Rule ``counted_items``: "three pumpkins and two dozen eggs" for a tool taking a list of items
and a list of their quantities -- the items and the counts, in order (:func:`counted_items`).

The tool has an array of strings (the items) and an array of integers whose description ties
it to the items ("quantity of each item", "corresponding to the items list"). The question
writes two or more counted items joined by commas or "and": a count (digits, a number word,
"a"/"an"), perhaps a measure ("bottles of", "a five pound bag of"), then the item. "dozen"
multiplies its count by twelve. General English number words; no domain words.
"""

from __future__ import annotations

import re
from typing import Any

from playground.routing import korean
from playground.routing.fill.specs import ParamSpec

_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_COUNT = r"(\d+|" + "|".join(_NUMBER_WORDS) + r")"
#: One counted item: a count, an optional "dozen", an optional measure ending in "of" (at
#: most four words: "bottles of", "five pound bag of"), the item (one to three words, or
#: quoted), ended by a comma, "and", a preposition or the sentence's end.
_ITEM_RE = re.compile(
    rf"\b{_COUNT}\s+(dozen\s+)?(?:((?:[\w-]+\s+){{1,4}}?)of\s+)?"
    r"(['\"]?)((?:[A-Za-z][\w'-]*)(?:\s+[A-Za-z][\w'-]*){0,2}?)\4"
    r"(?=\s*(?:,|\band\b|\bfrom\b|\bat\b|\bin\b|\bfor\b|\bon\b|\bwith\b|[.?!]|$))",
    re.I,
)
_JOIN_RE = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)")
#: What ties the integer list to the items: its description says "each", "corresponding" or
#: names the items parameter.
_TIED_RE = re.compile(r"\beach\b|correspond|\bper\b", re.I)


def _pair(specs: list[ParamSpec]) -> tuple[ParamSpec, ParamSpec] | None:
    """``(items, counts)``: the tool's array of strings and the array of integers tied to it."""
    strings = [s for s in specs if "array" in s.types and s.item_types == ("string",)]
    ints = [s for s in specs if "array" in s.types and s.item_types == ("integer",)]
    for counts in ints:
        for items in strings:
            stems = {korean.stem(w) for w in korean.split_identifier(items.name.lower())}
            said = {korean.stem(w.lower()) for w in re.findall(r"[A-Za-z]+", counts.doc)}
            if _TIED_RE.search(counts.doc) or stems & said:
                return items, counts
    return None


def _count(word: str, dozen: str | None) -> int:
    n = int(word) if word.isdigit() else _NUMBER_WORDS[word.lower()]
    return n * 12 if dozen else n


def counted_items(
    specs: list[ParamSpec], text: str, used: list[tuple[int, int]]
) -> list[tuple[ParamSpec, Any, dict[str, Any]]]:
    """``[(items spec, items, evidence), (counts spec, counts, evidence)]`` when the question
    writes two or more counted items in one run (see the module docstring); ``[]`` otherwise.
    ``used``: spans other rules took (a run touching one is not read)."""
    pair = _pair(specs)
    if pair is None:
        return []
    for m in _ITEM_RE.finditer(text):
        run = [m]
        while (nxt := _JOIN_RE.match(text, run[-1].end())) and (
            item := _ITEM_RE.match(text, nxt.end())
        ):
            run.append(item)
        if len(run) < 2:
            continue
        span = (run[0].start(), run[-1].end())
        if any(a < span[1] and span[0] < b for a, b in used):
            continue
        items = [r.group(5) for r in run]
        counts = [_count(r.group(1), r.group(2)) for r in run]
        detail = ", ".join(f"{c} x {i}" for c, i in zip(counts, items, strict=True))
        ev = {"rule": "counted_items", "span": list(span), "text": text[span[0] : span[1]]}
        return [
            (pair[0], items, {**ev, "detail": f"the items counted: {detail}"}),
            (pair[1], counts, {**ev, "detail": f"the counts of the items: {detail}"}),
        ]
    return []
