"""Ask mode with the offline router, and the step-through (keys, forks, manual episodes)."""

from __future__ import annotations

import json

from playground.tui.app import PlaygroundApp
from playground.tui.router_choice import set_router_mode
from playground.tui.views.ask_view import AskView
from playground.tui.views.call_view import CallView
from playground.tui.widgets.record_view import RecordView
from tests.tui.helpers import SIZE, capture_notifications, settle


async def ask(app, pilot, question: str, typed: bool = False) -> AskView:
    """Ask ``question`` in the Ask view (``typed``: key by key, else put in the field)."""
    await settle(app, pilot)
    await pilot.press("f2")
    await pilot.pause()
    await pilot.click("#question")
    if typed:
        await pilot.press(*question)
    else:
        app.query_one("#question").value = question
    await pilot.press("enter")
    await settle(app, pilot)
    return await app.view("ask")


async def test_ask_offline_then_step_through_and_fork_the_episode(tools_dir, monkeypatch):
    """One question, typed into Ask, answered by the offline router; then its episode in Steps:
    the step keys, a fork whose arguments are not JSON, and a fork at the validate step. (One
    app for what were four tests, each an app start and the same answer: the checks are the
    same, in the order a user meets them.)"""
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PLAYGROUND_COMPATIBLE_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    app = PlaygroundApp(tools=[str(tools_dir)])
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        view = await ask(app, pilot, "HR20260601 택배 어디쯤인가요?", typed=True)
        assert view.episode is not None and view.episode.router == "offline"
        assert view.texts["choice"].startswith(
            'offline router calls track_shipping({"order_id": "HR20260601"})'
        )
        assert "threshold" in view.texts["choice"]
        assert "arg order_id = HR20260601" in view.texts["choice"]
        assert "CJ대한통운" in view.texts["reply"]
        rv = view.query_one(RecordView)
        assert rv.fields["tool"] == "track_shipping" and rv.fields["kind"] == "ok"
        assert "function_response" in rv.wire.texts["gemini"]
        request = json.loads(view.texts["request"])
        assert request["method"] == "POST" and "generateContent" in request["url"]
        assert "track_shipping" in view.texts["request"]
        # the episode is also in the step-through: n / p / e move the selection
        assert len((await app.view("steps")).episodes) == 1
        await pilot.press("f3")
        await pilot.pause()
        steps = await app.view("steps")
        assert steps.cursor == 0 and steps.selected == 0
        await pilot.press("n", "n")
        assert steps.cursor == 2 and steps.selected == 2
        assert "node: run" in steps.state_text and "body ran: yes" in steps.state_text
        await pilot.press("p")
        assert steps.cursor == 1 and "node: validate" in steps.state_text
        await pilot.press("e")
        assert steps.cursor == len(steps.episode.steps) - 1
        assert "node: reply" in steps.state_text
        # fork arguments that are not JSON: a message, no fork
        steps.select_step(1)
        steps.query_one("#fork-args").load_text('{"order_id": ')
        steps.action_fork()
        await settle(app, pilot)
        assert len(steps.episodes) == 1
        assert any("invalid JSON" in message for message in seen)
        # fork at the validate step (table row "2") with another order id; the original is kept
        steps.select_step(1)
        steps.query_one("#fork-args").load_text('{"order_id": "HR99999999"}')
        await pilot.click("#steps-table")
        await pilot.press("ctrl+f")
        await settle(app, pilot)
        assert len(steps.episodes) == 2
        original, fork = steps.episodes
        assert original.calls[0].args == {"order_id": "HR20260601"}
        assert fork.forked_from["args"] == {"order_id": "HR99999999"}
        assert fork.calls[0].args == {"order_id": "HR99999999"}
        assert steps.current == 1 and steps.episode is fork
        # the fork's labels use the table's step numbers (1-based)
        assert "fork of #1 at step 2" in steps.labels[1]
        assert "forked at step 2 " in str(steps.query_one("#episode-summary").render())


async def test_switching_to_gemini_without_a_key_stays_offline(tools_dir, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PLAYGROUND_COMPATIBLE_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    app = PlaygroundApp(tools=[str(tools_dir)])
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f9")
        await pilot.pause()
        assert app.router.name == "offline"
        assert any("GEMINI_API_KEY" in message for message in seen)
        set_router_mode(app, "ANY")  # the offline router has no modes: refused, nothing changes
        assert app.router.mode is None and app.router_modes == {}


async def test_run_with_repair_opens_the_step_through(tools_dir):
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await app.query_one(CallView).select_contract("stock_lookup")
        await pilot.pause()
        editor = app.query_one("#args-editor")
        editor.set_mode("json")
        await pilot.pause()
        editor.editor.load_text('{"sku": "KB-101", "region": "jeju", "limit": 3}')
        await pilot.click("#run-repair")
        await settle(app, pilot)
        assert app.mode_name == "steps"
        steps = await app.view("steps")
        episode = steps.episode
        assert episode.router == "manual"
        assert [s.node for s in episode.steps][:4] == ["pick", "validate", "check", "repair"]
        assert episode.calls[0].verdict == "allowed:region" and episode.calls[-1].kind == "ok"
        await pilot.press("e")
        assert "FALLBACK_REGION" in steps.state_text
