"""The form → JSON conversion (no app): types from the schema, bad text sent as typed."""

from playground.tui.form_values import (
    BOOLEAN,
    ENUM,
    INTEGER,
    JSON,
    STRING,
    field_specs,
    form_to_args,
    parse_json_text,
)

PARAMS = {
    "type": "object",
    "properties": {
        "sku": {"type": "string", "description": "상품 SKU. 예: KB-101"},
        "region": {"type": "string", "enum": ["seoul", "busan"]},
        "limit": {"type": "integer"},
        "ratio": {"type": "number"},
        "verbose": {"type": "boolean", "default": False},
        "tags": {"type": "array", "items": {"type": "string"}},
        "order_id": {"type": "string"},
    },
    "required": ["sku", "limit"],
}
DESC = "Look up.\n\nArgs:\n    order_id: 주문번호. 예: HR20260601\n"


def specs():
    return field_specs(PARAMS, DESC)


def test_specs_kinds_required_and_docs():
    by = {s.name: s for s in specs()}
    assert [s.name for s in specs()] == list(PARAMS["properties"])
    assert by["region"].kind == ENUM and by["region"].choices == ("seoul", "busan")
    assert by["limit"].kind == INTEGER and by["limit"].required
    assert by["verbose"].kind == BOOLEAN and by["tags"].kind == JSON
    assert by["sku"].doc == "상품 SKU. 예: KB-101"
    assert by["order_id"].doc == "주문번호. 예: HR20260601"  # from the docstring Args line
    assert by["region"].type_label == "enum"


def test_typed_values_and_bad_text_sent_as_typed():
    values = {
        "sku": "KB-101",
        "region": "seoul",
        "limit": "3",
        "ratio": "0.5",
        "verbose": False,
        "tags": '["a", "나"]',
        "order_id": "",
    }
    assert form_to_args(specs(), values) == {
        "sku": "KB-101",
        "region": "seoul",
        "limit": 3,
        "ratio": 0.5,
        "tags": ["a", "나"],
    }
    values.update(limit="abc", tags="[oops", region=None)
    args = form_to_args(specs(), values)
    assert args["limit"] == "abc" and args["tags"] == "[oops" and "region" not in args


def test_integer_float_literal_kept_for_the_gate_and_booleans():
    args = form_to_args(specs(), {"limit": "2.0", "verbose": True})
    assert args == {"limit": 2.0, "verbose": True}
    assert "verbose" not in form_to_args(specs(), {"verbose": False})
    assert form_to_args(specs(), {"verbose": False}, touched={"verbose"}) == {"verbose": False}


def test_parse_json_text():
    assert parse_json_text("") == ({}, "")
    assert parse_json_text('{"a": "한글"}') == ({"a": "한글"}, "")
    value, problem = parse_json_text('{"a": ')
    assert value is None and problem.startswith("line 1 col")


def test_enum_other_value_and_null_are_sent():
    from playground.tui.form_values import Typed, field_text

    by = {s.name: s for s in specs()}
    values = {"sku": "KB-101", "limit": "2", "region": Typed("jeju")}
    assert form_to_args(specs(), values) == {"sku": "KB-101", "limit": 2, "region": "jeju"}
    # send as null: whatever the widget holds
    assert form_to_args(specs(), values, nulls={"limit", "tags"}) == {
        "sku": "KB-101",
        "limit": None,
        "region": "jeju",
        "tags": None,
    }
    # a value outside the choices shows as Typed; true is not the choice 1
    assert field_text(by["region"], "jeju") == Typed("jeju")
    assert field_text(by["region"], "seoul") == "seoul"
    int_enum = field_specs({"properties": {"n": {"type": "integer", "enum": [1, 2]}}})[0]
    assert field_text(int_enum, True) == Typed("true")
    assert form_to_args([int_enum], {"n": Typed("7")}) == {"n": 7}
    assert form_to_args([int_enum], {"n": Typed("x")}) == {"n": "x"}


def test_an_optional_enum_or_time_is_read_from_its_non_null_branch():
    """pydantic's ``colour: Colour | None = None`` and ``after: time | None = None`` are anyOf
    unions: the form offers the enum's choices and labels the format (it showed a JSON field)."""
    parameters = {
        "type": "object",
        "properties": {
            "colour": {"anyOf": [{"type": "string", "enum": ["red", "blue"]}, {"type": "null"}]},
            "after": {
                "anyOf": [{"type": "string", "format": "time"}, {"type": "null"}],
                "default": None,
            },
        },
    }
    colour, after = field_specs(parameters)
    assert (colour.kind, colour.choices) == (ENUM, ("red", "blue"))
    assert (after.kind, after.type_label, after.default) == (STRING, "string (time)", None)


#: pydantic's declaration of ``genre: Genre | None = None`` and ``shelf: Shelf`` (both Enums):
#: the choices sit behind a ``$ref`` into the parameters' ``$defs``.
ENUM_REFS = {
    "type": "object",
    "properties": {
        "genre": {"anyOf": [{"$ref": "#/$defs/Genre"}, {"type": "null"}], "default": None},
        "shelf": {"$ref": "#/$defs/Shelf", "description": "where it stands"},
        "loop": {"$ref": "#/$defs/Loop"},
    },
    "$defs": {
        "Genre": {"enum": ["fiction", "poetry"], "title": "Genre", "type": "string"},
        "Shelf": {"enum": [1, 2, 3], "type": "integer", "description": "the shelf's own"},
        "Loop": {"$ref": "#/$defs/Loop"},
    },
    "required": ["shelf"],
}


def test_an_enum_behind_a_ref_is_a_select_optional_or_not():
    """A tester's ``genre: Genre | None = None`` was a free-text field: the enum was behind
    the ``$ref``. The keywords beside a ``$ref`` win over its target's; a cycle stops."""
    genre, shelf, loop = field_specs(ENUM_REFS)
    assert (genre.kind, genre.choices, genre.default, genre.required) == (
        ENUM,
        ("fiction", "poetry"),
        None,
        False,
    )
    assert (shelf.kind, shelf.choices, shelf.doc) == (ENUM, (1, 2, 3), "where it stands")
    assert loop.kind == JSON and loop.schema == {"$ref": "#/$defs/Loop"}
