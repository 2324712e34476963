"""Enter on an episode of the History view opens it in the Steps view (issue 25, found while
reproducing item 6): it crashed the app with ``AttributeError: 'dict' object has no attribute
'kind'`` (the stored steps were not rebuilt as steps). The Steps view's footer shows the Steps
keys as soon as it opens, whichever way it was opened."""

from __future__ import annotations

from playground.tui.app import PlaygroundApp
from playground.tui.footer import KeysFooter
from tests.tui.helpers import SIZE, settle, until_idle

STEPS_KEYS = ["Next", "Back", "End", "Fork", "Wire"]


def shown_keys(app: PlaygroundApp) -> list[str]:
    """The descriptions the footer shows now (its first five keys)."""
    footer = app.query_one(KeysFooter)
    return [str(getattr(key, "description", "")) for key in footer.children][:5]


async def test_an_episode_from_history_opens_in_steps_with_its_keys(tools_dir, tmp_path):
    app = PlaygroundApp(tools=[str(tools_dir)], history=str(tmp_path / "h.db"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        history = await app.view("history")
        steps = await app.view("steps")
        steps.run_manual("get_order_status", {"order_id": "HR20260604"})
        await until_idle(app, pilot, lambda: len(history.entries) == 1)
        await pilot.press("f2")  # from Ask, whose keys the footer shows
        await pilot.press("f3")
        assert (app.mode_name, shown_keys(app)) == ("steps", STEPS_KEYS)
        await pilot.press("f5")  # the tab opens on its filter; down moves to the list
        await until_idle(app, pilot, lambda: app.focused is history.query_one("#history-filter"))
        await pilot.press("down")
        await until_idle(app, pilot, lambda: app.focused is history.query_one("#history-table"))
        assert shown_keys(app)[0] == "Rerun"
        await pilot.press("enter")
        await until_idle(app, pilot, lambda: app.mode_name == "steps")
        assert shown_keys(app) == STEPS_KEYS
        assert steps.labels[-1] == f"#2 history #{history.entries[0].id}: get_order_status"
        nodes = [str(step.node) for step in steps.episode.steps]
        assert nodes == ["pick", "validate", "run", "check", "reply"]
        assert steps.episode.steps[2].kind is None and steps.episode.steps[3].kind == "ok"
        await pilot.press("e")  # every step revealed, the last one's state shown
        await pilot.pause()
        assert "node: reply" in steps.state_text
