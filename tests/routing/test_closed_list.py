"""Rule ``closed_list_values`` (:mod:`playground.routing.closed_list`): which descriptions close
their list of values (the routing cases are in cases/closed_list_values.json)."""

from __future__ import annotations

from playground.routing.closed_list import closed_values
from playground.routing.fill.specs import ParamSpec


def _spec(doc: str, listed: tuple[str, ...], enum: tuple[str, ...] = ()) -> ParamSpec:
    return ParamSpec(name="p", types=("string",), required=True, doc=doc, listed=listed, enum=enum)


def test_a_closing_phrase_closes_the_quoted_values() -> None:
    spec = _spec("Phase transition. Can be 'melting', 'Freezing'.", ("melting", "Freezing"))
    assert closed_values(spec) == {"melting", "freezing"}
    assert closed_values(_spec("Valid values include: 'asc', 'desc'.", ("asc", "desc")))


def test_an_open_list_an_enum_or_no_phrase_closes_nothing() -> None:
    assert closed_values(_spec("The unit, like 'ounce' or 'kg'.", ("ounce", "kg"))) == set()
    assert closed_values(_spec("Supports 'cup', 'teaspoon', etc.", ("cup", "teaspoon"))) == set()
    assert closed_values(_spec("Can be 'a' or 'b'.", ("a", "b"), enum=("a", "b"))) == set()
    assert closed_values(_spec("The card suit: 'spades' or 'clubs'.", ("spades", "clubs"))) == set()
