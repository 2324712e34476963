"""``playground ask`` and ``call ... --repair``: the episode on stdout, notes and errors on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from playground.errors import RouterError, UsageError
from playground.routing import factory
from playground.routing.base import FunctionCall, Move, RouterCapabilities

REPO = Path(__file__).resolve().parents[2]
INVENTORY = str(REPO / "tools" / "inventory.py")
TOOLS = str(REPO / "tools")


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def run(*args):
    return CliRunner().invoke(app, list(args))


def test_call_repair_json_shows_the_fallback_repair():
    result = run(
        "call",
        "stock_lookup",
        "sku=KB-101",
        "region=jeju",
        "limit:=2",
        "--repair",
        "--format",
        "json",
        "--tools",
        INVENTORY,
    )
    assert result.exit_code == 0, result.output
    ep = json.loads(result.stdout)
    assert ep["attempts"] == 2 and ep["ok"] is True and ep["gave_up"] is False
    validates = [s for s in ep["steps"] if s["node"] == "validate"]
    assert (validates[0]["attempt"], validates[0]["verdict"]) == (1, "allowed:region")
    assert ep["fixes"] == ["region: 'jeju' → 'seoul' (FALLBACK_REGION)"]
    check2 = [s for s in ep["steps"] if s["node"] == "check"][1]
    assert (check2["attempt"], check2["kind"]) == (2, "ok")
    assert [c["args"]["region"] for c in ep["calls"]] == ["jeju", "seoul"]


def test_call_repair_on_slow_lookup_is_transient():
    result = run(
        "call",
        "slow_lookup",
        "item_id=A-100",
        "--repair",
        "--format",
        "json",
        "--tools",
        str(REPO / "tools" / "flaky.py"),
    )
    ep = json.loads(result.stdout)
    assert ep["calls"][0]["kind"] == "transient" and ep["gave_up"] is True and ep["fixes"] == []


def test_ask_offline_json_prints_the_episode():
    result = run(
        "ask", "MN-303 대전 매장 재고 2곳 알려줘", "--format", "json", "--tools", INVENTORY
    )
    assert result.exit_code == 0, result.output
    ep = json.loads(result.stdout)
    assert ep["question"] == "MN-303 대전 매장 재고 2곳 알려줘" and ep["router"] == "offline"
    assert (
        ep["moves"]
        and ep["steps"][0]["node"] == "pick"
        and ep["steps"][-1]["node"] in ("reply", "giveup")
    )
    assert ep["attempts"] == len(ep["calls"])
    assert ep["moves"][0]["explanation"]["tools"]  # the offline explanation travels with the move


def test_ask_table_shows_moves_and_reply():
    result = run("ask", "KB-101 부산 재고 3곳", "--tools", INVENTORY)
    assert result.exit_code == 0, result.output
    assert "moves" in result.stdout and "reply" in result.stdout and "steps" in result.stdout


def _without_keys() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GEMINI_API_KEY", "GOOGLE_API_KEY")}
    env["PLAYGROUND_HISTORY"] = "off"
    return env


@pytest.mark.parametrize(
    "command",
    [
        ["ask", "KB-101 부산 재고 3곳", "--router", "gemini", "--format", "json"],
        ["eval", "--router", "gemini", "--format", "json"],
    ],
    ids=["ask", "eval"],
)
def test_gemini_without_a_key_is_exit_2_with_one_line_naming_the_variable(command, tmp_path):
    """Issue 20 item 8: no silent fallback. A real ``playground`` process with neither key
    variable in its environment: one error line naming GEMINI_API_KEY, exit 2, nothing on
    stdout (no offline episode or report a CI job could take for a Gemini run)."""
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        json.dumps({"question": "KB-101 부산 재고", "expect_tool": "stock_lookup"}) + "\n",
        encoding="utf-8",
    )
    extra = ["--tools", INVENTORY] + ([str(cases)] if command[0] == "eval" else [])
    done = subprocess.run(
        [sys.executable, "-m", "playground", *command, *extra],
        capture_output=True,
        text=True,
        env=_without_keys(),
        timeout=60,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: no Gemini API key: set GEMINI_API_KEY (or GOOGLE_API_KEY)")
    assert "offline" not in lines[0] and "Traceback" not in done.stderr


def test_gemini_dry_run_shows_the_exact_request_without_a_key():
    result = run(
        "ask",
        "KB-101 부산 재고",
        "--router",
        "gemini",
        "--mode",
        "ANY",
        "--dry-run",
        "--format",
        "json",
        "--tools",
        INVENTORY,
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    body = data["dry_run"]["body"]
    assert (
        data["router"] == "gemini" and body["contents"][0]["parts"][0]["text"] == "KB-101 부산 재고"
    )
    assert body["toolConfig"]["functionCallingConfig"]["mode"] == "ANY"
    assert data["dry_run"]["headers"]["x-goog-api-key"] == "[redacted]"


def test_offline_dry_run_shows_the_first_move_and_runs_nothing():
    result = run(
        "ask", "KB-101 부산 재고 3곳", "--dry-run", "--format", "json", "--tools", INVENTORY
    )
    data = json.loads(result.stdout)
    assert data["dry_run"] is None and "first_move" in data


def test_unknown_router_and_mode_are_usage_errors():
    bad = run("ask", "q", "--router", "claude", "--tools", INVENTORY)
    assert bad.exit_code == 2 and "unknown router 'claude'" in bad.stderr
    bad = run(
        "ask", "q", "--router", "gemini", "--mode", "SOMETIMES", "--dry-run", "--tools", INVENTORY
    )
    assert bad.exit_code == 2 and "SOMETIMES" in bad.stderr and "Traceback" not in bad.output


class Failing:
    name = "scripted"
    capabilities = RouterCapabilities(repairs="model")

    def __init__(self):
        self.n = 0

    def next_move(self, conversation, declarations):
        self.n += 1
        if self.n == 1:
            return Move(
                calls=[
                    FunctionCall(
                        "stock_lookup", {"sku": "KB-101", "region": "busan", "limit": 1}, "c1"
                    )
                ]
            )
        raise RouterError("Gemini API error 429 RESOURCE_EXHAUSTED: quota")


def test_router_error_mid_episode_prints_the_episode_not_a_traceback(monkeypatch):
    monkeypatch.setattr(
        factory, "choose_router", lambda *a, **k: factory.RouterChoice(Failing(), "gemini", [])
    )
    result = run("ask", "KB-101 부산", "--format", "json", "--tools", INVENTORY)
    # the router could not answer: exit 2 (docs/cli.md), the episode printed all the same
    assert result.exit_code == 2 and "Traceback" not in result.output
    ep = json.loads(result.stdout)
    assert ep["end"] == "router_error" and ep["attempts"] == 1
    assert (
        ep["reply"] == "The router could not answer: Gemini API error 429 RESOURCE_EXHAUSTED: quota"
    )
    assert "429" in result.stderr


def test_make_router_factory():
    assert factory.make_router("offline").name == "offline"
    with pytest.raises(UsageError, match="GEMINI_API_KEY"):
        factory.choose_router("gemini", environ={})
    choice = factory.choose_router("gemini", environ={}, fallback=True)  # the TUI's choice
    assert (
        choice.router.name == "offline" and choice.fell_back and "GEMINI_API_KEY" in choice.notes[0]
    )
    keyed = factory.choose_router(
        "gemini", model="gemini-2.5-pro", mode="any", environ={"GEMINI_API_KEY": "k"}
    )
    assert (
        keyed.router.name == "gemini"
        and keyed.router.model == "gemini-2.5-pro"
        and keyed.router.mode == "ANY"
    )
    assert keyed.notes == [] and keyed.router.api_key == "k"


def test_the_calls_table_names_each_call_s_effects(tmp_path):
    """A tester's offline ``ask`` booked an appointment (a write) and its output never said
    so (only ``cache skip`` hinted at it): the calls table names each call's effects and how
    they are known."""
    module = tmp_path / "desk.py"
    module.write_text(
        '''
def book_table(name: str, guests: int) -> dict:
    """Book a restaurant table.

    Args:
        name: who books
        guests: how many guests
    """
    return {"booked": name, "guests": guests}


def list_tables(guests: int) -> list:
    """List the free tables for a number of guests.

    Args:
        guests: how many guests
    """
    return [1, 2]


__tools__ = [book_table, list_tables]
''',
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        app,
        ["ask", "Book a table for Kim, 4 guests", "--tools", str(module), "--no-history"],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    calls = result.stdout.split("calls", 1)[1]
    header, row = [line for line in calls.splitlines() if line.strip()][0:3:2]
    assert header.split() == ["tool", "args", "verdict", "kind", "effects", "cache", "error"]
    assert "book_table" in row and "write (inferred)" in row, calls
