"""Value rules added for issue 23's unmet end-to-end numbers: each test is the general shape the
rule reads, with the expected value (the bench measures what each earns)."""

from __future__ import annotations

from playground.routing.fill.pipeline import fill_structured
from playground.routing.fill.specs import param_specs


def _specs(props, required=()):
    return param_specs({"type": "object", "properties": props, "required": list(required)}, {})


def test_a_one_letter_enum_value_keeps_its_case() -> None:
    specs = _specs(
        {"base": {"type": "string", "enum": ["A", "T", "C", "G"]}},
    )
    # the article "a" is not the value "A"; the quoted 'T' is
    assert fill_structured(specs, "a sequence with a preference for 'T'").args == {"base": "T"}
    assert fill_structured(specs, "a sequence with a preference for 'A'").args == {"base": "A"}


def test_a_count_in_words_is_no_unit() -> None:
    specs = _specs(
        {
            "radius": {"type": "integer", "description": "The radius of the circle."},
            "unit": {"type": "string", "description": "The measurement unit of the radius."},
        },
        ["radius"],
    )
    # "two circles" counts circles; the radii are in meters
    q = "the area of two circles, one with a radius of 5 meters and the other of 10 meters"
    assert fill_structured(specs, q).args == {"unit": "meters"}


def test_an_optional_value_right_after_its_label_phrase() -> None:
    from playground.routing.fill.pipeline import fill_loose

    specs = _specs(
        {
            "table": {"type": "array", "items": {"type": "integer"}},
            "alpha": {"type": "number", "description": "Significance level for the test."},
        },
        ["table"],
    )
    q = "Test the table [1, 2, 3, 4]. Use a significance level of 0.01 for it."
    fill = fill_structured(specs, q)
    fill_loose(specs, q, fill)
    assert fill.args == {"table": [1, 2, 3, 4], "alpha": 0.01}


def test_a_unit_after_in_keeps_its_superscript_power() -> None:
    specs = _specs({"unit": {"type": "string", "description": "The unit of density."}})
    q = "Compare the densities in kg/m³."
    assert fill_structured(specs, q).args == {"unit": "kg/m³"}
    assert fill_structured(specs, "the acceleration in m/s^2").args == {"unit": "m/s^2"}


def test_counted_items_fill_the_items_and_their_counts() -> None:
    specs = _specs(
        {
            "items": {"type": "array", "items": {"type": "string"}, "description": "Items."},
            "quantities": {
                "type": "array",
                "items": {"type": "integer"},
                "description": "The quantity of each item.",
            },
        },
        ["items", "quantities"],
    )
    fill = fill_structured(specs, "Check the price of three pumpkins and two dozen eggs.")
    assert fill.args == {"items": ["pumpkins", "eggs"], "quantities": [3, 24]}
    assert fill.evidence["items"]["rule"] == "counted_items"
    q = "Order three bottles of olive oil and a five pound bag of rice from the store."
    assert fill_structured(specs, q).args == {"items": ["olive oil", "rice"], "quantities": [3, 1]}
    # one counted thing is no list of items
    assert fill_structured(specs, "Order three bottles of olive oil.").args == {}


def test_a_name_ending_in_s_keeps_it_unless_a_noun_follows() -> None:
    from playground.routing import values

    names = [v.text for v in values.names("I want burgers from McDonald's.")]
    assert "McDonald's" in names
    names = [v.text for v in values.names("Show Germany's team ranking.")]
    assert "Germany" in names


def test_a_glue_word_puts_no_distance_between_a_label_and_its_value() -> None:
    from playground.routing.fill.pipeline import fill_loose

    specs = _specs(
        {
            "rating": {
                "type": "number",
                "description": "The minimum average rating of the provider's review score.",
            }
        }
    )
    q = "Find a cleaner with a review score of 4.5 stars or more."
    fill = fill_structured(specs, q)
    fill_loose(specs, q, fill)
    assert fill.args == {"rating": 4.5}


def test_a_name_written_as_code_and_is_assigns_its_value() -> None:
    from playground.routing import values
    from playground.routing.fill.pipeline import fill_loose

    specs = _specs(
        {
            "song_id": {"type": "string", "description": "The unique identifier of the song."},
            "artist": {"type": "string", "description": "The artist's name."},
        },
        ["song_id"],
    )
    q = "Play Roar by Katy Perry. The song_id is wjeiruhuq_roar."
    fill = fill_structured(specs, q)
    fill_loose(specs, q, fill)
    assert fill.args["song_id"] == "wjeiruhuq_roar"
    assert fill.evidence["song_id"]["rule"] == "assign"
    # a plain English word before "is" is no parameter name
    assert values.assignments("The price is 5") == {}
    assert {k: v.value for k, v in values.assignments("the userId is 42").items()} == {"userid": 42}


def test_an_irregular_plural_counts_its_singular() -> None:
    from playground.routing.fill.pipeline import fill_loose

    specs = _specs(
        {
            "adults": {"type": "integer", "description": "The number of adults."},
            "children": {"type": "integer", "description": "The number of children."},
            "from_date": {"type": "string", "description": "The first day, MM-DD-YYYY."},
        },
        ["adults", "children", "from_date"],
    )
    q = "Book a room for two adults and one child from July 10, 2022."
    fill = fill_structured(specs, q)
    fill_loose(specs, q, fill)
    assert (fill.args["adults"], fill.args["children"]) == (2, 1)
