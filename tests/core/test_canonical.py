"""Canonical JSON (cache keys, display) and JSON conversion of results."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import math
import uuid
from decimal import Decimal

import pytest

from playground.core.canonical import (
    NotSerializable,
    cache_key,
    canonical_json,
    json_type_name,
    normalise_numbers,
    to_json_value,
)


def test_keys_sorted_at_every_depth_and_compact():
    assert canonical_json({"b": 1, "a": {"d": [2, {"z": 0, "y": 1}], "c": None}}) == (
        '{"a":{"c":null,"d":[2,{"y":1,"z":0}]},"b":1}'
    )


def test_hangul_is_kept_as_is():
    text = canonical_json({"region": "서울", "note": "재고 없음"})
    assert text == '{"note":"재고 없음","region":"서울"}'
    assert "\\u" not in text


def test_numbers_are_normalised_but_booleans_stay():
    assert (
        canonical_json({"n": 1.0, "f": 1.5, "t": True, "l": [2.0, False]})
        == '{"f":1.5,"l":[2,false],"n":1,"t":true}'
    )
    assert normalise_numbers([1.0, True, math.inf]) == [1, True, math.inf]
    assert type(normalise_numbers(3.0)) is int


def test_canonical_json_never_raises():
    assert canonical_json({"b": b"x"}) == '{"b":"b\'x\'"}'


def test_cache_key_is_order_insensitive():
    assert (
        cache_key("t", {"a": 1, "b": "나"})
        == cache_key("t", {"b": "나", "a": 1.0})
        == 't:{"a":1,"b":"나"}'
    )
    assert cache_key("t", {"a": 1}) != cache_key("u", {"a": 1})


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclasses.dataclass
class Row:
    store: str
    when: dt.date


def test_to_json_value_conversions():
    value = {
        "tuple": (1, 2),
        "when": dt.datetime(2026, 6, 1, 9, 0),
        dt.date(2026, 6, 2): "date key",
        3: "int key",
        True: "bool key",
        "price": Decimal("1000"),
        "rate": Decimal("0.25"),
        "colour": Colour.RED,
        "row": Row("강남점", dt.date(2026, 1, 1)),
        "set": frozenset({3, 1}),
        Colour.RED: "enum key",  # as pydantic writes dict[Colour, str]
        uuid.UUID(int=1): "uuid key",
        "enum set": {Colour.RED, Colour.BLUE},  # members do not order; their values do
    }
    assert to_json_value(value) == {
        "tuple": [1, 2],
        "when": "2026-06-01T09:00:00",
        "2026-06-02": "date key",
        "3": "int key",
        "true": "bool key",
        "price": "1000",
        "rate": "0.25",
        "colour": "red",
        "row": {"store": "강남점", "when": "2026-01-01"},
        "set": [1, 3],
        "red": "enum key",
        "00000000-0000-0000-0000-000000000001": "uuid key",
        "enum set": ["blue", "red"],
    }


@pytest.mark.parametrize(
    ("value", "path", "what"),
    [
        ({"a": [1, math.nan]}, "$.a[1]", "NaN/Infinity is not valid JSON"),
        ({"a": -math.inf}, "$.a", "NaN/Infinity"),
        ({"d": Decimal("Infinity")}, "$.d", "not a finite number"),
        ({"b": b"raw"}, "$.b", "bytes (decode to str or base64-encode in the tool)"),
        ({"b": bytearray(b"raw")}, "$.b", "bytes"),
        ({(1, 2): 1}, "$<key>", "a dict key of type tuple"),
        ({"o": object()}, "$.o", "an object of type object"),
        ({"s": {1, "a"}}, "$.s", "a set of unorderable items"),
    ],
)
def test_to_json_value_rejections_say_where_and_what(value, path, what):
    with pytest.raises(NotSerializable) as info:
        to_json_value(value)
    assert info.value.path == path
    assert what in info.value.what


def test_json_type_names():
    assert [json_type_name(v) for v in (None, True, 1, 1.5, "s", {}, [], (), b"")] == [
        "null",
        "boolean",
        "integer",
        "number",
        "string",
        "object",
        "array",
        "array",
        "bytes",
    ]
