"""Argument verdicts and result checks (docs/design.md "Reason codes"; seed 003 validate_args /
validate_result)."""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal

import pytest

from playground.core.contracts import Contract, contract_from_table
from playground.core.validation import (
    arg_doc,
    check_args,
    check_result,
    example_value,
    normalise_args,
)

PARAMS = {
    "type": "object",
    "properties": {
        "sku": {
            "type": "string",
            "pattern": "^[A-Z]{2}-[0-9]{3}$",
            "description": "SKU. 예: KB-101",
        },
        "region": {"type": "string", "enum": ["seoul", "busan", "daejeon"]},
        "limit": {"type": "integer", "minimum": 1, "maximum": 5, "description": "매장 수. 예: 3"},
        "memo": {"type": "string", "minLength": 2, "maxLength": 4},
        "day": {"type": "string", "format": "date"},
        "ratio": {"type": "number"},
        "ids": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["sku", "limit"],
    "additionalProperties": False,
}
GOOD = {"sku": "KB-101", "limit": 3}


def make_contract(parameters=PARAMS, returns=None, name="stock_lookup") -> Contract:
    return Contract(
        name=name,
        description="재고 조회.",
        parameters=parameters,
        fn=lambda **kw: kw,
        returns=returns,
    )


@pytest.fixture
def contract() -> Contract:
    return make_contract()


# ---------------------------------------------------------------- argument verdicts


def test_valid_arguments_have_an_empty_verdict(contract):
    verdict = check_args(contract, {**GOOD, "region": "busan", "day": "2026-02-28"})
    assert verdict.ok and verdict.code == "" and verdict.message == ""
    assert verdict.args == {"sku": "KB-101", "limit": 3, "region": "busan", "day": "2026-02-28"}


def test_missing_argument(contract):
    verdict = check_args(contract, {"sku": "KB-101"})
    assert verdict.code == "missing:limit"
    assert "Add 'limit'" in verdict.message
    assert (
        'e.g. {"limit":3}' in verdict.message
    )  # the example written in the description, as an integer (a JSON value, no CLI syntax)


NESTED = {
    "type": "object",
    "properties": {
        "person": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
            "required": ["name", "age"],
            "additionalProperties": False,
        },
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"qty": {"type": "integer"}},
                "required": ["qty"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["person"],
}


def test_a_missing_or_unknown_key_below_the_top_level_is_named_by_its_path():
    """Issue 11 kind 9: "Add 'age'" for a key of ``person`` sent a model to add a top-level
    ``age`` (then ``unknown:age``); the code and the fix name the path."""
    contract = make_contract(NESTED, name="add_person")
    verdict = check_args(contract, {"person": {"name": "Kim"}})
    assert verdict.code == "missing:person.age"
    assert "Add 'person.age'." in verdict.message
    assert [r.path for r in verdict.reasons] == ["/person/age"]
    assert '"text"' not in verdict.message  # no placeholder word for a free string
    verdict = check_args(contract, {"person": {"name": "Kim", "age": 3, "colour": "red"}})
    assert verdict.code == "unknown:person.colour"
    # the fix names the keys allowed at that level, not the top-level arguments
    assert "Remove 'colour' from 'person'; the fields allowed there are name, age" in (
        verdict.message
    )
    assert [r.path for r in verdict.reasons] == ["/person/colour"]
    verdict = check_args(contract, {"person": {"name": "Kim", "age": 3}, "items": [{}]})
    assert verdict.code == "missing:items.0.qty"
    # at the top level the bare name stays the code
    assert check_args(contract, {}).code == "missing:person"


def test_unknown_argument_lists_the_allowed_names(contract):
    verdict = check_args(contract, {**GOOD, "colour": "red"})
    assert verdict.code == "unknown:colour"
    assert "sku, region, limit, memo, day, ratio, ids" in verdict.message


def test_unknown_argument_is_reported_even_when_the_schema_allows_extras():
    open_schema = {**PARAMS, "additionalProperties": True}
    assert check_args(make_contract(open_schema), {**GOOD, "x": 1}).code == "unknown:x"


@pytest.mark.parametrize("value", [True, False, "3", 2.5, None, [3]])
def test_type_of_an_integer_argument(contract, value):
    verdict = check_args(contract, {**GOOD, "limit": value})
    assert verdict.code == "type:limit"
    assert verdict.args["limit"] is value  # the original arrives back, unconverted


def test_json_true_is_never_a_number(contract):
    assert check_args(contract, {**GOOD, "ratio": True}).code == "type:ratio"


def test_allowed_values(contract):
    verdict = check_args(contract, {**GOOD, "region": "jeju"})
    assert verdict.code == "allowed:region"
    assert '["seoul","busan","daejeon"]' in verdict.message
    assert 'e.g. {"region":"seoul"}' in verdict.message


@pytest.mark.parametrize(
    ("args", "code", "bound"),
    [
        ({"limit": 0}, "range:limit", ">= 1"),
        ({"limit": 6}, "range:limit", "<= 5"),
        ({"memo": "a"}, "range:memo", "length >= 2"),
        ({"memo": "abcde"}, "range:memo", "length <= 4"),
    ],
)
def test_range_minimum_maximum_and_length(contract, args, code, bound):
    verdict = check_args(contract, {**GOOD, **args})
    assert verdict.code == code
    assert bound in verdict.message


def test_pattern(contract):
    verdict = check_args(contract, {**GOOD, "sku": "kb101"})
    assert verdict.code == "pattern:sku"
    assert "^[A-Z]{2}-[0-9]{3}$" in verdict.message
    assert 'e.g. {"sku":"KB-101"}' in verdict.message  # example from "예: KB-101"


def test_format_checker_is_on(contract):
    verdict = check_args(contract, {**GOOD, "day": "2026-02-30"})
    assert verdict.code == "format:day"
    assert "date" in verdict.message


def test_shape_of_a_json_string_holding_an_object(contract):
    verdict = check_args(contract, '{"sku": "KB-101", "limit": 3}')
    assert verdict.code == "shape"
    assert "a JSON string holding an object" in verdict.message
    assert "parse the string first" in verdict.message


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([1, 2], "an array of 2 item(s)"),
        (None, "null arrived"),
        (3, "an integer (3)"),
        ("hi", "a string ('hi')"),
    ],
)
def test_shape_names_what_arrived(contract, args, said):
    verdict = check_args(contract, args)
    assert verdict.code == "shape"
    assert said in verdict.message


