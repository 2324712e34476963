"""SIGTERM or SIGHUP while a TUI call runs (issue 25, item 3): the playground exits as before
(128 + the signal) and the call is kept in the history as ``cancelled``, naming the signal — as
the command line's ``call`` keeps it (``tests/faults/test_no_orphans.py``). The app runs in a
real process with the entry point's signal handlers (``playground.__main__``)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from tests.signals import kept_entries, signalled_once_running
from tests.tui.helpers import NAPPING

REPO = Path(__file__).resolve().parents[2]


CHILD = r"""
import asyncio
import signal
import sys

from playground.__main__ import _terminated
from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.widgets.arg_form import ArgForm

for signum in (signal.SIGTERM, signal.SIGHUP):  # as the entry point does
    signal.signal(signum, _terminated)


async def drive(pilot):
    app = pilot.app
    view = app.query_one(CallView)
    for _ in range(1000):  # the list is filled after the tools are loaded: wait on that state
        if app.pg is not None and await view.select_contract("nap"):
            break
        await pilot.pause()
    else:
        raise AssertionError("nap was never listed")
    await pilot.pause()
    app.query_one(ArgForm).set_field("seconds", "30")
    await pilot.press("ctrl+r")
    while app.pg.gate.body_runs["nap"] < 1:  # the body has started
        await asyncio.sleep(0.01)
    sys.__stdout__.write("running\n")  # the app captures print()
    sys.__stdout__.flush()
    while True:
        await asyncio.sleep(0.05)


app = PlaygroundApp(tools=[sys.argv[1]], in_process=True, history=sys.argv[2])
app.run(headless=True, size=(100, 30), auto_pilot=drive)
sys.__stdout__.write("the app returned\n")
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_a_tui_call_keeps_it_as_cancelled(tmp_path: Path, sig: int) -> None:
    (tmp_path / "napping.py").write_text(NAPPING, encoding="utf-8")
    history = tmp_path / "h.db"
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_STATE_HOME": str(tmp_path / "state")}
    code, out, err = signalled_once_running(
        [sys.executable, "-c", CHILD, str(tmp_path / "napping.py"), str(history)],
        sig,
        env=env,
        cwd=tmp_path,
    )
    assert code == 128 + sig, err
    assert out == ""  # the app did not return: the signal ended it
    rows = kept_entries(history)
    assert [(tool, outcome) for _, tool, outcome, _ in rows] == [("nap", "cancelled")]
    record = rows[0][3]
    assert (record["args"], record["body_ran"], record["body_runs"]) == ({"seconds": 30}, True, 1)
    name = signal.Signals(sig).name
    assert record["message"].startswith(
        f"the call was cancelled (the playground was ended ({name})) after "
    )


async def test_ctrl_q_during_a_call_keeps_it_as_cancelled(tmp_path: Path) -> None:
    """A tester quit with ctrl+q while a write's body ran: the body had started (its log
    said so) but the history kept nothing. It is kept as on SIGTERM, naming the quit."""
    import asyncio

    from playground.tui.app import PlaygroundApp
    from playground.tui.views.call_view import CallView
    from playground.tui.widgets.arg_form import ArgForm
    from tests.tui.helpers import settle

    (tmp_path / "napping.py").write_text(NAPPING, encoding="utf-8")
    history = tmp_path / "h.db"
    app = PlaygroundApp(tools=[str(tmp_path / "napping.py")], in_process=True, history=str(history))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert await app.query_one(CallView).select_contract("nap")
        await pilot.pause()
        app.query_one(ArgForm).set_field("seconds", "30")
        await pilot.press("ctrl+r")
        while app.pg is None or app.pg.gate.body_runs["nap"] < 1:  # the body has started
            await asyncio.sleep(0.01)
        await pilot.press("ctrl+q")
    kept = kept_entries(history)
    assert [(kind, tool, outcome) for kind, tool, outcome, _ in kept] == [
        ("call", "nap", "cancelled")
    ]
    record = kept[0][3]
    assert (record["args"], record["body_ran"]) == ({"seconds": 30}, True)
    assert record["message"].startswith("the call was cancelled (the playground was ended (quit))")


async def test_ctrl_q_during_an_ask_episode_keeps_its_calls_so_far(tmp_path: Path) -> None:
    """ctrl+q keeps a running Ask episode as SIGTERM does: the calls so far, the running one
    cancelled, ``end`` cancelled."""
    import asyncio

    from playground.tui.app import PlaygroundApp
    from tests.tui.helpers import settle

    (tmp_path / "napping.py").write_text(NAPPING, encoding="utf-8")
    history = tmp_path / "h.db"
    app = PlaygroundApp(tools=[str(tmp_path / "napping.py")], in_process=True, history=str(history))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        (await app.view("ask")).run_question("nap for 0 seconds and nap for 30 seconds")
        while app.pg.gate.body_runs["nap"] < 2:  # the second call's body has started
            await asyncio.sleep(0.01)
        await pilot.press("ctrl+q")
    [(kind, _, outcome, episode)] = kept_entries(history)
    assert (kind, outcome, episode["end"]) == ("episode", "cancelled", "cancelled")
    assert [c["kind"] for c in episode["calls"]] == ["ok", "cancelled"]
    assert episode["calls"][1]["message"].startswith(
        "the call was cancelled (the playground was ended (quit))"
    )
