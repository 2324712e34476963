"""The one local ``$ref`` walk (``core.optional_schema.follow_refs``) that the form, the router's
fill rules, the examples and Gemini's mapping back share: it was written three times, two of
them slightly different (a broken ref gave ``{}``; a cycle ran 20 rounds; ``~1`` was not
unescaped)."""

from __future__ import annotations

from playground.core.examples import build_example
from playground.core.optional_schema import follow_refs, followed

ROOT = {
    "$defs": {
        "Genre": {"enum": ["poetry", "essay"], "description": "kind"},
        "A": {"$ref": "#/$defs/B", "title": "a"},
        "B": {"$ref": "#/$defs/A", "title": "b"},
        "a/b": {"type": "integer"},
    }
}


def test_a_ref_is_followed_and_the_keywords_beside_it_win() -> None:
    schema = {"$ref": "#/$defs/Genre", "description": "the genre"}
    assert follow_refs(schema, ROOT) == (
        {"enum": ["poetry", "essay"], "description": "the genre"},
        ("#/$defs/Genre",),
    )


def test_a_cycle_stops_at_its_first_repeat_and_refs_carry_over() -> None:
    schema, refs = follow_refs({"$ref": "#/$defs/A"}, ROOT)
    assert refs == ("#/$defs/A", "#/$defs/B")
    assert schema == {"$ref": "#/$defs/A", "title": "a"}
    # a ref already followed on the way down is not followed again
    assert follow_refs({"$ref": "#/$defs/A"}, ROOT, ("#/$defs/A",))[1] == ("#/$defs/A",)


def test_a_broken_or_remote_ref_stays_and_an_escaped_pointer_resolves() -> None:
    assert followed({"$ref": "#/$defs/Nope", "type": "string"}, ROOT) == {
        "$ref": "#/$defs/Nope",
        "type": "string",
    }
    assert followed({"$ref": "https://x.test/s.json"}, ROOT) == {"$ref": "https://x.test/s.json"}
    assert followed({"$ref": "#/$defs/a~1b"}, ROOT) == {"type": "integer"}
    assert followed(True, ROOT) == {}


def test_an_example_is_built_through_refs() -> None:
    assert build_example({"$ref": "#/$defs/Genre"}, ROOT) == "poetry"
    assert build_example({"$ref": "#/$defs/a~1b"}, ROOT) == 1