def test_integral_float_is_normalised_for_an_integer_parameter(contract):
    verdict = check_args(contract, {**GOOD, "limit": 1.0, "ids": [2.0, 3]})
    assert verdict.ok
    assert verdict.args["limit"] == 1 and type(verdict.args["limit"]) is int
    assert [type(i) for i in verdict.args["ids"]] == [int, int]


def test_a_float_for_a_number_parameter_stays_a_float():
    assert normalise_args({"ratio": 1.0}, PARAMS) == {"ratio": 1.0}
    assert type(normalise_args({"ratio": 1.0}, PARAMS)["ratio"]) is float


def test_only_one_reason_is_reported_and_in_a_fixed_order(contract):
    assert check_args(contract, {"limit": True, "x": 1}).code == "unknown:x"
    assert check_args(contract, {"limit": True}).code == "missing:sku"


def test_table_contract_gives_the_same_codes():
    table = contract_from_table(
        "stock_lookup",
        {
            "fn": lambda sku, limit: None,
            "args": {
                "sku": {"type": "str", "required": True, "pattern": "^[A-Z]"},
                "limit": {"type": "int", "required": True, "min": 1, "max": 5},
            },
        },
    )
    assert check_args(table, {"sku": "A"}).code == "missing:limit"
    assert check_args(table, {"sku": "A", "limit": True}).code == "type:limit"
    assert check_args(table, {"sku": "A", "limit": 9}).code == "range:limit"
    assert check_args(table, {"sku": "a", "limit": 1}).code == "pattern:sku"
    assert check_args(table, {"sku": "A", "limit": 1, "z": 0}).code == "unknown:z"


def test_a_broken_parameter_schema_does_not_raise():
    broken = make_contract({"type": "object", "properties": {"a": {"type": "no-such-type"}}})
    verdict = check_args(broken, {"a": 1})
    assert verdict.code == "shape"
    assert "schema is invalid" in verdict.message


def test_example_value_and_arg_doc():
    assert example_value("limit", PARAMS["properties"]["limit"]) == 3
    assert example_value("region", PARAMS["properties"]["region"]) == "seoul"
    assert example_value("day", PARAMS["properties"]["day"]) == "2026-06-21"
    assert example_value("n", {"type": "integer", "description": "e.g. many"}) == 1
    doc = "Find orders.\n\nArgs:\n    order_id: 주문번호. 예: HR20260601\n"
    assert arg_doc(doc, "order_id") == "주문번호. 예: HR20260601"
    assert example_value("order_id", {"type": "string"}, doc) == "HR20260601"


# ---------------------------------------------------------------- result checks

ROWS_RETURNS = {
    "type": "object",
    "properties": {
        "sku": {"type": "string"},
        "rows": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "store": {"type": "string"},
                    "count": {"type": "integer", "minimum": 0},
                },
                "required": ["store", "count"],
            },
        },
    },
    "required": ["sku", "rows"],
    "max_rows": 5,
}


def rows(n: int) -> list[dict]:
    return [{"store": f"s{i}", "count": i} for i in range(n)]


