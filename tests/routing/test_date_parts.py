"""Rule ``date_parts_no_numbers`` (:mod:`playground.routing.date_parts`) (the routing cases are
in cases/date_parts_no_numbers.json)."""

from __future__ import annotations

from playground.routing.date_parts import date_spans, drop_date_parts
from playground.routing.fill.specs import Fill, ParamSpec


def _number_fill(name: str, question: str, text: str, value: object) -> Fill:
    start = question.index(text)
    ev = {"rule": "number", "span": [start, start + len(text)], "text": text}
    return Fill(args={name: value}, evidence={name: ev})


def test_the_dates_a_question_writes() -> None:
    q = "on April 22nd 2023 and on 2023-05-01, for 3 days"
    assert [q[a:b] for a, b in date_spans(q)] == ["April 22nd 2023", "2023-05-01"]


def test_a_number_inside_a_date_is_no_value_unless_the_parameter_is_about_dates() -> None:
    q = "the count on April 22nd 2023"
    count = ParamSpec(name="count", types=("integer",), required=True)
    fill = _number_fill("count", q, "22", 22)
    assert drop_date_parts([count], fill, q) == ["count"] and fill.missing == ["count"]
    year = ParamSpec(name="birth_year", types=("integer",), required=True)
    fill = _number_fill("birth_year", q, "2023", 2023)
    assert drop_date_parts([year], fill, q) == [] and fill.args == {"birth_year": 2023}
