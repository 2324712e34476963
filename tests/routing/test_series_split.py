"""Rule ``series_one_parameter`` (:mod:`playground.routing.series_split`): which values are two
items of one series torn between two parameters (the routing cases are in
cases/series_one_parameter.json)."""

from __future__ import annotations

from playground.routing.fill.specs import Fill, ParamSpec
from playground.routing.series_split import drop_torn_series, torn_series


def _spec(name: str, required: bool = True) -> ParamSpec:
    return ParamSpec(name=name, types=("string",), required=required)


def _fill(question: str, **values: str) -> Fill:
    evidence = {}
    for name, text in values.items():
        start = question.index(text)
        evidence[name] = {"rule": "string", "span": [start, start + len(text)], "text": text}
    return Fill(args=dict(values), evidence=evidence)


def test_two_items_of_a_series_in_two_unrelated_parameters_are_torn() -> None:
    q = "the price of Apple and Microsoft"
    specs = [_spec("metal"), _spec("measure")]
    fill = _fill(q, metal="Apple", measure="Microsoft")
    assert torn_series(specs, fill, q) == ["metal", "measure"]
    assert drop_torn_series(specs, fill, q) == ["metal", "measure"]
    assert fill.args == {} and fill.missing == ["metal", "measure"]


def test_numbered_siblings_range_ends_and_a_comma_alone_are_not() -> None:
    q = "Red and Blue, Lyon and Paris, Sydney, Australia"
    assert (
        torn_series([_spec("color1"), _spec("color2")], _fill(q, color1="Red", color2="Blue"), q)
        == []
    )
    ends = [_spec("start_city"), _spec("end_city")]
    assert torn_series(ends, _fill(q, start_city="Lyon", end_city="Paris"), q) == []
    place = [_spec("city"), _spec("country")]
    assert torn_series(place, _fill(q, city="Sydney", country="Australia"), q) == []
