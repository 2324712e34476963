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
