"""ctrl+c while an Ask question or a Steps run with repair is running: the episode stops and is
shown and kept as it stood -- the calls so far, the running one ``cancelled`` (ctrl+c), ``end``
``cancelled`` -- as SIGTERM keeps it. A tester pressed ctrl+c in the Ask tab and nothing was
cancelled (the write ran to its end 20 s later), while the calls pane said "No question yet"."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playground.tui.app import PlaygroundApp
from tests.signals import kept_entries
from tests.tui.helpers import NAPPING, settle, until


async def _until_body_runs(app, count: int) -> None:
    while app.pg.gate.body_runs["nap"] < count:  # the last call's body has started
        await asyncio.sleep(0.01)


async def test_ctrl_c_cancels_a_running_question_and_keeps_its_calls_so_far(tmp_path: Path):
    (tmp_path / "napping.py").write_text(NAPPING, encoding="utf-8")
    history = tmp_path / "h.db"
    app = PlaygroundApp(tools=[str(tmp_path)], in_process=True, history=str(history))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("f2")
        view = await app.view("ask")
        view.run_question("nap for 0 seconds and nap for 30 seconds")
        status = str(app.query_one("#ask-rv-status").render())
        assert status.startswith("Running: nap for 0 seconds and nap for 30 seconds"), status
        await _until_body_runs(app, 2)
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not view.running, "the question to stop")
        episode = view.episode
        assert (episode.end, episode.gave_up) == ("cancelled", True)
        assert [(c.args, c.kind) for c in episode.calls] == [
            ({"seconds": 0}, "ok"),
            ({"seconds": 30}, "cancelled"),
        ]
        assert episode.calls[1].message.startswith("the call was cancelled (ctrl+c) after ")
        await settle(app, pilot)
    [(kind, _, outcome, data)] = kept_entries(history)
    assert (kind, outcome, data["end"], len(data["calls"])) == (
        "episode",
        "cancelled",
        "cancelled",
        2,
    )


async def test_ctrl_c_cancels_a_steps_run_with_repair(tmp_path: Path):
    (tmp_path / "napping.py").write_text(NAPPING, encoding="utf-8")
    app = PlaygroundApp(tools=[str(tmp_path)], in_process=True, no_history=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("f3")
        view = await app.view("steps")
        view.run_manual("nap", {"seconds": 30})
        await _until_body_runs(app, 1)
        await pilot.press("ctrl+c")
        await until(pilot, lambda: bool(view.episodes), "the run to be added")
        (episode,) = view.episodes
        assert episode.end == "cancelled"
        assert [(c.args, c.kind) for c in episode.calls] == [({"seconds": 30}, "cancelled")]
