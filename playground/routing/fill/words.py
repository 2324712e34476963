"""The ``word`` and ``lowercase`` rules for a plain string parameter: a question word equal
to one of its examples, or the question's only lowercase Latin word when the description says
the value is lower case."""

from __future__ import annotations

import re
from typing import Any

from playground.routing import korean, values
from playground.routing.fill.examples import shape_regex
from playground.routing.fill.spans import word_bounded
from playground.routing.fill.specs import PLAIN_WORD_RE, ParamSpec

LOWERCASE_DOC_RE = re.compile(r"영문\s*소문자|소문자|lower[- ]?case", re.I)
_LOWER_WORD_RE = re.compile(r"[a-z]{2,}")


def word_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]], tokens: list[korean.Token]
) -> tuple[Any, dict[str, Any]] | None:
    """Rules 6 (a question word equal to an example) and 7 (the only lowercase latin word)."""
    words = [e for e in spec.examples if PLAIN_WORD_RE.fullmatch(e)]
    for tok in tokens:
        if not values.outside((tok.start, tok.end), used):
            continue
        for example in words:
            if korean.has_hangul(example):
                hit = tok.surface == example or (
                    tok.stem == example and tok.surface.startswith(example)
                )
                if hit:
                    span = [tok.start, tok.start + len(example)]
                    return example, {
                        "rule": "word",
                        "span": span,
                        "text": example,
                        "detail": f"equals the example {example!r}",
                    }
            elif tok.surface.lower() == example.lower():
                return tok.surface, {
                    "rule": "word",
                    "span": [tok.start, tok.end],
                    "text": tok.surface,
                    "detail": f"equals the example {example!r}",
                }
    # an example of several words or with digits ("Windows 10") written in the question
    for example in spec.examples:
        if (
            PLAIN_WORD_RE.fullmatch(example)
            or shape_regex(example)
            or len(example) < 3
            or not re.search(r"[^\W\d_]", example)
        ):
            continue
        m = re.search(word_bounded(re.escape(example)), text, re.I)
        if m and re.match(r"[-:./][A-Za-z0-9]", text[m.end() : m.end() + 2]):
            continue  # '2026-12-03T10:00' inside '2026-12-03T10:00:00': not the whole token
        if m and values.outside(m.span(), used):
            return m.group(), {
                "rule": "word",
                "span": list(m.span()),
                "text": m.group(),
                "detail": f"equals the example {example!r}",
            }
    said = LOWERCASE_DOC_RE.search(spec.doc)
    if said:
        lower = [
            t
            for t in tokens
            if _LOWER_WORD_RE.fullmatch(t.surface)
            and not korean.is_stopword(t.stem)
            and t.stem not in korean.QUESTION_WORDS
            and t.surface not in korean.QUESTION_WORDS
            and values.outside((t.start, t.end), used)
        ]
        if len(lower) == 1:
            tok = lower[0]
            return tok.surface, {
                "rule": "lowercase",
                "span": [tok.start, tok.end],
                "text": tok.surface,
                "detail": f"the question's only lowercase latin word; the description says {said.group()!r}",
            }
    return None
