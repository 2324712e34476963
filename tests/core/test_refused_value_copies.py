"""A refused argument is not copied over and over into its record (issue 28 item 7): the
message (and so each provider's wire view) quotes at most 200 characters of it; only ``args``
(as given) holds it whole, and ``canonical_args`` is ``""`` (still a string, as docs/design.md's
record shape has it): the refused arguments were never made canonical."""

from __future__ import annotations

import json

SCHEMA_PATTERN = '''
from typing import Annotated
from pydantic import Field


def lookup(sku: Annotated[str, Field(pattern=r"^[A-Z]{2}-[0-9]{3}$")]) -> dict:
    """Look a product up.

    Args:
        sku: product SKU, e.g. "KB-101"
    """
    return {"sku": sku}


__tools__ = [lookup]
'''


def test_a_5000_character_refused_value_is_quoted_short(make_gate):
    gate = make_gate(SCHEMA_PATTERN, name="shop_sku", wire=True)
    value = "x" * 5000
    record = gate.call("lookup", {"sku": value})
    assert record.verdict == "pattern:sku"
    data = record.to_json()
    whole = [k for k, v in data.items() if value in json.dumps(v, ensure_ascii=False)]
    assert whole == ["args"]
    assert data["canonical_args"] == ""
    text = json.dumps(data, ensure_ascii=False)
    assert text.count("x" * 1000) == 5  # once, in args: nowhere else
    assert '"' + "x" * 198 + "…" in record.message
    assert len(record.message) < 1000


def test_an_unknown_tools_arguments_are_kept_once(make_gate):
    gate = make_gate(SCHEMA_PATTERN, name="shop_sku2", wire=True)
    value = "y" * 5000
    data = gate.call("no_such_tool", {"q": value}).to_json()
    assert data["verdict"] == "unknown_tool"
    assert json.dumps(data, ensure_ascii=False).count(value) == 1
    assert data["args"] == {"q": value} and data["canonical_args"] == ""


def test_a_valid_calls_canonical_args_are_kept(make_gate):
    gate = make_gate(SCHEMA_PATTERN, name="shop_sku3")
    assert gate.call("lookup", {"sku": "KB-101"}).canonical_args == '{"sku":"KB-101"}'


def test_arguments_json_cannot_carry_are_shown_by_repr(make_gate):
    gate = make_gate(SCHEMA_PATTERN, name="shop_sku4")
    args: dict = {"sku": "KB-101"}
    args["self"] = args
    record = gate.call("lookup", args)
    assert record.verdict == "shape"
    assert record.canonical_args.startswith("{'sku': 'KB-101', 'self': {...}}")