@pytest.fixture
def rows_contract() -> Contract:
    return make_contract(returns=ROWS_RETURNS)


def test_valid_result(rows_contract):
    check = check_result(rows_contract, {"sku": "KB-101", "rows": rows(2)})
    assert (check.reason, check.message) == ("", "")
    assert check.value == {"sku": "KB-101", "rows": rows(2)}


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ([1, 2], "$"),
        ({"rows": []}, "$"),  # missing 'sku'
        ({"sku": "A", "rows": [{"store": "s"}]}, "$['rows'][0]"),
        ({"sku": 1, "rows": []}, "$['sku']"),
    ],
)
def test_result_shape(rows_contract, value, where):
    check = check_result(rows_contract, value)
    assert check.reason == "shape"
    assert f"at {where}:" in check.message


def test_result_empty(rows_contract):
    check = check_result(rows_contract, {"sku": "A", "rows": []})
    assert check.reason == "empty"
    assert check.value == {"sku": "A", "rows": []}


def test_result_empty_without_a_returns_schema():
    assert check_result(make_contract(), []).reason == "empty"
    assert check_result(make_contract(), {"rows": []}).reason == "empty"
    assert check_result(make_contract(), {"rows": [1]}).reason == ""


def test_result_too_big_by_max_rows(rows_contract):
    check = check_result(rows_contract, {"sku": "A", "rows": rows(7)})
    assert check.reason == "too_big"
    assert "returned 7 rows" in check.message and "at most 5" in check.message


def test_result_too_big_legacy_stock_style():
    # the seed-003 table form: rows.max_len becomes max_rows
    legacy = contract_from_table(
        "legacy_stock",
        {
            "fn": lambda sku: None,
            "args": {"sku": {"type": "str", "required": True}},
            "returns": {
                "keys": {"sku": "str", "rows": "list"},
                "rows": {"max_len": 5, "item": {"store": "str", "count": "int"}},
            },
        },
    )
    assert legacy.returns["max_rows"] == 5
    check = check_result(legacy, {"sku": "KB-101", "rows": rows(7)})
    assert check.reason == "too_big"


def test_result_too_big_by_max_bytes_and_max_items():
    by_bytes = make_contract(returns={"type": "object", "max_bytes": 20})
    assert check_result(by_bytes, {"text": "x" * 30}).reason == "too_big"
    by_items = make_contract(returns={"type": "array", "maxItems": 2})
    assert check_result(by_items, [1, 2, 3]).reason == "too_big"


def test_result_range(rows_contract):
    check = check_result(rows_contract, {"sku": "A", "rows": [{"store": "해운대점", "count": -1}]})
    assert check.reason == "range"
    assert "$['rows'][0]['count']" in check.message
    assert "-1 is less than the minimum of 0" in check.message


def test_result_datetime_keys_and_values_are_converted():
    check = check_result(
        make_contract(), {dt.date(2026, 6, 1): dt.datetime(2026, 6, 1, 9, 30), "t": dt.time(8, 0)}
    )
    assert check.reason == ""
    assert check.value == {"2026-06-01": "2026-06-01T09:30:00", "t": "08:00:00"}


def test_result_decimal_is_converted():
    check = check_result(make_contract(), {"price": Decimal("12000"), "rate": Decimal("0.5")})
    assert check.reason == ""
    assert check.value == {"price": "12000", "rate": "0.5"}  # as pydantic makes them


@pytest.mark.parametrize("bad", [math.nan, math.inf, Decimal("NaN")])
def test_result_nan_is_rejected(bad):
    check = check_result(make_contract(), {"rows": [{"price": bad}]})
    assert check.reason == "not_serializable"
    assert "$.rows[0].price" in check.message
    assert check.value is None


def test_result_sets():
    assert check_result(make_contract(), {"tags": {"b", "a"}}).value == {"tags": ["a", "b"]}
    mixed = check_result(make_contract(), {"tags": {1, "a"}})
    assert mixed.reason == "not_serializable"
    assert "unorderable" in mixed.message


def test_result_bytes_are_rejected_with_a_clear_reason():
    check = check_result(make_contract(), {"blob": b"\x00\x01"})
    assert check.reason == "not_serializable"
    assert "bytes (decode to str or base64-encode in the tool)" in check.message
    assert "$.blob" in check.message


def test_result_never_crashes_on_odd_values():
    loop: list = []
    loop.append(loop)
    assert check_result(make_contract(), loop).reason == "not_serializable"
    assert check_result(make_contract(), object()).reason == "not_serializable"
    assert check_result(make_contract(), {(1, 2): "tuple key"}).reason == "not_serializable"


def test_a_broken_returns_schema_does_not_raise():
    check = check_result(make_contract(returns={"type": "nonsense"}), {"a": 1})
    assert check.reason == "shape"
    assert "schema is invalid" in check.message
