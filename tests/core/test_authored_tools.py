"""Tools as authors write them (issue 11 items 1-5 and 12), through the in-process source and
the worker-process source alike: typed arguments, results the documented way, tool-declared
invalid_args, signature/schema agreement at load, one normalisation, odd argument structures."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from playground.sources.loading import load_registry
from playground.workbench import open_playground

TOOLS = '''
"""Tools written the way public bug reports show."""
import dataclasses
import datetime as dt
import enum
import uuid
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, field_serializer, field_validator
from pydantic.dataclasses import dataclass as pydantic_dataclass


class Address(BaseModel):
    city: str
    zip: str

    @field_validator("zip")
    @classmethod
    def five_digits(cls, value: str) -> str:
        if not (value.isdigit() and len(value) == 5):
            raise ValueError("zip must be 5 digits")
        return value


class Customer(BaseModel):
    name: str
    address: Address


@dataclasses.dataclass
class Window:
    start: int
    end: int


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Point(BaseModel):
    x: int
    y: int


class BadRange(ValueError):
    kind = "invalid_args"
    arg = "range"


class BadInput(Exception):
    kind = "invalid_args"


def register(customer: Customer) -> dict:
    """Register a customer."""
    return {"type": type(customer).__name__, "city": customer.address.city,
            "address": type(customer.address).__name__}


def days_until(due: dt.date) -> dict:
    """Days until a due date."""
    return {"type": type(due).__name__, "days": (due - dt.date(2026, 1, 1)).days}


def kinds(
    when: dt.datetime, at: dt.time, ident: uuid.UUID, price: Decimal, colour: Colour,
    mode: Literal["fast", "slow"],
) -> dict:
    """Report the type each argument arrived as."""
    return {k: type(v).__name__ for k, v in locals().items()}


def point() -> Point:
    """A point."""
    return Point(x=1, y=2)


def assorted() -> dict:
    """Values pydantic knows how to make JSON."""
    return {"when": dt.date(2026, 3, 1), "id": uuid.UUID(int=1), "tags": {"b", "a"},
            "pair": (1, 2), "price": Decimal("2.5"), "colour": Colour.RED,
            "win": Window(1, 2), "p": Point(x=3, y=4)}


def opaque() -> dict:
    """Something JSON cannot carry."""
    return {"rows": [{"handle": object()}]}


def read_lines(path: str, range: str) -> dict:
    """Read lines of a file."""
    if "-" not in range:
        raise BadRange("range must look like 10-20")
    return {"path": path}


def picky(q: str) -> dict:
    """Refuses without naming an argument."""
    raise BadInput("q is not a known product family")


def crash(q: str) -> dict:
    """Raises a plain error."""
    raise ValueError("range must look like 10-20")


def search(q: str, limit: int = 10, filters: dict | None = None) -> dict:
    """Search and report what arrived."""
    return {"q": q, "limit": limit, "filters": filters, "limit_type": type(limit).__name__}


def nested(rows: list[dict[str, int]]) -> dict:
    """Report the nested types."""
    return {"types": [type(v).__name__ for row in rows for v in row.values()]}


def mutator(items: list[int]) -> dict:
    """Mutates its argument."""
    items.append(99)
    return {"n": len(items)}


class Receipt(BaseModel):
    id: uuid.UUID
    day: dt.date
    at: dt.datetime
    price: Decimal
    colour: Colour
    tags: set[str]
    pair: tuple[int, int]
    win: Window


def receipt() -> Receipt:
    """A result with a field of every kind, a naive time among them."""
    return Receipt(id=uuid.UUID(int=1), day=dt.date(2026, 3, 1), at=dt.datetime(2026, 3, 1, 9, 30),
                   price=Decimal("2.5"), colour=Colour.RED, tags={"b", "a"}, pair=(1, 2),
                   win=Window(1, 2))


def count_rooms() -> int:
    """How many rooms there are (returned as a word, against its annotation)."""
    return "three"


def points(n: int) -> list[Point]:
    """n points; for 0, a malformed one."""
    return [Point(x=i, y=i) for i in range(n)] if n else [{"x": "one"}]


class Written(BaseModel):
    """Fields pydantic writes otherwise than it reads."""
    model_config = ConfigDict(extra="forbid")
    order_id: str = Field(serialization_alias="orderId")
    password: str = Field(exclude=True)
    at: dt.datetime
    limit: int = None  # sloppy, and common: pydantic does not validate defaults
    w: int = 2

    @field_serializer("at")
    def _stamp(self, value: dt.datetime) -> int:
        return int(value.timestamp())

    @computed_field
    @property
    def area(self) -> int:
        return self.w * 3


@pydantic_dataclass
class Ref:
    ref_id: str = Field(alias="refId")


def written() -> Written:
    """A model whose JSON differs from its input."""
    return Written(order_id="O1", password="secret",
                   at=dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc))


def ref() -> Ref:
    """A pydantic dataclass with an alias."""
    return Ref(refId="R1")


def small(n: int) -> Annotated[int, Field(ge=0, le=10)]:
    """A number that must stay between 0 and 10."""
    return n


def pair() -> tuple[int, str]:
    """A pair, with one item too many."""
    return (1, "a", "extra")


__tools__ = [register, days_until, kinds, point, assorted, opaque, read_lines, picky, crash,
             search, nested, mutator, receipt, count_rooms, points, written, ref, small, pair]
__contracts__ = {"mutator": {"side_effects": False}}  # changes only its own copy: a read
'''


@pytest.fixture(scope="module", params=["in-process", "worker"])
def pg(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("authored")
    (folder / "authored.py").write_text(TOOLS, encoding="utf-8")
    playground = open_playground([folder], wire=False, in_process=request.param == "in-process")
    assert playground.registry.problems == []
    yield playground
    playground.close()


def test_a_pydantic_model_argument_arrives_as_the_model(pg):
    customer = {"name": "김", "address": {"city": "서울", "zip": "04524"}}
    record = pg.gate.call("register", {"customer": customer})
    assert record.kind == "ok"
    assert record.value == {"type": "Customer", "city": "서울", "address": "Address"}


def test_a_date_argument_arrives_as_a_date(pg):
    record = pg.gate.call("days_until", {"due": "2026-01-11"})
    assert record.value == {"type": "date", "days": 10}


def test_every_annotated_type_arrives_converted(pg):
    args = {
        "when": "2026-01-01T10:00:00+09:00",
        "at": "10:30:00+09:00",  # RFC 3339 full-time: seconds and an offset
        "ident": "12345678-1234-5678-1234-567812345678",
        "price": 2.5,
        "colour": "red",
        "mode": "fast",
    }
    record = pg.gate.call("kinds", args)
    assert record.kind == "ok", record.message
    assert record.value == {
        "when": "datetime",
        "at": "time",
        "ident": "UUID",
        "price": "Decimal",
        "colour": "Colour",
        "mode": "str",
    }


def test_a_value_that_validates_but_does_not_convert_is_invalid_args_naming_the_field(pg):
    customer = {"name": "김", "address": {"city": "서울", "zip": "045"}}
    record = pg.gate.call("register", {"customer": customer})
    assert (record.kind, record.error, record.verdict) == (
        "invalid_args",
        "args:type:customer.address.zip",
        "type:customer.address.zip",
    )
    assert "zip must be 5 digits" in record.message


def test_a_pydantic_result_becomes_json(pg):
    record = pg.gate.call("point", {})
    assert (record.kind, record.value) == ("ok", {"x": 1, "y": 2})


def test_results_convert_as_pydantic_makes_them(pg):
    record = pg.gate.call("assorted", {})
    assert record.kind == "ok", record.message
    assert record.value == {
        "when": "2026-03-01",
        "id": "00000000-0000-0000-0000-000000000001",
        "tags": ["a", "b"],
        "pair": [1, 2],
        "price": "2.5",  # pydantic's to_jsonable_python keeps a Decimal's digits as a string
        "colour": "red",
        "win": {"start": 1, "end": 2},
        "p": {"x": 3, "y": 4},
    }


def test_a_decimal_result_is_the_same_at_the_top_level_and_inside_a_model():
    """A Decimal became the number 1.5 at the top level but "1.50" inside a pydantic model:
    one rule for both, pydantic's (issue 11 item 2)."""
    from decimal import Decimal

    from pydantic import BaseModel

    from playground.core.canonical import to_json_value

    class Price(BaseModel):
        amount: Decimal

    assert to_json_value(Decimal("1.50")) == "1.50"
    assert to_json_value(Price(amount=Decimal("1.50"))) == {"amount": "1.50"}
    assert to_json_value({"rows": [Decimal("12000")]}) == {"rows": ["12000"]}


