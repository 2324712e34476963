"""The ``matched`` entry of a score row for evidence that comes from the question's shape, not
from a word of the tool's text (a listing question, the request's kind of action or verb, the
Korean bridge): full quality, idf and word weight, so its ``points`` are what the rule gave."""

from __future__ import annotations

from typing import Any


def shape_match(word: str, term: str, where: str, how: str, points: float) -> dict[str, Any]:
    """``{"word", "term", "where", "how", "quality", "idf", "word_weight", "points"}`` for a
    row's ``matched`` list: ``word`` as the question wrote it, ``term`` what it stands for,
    ``where`` the rule's place (``"shape:listing"``), ``how`` the rule in words, ``points`` the
    relevance it added."""
    return {
        "word": word,
        "term": term,
        "where": where,
        "how": how,
        "quality": 1.0,
        "idf": 1.0,
        "word_weight": 1.0,
        "points": points,
    }
