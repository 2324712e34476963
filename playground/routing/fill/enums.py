"""The ``enum`` rules: a listed value written in the question (``enum``), in other words
(``enum_words``) or romanised (a Hangul enum value written in Latin letters)."""

from __future__ import annotations

import functools
import re
from typing import Any

from anyascii import anyascii

from playground.routing import korean, values
from playground.routing.fill.spans import word_bounded
from playground.routing.fill.specs import ParamSpec

#: What stands between the two values of a change: "pizza to a BURGER", "COOL into HEAT".
_FROM_TO_RE = re.compile(r"(?i)\s+(?:to|into)\s+(?:(?:a|an|the)\s+)?")
_FROM_RE_BEFORE = re.compile(r"(?i)\bfrom\s+(?:(?:a|an|the|my)\s+)?$")
#: A parameter named for the state before a change.
_OLD_NAME_RE = re.compile(r"(?i)old|from|source|current|previous|original")


def enum_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``enum``: a listed value written in the question (else by romanisation or by its
    words, rule ``enum_words``); of a change from one listed value to another, the new one."""
    if spec.enum:
        hits = []
        for value in spec.enum:
            v = str(value)
            rx = re.escape(v) if korean.has_hangul(v) else word_bounded(re.escape(v))
            # a one-letter value keeps its case: the article "a" is not the value "A"
            m = re.search(rx, text, 0 if len(v) == 1 else re.I)
            if m and values.outside(m.span(), used):
                hits.append((m.start(), m.end(), value))
        how = list(spec.enum)
        if not hits:  # a Hangul word whose romanisation is a listed value (서울 -> seoul)
            hits, how = _romanised_enum(spec, text, used)
        if not hits:  # the words of a value, inflected ("air dry mode" -> AIR_DRY)
            words = _enum_words(spec, text, used)
            if words is not None:
                s, e, value, said = words
                return value, {
                    "rule": "enum_words",
                    "span": [s, e],
                    "text": text[s:e],
                    "detail": f"the words of the listed value {value!r}: {said}",
                }
        if hits:
            s, e, value = min(hits, key=lambda h: (h[0], -h[1]))
            # "switch my order from pizza to a BURGER": of a change from one listed value to
            # another, the parameter takes the new one (unless it is named for the old one)
            target = next(
                (
                    h
                    for h in hits
                    if h[0] > e
                    and _FROM_TO_RE.fullmatch(text[e : h[0]])
                    and _FROM_RE_BEFORE.search(text[:s])
                ),
                None,
            )
            if target is not None and not _OLD_NAME_RE.search(spec.name):
                s, e, value = target
            return value, {
                "rule": "enum",
                "span": [s, e],
                "text": text[s:e],
                "detail": how,
            }
    return None


@functools.lru_cache(maxsize=4096)
def _latin(word: str) -> str:
    """``word`` romanised by ``anyascii``, lower case (서울 -> seoul)."""
    return anyascii(word).lower()


def _enum_words(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[int, int, Any, str] | None:
    """A listed string value every word of which (3+ letters) the question says, also
    inflected ("completed" for ``complete``, "air dry" for ``AIR_DRY``); the value with the
    most words wins. ``(start, end, value, words)`` or ``None``."""
    tokens = [t for t in korean.tokenize(text) if values.outside((t.start, t.end), used)]
    best: tuple[int, int, int, Any, str] | None = None
    for value in spec.enum:
        if not isinstance(value, str):
            continue
        words = [w.lower() for w in korean.split_identifier(value) if len(w) >= 3]
        if not words or len(words) != len(korean.split_identifier(value)):
            continue
        spans = []
        for w in words:
            stem = korean.stem(w)
            hit = next(
                (
                    t
                    for t in tokens
                    if t.stem.lower() == stem
                    or (len(stem) > 3 and korean.match_quality(t.stem.lower(), stem)[0] >= 0.7)
                ),
                None,
            )
            if hit is None:
                break
            spans.append((hit.start, hit.end))
        else:
            s, e = min(a for a, _ in spans), max(b for _, b in spans)
            if best is None or len(words) > best[0]:
                best = (len(words), s, e, value, " ".join(words))
    return None if best is None else best[1:]


def _romanised_enum(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[list[tuple[int, int, Any]], Any]:
    """Enum values equal to the romanisation (``anyascii``, Revised Romanization of Korean)
    of a Hangul word of ``text`` or its stem: ``서울`` -> ``seoul``, ``부산에`` -> ``busan``.
    Returns ``(hits, detail)`` as the enum rule uses them."""
    by_latin = {str(v).lower(): v for v in spec.enum if isinstance(v, str) and v.isascii()}
    if not by_latin:
        return [], None
    for m in re.finditer(r"[가-힣]+", text):
        for word in dict.fromkeys((m.group(), korean.stem(m.group()))):
            latin = _latin(word)
            span = (m.start(), m.start() + len(word))
            if latin in by_latin and values.outside(span, used):
                value = by_latin[latin]
                return [
                    (span[0], span[1], value)
                ], f"{word!r} romanised is {latin!r}, a listed value"
    return [], None