def test_a_result_is_checked_against_the_return_annotation(pg):
    """``-> int`` returning a word is the shape fault it is, with or without parameters (the
    SDK derives ``response_json_schema`` only for functions that take some)."""
    record = pg.gate.call("count_rooms", {})
    assert (record.kind, record.error, record.body_ran) == ("bad_result", "result:shape", True)
    assert "at $: 'three' is not of type 'integer'" in record.message
    record = pg.gate.call("points", {"n": 0})
    assert (record.kind, record.error) == ("bad_result", "result:shape")
    assert "at $[0]" in record.message
    record = pg.gate.call("points", {"n": 2})
    assert (record.kind, record.value) == ("ok", [{"x": 0, "y": 0}, {"x": 1, "y": 1}])


def test_what_pydantic_makes_of_an_annotated_model_passes_its_own_schema(pg):
    """No false fault: a Decimal as a string, a set as a list, a tuple, a dataclass, an enum, a
    UUID and a naive datetime (no RFC 3339 offset) all pass the annotation's schema."""
    record = pg.gate.call("receipt", {})
    assert (record.kind, record.error) == ("ok", ""), record.message
    assert sorted(record.value.pop("tags")) == ["a", "b"]  # pydantic keeps the set's own order
    assert record.value == {
        "id": "00000000-0000-0000-0000-000000000001",
        "day": "2026-03-01",
        "at": "2026-03-01T09:30:00",
        "price": "2.5",
        "colour": "red",
        "pair": [1, 2],
        "win": {"start": 1, "end": 2},
    }


