"""Issue 13 item 8: snapshot tests (pytest-textual-snapshot) of the Call, Ask, Steps and Evaluate
views' main states at 80×24 and 160×48, through the app's own class. Refresh with
``--snapshot-update`` after a deliberate layout change and review the SVGs under
``tests/tui/__snapshots__``.

What makes them steady (each was a cause of the earlier flaky attempts):

* **state, not sleeps**: every step waits for the workers and their messages (``settle``) or
  for a condition on the app (``until``), never for a fixed time;
* **no clock in the picture**: the durations of the calls shown (``Duration`` row) and of the
  evaluation (status line) are measured, so they are set to 0 and the record or report is shown
  again before the screenshot; nothing else shown depends on time;
* **no toasts**: notifications expire after a few seconds, so a slow run lost them: they are
  cleared before the screenshot;
* **no blinking cursor**: the focused Input/TextArea's cursor blinks on a 0.5 s timer, so its
  blink is switched off (cursor hidden) before the screenshot;
* **no paths or temp dirs**: the tools are the repository's ``./tools`` and the case file is
  ``fixtures/routing_cases.jsonl``, relative to the repository root (the working directory),
  history is off, last-used state is in a temp ``XDG_STATE_HOME`` (conftest) that is not shown;
* **no animation**: every app here runs with ``animation_level = "none"`` (set by
  :func:`make_app`, besides the ``no_animations`` fixture of the TUI tests), so a tab underline
  moves at once instead of on a 20 ms timer no wait on state sees (under load a snapshot
  caught the Form/JSON underline half-way), and :func:`steady` checks it before each picture;
* **each tab underline under its tab**: Textual places a bar's underline once, one refresh after
  the tab is activated; a bar activated before it was laid out (under load) kept a zero-width
  underline (``╸╺━━━`` for ``╸━━━━╺``) until the next resize, so :func:`steady` puts each
  underline where Textual puts it once the bar is laid out;
* **no mouse**: keys only, so no hover styles;
* bodies run in-process (these tests are not about isolation) and the offline router answers.
"""

from __future__ import annotations

import pytest

from playground.tui.app import PlaygroundApp
from tests.tui.helpers import ROOT, TOOLS, settle, until

SIZES = [(80, 24), (160, 48)]
QUESTION = "HR20260601 택배 어디쯤인가요?"


@pytest.fixture(autouse=True)
def _steady_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # contract paths and the case file are shown relative to it
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "PLAYGROUND_ROUTER"):
        monkeypatch.delenv(name, raising=False)


def make_app(tools: str = str(TOOLS)) -> PlaygroundApp:
    app = PlaygroundApp(tools=[tools], in_process=True, no_history=True)
    app.animation_level = "none"  # what TEXTUAL_ANIMATIONS=none sets (see the docstring)
    return app


async def steady(pilot) -> None:
    """Take everything time-dependent out of the picture (see the module docstring)."""
    from textual.widgets import Input, Tabs, TextArea

    app = pilot.app
    assert app.animation_level == "none"  # a tab underline never caught mid-animation
    await settle(app, pilot)
    for tabs in app.query(Tabs).results():
        tab = tabs.active_tab
        region = tab.virtual_region.shrink(tab.styles.gutter) if tab is not None else None
        if region:  # what Tabs._highlight_active computes, once the bar is laid out
            underline = tabs.query_one("Underline")
            underline.highlight_start, underline.highlight_end = region.column_span
    for widget in app.query(Input).results():
        widget.cursor_blink = False
    for area in app.query(TextArea).results():
        area.cursor_blink = False
    app.clear_notifications()
    await pilot.pause()


async def asked(pilot) -> None:
    """The Ask view after the offline router answered ``QUESTION``; durations pinned."""
    app = pilot.app
    await settle(app, pilot)
    await pilot.press("f2")
    ask = await app.view("ask")
    await until(pilot, lambda: app.focused is ask.query_one("#question"), "the question focused")
    ask.query_one("#question").value = QUESTION
    await pilot.press("enter")
    await settle(app, pilot)
    await until(pilot, lambda: ask.episode is not None and not ask.running, "the episode shown")
    for record in ask.episode.calls:
        record.duration_ms = 0.0
    ask.show_episode(ask.episode, ask.request)


@pytest.mark.parametrize("size", SIZES)
def test_call_view_with_the_shop_loaded(snap_compare, size):
    async def loaded(pilot):
        await steady(pilot)

    assert snap_compare(make_app(str(TOOLS / "shop.py")), terminal_size=size, run_before=loaded)


@pytest.mark.parametrize("size", SIZES)
def test_ask_view_after_an_offline_answer(snap_compare, size):
    async def run_before(pilot):
        await asked(pilot)
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_steps_view_opens_the_episode_at_step_one(snap_compare, size):
    async def run_before(pilot):
        await asked(pilot)
        app = pilot.app
        await pilot.press("f3")
        steps = await app.view("steps")
        await until(
            pilot, lambda: app.focused is steps.query_one("#steps-table"), "the steps focused"
        )
        assert steps.cursor == 0 and len(steps.episodes) == 1
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_evaluate_view_after_the_default_case_file(snap_compare, size):
    async def run_before(pilot):
        app = pilot.app
        await settle(app, pilot)
        await pilot.press("f4")
        view = await app.view("evaluate")
        await until(pilot, lambda: app.focused is view.query_one("#eval-path"), "the path focused")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        await until(pilot, lambda: view.report is not None and not view.running, "the report")
        view.report.duration_ms = 0.0
        view.show_report(view.report)
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
