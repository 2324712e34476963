"""Rule ``labelled_number`` (:mod:`playground.routing.number_label`): the word labelling a number
(the routing cases are in cases/labelled_number.json)."""

from __future__ import annotations

from playground.routing.fill.specs import ParamSpec
from playground.routing.number_label import label
from playground.routing.unit_dimension import unit_fits


def _at(question: str, number: str) -> str | None:
    return label(question, question.index(number))


def test_the_label_is_the_word_before_of_is_or_a_colon() -> None:
    assert _at("with a gain of $500 and a loss", "500") == "gain"
    assert _at("a height of about 10 meters", "10") == "height"
    assert _at("deposit: 1000", "1000") == "deposit"
    assert _at("the yield = 5%", "5") == "yield"
    assert _at("the rate was 3", "3") == "rate"


def test_a_number_without_such_a_label_has_none() -> None:
    assert _at("accelerating at 2 for 3 seconds", "2") is None
    assert _at("the sides as 4 and 5", "4") is None
    assert _at("I drank 16 ounces", "16") is None
    assert _at("one of 4", "4") is None  # a stopword is no label


def test_a_unit_of_the_stated_kind_says_whose_number_it_is() -> None:
    spec = ParamSpec(
        name="acceleration", types=("number",), required=True, doc="Acceleration in m/s^2."
    )
    question = "a rate of 6 m/s^2 for 10 seconds"
    assert unit_fits(spec, [10, 11], question)
    assert not unit_fits(spec, [22, 24], question)
