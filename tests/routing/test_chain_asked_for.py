"""Chaining (issue 12, item 6) goes on to a second tool only when the question asks for it: a
word of the question that matches the second tool and not the first, or the declarations'
hand-over. A tool that matches the same words better (its name holds "bike") is not asked for:
a lookup question must not end in a reservation.

Runs the real CLI (``playground ask``) over a bike-share module written to ``tmp_path``.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from playground.cli.main import app

RIDES = '''
from typing import Literal

STATIONS = {"ST-014": {"name": "City Hall", "bikes": 7}, "ST-022": {"name": "Riverside", "bikes": 0}}


def find_stations(near: str, min_bikes: int = 1) -> list[dict]:
    """Find bike stations near a place that have at least some bikes available.

    Args:
        near: A landmark or street, for example "City Hall".
        min_bikes: Only stations with at least this many bikes.
    """
    return [
        {"station_id": sid, "name": s["name"], "bikes": s["bikes"]}
        for sid, s in STATIONS.items()
        if s["bikes"] >= min_bikes and near.lower() in s["name"].lower()
    ]


def reserve_bike(station_id: str, bike_type: Literal["classic", "electric"] = "classic") -> dict:
    """Hold a bike at a station for a few minutes so nobody else takes it.

    Args:
        station_id: Station code such as ST-014.
        bike_type: classic or electric.
    """
    return {"hold_id": "H-" + station_id[3:], "bike_type": bike_type}


__tools__ = [find_stations, reserve_bike]
__contracts__ = {"reserve_bike": {"side_effects": True}, "find_stations": {"side_effects": False}}
'''


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture()
def rides(tmp_path) -> str:
    path = tmp_path / "rides.py"
    path.write_text(RIDES, encoding="utf-8")
    return str(path)


def ask(question: str, tools: str) -> dict:
    result = CliRunner().invoke(app, ["ask", question, "--tools", tools, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def calls(episode: dict) -> list[tuple[str, dict]]:
    return [(c["name"], c["args"]) for m in episode["moves"] for c in m["calls"]]


def test_a_lookup_question_stops_after_the_lookup(rides):
    ep = ask("Any bikes near City Hall?", rides)
    assert calls(ep) == [("find_stations", {"near": "City Hall"})]
    assert ep["moves"][-1]["explanation"]["reason"] == (
        "reply with a summary of find_stations's result (ok)"
    )


def test_a_question_asking_for_the_second_tool_chains_with_the_found_id(rides):
    ep = ask("Find a bike station near City Hall and hold an electric bike there", rides)
    assert calls(ep) == [
        ("find_stations", {"near": "City Hall"}),
        ("reserve_bike", {"station_id": "ST-014", "bike_type": "electric"}),
    ]
    exp = ep["moves"][1]["explanation"]
    assert exp["chained_from"]["field"] == "station_id"
    assert "['hold'] match it and not find_stations" in exp["reason"]
