"""Fix hints a model can follow (issue 11 item 9): the example in an ``invalid_args`` message
always passes the schema, is never the refused value, never a placeholder or ``{}`` for an object
with required keys; examples are JSON values (``{"days":7}``), never CLI syntax (issue 20 item 4);
examples written in docstrings are taken whole."""

from __future__ import annotations

import json
import re

import pytest

from playground.core.examples import NO_EXAMPLE, valid_example, written_examples
from playground.core.validators import validator_for

TOOLS = '''
from typing import Optional
from pydantic import BaseModel


class Address(BaseModel):
    city: str
    zip_code: str


def greet(name: str = None) -> dict:
    """Greet someone.

    Args:
        name: who to greet.
    """
    return {"hi": name}


def filter_brands(brands: Optional[list[str]] = None) -> dict:
    """Filter by brands.

    Args:
        brands: brand names. Omit for all brands.
    """
    return {"brands": brands}


def extend_loan(days: int) -> dict:
    """Extend a loan.

    Args:
        days: extra days, e.g. 7
    """
    return {"days": days}


def ship_to(address: Address) -> dict:
    """Ship to an address."""
    return {"ok": True}


def find_item(keyword: str, color: str = None) -> dict:
    """Find an item.

    Args:
        keyword: what to search, e.g. 'blue denim jacket'
        color: 예: 진한 파랑
    """
    return {"keyword": keyword}


__tools__ = [greet, filter_brands, extend_loan, ship_to, find_item]
'''


@pytest.fixture
def gate(make_gate):
    return make_gate(TOOLS, name="hints")


def hint_example(message: str, arg: str):
    """The example of the fix hint, ``e.g. {"arg": value}.``: its value."""
    m = re.search(r"e\.g\. (\{.+?\})\.(?: Example call|$)", message)
    assert m, message
    example = json.loads(m.group(1))
    assert list(example) == [arg], message
    return example[arg]


def example_call(message: str):
    m = re.search(r"Example call: \w+\((.*)\)\.$", message)
    return json.loads(m.group(1)) if m else None


def prop(gate, tool, arg):
    params = gate.registry.get(tool).parameters
    return params, params["properties"][arg]


def passes(params, arg, value):
    schema = {
        **params["properties"][arg],
        **({"$defs": params["$defs"]} if "$defs" in params else {}),
    }
    return validator_for(schema).is_valid(value)


def test_name_null_is_never_offered_for_a_string(gate):
    record = gate.call("greet", {"name": 3})
    assert record.verdict == "type:name"
    # nothing written and no placeholder word: no example at all rather than "text" or null
    assert "e.g." not in record.message and "null" not in record.message.split("Got 3.")[1]
    assert "Give 'name' as string." in record.message


def test_the_refused_value_is_never_the_example(gate):
    record = gate.call("filter_brands", {"brands": [1]})
    assert record.verdict == "type:brands"
    value = hint_example(record.message, "brands")
    assert value != [1] and value is not None
    params, _ = prop(gate, "filter_brands", "brands")
    assert passes(params, "brands", value)


def test_integers_use_raw_json_on_the_command_line(gate):
    record = gate.call("extend_loan", {"days": "seven"})
    assert record.verdict == "type:days"
    assert 'e.g. {"days":7}.' in record.message
    assert ":=" not in record.message
    assert example_call(record.message) == {"days": 7}


def test_an_object_with_required_keys_gets_a_full_example(gate):
    record = gate.call("ship_to", {"address": "Seoul"})
    assert record.verdict == "type:address"
    # its fields are free strings: no placeholder example, the fields named in words instead
    assert "e.g." not in record.message
    assert "Give 'address' as object with city (string), zip_code (string)." in record.message


def test_docstring_examples_are_taken_whole(gate):
    record = gate.call("find_item", {"keyword": 5})
    assert hint_example(record.message, "keyword") == "blue denim jacket"
    record = gate.call("find_item", {"keyword": "x", "color": 5})
    assert hint_example(record.message, "color") == "진한 파랑"


def test_no_placeholder_when_nothing_passes():
    schema = {"type": "string", "pattern": "^[A-Z]{2}-[0-9]{3}$"}
    # what a model reads never holds a made-up value; probe's cases take a matching string
    assert valid_example("sku", schema, placeholders=False) is NO_EXAMPLE
    assert valid_example("sku", schema) == "AA-000"
    assert (
        valid_example("sku", schema, "Look up.\n\nArgs:\n    sku: the code, 예: KB-101") == "KB-101"
    )


def test_written_examples():
    assert written_examples("e.g. 'blue denim jacket'") == ["blue denim jacket"]
    assert written_examples("예: 무선 키보드. 다른 것") == ["무선 키보드", "무선"]
    assert written_examples("e.g. 7") == ["7"]


@pytest.mark.parametrize(
    ("prose", "first"),
    [
        ("The ratio, e.g. 2.5", "2.5"),  # was "2": cut at the first dot
        ("Contact e-mail, e.g. kim@example.com", "kim@example.com"),
        ("File name, e.g. report.pdf. Use a PDF.", "report.pdf"),
        ("Page URL, e.g. https://example.com/a/b", "https://example.com/a/b"),
        ("버전. 예: 1.2.3", "1.2.3"),
        ("Price e.g. 12.50 (in won)", "12.50"),
        ("Host, e.g. api.example.com.", "api.example.com"),  # the sentence's own dot ends it
        ("The id. e.g. A-1.", "A-1"),
        ("e.g. 7, or 14", "7"),  # a comma and a space end the clause
    ],
)
def test_a_dot_or_comma_inside_a_written_example_is_part_of_it(prose, first):
    """Issue 11 kind 9: examples taken from docstrings are not cut (a dot inside a value is not
    the end of the sentence)."""
    assert written_examples(prose)[0] == first
    schema = {"type": "number"} if first == "2.5" else {"type": "string"}
    assert valid_example("x", schema, f"Do it.\n\nArgs:\n    x: {prose}") == (
        2.5 if first == "2.5" else first
    )


def test_every_bundled_invalid_call_hint_passes(gate):
    for tool, args in [
        ("greet", {"name": None}),
        ("filter_brands", {"brands": "nike"}),
        ("extend_loan", {}),
        ("ship_to", {}),
        ("find_item", {}),
    ]:
        record = gate.call(tool, args)
        assert record.kind == "invalid_args"
        call = example_call(record.message)
        if tool in ("filter_brands", "extend_loan", "find_item"):  # each has a real example
            assert call is not None
        assert call is None or validator_for(gate.registry.get(tool).parameters).is_valid(call)
        assert '"text"' not in record.message and ":=" not in record.message
        assert "<" not in record.message.split("Example call")[0].split("e.g.")[-1]
