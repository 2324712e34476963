"""Rule ``sentence_start_no_name`` (:mod:`playground.routing.sentence_start`) (the routing cases
are in cases/sentence_start_no_name.json)."""

from __future__ import annotations

from playground.routing.sentence_start import first_word_only


def _first(question: str, word: str) -> bool:
    start = question.index(word)
    return first_word_only(word, start, start + len(word), question)


def test_a_capitalised_first_word_before_lower_case_is_no_name() -> None:
    assert _first("Sure:\\n\\n**Logistic regression is absent", "Logistic")
    assert _first("Change my painting's medium to oil", "Change")
    assert _first("It works. Photosynthesis needs light", "Photosynthesis")


def test_names_stay_names() -> None:
    assert not _first("Paris is lovely in spring", "Paris")  # a known place
    assert not _first("Logistic regression, as Logistic says", "Logistic")  # capitalised again
    assert not _first("Tell me about Photosynthesis now", "Photosynthesis")  # mid-sentence
    assert not _first("Photosynthesis, please", "Photosynthesis")  # no lower-case word after
