"""Rule ``quantity_fits_unit`` (:mod:`playground.routing.unit_dimension`): what a unit measures
and which units a parameter states (the routing cases are in cases/quantity_fits_unit.json)."""

from __future__ import annotations

from playground.routing.fill.specs import ParamSpec
from playground.routing.unit_dimension import dimension, misfit_unit, stated_dimensions


def test_a_unit_measures_pints_dimension() -> None:
    assert dimension("seconds") == frozenset({("[time]", 1)})
    assert dimension("months") == dimension("hours")
    assert dimension("m/s^2") == frozenset({("[length]", 1), ("[time]", -2)})
    assert dimension("kg") == frozenset({("[mass]", 1)})


def test_english_words_and_marks_are_no_units() -> None:
    # Pint reads these as the inch, the year, the picometre, the thermie, a luminous unit
    assert [dimension(w) for w in ("in", "a", "pm", "th", "units", "tickets", "%")] == [None] * 7


def test_a_parameter_states_units_in_its_description_and_name_not_after_per() -> None:
    assert stated_dimensions("charge1", "The first charge in coulombs.") == frozenset(
        {frozenset({("[current]", 1), ("[time]", 1)})}
    )
    assert stated_dimensions("miles_driven", "The number of miles driven per year.") == frozenset(
        {frozenset({("[length]", 1)})}
    )
    assert stated_dimensions("d_time", "The change in time.") == frozenset(
        {frozenset({("[time]", 1)})}
    )
    assert stated_dimensions("count", "How many items.") == frozenset()


def test_a_number_in_another_kind_of_unit_is_a_misfit() -> None:
    spec = ParamSpec(name="distance", types=("number",), required=True, doc="Distance in meters.")
    question = "after 2 seconds, then 3 km"
    assert misfit_unit(spec, [6, 7], question) == "seconds"
    assert misfit_unit(spec, [24, 25], question) is None  # km is a length
    bare = ParamSpec(name="distance", types=("number",), required=True, doc="How far.")
    assert misfit_unit(bare, [6, 7], question) is None  # no unit stated: nothing judged
