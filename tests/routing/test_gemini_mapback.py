"""What the Gemini copy of a schema changes is mapped back (issue 11 item 6).

``speed: Literal[0, 2, 4]`` is sent to Gemini as the string enum ``["0", "2", "4"]``; the model's
correct answer ``"2"`` must reach the gate as ``2``. The Gemini API is never called: the SDK
talks to an httpx2.MockTransport."""

from __future__ import annotations

import json
import textwrap

import httpx2

from playground.core.gate import Gate
from playground.routing.base import Turn
from playground.routing.gemini import GeminiRouter
from playground.routing.gemini_schema import convert_parameters, lossy_changes, map_back
from playground.sources.loading import load_registry

FAN = '''
from typing import Literal

SEEN = []

def set_fan_speed(speed: Literal[0, 2, 4], room: str) -> dict:
    """Set the fan speed of a room.

    Args:
        speed: 0 (off), 2 or 4.
        room: the room name, e.g. kitchen
    """
    SEEN.append(speed)
    return {"room": room, "speed": speed, "speed_type": type(speed).__name__}

__tools__ = [set_fan_speed]
'''


def test_map_back_unit_cases():
    speed = {"type": "object", "properties": {"speed": {"type": "integer", "enum": [0, 2, 4]}}}
    assert convert_parameters(speed)[0]["properties"]["speed"]["enum"] == ["0", "2", "4"]
    assert map_back({"speed": "2"}, speed) == {"speed": 2}
    assert map_back({"speed": "7"}, speed) == {"speed": "7"}  # not a choice: left for the gate
    nullable = {
        "type": "object",
        "properties": {"level": {"type": ["number", "null"], "enum": [1.5, 3, None]}},
    }
    assert map_back({"level": "1.5"}, nullable) == {"level": 1.5}
    assert map_back({"level": None}, nullable) == {"level": None}
    defs = {
        "type": "object",
        "$defs": {"Gear": {"enum": [1, 2, 3]}},
        "properties": {
            "gears": {"type": "array", "items": {"$ref": "#/$defs/Gear"}},
            "opt": {"anyOf": [{"$ref": "#/$defs/Gear"}, {"type": "null"}]},
            "flag": {"const": True},
        },
    }
    assert map_back({"gears": ["1", "3"], "opt": "2", "flag": "true"}, defs) == {
        "gears": [1, 3],
        "opt": 2,
        "flag": True,
    }
    original = {"speed": "2"}
    map_back(original, speed)
    assert original == {"speed": "2"}  # never mutated


def test_lint_lossy_changes():
    clean = {
        "type": "object",
        "properties": {
            "speed": {"enum": [0, 2, 4]},
            "x": {"type": ["integer", "null"], "default": 3, "examples": [1]},
        },
    }
    assert lossy_changes(clean) == []
    lossy = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "multipleOf": 5},
            "v": {"enum": [1, "1"]},
            "r": {"type": "number", "exclusiveMinimum": 0},
        },
    }
    found = lossy_changes(lossy)
    assert any("properties.n: multipleOf dropped" in f for f in found)
    assert any("properties.r: exclusiveMinimum dropped" in f for f in found)
    assert any("properties.v: enum" in f and "same text" in f for f in found)


def _answer(args):
    payload = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"functionCall": {"id": "fc-1", "name": "set_fan_speed", "args": args}}
                    ],
                },
                "finishReason": "STOP",
                "index": 0,
            }
        ]
    }
    sent = []

    def handler(request):
        sent.append(json.loads(request.content))
        return httpx2.Response(200, json=payload)

    return httpx2.Client(transport=httpx2.MockTransport(handler)), sent


def test_a_model_answering_in_the_sent_form_is_accepted(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "fan.py"
    path.write_text(textwrap.dedent(FAN), encoding="utf-8")
    registry = load_registry([path])
    assert registry.problems == []
    gate = Gate(registry, wire=False)
    client, sent = _answer({"speed": "2", "room": "kitchen"})
    router = GeminiRouter(api_key="k", http_client=client)
    declarations = [c.declaration() for c in registry.contracts.values()]
    move = router.next_move([Turn(role="user", text="kitchen fan to 2")], declarations)

    (tool,) = sent[0]["tools"]
    (decl,) = tool["functionDeclarations"]
    params = decl.get("parameters_json_schema") or decl.get("parametersJsonSchema")
    assert params["properties"]["speed"]["enum"] == ["0", "2", "4"]  # what Gemini reads
    (call,) = move.calls
    assert call.args == {"speed": 2, "room": "kitchen"}
    record = gate.call(call.name, call.args)
    assert (record.kind, record.verdict) == ("ok", "valid")
    assert record.value["speed"] == 2 and record.value["speed_type"] == "int"
