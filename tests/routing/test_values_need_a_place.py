"""Rule ``values_need_a_place`` (:mod:`playground.routing.values_need_a_place`): the values a
question writes (the routing cases are in cases/values_need_a_place.json)."""

from __future__ import annotations

from playground.routing.rule_switches import switched
from playground.routing.values_need_a_place import unplaced, written_values


def test_digits_and_names_after_a_preposition_of_place_are_values() -> None:
    assert written_values("list movies in Mumbai?") == ("Mumbai",)
    assert written_values("the weather near San Jose from 3 to 5 pm") == ("San Jose", "3", "5")
    assert written_values("Is it raining in the city?") == ()
    assert written_values("two tickets please") == ()  # a number in words is not written in digits
    assert written_values("서울 날씨 3일") == ()  # a question in Hangul is not judged


def test_only_an_empty_fill_leaves_them_unplaced() -> None:
    assert unplaced("list movies in Mumbai?", {}) == ("Mumbai",)
    assert unplaced("list movies in Mumbai?", {"city": "Mumbai"}) == ()
    with switched(without=["values_need_a_place"]):
        assert unplaced("list movies in Mumbai?", {}) == ()