def test_the_annotation_is_read_as_pydantic_writes_the_result(pg):
    """The schema is pydantic's serialization mode: a serialization alias, an excluded field,
    a field serializer, a computed field under extra="forbid", an unvalidated None default,
    a pydantic dataclass's alias — none of them is a false shape fault."""
    record = pg.gate.call("written", {})
    assert (record.kind, record.error) == ("ok", ""), record.message
    assert record.value == {"orderId": "O1", "at": 1767225600, "limit": None, "w": 2, "area": 6}
    record = pg.gate.call("ref", {})
    assert (record.kind, record.value) == ("ok", {"refId": "R1"}), record.message


def test_constraints_on_an_annotated_return_are_kept(pg):
    assert pg.gate.call("small", {"n": 7}).kind == "ok"
    record = pg.gate.call("small", {"n": 99})
    assert (record.kind, record.error) == ("bad_result", "result:range")
    assert "99 is greater than the maximum of 10" in record.message


def test_an_extra_item_in_a_tuple_is_its_shape_not_too_many_rows(pg):
    record = pg.gate.call("pair", {})
    assert (record.kind, record.error) == ("bad_result", "result:shape")
    assert "Expected at most 2 items but found 1 extra: 'extra'" in record.message


def test_the_annotation_is_the_returns_unless_it_says_no_shape(pg):
    contracts = pg.registry.contracts
    assert contracts["count_rooms"].returns == {"type": "integer"}
    assert contracts["point"].returns["required"] == ["x", "y"]
    assert contracts["points"].returns["type"] == "array"
    assert "format" not in contracts["receipt"].returns["properties"]["at"]  # naive is fine
    assert contracts["receipt"].returns["properties"]["day"]["format"] == "date"
    for vague in ("register", "assorted", "search"):  # -> dict: no shape, nothing derived
        assert contracts[vague].returns is None


def test_only_what_cannot_be_represented_is_not_serializable_with_its_path(pg):
    record = pg.gate.call("opaque", {})
    assert (record.kind, record.error) == ("bad_result", "result:not_serializable")
    assert "$.rows[0].handle" in record.message and "object" in record.message


def test_a_tool_can_say_which_argument_was_wrong(pg):
    record = pg.gate.call("read_lines", {"path": "a.txt", "range": "ten"})
    assert (record.kind, record.error, record.verdict) == (
        "invalid_args",
        "args:tool:range",
        "tool:range",
    )
    assert "range must look like 10-20" in record.message
    assert "not caused by the arguments" not in record.message


