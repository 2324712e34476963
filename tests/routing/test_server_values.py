"""Argument values in the vocabulary of real MCP servers (issue 23, build item 5): identifiers
kept whole, "from X to Y" to source/target parameters, paths, comma-separated lists, and no
offset on a naive date-time. The declarations are what the servers' ``tools/list`` returned
(``tests/routing/servers/``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from playground.routing import values
from playground.routing.fill import identifiers
from playground.routing.rule_switches import switched
from tests.routing.helpers import args_of, move, row

SERVERS = Path(__file__).parent / "servers"


def tools(server: str) -> dict[str, dict[str, Any]]:
    """The declarations of a saved server, by name (what ``McpContract.declaration`` builds)."""
    listed = json.loads((SERVERS / f"{server}.tools.json").read_text(encoding="utf-8"))
    return {
        t["name"]: {
            "name": t["name"],
            "description": t.get("description") or "",
            "parameters": t["inputSchema"],
        }
        for t in listed
    }


TIME = tools("mcp-server-time")
FILES = tools("server-filesystem")


def test_a_zone_name_is_one_value() -> None:
    mv = move("What time is it now in Europe/Warsaw?", *TIME.values())
    assert [(c.name, c.args) for c in mv.calls] == [
        ("get_current_time", {"timezone": "Europe/Warsaw"})
    ]
    assert row(mv, "get_current_time")["arg_evidence"]["timezone"]["rule"] == "identifier"


def test_from_x_to_y_fills_source_and_target() -> None:
    mv = move("Convert 14:30 from Asia/Seoul to America/New_York", *TIME.values())
    assert [(c.name, c.args) for c in mv.calls] == [
        (
            "convert_time",
            {
                "source_timezone": "Asia/Seoul",
                "target_timezone": "America/New_York",
                "time": "14:30",
            },
        )
    ]
    evidence = row(mv, "convert_time")["arg_evidence"]
    assert (
        evidence["source_timezone"]["rule"]
        == evidence["target_timezone"]["rule"]
        == ("source_target")
    )


@pytest.mark.parametrize(
    "question",
    [
        "Convert 09:15 Asia/Seoul → America/New_York",
        "09:15을 Asia/Seoul에서 America/New_York로 바꿔 줘",
    ],
)
def test_an_arrow_and_the_korean_particles_also_pair(question: str) -> None:
    # the values of the tool's row (whether "바꿔 줘" is relevant enough to call is selection)
    args = row(move(question, TIME["convert_time"]), "convert_time")["args"]
    assert args == {
        "source_timezone": "Asia/Seoul",
        "target_timezone": "America/New_York",
        "time": "09:15",
    }


def test_switched_off_the_pair_rule_leaves_the_ends_to_other_rules() -> None:
    question = "Convert 14:30 from Asia/Seoul to America/New_York"
    with switched(without=["source_target"]):
        mv = move(question, TIME["convert_time"])
    rules = {ev["rule"] for ev in row(mv, "convert_time")["arg_evidence"].values()}
    assert "source_target" not in rules


def test_a_name_unlike_the_zone_examples_is_no_value_so_the_router_asks() -> None:
    mv = move("What time is it in Tokyo?", TIME["get_current_time"])
    assert mv.calls == []
    assert mv.explanation["asks_for"]["tool"] == "get_current_time"
    assert mv.explanation["asks_for"]["missing"] == ["timezone"]


@pytest.mark.parametrize(
    "written",
    ["{tmp}", "{tmp}/sub dir".replace(" ", "_"), "docs/reports", r"C:\Users\me\docs", "./src"],
)
def test_the_listing_tool_gets_the_directory_written(written: str, tmp_path: Path) -> None:
    path = written.format(tmp=tmp_path)
    mv = move(f"List the files in {path}", *FILES.values())
    assert row(mv, "list_directory")["args"] == {"path": path}
    assert args_of(f"List the files in {path}", FILES["list_directory"]) == {"path": path}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("in Europe/Warsaw?", ["Europe/Warsaw"]),
        ("America/Argentina/Buenos_Aires에서", ["America/Argentina/Buenos_Aires"]),
        ("com.example.app v1.2.3 and nginx:1.25", ["com.example.app", "v1.2.3", "nginx:1.25"]),
        ("urn:isbn:0451450523 at 192.168.0.1.", ["urn:isbn:0451450523", "192.168.0.1"]),
        ("5 km/h, and/or yes/no, 3/4 of 12/25", []),
    ],
)
def test_identifiers_with_separators(text: str, found: list[str]) -> None:
    assert [text[a:b] for a, b in values.identifiers(text)] == found


def test_an_identifier_shape_needs_every_example_to_be_one() -> None:
    zones = ("America/New_York", "Europe/London")
    assert identifiers.unlike_examples(zones, "Tokyo")
    assert not identifiers.unlike_examples(zones, "Asia/Seoul")
    assert not identifiers.unlike_examples(("Seoul", "Europe/London"), "Tokyo")


def test_a_comma_separated_parameter_takes_the_listed_values_in_one_call() -> None:
    decl = {
        "name": "github_star",
        "description": "Generates a URL for tracking the star history of GitHub repositories.",
        "parameters": {
            "type": "object",
            "required": ["repos"],
            "properties": {
                "repos": {
                    "type": "string",
                    "description": "A comma-separated list of GitHub repositories to track, each "
                    "in the 'owner/repo' format, such as 'octocat/Hello-World,octo-org/octo-repo'.",
                }
            },
        },
    }
    mv = move("Show the star history of ShishirPatil/gorilla and gorilla-llm/gorilla-cli", decl)
    assert [c.args for c in mv.calls] == [{"repos": "ShishirPatil/gorilla,gorilla-llm/gorilla-cli"}]


def _meeting(doc: str) -> dict[str, Any]:
    return {
        "name": "book_meeting",
        "description": "Book a meeting room.",
        "parameters": {
            "type": "object",
            "required": ["start"],
            "properties": {"start": {"type": "string", "format": "date-time", "description": doc}},
        },
    }


NAIVE = "When it starts. ISO 8601 local date and time, no offset, e.g. 2026-12-03T10:00."
PLAIN = (
    "When it starts. ISO 8601 date and time; an offset (+09:00 or Z) is optional, without one it "
    "is local time, e.g. 2026-12-03T10:00."
)


@pytest.mark.parametrize(
    ("doc", "question", "want"),
    [
        (NAIVE, "Book a meeting room on December 3rd 2026 at 3pm", "2026-12-03T15:00:00"),
        (NAIVE, "Book a meeting room on December 3rd 2026 at 3pm UTC", "2026-12-03T15:00:00"),
        (PLAIN, "Book a meeting room on December 3rd 2026 at 3pm", "2026-12-03T15:00:00"),
        (PLAIN, "Book a meeting room on December 3rd 2026 at 3pm UTC", "2026-12-03T15:00:00Z"),
        (PLAIN, "Book a meeting room starting 2026-12-03T10:00:00", "2026-12-03T10:00:00"),
    ],
)
def test_a_naive_datetime_parameter_gets_no_offset_the_question_did_not_give(
    doc: str, question: str, want: str
) -> None:
    assert args_of(question, _meeting(doc)) == {"start": want}
