"""The words that label a parameter (its name and description words, as stems) and how
strongly they label a span of the question (:func:`near_score`)."""

from __future__ import annotations

import functools
import re

from playground.routing import korean
from playground.routing.fill.examples import extract_examples
from playground.routing.fill.specs import ParamSpec

# ---- values from the question, by schema (issue 12) -----------------------------------------
_GENERIC_DOC_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "to",
        "in",
        "for",
        "and",
        "or",
        "is",
        "be",
        "it",
        "this",
        "that",
        "value",
        "values",
        "number",
        "numbers",
        "given",
        "specific",
        "specified",
        "which",
        "used",
        "use",
        "default",
        "optional",
        "required",
        "if",
        "not",
        "by",
        "with",
        "as",
        "on",
        "at",
        "from",
        "e",
        "g",
        "eg",
        "example",
        "such",
        "like",
        "its",
        "their",
    ]
)
#: Name parts that say what kind of value, not what it is about (hotel_name -> hotel).
GENERIC_NAME_WORDS = frozenset(["name", "id", "type", "kind", "value", "code", "number", "info"])


@functools.lru_cache(maxsize=4096)
def label_words(spec: ParamSpec) -> tuple[set[str], set[str]]:
    """``(name words, description words)`` of a parameter, as stems."""
    name = {korean.stem(p) for p in korean.split_identifier(spec.name) if len(p) > 1}
    doc = {
        korean.stem(t.surface)
        for t in korean.tokenize(_strip_example_text(spec.doc))
        if t.surface.lower() not in _GENERIC_DOC_WORDS and not korean.is_stopword(t.stem)
    }
    return name, doc - name


def _strip_example_text(text: str) -> str:
    for ex in extract_examples(text):
        text = text.replace(ex, " ")
    return text


#: Words that join a label to its value ("score of 4.5", "rate is 5%").
_GLUE = frozenset(["of", "is", "=", ":"])


def near_score(
    tokens: list[korean.Token], start: int, end: int, words: set[str], before: int = 4
) -> float:
    """How strongly ``words`` label the span ``[start, end)``: 1/(distance) per matching token
    among the ``before`` tokens before it and the two after it."""
    # "a review score of 4.5": the glue word between a label and its value puts no distance
    prev = [t for t in tokens if t.end <= start]
    if prev and prev[-1].surface.lower() in _GLUE:
        prev = prev[:-1]
    prev = prev[-before:]
    nxt3 = [t for t in tokens if t.start >= end][:3]
    nxt = nxt3[:2]
    if any(t.surface.lower() in ("of", "is", "was", "are") for t in nxt3):
        nxt = []  # "$2000, final value of $3000": those words label the value after them
    score = 0.0
    for dist, tok in enumerate(reversed(prev), 1):
        if any(korean.match_quality(tok.stem, w)[0] >= 0.7 for w in words):
            score += 1.0 / dist
    for dist, tok in enumerate(nxt, 1):
        if any(korean.match_quality(tok.stem, w)[0] >= 0.7 for w in words):
            score += 0.5 / dist
    return score


#: A parameter named for a count (trait_count, num_results, top_n).
COUNTS_RE = re.compile(r"count|(?:^|_)(?:num|n|top)(?:_|$)|^num[A-Z_]", re.I)


def is_counted_noun(tokens: list[korean.Token], end: int, words: set[str]) -> bool:
    """True when one of the three words after a number (ending at ``end``) is a plural of
    ``words`` (the parameter's own nouns)."""
    after = [t for t in tokens if t.start >= end][:3]
    return any(
        t.surface.lower().endswith("s")
        and any(korean.match_quality(t.stem, w)[0] >= 0.7 for w in words - GENERIC_NAME_WORDS)
        for t in after
    )