def test_a_tool_refusal_without_an_argument_has_verdict_tool(pg):
    record = pg.gate.call("picky", {"q": "x"})
    assert (record.kind, record.verdict) == ("invalid_args", "tool")
    assert "q is not a known product family" in record.message


def test_a_raised_message_names_the_exception_and_where_without_blaming_nothing(pg):
    record = pg.gate.call("crash", {"q": "x"})
    assert (record.kind, record.error) == ("raised", "raised:ValueError")
    assert "ValueError: range must look like 10-20" in record.message
    assert "authored.py:" in record.message
    assert "not caused by the arguments" not in record.message


def test_omitting_a_default_and_passing_it_are_one_cache_key(pg):
    first = pg.gate.call("search", {"q": "caf\u0065\u0301"})  # e + combining acute
    second = pg.gate.call("search", {"q": "café", "limit": 10.0})
    assert first.cache_key == second.cache_key == 'search:{"filters":null,"limit":10,"q":"café"}'
    assert second.cache == "hit"
    # the body got the spelling that was sent (NFD), byte for byte; only the key is NFC
    assert first.value == {"q": "cafe\u0301", "limit": 10, "filters": None, "limit_type": "int"}
    assert first.value["q"].encode() == b"cafe\xcc\x81"


def test_integral_numbers_become_ints_in_nested_arrays_and_objects(pg):
    record = pg.gate.call("nested", {"rows": [{"a": 1.0, "b": 2}]})
    assert record.kind == "ok", record.message
    assert record.value == {"types": ["int", "int"]}
    assert record.canonical_args == '{"rows":[{"a":1,"b":2}]}'


def test_a_body_mutating_its_arguments_does_not_change_the_record(pg):
    args = {"items": [1, 2]}
    record = pg.gate.call("mutator", args)
    assert record.value == {"n": 3}
    assert args == {"items": [1, 2]} and record.args == {"items": [1, 2]}
    assert record.canonical_args == '{"items":[1,2]}'
    again = pg.gate.call("mutator", {"items": [1, 2]})
    assert (again.cache, again.value) == ("hit", {"n": 3})


def _cycle() -> dict:
    loop: dict = {}
    loop["self"] = loop
    return {"q": "x", "filters": loop}


def _deep() -> dict:
    value: dict = {}
    for _ in range(150):
        value = {"a": value}
    return {"q": "x", "filters": value}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ({"q": "x", "filters": {1: "a", "b": 2}}, "key of type int"),
        (_cycle(), "contains itself"),
        (_deep(), "deeper than 100"),
        ({"q": "x", "limit": 10**5000}, "longer than 4300 digits"),
    ],
    ids=["mixed-keys", "cycle", "deep", "huge-int"],
)
def test_odd_argument_structures_are_shape_errors(pg, args, words):
    record = pg.gate.call("search", args)
    assert (record.kind, record.verdict, record.body_ran) == ("invalid_args", "shape", False)
    assert words in record.message


SIGNATURES = {
    "positional_only": ("def f(a: int, /, b: int) -> dict:\n    return {}", "positional-only"),
    "var_args": ("def f(*items: int) -> dict:\n    return {}", "*items"),
    "var_kwargs": ("def f(**opts: int) -> dict:\n    return {}", "**opts"),
    "any_required": (
        "from typing import Any\ndef f(x: Any) -> dict:\n    return {}",
        "required by Python but optional in the schema",
    ),
    "field_default": (
        "from typing import Annotated\nfrom pydantic import Field\n"
        "def f(n: int = Field(3)) -> dict:\n    return {}",
        "Field(...)",
    ),
    "bad_default": ("def f(n: int = 'three') -> dict:\n    return {}", "fails its own schema"),
}


@pytest.mark.parametrize("case", sorted(SIGNATURES))
def test_signatures_the_schema_cannot_honour_do_not_load(tmp_path: Path, case):
    source, words = SIGNATURES[case]
    path = tmp_path / f"{case}.py"
    path.write_text(textwrap.dedent(source) + "\n\n__tools__ = [f]\n", encoding="utf-8")
    registry = load_registry([path])
    assert registry.names() == []
    assert len(registry.problems) == 1
    message = registry.problems[0].message
    assert words in message and "'f'" in message
