"""The quick "valid" of core/quick_valid.py (docs/performance.md, "Quick valid"): it says valid
only where jsonschema says valid, declines what the two libraries could read apart, sees an edit
in place, and spares a valid call the import of jsonschema."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from playground.core.quick_valid import _accepted, surely_valid
from playground.core.validation import validation_schema
from playground.core.validators import validator_for
from playground.sources.loading import load_registry

REPO = Path(__file__).resolve().parents[2]

# (schema, instances): every instance is judged alike by both libraries
EDGES = [
    ({"enum": [1]}, [1.0, True, 1, "1"]),
    ({"enum": [True]}, [1, True, 1.0]),
    ({"const": 1.0}, [1, True]),
    ({"const": {"a": [1]}}, [{"a": [1.0]}, {"a": [True]}]),
    ({"uniqueItems": True}, [[1, 1.0], [1, True], [0, False], [{"a": 1}, {"a": 1.0}]]),
    ({"type": "integer"}, [1.0, 1e300, True, 2**70, 1.5, -0.0]),
    ({"type": "number", "minimum": 0}, [-0.0, False, "x", -1e-300, 2**64]),
    ({"maxLength": 2}, ["😀😀", "ab\u0301", "한글", "한글말"]),
    ({"minLength": 1}, ["", " ", "가"]),
    (
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "additionalProperties": False,
            "max_rows": 3,  # the playground's own key: no keyword to either library
        },
        [{"a": "x"}, {"b": 1}, {}, []],
    ),
    ({"prefixItems": [{"type": "string"}], "items": False}, [["a"], ["a", 1], []]),
    (
        {"$defs": {"x": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/x"}}},
        [{"a": "s"}, {"a": 1}],
    ),
    ({"dependentRequired": {"a": ["b"]}}, [{"a": 1}, {"a": 1, "b": 2}]),
    ({"unevaluatedProperties": False, "properties": {"a": {}}}, [{"a": 1}, {"a": 1, "b": 1}]),
    ({"propertyNames": {"maxLength": 3}}, [{"abcd": 1}, {"abc": 1}]),
    ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, [None, 3, "3", 3.5]),
    ({"pattern": "^HR[0-9]{8}$"}, ["HR20260604", "HR2026060", "HR20260604\n", 5]),
    ({"pattern": r"^\d{3}-\d{4}$"}, ["123-4567", "١٢٣-٤٥٦٧", "123-45678"]),
    ({"pattern": r"^\w+$"}, ["abc_1", "é", "한글"]),
    ({"pattern": r"^\s$"}, ["\u00a0", "\ufeff", "\u2028", "x"]),
    ({"pattern": "^a.b$"}, ["a\rb", "a\u2028b", "a\nb", "axb", "a😀b"]),
    ({"pattern": "[가-힣]"}, ["한", "a"]),
    ({"pattern": "^(?:ab)+$"}, ["abab", "aba"]),
]


@pytest.mark.parametrize(("schema", "instances"), EDGES)
def test_the_quick_answer_is_jsonschemas_on_edge_cases(schema, instances):
    assert _accepted(schema)
    for instance in instances:
        assert surely_valid(schema, instance) == validator_for(schema).is_valid(instance), instance


DECLINED = [
    {"type": "string", "format": "date"},
    {"type": "number", "multipleOf": 0.1},
    {"type": "string", "pattern": r"\bx"},  # \b is Unicode in jsonschema-rs, ASCII in ECMA
    {"type": "string", "pattern": r"^\p{L}+$"},
    {"type": "string", "pattern": "(?=a)a"},
    {"type": "string", "pattern": r"\-"},  # compiled without the u flag by the gate
    {"patternProperties": {r"\bx": {}}},
    {"properties": {"a": {"$ref": "https://example.com/s.json"}}},
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"},
    {"type": "integer", "maximum": 2**53},  # a float cannot hold every integer near it
    {"properties": {"d": {"type": "string", "format": "date-time"}}},  # at any depth
]


@pytest.mark.parametrize("schema", DECLINED)
def test_schemas_the_libraries_could_read_apart_are_left_to_jsonschema(schema):
    assert not _accepted(schema)
    assert surely_valid(schema, "x") is False
    assert surely_valid(schema, {"a": 1}) is False


def test_a_schema_jsonschema_rs_refuses_is_left_to_jsonschema():
    assert surely_valid({"type": 12}, "x") is False
    assert surely_valid({"type": "object"}, {1: "non-JSON key"}) is False


def test_an_edit_in_place_at_any_depth_is_seen_at_once():
    schema = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}}}
    assert surely_valid(schema, {"n": 5})
    schema["properties"]["n"]["maximum"] = 3
    assert not surely_valid(schema, {"n": 5})
    schema["properties"]["n"]["format"] = "date"  # now declined
    assert not surely_valid(schema, {"n": 1})


def _mutations(schema: dict) -> list:
    values = [None, 0, 1, 1.0, 0.5, -1, 2**70, True, "", "x", "한글", [], [1], {}, {"a": 1}]
    values += [{"x": 1.0, "y": 2}, {"kind": "cat", "name": "n"}, {"a": 1, "extra": True}]
    props = schema.get("properties") or {}
    out: list = [{}, [], "x", None]
    full = {name: "x" for name in props}
    out.append(full)
    for name in props:
        out += [{**full, name: v} for v in values]
        out += [{name: v} for v in values]
    return out


def test_the_bundled_and_odd_tools_schemas_get_jsonschemas_answer():
    registry = load_registry([REPO / "tools", REPO / "fixtures" / "odd_schemas.py"])
    checked = 0
    for name in registry.names():
        contract = registry.get(name)
        assert contract is not None
        for schema in (validation_schema(contract), contract.returns):
            if not schema:
                continue
            accepted = _accepted(schema)
            for instance in _mutations(schema):
                expected = validator_for(schema).is_valid(instance)
                quick = surely_valid(schema, instance)
                assert quick == (expected and accepted), (name, instance)
                checked += 1
    assert checked > 500


VALID_CALL = r"""
import json, sys
from playground.core.gate import Gate
from playground.sources.loading import load_registry
gate = Gate(load_registry(["tools"]))
record = gate.call("get_order_status", {"order_id": "HR20260604"})
print(json.dumps({"ok": record.ok, "jsonschema": "jsonschema" in sys.modules}))
"""


def test_a_valid_call_of_a_bundled_tool_never_imports_jsonschema(isolated_cache: Path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "PLAYGROUND_CACHE_DIR": str(isolated_cache)}
    runs = []
    for _ in range(2):  # the first fills the load caches (their checks may use jsonschema)
        out = subprocess.run(
            [sys.executable, "-c", VALID_CALL], cwd=REPO, env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr[-500:]
        runs.append(json.loads(out.stdout))
    assert runs[-1] == {"ok": True, "jsonschema": False}
