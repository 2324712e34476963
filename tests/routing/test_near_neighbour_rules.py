"""The helpers of the near-neighbour relevance rules (issue 23): a name's object words
(``name_object_unsaid``), guessed values (``guesses_need_words``) and a value's shape
(``value_fits_shape``). The rules end to end are in ``tests/routing/cases/``."""

from __future__ import annotations

from playground.routing.fill.specs import ParamSpec
from playground.routing.guessed import guessed, marked_values, short_of_words
from playground.routing.name_object import name_objects, not_about, unsaid
from playground.routing.scoring import _words
from playground.routing.value_shape import fits


def _spec(name: str, types: tuple[str, ...] = ("string",), required: bool = True) -> ParamSpec:
    return ParamSpec(name=name, types=types, required=required)


def test_a_name_object_is_a_name_word_its_summary_repeats() -> None:
    assert name_objects("geometry_area_circle", _words("Calculate the area of a circle.")) == (
        "area",
        "circle",
    )
    # a namespace or an abbreviation is not repeated; a generic verb or a schema type is no object
    assert name_objects("cmd_controller_execute", _words("Execute a command.")) == ()
    assert name_objects("answer_string", _words("Check the answer string.")) == ("answer",)


def test_an_object_is_said_by_a_match_a_shared_prefix_or_a_parameter_value() -> None:
    matched = [{"word": "area", "term": "area"}]
    assert unsaid(("area", "circle"), matched, {"area", "triangl"}, [], {}) == ["circle"]
    assert unsaid(("analysis",), [], {"analyz"}, [], {}) == []  # "analyze" says "analysis"
    year = [_spec("year", ("integer",))]
    assert (
        unsaid(
            ("president", "year"),
            [{"word": "President", "term": "president"}],
            set(),
            year,
            {"year": {"rule": "position"}},
        )
        == []
    )  # a number in a number slot
    assert unsaid(
        ("religion",), [], set(), [_spec("religion")], {"religion": {"rule": "position"}}
    ) == ["religion"]  # a word by position


def test_the_head_needs_half_the_topic_a_qualifier_a_third() -> None:
    assert not_about(("area", "circle"), ["circle"], covered=2, topic=5)
    assert not not_about(("area", "circle"), ["circle"], covered=3, topic=5)
    assert not not_about(("law", "case"), ["law"], covered=1, topic=3)  # "a fraud case"
    assert not_about(("law", "case"), ["law"], covered=1, topic=4)
    assert not not_about(("area",), [], covered=0, topic=5)


def test_guessed_values_are_required_text_or_two_positional_numbers() -> None:
    specs = [_spec("sport"), _spec("limit", ("integer",), required=False)]
    assert guessed(specs, {"sport": {"rule": "position", "text": "New York"}}) == ["sport"]
    assert guessed(specs, {"sport": {"rule": "string", "text": "chess"}}) == []
    # a quoted text is no guess; a value its parameter's word introduces makes none a guess
    assert (
        guessed(
            specs,
            {"sport": {"rule": "position", "text": "chess"}},
            marked_values("the top players of 'chess'"),
        )
        == []
    )
    assert (
        guessed(
            specs,
            {"sport": {"rule": "leftover", "text": "chess"}, "limit": {"rule": "cue", "text": "5"}},
        )
        == []
    )
    nums = [_spec("length", ("number",)), _spec("area", ("number",))]
    one = {"length": {"rule": "position", "text": "5"}, "area": {"rule": "number", "text": "2"}}
    two = {"length": {"rule": "position", "text": "5"}, "area": {"rule": "position", "text": "2"}}
    assert guessed(nums, one) == []
    assert guessed(nums, two) == ["length", "area"]
    assert short_of_words(["sport"], covered=1, topic=3)
    assert not short_of_words(["sport"], covered=5, topic=20)  # five words are enough


def test_a_word_is_no_value_for_an_id_number_or_date_parameter() -> None:
    assert not fits(_spec("flight_id"), "Paris")
    assert fits(_spec("flight_id"), "6E123")
    assert fits(_spec("botId"), "my-bot-id")  # an identifier's separators
    assert fits(_spec("case_id"), "R vs Adams", "the case 'R vs Adams'")  # quoted
    assert not fits(_spec("departure_time"), "Indigo")
    assert fits(_spec("departure_time"), "tomorrow")
    assert fits(_spec("city"), "Paris")  # a name that says nothing of its shape
    assert not fits(_spec("url"), "information")  # issue 23: url='information'
    assert fits(_spec("url"), "example.com")
    assert not fits(_spec("email"), "John")
    assert fits(_spec("ticket_number", ("integer",)), "Paris")  # the type check is the gate's
