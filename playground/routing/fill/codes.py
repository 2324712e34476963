"""Codes a description explains ("1 for cleaning service, 2 for ironing service") taken
when the question says the words only that code has (``coded``), and a year or season written
in digits for a parameter named for one (``year``)."""

from __future__ import annotations

import functools
import re
from typing import Any

from playground.routing import korean, values
from playground.routing.fill.specs import ParamSpec

#: A code its description explains: "'1' represents cleaning service", "2 for Chiang Mai",
#: "3: big cleaning", "'1' corresponds to Bangkok, '2' to Chiang Mai" (the code, then the words it stands for, up to a comma, "and" or a stop).
_CODED_RE = re.compile(
    r"['\"]?(\d{1,4})['\"]?\s*(?:represents|stands\s+for|means|for|is|=|:|"
    r"(?:corresponds|refers|maps)\s+to|to)\s+(?:an?\s+|the\s+)?"
    r"([^\W\d_][\w' -]{0,40}?)\s*(?=,|;|\.|\)|\band\b|$)",
    re.I,
)


@functools.lru_cache(maxsize=4096)
def _codes(spec: ParamSpec) -> tuple[tuple[Any, frozenset[str]], ...]:
    """``(code, words)`` pairs a parameter's description explains (:data:`_CODED_RE`), the
    code typed as the parameter is; words as stems without stopwords. Two pairs at least."""
    out = []
    for m in _CODED_RE.finditer(spec.doc):
        words = frozenset(
            korean.stem(t.surface.lower())
            for t in korean.tokenize(m.group(2))
            if korean.is_content(korean.stem(t.surface.lower()))
        )
        code: Any = int(m.group(1)) if "integer" in spec.types else m.group(1)
        if words and (not spec.enum or code in spec.enum):
            out.append((code, words))
    return tuple(out) if len(out) >= 2 else ()


def coded_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]], tokens: list[korean.Token]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``coded``: the code whose explained words are in the question ("find cleaning in
    Bangkok" -> ``province_id`` 1 when its description says "1 for Bangkok"): every word of
    the code that the other codes do not share is in the question; the code with the most
    of its words there wins."""
    codes = _codes(spec)
    if not codes:
        return None
    common = frozenset.intersection(*(w for _c, w in codes))
    said = {t.stem.lower(): t for t in tokens if values.outside((t.start, t.end), used)}
    best: tuple[int, Any, frozenset[str]] | None = None
    for code, words in codes:
        own = words - common
        if not own or not all(w in said for w in own):
            continue
        hit = len(words & said.keys())
        if best is None or hit > best[0]:
            best = (hit, code, own)
    if best is None:
        return None
    _hit, code, own = best
    toks = sorted((said[w] for w in own), key=lambda t: t.start)
    return code, {
        "rule": "coded",
        "span": [toks[0].start, toks[-1].end],
        "text": text[toks[0].start : toks[-1].end],
        "detail": f"its description says {code!r} stands for {' '.join(sorted(own))!r}",
    }


#: A string parameter named for a year or a season (year, season, fiscal_year).
YEARISH_RE = re.compile(r"(?:^|_)years?(?:_|$)|season|^year|Year$|연도|년도|시즌", re.I)
_YEAR_TEXT_RE = re.compile(
    r"(?<![\w.-])((?:1[5-9]|20)\d{2})(?:\s*[-–/]\s*((?:1[5-9]|20)?\d{2}))?(?!\w|\.\d)"
)


def year_text(text: str, used: list[tuple[int, int]]) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``year``: a year or a season written in digits ("in 2022", "the 2019-2020
    season") for a string parameter named for a year or season, as written."""
    for m in _YEAR_TEXT_RE.finditer(text):
        if values.outside(m.span(), used):
            value = m.group(1) + (f"-{m.group(2)}" if m.group(2) else "")
            return value, {
                "rule": "year",
                "span": list(m.span()),
                "text": m.group(),
                "detail": "a year or season written in digits, for a year/season string",
            }
    return None
