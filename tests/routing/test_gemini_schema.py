"""The Gemini copy of a contract's parameters: each conversion and its note."""

from __future__ import annotations

import copy

from playground.routing.gemini_schema import (
    GEMINI_KEYWORDS,
    convert_declaration,
    convert_parameters,
)


def obj(**props):
    return {"type": "object", "properties": props}


def test_plain_schema_is_unchanged_and_has_no_notes():
    schema = {
        "type": "object",
        "properties": {
            "product_id": {
                "type": "string",
                "pattern": "^P[0-9]{3}$",
                "description": "'P'로 시작한다. 예: P008",
            },
            "limit": {"type": "integer", "minimum": 1, "maximum": 5},
        },
        "required": ["product_id"],
    }
    out, notes = convert_parameters(schema)
    assert out == schema
    assert out is not schema
    assert notes == []


def test_input_is_not_mutated():
    schema = {
        "type": "object",
        "$defs": {"Region": {"type": "string", "enum": ["서울", "부산"]}},
        "properties": {
            "region": {"$ref": "#/$defs/Region"},
            "n": {"type": ["integer", "null"], "default": 3},
        },
    }
    before = copy.deepcopy(schema)
    convert_parameters(schema)
    assert schema == before


def test_ref_is_inlined_and_defs_removed():
    schema = {
        "type": "object",
        "$defs": {"Region": {"type": "string", "enum": ["서울", "부산"]}},
        "properties": {"region": {"$ref": "#/$defs/Region", "description": "배송 지역"}},
        "required": ["region"],
    }
    out, notes = convert_parameters(schema)
    assert out == {
        "type": "object",
        "properties": {
            "region": {"type": "string", "enum": ["서울", "부산"], "description": "배송 지역"}
        },
        "required": ["region"],
    }
    assert "properties.region: $ref #/$defs/Region inlined" in notes
    assert "(root): $defs removed (every $ref inlined)" in notes


def test_nested_and_draft7_definitions_refs():
    schema = {
        "type": "object",
        "definitions": {
            "Item": {"type": "object", "properties": {"sku": {"$ref": "#/definitions/Sku"}}},
            "Sku": {"type": "string"},
        },
        "properties": {"items": {"type": "array", "items": {"$ref": "#/definitions/Item"}}},
    }
    out, notes = convert_parameters(schema)
    assert out["properties"]["items"] == {
        "type": "array",
        "items": {"type": "object", "properties": {"sku": {"type": "string"}}},
    }
    assert "properties.items.items: $ref #/definitions/Item inlined" in notes
    assert "properties.items.items.properties.sku: $ref #/definitions/Sku inlined" in notes


def test_recursive_ref_is_cut_to_its_type():
    schema = {
        "type": "object",
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
        "properties": {"head": {"$ref": "#/$defs/Node"}},
    }
    out, notes = convert_parameters(schema)
    assert out["properties"]["head"] == {
        "type": "object",
        "properties": {"next": {"type": "object"}},
    }
    assert (
        'properties.head.properties.next: recursive $ref #/$defs/Node cut to {"type": "object"}'
        in notes
    )


def test_missing_and_external_refs_are_dropped_with_a_note():
    out, notes = convert_parameters(
        obj(
            a={"$ref": "#/$defs/Nope"},
            b={"$ref": "https://example.com/s.json"},
            c={"type": "string"},
        )
    )
    assert out["properties"]["a"] == {}
    assert out["properties"]["b"] == {}
    assert "properties.a: $ref #/$defs/Nope not found; dropped" in notes
    assert (
        "properties.b: $ref 'https://example.com/s.json' is not a local reference; dropped" in notes
    )


def test_type_list_with_null_becomes_any_of_with_type_specific_keywords_inside():
    out, notes = convert_parameters(
        obj(
            limit={
                "type": ["integer", "null"],
                "minimum": 1,
                "maximum": 50,
                "description": "최대 행 수",
            }
        )
    )
    assert out["properties"]["limit"] == {
        "description": "최대 행 수",
        "anyOf": [{"type": "integer", "maximum": 50, "minimum": 1}, {"type": "null"}],
    }
    assert notes == [
        'properties.limit: type ["integer", "null"] -> anyOf '
        '[{"type": "integer", "maximum": 50, "minimum": 1}, {"type": "null"}]'
    ]


def test_type_list_of_one_becomes_a_single_type():
    out, notes = convert_parameters(obj(q={"type": ["string"]}))
    assert out["properties"]["q"] == {"type": "string"}
    assert notes == ['properties.q: type ["string"] -> "string"']


