"""The TUI's router switch (F9) and palette read the router registry: a test-only backend
registered in one line is offered, chosen and used by Ask without touching other files."""

from __future__ import annotations

import pytest

from playground.routing import registry
from playground.tui.app import PlaygroundApp
from playground.tui.commands import palette_commands, typed_model_command
from playground.tui.router_choice import (
    set_compare_router,
    set_router,
    set_router_mode,
    set_router_model,
)
from tests.routing.echo_router import SPEC as ECHO
from tests.tui.helpers import SIZE, capture_notifications, settle


@pytest.fixture
def echo(monkeypatch):
    for name in (
        "GEMINI_API_KEY", "GOOGLE_API_KEY", "PLAYGROUND_GEMINI_MODEL", "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY", "PLAYGROUND_COMPATIBLE_BASE_URL",
    ):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    registry.register(ECHO)  # the one line a new backend needs
    yield ECHO
    registry.unregister(ECHO.name)


async def test_f9_skips_a_router_without_key_and_reaches_the_registered_one(tools_dir, echo):
    app = PlaygroundApp(tools=[str(tools_dir)])
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "Router: echo" in [name for name, _, _ in palette_commands(app)]
        # offline → gemini, openai, anthropic have no key, openai-compatible no URL → echo
        await pilot.press("f9")
        await pilot.pause()
        assert app.router.name == "echo"
        assert any("GEMINI_API_KEY" in message for message in seen)
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#question")
        app.query_one("#question").value = "track_shipping order_id=HR20260601"
        await pilot.press("enter")
        await settle(app, pilot)
        view = await app.view("ask")
        assert view.episode is not None and view.episode.router == "echo"
        assert [c.tool for c in view.episode.calls] == ["track_shipping"]
        assert view.texts["reply"].startswith("echo: {")
        status = str(view.query_one("#ask-router").render())
        assert (
            "router: echo · no explanations, one call a move, repairs: the model, no key" in status
        )
        # the request tab still shows what a model router (Gemini) would be sent
        assert "generateContent" in view.texts["request"]
        await pilot.press("f9")  # echo → offline (wraps; gemini still has no key)
        await pilot.pause()
        assert app.router.name == "offline"


async def test_palette_offers_modes_and_models_of_the_current_router(tools_dir, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    monkeypatch.setenv("PLAYGROUND_GEMINI_MODEL", "gemini-from-env")
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        names = [name for name, _, _ in palette_commands(app)]
        assert not any(n.startswith(("Mode:", "Model:")) for n in names)  # offline has neither
        assert typed_model_command(app, "model gemini-3.6-pro") is None
        set_router(app, "gemini")
        names = [name for name, _, _ in palette_commands(app)]
        assert [n for n in names if n.startswith("Mode:")] == [
            "Mode: AUTO", "Mode: ANY", "Mode: NONE", "Mode: VALIDATED",
        ]  # fmt: skip
        assert "Model: gemini-from-env" in names
        name, callback, _ = typed_model_command(app, "model gemini-3.6-pro")
        assert name == "Model: gemini-3.6-pro"
        callback()
        set_router_mode(app, "ANY")
        assert str(app.router) == "gemini (ANY, gemini-3.6-pro)"
        assert "gemini (ANY, gemini-3.6-pro)" in app.sub_title
        set_router_model(app, "")
        assert app.router.model is None


async def test_ask_compare_mode_shows_a_second_router_beside_the_first(tools_dir, echo):
    app = PlaygroundApp(tools=[str(tools_dir)])
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        names = [name for name, _, _ in palette_commands(app)]
        assert "Compare with: echo" in names and "Compare with: offline" not in names
        set_compare_router(app, "gemini")  # no key: refused, with the reason
        assert any("GEMINI_API_KEY" in message for message in seen)
        view = await app.view("ask")
        assert view.compare is None and not view.query_one("#ask-compare").display
        set_compare_router(app, "echo")
        await pilot.press("f2")
        await pilot.pause()
        assert view.query_one("#ask-compare").display
        assert "compared with: echo" in str(view.query_one("#ask-router").render())
        view.run_question("track_shipping order_id=HR20260601")
        await settle(app, pilot)
        assert view.episode.router == "offline" and view.compare_episode.router == "echo"
        shown = view.texts["compare"]
        assert 'call track_shipping {"order_id": "HR20260601"}' in shown
        assert "echo: {" in shown
        set_compare_router(app, None)
        assert view.compare is None and not view.query_one("#ask-compare").display
