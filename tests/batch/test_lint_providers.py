"""Provider rules per provider (issue 20 item 6): OpenAI's array items and strict mode,
Anthropic's strict tool use, Gemini's root rule, each finding named by provider with a fix that
fits the tool's source; JSON-written docstring examples; the fix for an undeclarable return."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path
from typing import TypedDict

import pytest

from playground.batch.lint import lint_exit_code, lint_registry
from playground.core.contracts import Contract
from playground.core.declarable import declarable_fix
from playground.core.examples import valid_example
from playground.core.registry import Registry
from playground.core.wire import gemini_function_declaration
from playground.core.wire_rules import (
    anthropic_strict_problems,
    gemini_root_problems,
    openai_array_problems,
    openai_strict_problems,
)
from playground.sources.loading import load_registry


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "decl-cache"))


def write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def one(parameters: dict, name: str = "tag_orders", description: str = "Tag orders.") -> Registry:
    registry = Registry()
    registry.add(
        Contract(name, description, parameters, lambda **_: {}, returns={"type": "object"})
    )
    return registry


def by(findings, rule):
    return [f for f in findings if f.rule == rule]


# ------------------------------------------------------------------------- OpenAI: array items


def test_an_array_without_items_is_an_openai_error_at_every_depth():
    parameters = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "description": "Tags to add. Omit for none."},
            "grid": {"type": "array", "items": {"type": "array"}},
            "maybe": {"type": ["array", "null"]},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
            "names": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["tags", "grid", "maybe", "pair", "names"],
    }
    assert [(p.path, p.param) for p in openai_array_problems(parameters)] == [
        ("properties.tags", "tags"),
        ("properties.grid.items", "grid"),
        ("properties.maybe", "maybe"),
    ]
    findings = lint_registry(one(parameters))
    found = by(findings, "openai-array-items")
    assert [(f.severity, f.location) for f in found] == [
        ("error", "tag_orders.grid"),
        ("error", "tag_orders.maybe"),
        ("error", "tag_orders.tags"),
    ]
    assert "properties.grid.items is an array without items" in found[0].message
    assert "array schema missing items" in found[0].message  # the API's own words, cited
    assert found[2].suggestion == (
        "annotate tags with its item type, e.g. list[str] (google-genai then declares items)."
    )
    assert lint_exit_code(findings) == 1
    # Anthropic and Gemini take an array without items: no finding names them for it
    assert not [f for f in findings if f.severity == "error" and "openai" not in f.rule]


def test_a_table_list_argument_gets_the_table_fix(tmp_path: Path):
    source = """
    def tag_order(order_id, tags):
        return {"order_id": order_id}

    TOOLS = {
        "tag_order": {
            "fn": tag_order,
            "description": "Tag one order. Not for searching orders.",
            "args": {
                "order_id": {"type": "str", "required": True},
                "tags": {"type": "list", "required": True, "description": "Tags to add"},
            },
            "returns": {"keys": {"order_id": "str"}},
            "side_effects": True,
        },
    }
    """
    registry = load_registry([write(tmp_path, "tagging", source)])
    [finding] = by(lint_registry(registry), "openai-array-items")
    assert finding.location == "tag_order.tags"
    assert finding.suggestion == (
        'the TOOLS table\'s "list" type cannot declare an item type: write this tool as a plain '
        "function with list[str] (or the item type it takes)."
    )


# ------------------------------------------------------------------------- OpenAI strict mode


def test_openai_strict_lists_every_blocker_with_its_path():
    parameters = {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 2},
            "site": {"type": "string", "format": "uri"},
            "when": {"type": "string", "format": "date-time"},
            "filters": {"type": "object", "properties": {"state": {"type": "string"}}},
            "meta": {"type": "object", "additionalProperties": True},
            "kind": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "limit": {"type": "integer", "minimum": 1, "maximum": 5, "default": 5},
            "region": {"$ref": "#/$defs/Region", "description": "where"},
        },
        "required": ["query", "site", "when", "filters", "meta", "kind", "region"],
        "additionalProperties": False,
        "$defs": {"Region": {"type": "string", "enum": ["seoul", "busan"]}},
    }
    details = [(p.path, p.detail) for p in openai_strict_problems(parameters)]
    assert set(details) == {
        ("properties.limit", "'limit' is not required"),
        ("properties.query", "keyword 'minLength'"),
        ("properties.site", "format 'uri'"),
        ("properties.filters", "additionalProperties is absent, not false"),
        ("properties.filters.properties.state", "'state' is not required"),
        ("properties.meta", "additionalProperties is true, not false"),
        ("properties.kind", "keyword 'oneOf'"),
        ("properties.region", "$ref beside description"),
    }
    # supported: date-time, minimum/maximum, default, enum, $defs
    registry = one(parameters)
    [finding] = by(lint_registry(registry), "openai-strict")
    assert finding.severity == "info"
    assert finding.message.startswith("OpenAI would refuse this schema with strict: true")
    assert "Supported schemas" in finding.message
    assert lint_exit_code(lint_registry(registry)) == 0  # info never fails


def test_a_strict_ready_schema_has_no_strict_finding():
    parameters = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "unit": {"type": ["string", "null"], "enum": ["c", "f", None]},
        },
        "required": ["city", "unit"],
        "additionalProperties": False,
    }
    assert openai_strict_problems(parameters) == []
    assert anthropic_strict_problems(parameters) == []
    rules = {f.rule for f in lint_registry(one(parameters, "get_weather", "Weather. Not rain."))}
    assert not rules & {"openai-strict", "anthropic-strict", "openai-array-items"}


def test_the_strict_fix_for_a_function_says_what_to_change_in_the_code(tmp_path: Path):
    source = '''
    def search_orders(keyword: str, meta: dict, limit: int = 5) -> dict:
        """Search orders by a keyword. Not for shipping.

        Args:
            keyword: words to look for
            meta: extra filters
            limit: how many; omit for 5
        """
        return {}

    __tools__ = [search_orders]
    '''
    registry = load_registry([write(tmp_path, "orders", source)])
    [finding] = by(lint_registry(registry), "openai-strict")
    assert "properties.limit: 'limit' is not required" in finding.message
    assert "properties.meta: additionalProperties is true, not false" in finding.message
    assert finding.suggestion == (
        "the parameters object google-genai builds has no additionalProperties: whoever sends "
        "strict: true adds false at its root (openai-python's to_strict_json_schema does); take "
        "a pydantic model with model_config = ConfigDict(extra='forbid') for each object "
        "parameter (a bare dict allows any key); a strict declaration requires every parameter: "
        "give each optional one the type X | None and no default (the model then sends null for "
        "'not given')."
    )


# -------------------------------------------------------------------- Anthropic strict tool use


def test_anthropic_strict_blockers():
    parameters = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^(?!X)[A-Z]{3}$"},
            "site": {"type": "string", "format": "uri"},
            "size": {"type": "integer", "minimum": 1},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "shape": {"enum": [{"w": 1}, "square"]},
            "tree": {"$ref": "#/$defs/Node"},
        },
        "required": ["code"],
        "additionalProperties": False,
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                "additionalProperties": False,
            }
        },
    }
    assert {(p.path, p.kind, p.detail) for p in anthropic_strict_problems(parameters)} == {
        (
            "properties.code",
            "pattern",
            "pattern '^(?!X)[A-Z]{3}$' (backreference, lookaround or \\b)",
        ),
        ("properties.size", "keyword", "keyword 'minimum'"),
        ("properties.tags", "keyword", "minItems 2"),
        ("properties.shape", "enum", "an enum of objects or arrays"),
        ("$defs.Node.properties.kids.items", "recursive", "recursive $ref '#/$defs/Node'"),
    }  # 'uri' is a format Anthropic supports; optional properties are fine


# ------------------------------------------------------------------------------- Gemini root


def test_parameters_that_are_no_object_are_refused_by_all_three_providers():
    registry = one({"type": "array", "items": {"type": "string"}}, "list_orders", "Orders. Not X.")
    assert [p.detail for p in gemini_root_problems({"type": "array"})] == [
        "parameters of type 'array', not an object"
    ]
    errors = {f.rule for f in lint_registry(registry) if f.severity == "error"}
    assert {"gemini-schema", "openai-schema", "anthropic-schema"} <= errors
    assert gemini_root_problems({}) == [] and gemini_root_problems(None) == []


# ------------------------------------------------------------------- JSON-written examples


def test_docstring_examples_written_as_json_are_read_as_json(tmp_path: Path):
    source = '''
    def tag_customers(names: list[str], meta: dict, scores: list[int], pairs: dict[str, int]) -> dict:
        """Tag customers by name. Not for orders.

        Args:
            names: customer names, e.g. ["Acme"]
            meta: extra fields, e.g. {"a": 1}
            scores: scores to set, e.g. [1, 2, 3]
            pairs: name to score, e.g. {"Acme": 1, "Beta": 2}
        """
        return {}

    __tools__ = [tag_customers]
    __contracts__ = {"tag_customers": {"side_effects": True}}
    '''
    registry = load_registry([write(tmp_path, "customers", source)])
    assert by(lint_registry(registry), "example-invalid") == []


def test_a_json_example_the_schema_refuses_is_reported_as_that_json_value(tmp_path: Path):
    source = '''
    def tag_customers(names: list[str]) -> dict:
        """Tag customers by name. Not for orders.

        Args:
            names: customer names, e.g. [1, 2]
        """
        return {}

    __tools__ = [tag_customers]
    __contracts__ = {"tag_customers": {"side_effects": True}}
    '''
    registry = load_registry([write(tmp_path, "customers", source)])
    [finding] = by(lint_registry(registry), "example-invalid")
    assert finding.message.startswith("the example [1,2] for names is refused by its own schema")
    assert "1 is not of type 'string'" in finding.message


# ------------------------------------------------------------- an undeclarable return type


@dataclasses.dataclass
class Slot:
    room: str
    start: str


def find_free_slot(room: str) -> Slot:
    """The next free slot of a room."""
    return Slot(room, "10:00")


def book_slot(slot: Slot) -> str:
    """Book a slot."""
    return "ok"


def _sdk_message(fn) -> str:
    with pytest.raises(ValueError) as caught:
        gemini_function_declaration(fn)
    return str(caught.value)


def test_a_dataclass_return_gets_advice_about_the_return_not_the_parameters():
    message = _sdk_message(find_free_slot)
    assert "return_value" in message  # google-genai names the return this way
    assert declarable_fix(find_free_slot, message) == (
        "Fix: google-genai cannot declare the return annotation Slot (a dataclass): make Slot a "
        "pydantic BaseModel (google-genai declares those as the result's schema), or annotate "
        "the return -> dict and declare 'returns' (JSON Schema) in __contracts__."
    )


def test_a_dataclass_parameter_gets_advice_naming_the_parameter():
    fix = declarable_fix(book_slot, _sdk_message(book_slot))
    assert fix.startswith("Fix: annotate parameter 'slot' with a type google-genai can declare:")
    assert "pydantic BaseModel" in fix


def test_loading_a_dataclass_return_names_the_return_fix(tmp_path: Path):
    source = '''
    from dataclasses import dataclass

    @dataclass
    class Slot:
        room: str

    def find_free_slot(room: str) -> Slot:
        """The next free slot of a room."""
        return Slot(room)

    __tools__ = [find_free_slot]
    '''
    registry = load_registry([write(tmp_path, "slots", source)])
    [problem] = registry.problems
    assert "return annotation Slot (a dataclass)" in str(problem)
    assert "annotate each parameter" not in str(problem)


def test_the_gate_offers_a_json_written_example_whole():
    """The same reading serves the fix hints: the example the author wrote, commas and all."""
    doc = 'Tag customers.\n\nArgs:\n    names: e.g. ["Acme", "Beta"]; at least one\n'
    names = {"type": "array", "items": {"type": "string"}}
    assert valid_example("names", names, doc) == ["Acme", "Beta"]
    doc = 'Tag customers.\n\nArgs:\n    meta: extra fields, e.g. {"a": 1, "b": [2, 3]}\n'
    assert valid_example("meta", {"type": "object"}, doc) == {"a": 1, "b": [2, 3]}


class Recipe(TypedDict):
    slug: str


def search_recipes(query: str) -> list[Recipe]:
    """Recipes whose title has the query."""
    return []


def recipe_index(query: str) -> dict[str, Recipe] | None:
    """Recipes by slug."""
    return None


def test_a_list_of_typeddicts_names_the_typeddict_and_a_plain_list():
    assert declarable_fix(search_recipes, _sdk_message(search_recipes)) == (
        "Fix: google-genai cannot declare the return annotation list[Recipe] (Recipe is a "
        "TypedDict): make Recipe a pydantic BaseModel (google-genai declares those as the "
        "result's schema), or annotate the return -> list and declare 'returns' (JSON Schema) "
        "in __contracts__."
    )


def test_an_optional_mapping_of_typeddicts_is_written_as_its_author_wrote_it():
    fix = declarable_fix(recipe_index, _sdk_message(recipe_index))
    assert "return annotation dict[str, Recipe] | None (Recipe is a TypedDict)" in fix
    assert "make Recipe a pydantic BaseModel" in fix
    assert "-> dict and declare 'returns'" in fix
