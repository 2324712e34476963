"""Probe: cases derived from a contract's schema, run through ONE gate; invalid inputs never run
the body, valid ones are accepted."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from playground.batch.probe import INVALID, VALID, baseline_args, probe_cases, probe_contract
from playground.errors import UsageError
from playground.workbench import open_playground

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "decl-cache"))


@pytest.fixture
def inventory():
    return open_playground([REPO / "tools" / "inventory.py"], wire=False)


def test_stock_lookup_every_case(inventory):
    report = probe_contract(inventory, "stock_lookup")
    names = [c.name for c in report.cases]
    assert names[0] == "baseline"
    assert report.cases[0].args == {"sku": "KB-101", "region": "seoul", "limit": 3}
    for expected in (
        "missing:sku",
        "missing:region",
        "missing:limit",
        "type:sku=integer",
        "type:sku=null",
        "type:limit=true",
        "type:limit=string",
        "type:limit=number",
        "float-integral:limit",
        "min:limit",
        "below-min:limit",
        "max:limit",
        "above-max:limit",
        "not-in-enum:region",
        "pattern-miss:sku",
        "unknown-arg",
        "args-as-json-string",
    ):
        assert expected in names
    # 3 missing + 6 wrong types x 3 args + float + 4 bounds + enum + pattern + unknown + json string
    assert len(report.cases) == 1 + 3 + 18 + 1 + 4 + 1 + 1 + 1 + 1
    assert report.ok and report.problems == []
    invalid = [c for c in report.cases if c.expected == INVALID]
    assert invalid and all(
        c.body_runs == 0 and not c.body_ran and c.kind == "invalid_args" for c in invalid
    )
    assert all(c.verdict == c.expected_verdict for c in invalid)
    by_name = {c.name: c for c in report.cases}
    assert by_name["type:limit=true"].args["limit"] is True
    assert (
        by_name["below-min:limit"].args["limit"] == 0
        and by_name["below-min:limit"].verdict == "range:limit"
    )
    assert by_name["above-max:limit"].args["limit"] == 6
    assert by_name["max:limit"].verdict == "valid" and by_name["max:limit"].args["limit"] == 5
    assert by_name["pattern-miss:sku"].args["sku"] == "kb-101"
    assert by_name["args-as-json-string"].args == '{"sku": "KB-101", "region": "seoul", "limit": 3}'
    assert by_name["args-as-json-string"].verdict == "shape"
    assert by_name["baseline"].body_runs == 1 and by_name["baseline"].kind == "ok"
    # the float 3.0 reaches the body as 3 (its int parameter): the baseline's cache key, a hit
    assert (
        by_name["float-integral:limit"].verdict == "valid"
        and by_name["float-integral:limit"].body_runs == 0
    )
    assert by_name["float-integral:limit"].note == "3.0 reaches the body as 3 (its int type)"
    assert inventory.gate.body_runs["stock_lookup"] == 3  # baseline, min, max


def write(tmp_path: Path, source: str) -> Path:
    path = tmp_path / "probe_tools.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


TABLE = """
def book_room(code, day, guests=1, ratio=0.5):
    return {"ok": True}

def bad_example(code):
    return {}

TOOLS = {
    "book_room": {
        "fn": book_room,
        "description": "Book a room.",
        "args": {
            "code": {"type": "str", "required": True, "min": 3, "max": 5, "description": "e.g. ABCD"},
            "day": {"type": "str", "required": True, "format": "date", "description": "e.g. 2026-07-01"},
            "guests": {"type": "int", "min": 1, "max": 4},
            "ratio": {"type": "float", "min": 0, "max": 1},
        },
    },
    "bad_example": {
        "fn": bad_example,
        "description": "The docstring example breaks the pattern.",
        "args": {"code": {"type": "str", "required": True, "pattern": "^[A-Z]{3}$", "description": "예: ab1"}},
    },
}
"""


def test_lengths_dates_and_numbers(tmp_path: Path):
    pg = open_playground([write(tmp_path, TABLE)], wire=False)
    report = probe_contract(pg, "book_room")
    by_name = {c.name: c for c in report.cases}
    assert report.cases[0].args == {"code": "ABCD", "day": "2026-07-01"}
    assert (
        by_name["min-length:code"].args["code"] == "ABC"
        and by_name["min-length:code"].expected == VALID
    )
    assert by_name["below-min-length:code"].args["code"] == "AB"
    assert by_name["max-length:code"].args["code"] == "ABCDA"
    assert by_name["above-max-length:code"].args["code"] == "ABCDAB"
    assert by_name["bad-date:day"].args["day"] == "2026-02-30"
    assert by_name["bad-date:day"].verdict == "format:day"
    assert by_name["below-min:ratio"].args["ratio"] == -0.5
    assert by_name["above-max:guests"].args["guests"] == 5
    assert "type:ratio=integer" not in by_name  # an integer is a valid number
    assert report.ok, [c.to_json() for c in report.problems]


def test_a_pattern_gives_the_baseline_a_matching_value(tmp_path: Path):
    # the docstring's example "ab1" breaks the pattern (lint's example-invalid says so): the
    # baseline is a string the pattern matches, not a placeholder the schema refuses
    pg = open_playground([write(tmp_path, TABLE)], wire=False)
    report = probe_contract(pg, "bad_example")
    assert report.cases[0].name == "baseline"
    assert report.cases[0].args == {"code": "AAA"}
    assert report.ok, [c.to_json() for c in report.problems]


MODELS = """
from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field


