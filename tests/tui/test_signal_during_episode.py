"""SIGTERM or SIGHUP while a TUI episode runs (an Ask question, a Steps "run with repair"): the
playground exits as before (128 + the signal) and the episode is kept in the history as what
happened — the calls it made so far, the running one ``cancelled`` naming the signal, ``end``
``cancelled`` — as ``playground ask`` keeps it (``tests/cli/test_ask_interrupted.py``). Before,
only a Call-view call was kept; an episode left nothing. The app runs in a real process with
the entry point's signal handlers (``playground.__main__``), on a real history file."""

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

for signum in (signal.SIGTERM, signal.SIGHUP):  # as the entry point does
    signal.signal(signum, _terminated)

where = sys.argv[3]


async def drive(pilot):
    app = pilot.app
    while app.pg is None:  # the tools are loaded: wait on that state
        await pilot.pause()
    if where == "ask":
        (await app.view("ask")).run_question("nap for 0 seconds and nap for 30 seconds")
        calls = 2
    else:  # the Call view's "Run with repair", as the Steps view runs it
        (await app.view("steps")).run_manual("nap", {"seconds": 30})
        calls = 1
    while app.pg.gate.body_runs["nap"] < calls:  # the last call's body has started
        await asyncio.sleep(0.01)
    sys.__stdout__.write("running\n")  # the app captures print()
    sys.__stdout__.flush()
    while True:
        await asyncio.sleep(0.05)


app = PlaygroundApp(tools=[sys.argv[1]], in_process=True, history=sys.argv[2])
app.run(headless=True, size=(100, 30), auto_pilot=drive)
sys.__stdout__.write("the app returned\n")
"""


def _ended_while_running(tmp_path: Path, sig: int, where: str) -> list[tuple[str, str, dict]]:
    """Run the TUI, start the episode in ``where`` (``ask`` / ``steps``), end the app with
    ``sig`` once its last call's body runs; returns the history's ``(type, outcome, data)``."""
    (tmp_path / "napping.py").write_text(NAPPING, encoding="utf-8")
    history = tmp_path / "h.db"
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_STATE_HOME": str(tmp_path / "state")}
    code, out, err = signalled_once_running(
        [sys.executable, "-c", CHILD, str(tmp_path / "napping.py"), str(history), where],
        sig,
        env=env,
        cwd=tmp_path,
    )
    assert code == 128 + sig, err
    assert out == ""  # the app did not return: the signal ended it
    return [(kind, outcome, data) for kind, _, outcome, data in kept_entries(history)]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_an_ask_episode_keeps_the_calls_so_far(tmp_path: Path, sig: int) -> None:
    [(kind, outcome, episode)] = _ended_while_running(tmp_path, sig, "ask")
    assert (kind, outcome) == ("episode", "cancelled")
    assert (episode["question"], episode["router"], episode["end"], episode["gave_up"]) == (
        "nap for 0 seconds and nap for 30 seconds",
        "offline",
        "cancelled",
        True,
    )
    first, second = episode["calls"]
    assert (first["args"], first["kind"], first["value"]) == ({"seconds": 0}, "ok", {"slept": 0})
    assert (second["args"], second["kind"], second["body_ran"], second["body_runs"]) == (
        {"seconds": 30},
        "cancelled",
        True,
        2,
    )
    how = f"the playground was ended ({signal.Signals(sig).name})"
    assert second["message"].startswith(f"the call was cancelled ({how}) after ")
    assert [s["node"] for s in episode["steps"]] == [
        "pick", "validate", "run", "check", "giveup",
    ]  # fmt: skip
    assert episode["reply"] == f"The episode was cancelled ({how}) after 2 call(s); no reply."


def test_sigterm_during_a_steps_run_with_repair_keeps_its_episode(tmp_path: Path) -> None:
    [(kind, outcome, episode)] = _ended_while_running(tmp_path, signal.SIGTERM, "steps")
    assert (kind, outcome, episode["router"], episode["question"]) == (
        "episode",
        "cancelled",
        "manual",
        None,
    )
    calls = [(c["tool"], c["args"], c["kind"], c["body_ran"]) for c in episode["calls"]]
    assert calls == [("nap", {"seconds": 30}, "cancelled", True)]
    assert episode["calls"][0]["message"].startswith(
        "the call was cancelled (the playground was ended (SIGTERM)) after "
    )
    assert episode["steps"][-1]["reason"] == "cancelled"