def test_non_string_enum_becomes_strings():
    out, notes = convert_parameters(
        obj(level={"type": "integer", "enum": [1, 2, 3]}, flag={"enum": [True, "x"]})
    )
    assert out["properties"]["level"] == {"type": "string", "enum": ["1", "2", "3"]}
    assert out["properties"]["flag"] == {"type": "string", "enum": ["true", "x"]}
    assert (
        'properties.level: enum [1, 2, 3] -> strings ["1", "2", "3"] (type "integer" -> "string")'
        in notes
    )


def test_string_enum_is_kept_and_gets_a_type_when_missing():
    out, notes = convert_parameters(
        obj(status={"enum": ["pending", "shipped"]}, region={"type": "string", "enum": ["서울"]})
    )
    assert out["properties"]["status"] == {"enum": ["pending", "shipped"], "type": "string"}
    assert out["properties"]["region"] == {"type": "string", "enum": ["서울"]}
    assert notes == ['properties.status: type "string" added for a string enum']


def test_const_becomes_a_one_value_enum():
    out, notes = convert_parameters(obj(kind={"const": "stock"}))
    assert out["properties"]["kind"] == {"enum": ["stock"], "type": "string"}
    assert 'properties.kind: const "stock" -> enum ["stock"]' in notes


def test_default_dropped_for_gemini_api_and_kept_for_vertex():
    schema = obj(
        limit={
            "type": "integer",
            "minimum": 1,
            "maximum": 50,
            "default": 20,
            "description": "행 수",
        }
    )
    gemini, notes = convert_parameters(schema, vertex=False)
    assert "default" not in gemini["properties"]["limit"]
    assert gemini["properties"]["limit"]["description"] == "행 수 (default: 20)"
    assert notes == ["properties.limit: default 20 dropped (Gemini API); noted in the description"]

    vertex, vnotes = convert_parameters(schema, vertex=True)
    assert vertex["properties"]["limit"] == schema["properties"]["limit"]
    assert vnotes == []


def test_unsupported_keywords_are_dropped_with_a_note():
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "q": {"type": "string", "examples": ["신발"], "$comment": "x"},
            "n": {"type": "number", "multipleOf": 0.5, "exclusiveMinimum": 0},
        },
        "additionalProperties": False,
    }
    out, notes = convert_parameters(schema)
    assert out == {
        "type": "object",
        "properties": {"q": {"type": "string"}, "n": {"type": "number"}},
        "additionalProperties": False,
    }
    assert "(root): $schema dropped (not supported by the Gemini API)" in notes
    assert "properties.q: examples dropped (not supported by the Gemini API)" in notes
    assert "properties.q: $comment dropped (not supported by the Gemini API)" in notes
    assert "properties.n: multipleOf dropped (not supported by the Gemini API)" in notes
    assert "properties.n: exclusiveMinimum dropped (not supported by the Gemini API)" in notes


def test_integer_exclusive_bounds_become_inclusive():
    out, notes = convert_parameters(
        obj(n={"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": -2.5})
    )
    assert out["properties"]["n"] == {"type": "integer", "minimum": 1, "maximum": -3}
    assert "properties.n: exclusiveMinimum 0 -> minimum 1" in notes


def test_single_all_of_is_merged():
    out, notes = convert_parameters(
        {
            "type": "object",
            "$defs": {"R": {"type": "string"}},
            "properties": {"r": {"allOf": [{"$ref": "#/$defs/R"}], "description": "지역"}},
        }
    )
    assert out["properties"]["r"] == {"type": "string", "description": "지역"}
    assert "properties.r: allOf of one schema merged" in notes


def test_no_parameters_gives_none():
    assert convert_parameters({"type": "object", "properties": {}}) == (
        None,
        ["(root): no parameters; parameters left unset"],
    )
    assert convert_parameters(None) == (None, [])


def test_convert_declaration_keeps_name_and_korean_description():
    decl = {
        "name": "check_stock",
        "description": "재고를 확인한다",
        "parameters": obj(product_id={"type": "string"}),
    }
    out, notes = convert_declaration(decl)
    assert out == {
        "name": "check_stock",
        "description": "재고를 확인한다",
        "parameters": obj(product_id={"type": "string"}),
    }
    assert notes == []


def test_kept_keywords_match_the_sdk_json_schema_class():
    """GEMINI_KEYWORDS = google.genai.types.JSONSchema fields (by alias) minus $ref/$defs, plus
    propertyOrdering and prefixItems."""
    # imported here, not at the top: the SDK costs ~1 s of CPU at collection in every test process
    from google.genai import types

    sdk = {f.alias or name for name, f in types.JSONSchema.model_fields.items()}
    assert (sdk - {"$ref", "$defs"}) | {"propertyOrdering", "prefixItems"} == GEMINI_KEYWORDS