class Address(BaseModel):
    city: str
    postcode: Annotated[str, Field(pattern=r"^[0-9]{5}$")]


class Card(BaseModel):
    kind: Literal["card"]
    number: Annotated[str, Field(pattern=r"^[0-9]{16}$")]


class Transfer(BaseModel):
    kind: Literal["transfer"]
    iban: str


def quote_shipping(order_id: Annotated[str, Field(pattern=r"^HR[0-9]{6}$")], to: Address) -> dict:
    \"\"\"Quote the shipping of an order.\"\"\"
    return {"order": order_id, "city": to.city}


def quote_fee(amount: int, method: Annotated[Union[Card, Transfer], Field(discriminator="kind")]) -> dict:
    \"\"\"Quote the fee of a payment.\"\"\"
    return {"fee": 0, "by": method.kind}


__tools__ = [quote_shipping, quote_fee]
"""


@pytest.mark.parametrize("tool", ["quote_shipping", "quote_fee"])
def test_models_and_patterns_give_a_baseline_the_schema_takes(tmp_path: Path, tool: str):
    pg = open_playground([write(tmp_path, MODELS)], wire=False)
    report = probe_contract(pg, tool)
    baseline = report.cases[0]
    assert (baseline.name, baseline.verdict, baseline.ran) == ("baseline", "valid", True)
    assert report.ok, [c.to_json() for c in report.problems]
    if tool == "quote_shipping":
        assert baseline.args == {
            "order_id": "HR000000",
            "to": {"city": "text", "postcode": "00000"},
        }
    else:
        assert baseline.args["method"]["kind"] == "card"


def test_side_effect_tools_validate_valid_cases_without_running(tmp_path: Path):
    source = TABLE.replace(
        '"description": "Book a room.",', '"description": "Book a room.", "side_effects": True,'
    )
    pg = open_playground([write(tmp_path, source)], wire=False)
    report = probe_contract(pg, "book_room")
    assert report.ok
    assert pg.gate.body_runs["book_room"] == 0
    assert all(not c.ran for c in report.cases if c.expected == VALID)


def test_unknown_tool(inventory):
    with pytest.raises(UsageError, match="no tool named 'nope'"):
        probe_contract(inventory, "nope")


def test_cases_are_plain_data(inventory):
    contract = inventory.registry.get("stock_lookup")
    assert baseline_args(contract) == {"sku": "KB-101", "region": "seoul", "limit": 3}
    data = [c.to_json() for c in probe_cases(contract)]
    assert {"name", "args", "expected", "verdict", "kind", "body_ran", "body_runs", "ok"} <= set(
        data[0]
    )


def test_an_integral_float_for_an_mcp_servers_integer_is_said_to_go_as_sent():
    from playground.batch.probe import probe_cases
    from playground.core.contracts import Contract

    schema = {"type": "object", "properties": {"limit": {"type": "integer"}}}
    server = Contract(name="top", description="", parameters=schema, fn=None, origin="mcp")
    (case,) = [c for c in probe_cases(server) if c.name == "float-integral:limit"]
    assert type(case.args["limit"]) is float and case.expected == "valid"
    assert case.note.endswith(
        "is sent as is (JSON Schema counts it an integer; the server reads it)"
    )


def test_a_valid_baseline_whose_body_fails_is_a_problem(tmp_path):
    """'10 cases … 0 problem(s)' while the baseline, valid by the schema, came back
    ``bad_result`` (a body returning "2 copies" for ``-> int``): the report looked clean."""
    module = tmp_path / "lib.py"
    module.write_text(
        textwrap.dedent(
            '''
            def count_copies(isbn: str) -> int:
                """Count copies.

                Args:
                    isbn: the ISBN, e.g. 978-0131103627
                """
                return "2 copies"


            __tools__ = [count_copies]
            '''
        ),
        encoding="utf-8",
    )
    report = probe_contract(open_playground([module], wire=False), "count_copies")
    baseline = report.cases[0]
    assert (baseline.name, baseline.verdict, baseline.kind) == ("baseline", "valid", "bad_result")
    assert baseline.problem == "the valid baseline failed (bad_result)"
    assert report.problems == [baseline] and not report.ok
