"""Rule ``example_value_needs_words`` (:mod:`playground.routing.example_value`) (the routing
cases are in cases/example_value_needs_words.json)."""

from __future__ import annotations

from playground.routing.example_value import example_word_only
from playground.routing.rule_switches import switched

WORD = {"rule": "word", "text": "Boston"}
ENUM = {"rule": "enum", "text": "fastest"}


def test_example_words_alone_with_no_topic_word_matched_are_no_sign() -> None:
    assert example_word_only({"start": WORD}, covered=0)
    assert not example_word_only({"start": WORD}, covered=1)
    assert not example_word_only({"start": WORD, "mode": ENUM}, covered=0)
    assert not example_word_only({}, covered=0)
    with switched(without=["example_value_needs_words"]):
        assert not example_word_only({"start": WORD}, covered=0)
