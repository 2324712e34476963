"""Finding text in the question without cutting a word: a regex search bounded by word
edges, a schema pattern with its anchors removed, and the upper-casing the example and prefix
rules apply."""

from __future__ import annotations

import re

from playground.routing import values

ALNUM = "A-Za-z0-9"


def word_bounded(rx: str) -> str:
    return rf"(?<![{ALNUM}])(?:{rx})(?![{ALNUM}])"


def bounded_search(
    rx: str, text: str, used: list[tuple[int, int]], flags: int = 0
) -> re.Match[str] | None:
    try:
        compiled = re.compile(word_bounded(rx), flags)
    except re.error:
        return None
    for m in compiled.finditer(text):
        if values.outside(m.span(), used):
            return m
    return None


def unanchor(pattern: str) -> str:
    p = pattern
    if p.startswith("^") or p.startswith(r"\A"):
        p = p[1:] if p.startswith("^") else p[2:]
    if p.endswith(r"\Z") or (p.endswith("$") and not p.endswith(r"\$")):
        p = p[:-2] if p.endswith(r"\Z") else p[:-1]
    return p


def upper_like(value: str, model: str) -> tuple[str, bool]:
    letters = "".join(ch for ch in model if ch.isalpha())
    if letters and letters.isupper() and value != value.upper():
        return value.upper(), True
    return value, False
