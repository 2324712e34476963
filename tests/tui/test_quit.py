"""Quitting never waits for engine work: ``ctrl+q`` while a call is still running (a body past
a long time limit, a 30 MB result's wire JSON being built) ends the process at once.

Textual's thread workers run in the event loop's default executor, which ``App.run`` (through
``asyncio.run``) waits for at exit; the Call, Ask, Steps and Evaluate views' engine work runs
in daemon threads instead (``playground.tui.daemon_thread``). The app runs in a real process
here, because only ``App.run`` waits for that executor (``run_test`` does not)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.tui.helpers import TOOLS

BLOCKING_TOOL = '''
import threading

def wait_forever(item_id: str) -> dict:
    """Wait for an answer that never comes. Use it to test quitting.

    Args:
        item_id: item id, e.g. "A-1"
    """
    threading.Event().wait()
    return {"item_id": item_id}


__tools__ = [wait_forever]
__contracts__ = {"wait_forever": {"timeout_s": 3600, "cacheable": False}}
'''

CHILD = r"""
import sys
from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.widgets.arg_form import ArgForm
from playground.tui.widgets.record_view import RecordView

async def drive(pilot):
    app = pilot.app
    for _ in range(1000):  # the list is filled after the tools are loaded: wait on that state
        if app.pg is not None and await app.query_one(CallView).select_contract("wait_forever"):
            break
        await pilot.pause()
    else:
        raise AssertionError("wait_forever was never listed")
    await pilot.pause()
    app.query_one(ArgForm).set_field("item_id", "A-1")
    await pilot.press("ctrl+r")
    while not app.query_one(RecordView).fields.get("status", "").startswith("running"):
        await pilot.pause()
    sys.__stdout__.write("running\n")  # the app captures print()
    sys.__stdout__.flush()
    await pilot.press("ctrl+q")

app = PlaygroundApp(tools=[sys.argv[1]], in_process=True, no_history=True)
app.run(headless=True, size=(100, 30), auto_pilot=drive)
print("exited", flush=True)
"""


def test_ctrl_q_while_a_call_is_running_ends_the_process(tmp_path):
    module = tmp_path / "blocking.py"
    module.write_text(textwrap.dedent(BLOCKING_TOOL), encoding="utf-8")
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(module)],
            capture_output=True,
            text=True,
            timeout=60,  # a hang guard: before the fix the process waited for the 3600 s limit
            env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")},
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the app did not exit while a call ran: {exc.stdout!r}") from None
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["running", "exited"]


HANGING_IMPORT_CHILD = r"""
import sys
from playground.tui.app import PlaygroundApp

async def drive(pilot):
    app = pilot.app
    while not any(w.group == "load" for w in app.workers):
        await pilot.pause()
    sys.__stdout__.write("loading\n")
    sys.__stdout__.flush()
    await pilot.press("ctrl+q")

app = PlaygroundApp(tools=[sys.argv[1]], no_history=True)
app.run(headless=True, size=(100, 30), auto_pilot=drive)
print("exited", flush=True)
"""


def test_ctrl_q_while_a_module_hangs_at_import_ends_the_process(tmp_path):
    """Loading runs in a daemon thread: quitting does not wait for the import time limit
    (before, ctrl+q waited for every import to time out)."""
    (tmp_path / "hangs.py").write_text("import time\ntime.sleep(3600)\n", encoding="utf-8")
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    env["PLAYGROUND_IMPORT_TIMEOUT_S"] = "60"  # the hang is not given up within the test
    env.pop("PLAYGROUND_IN_PROCESS", None)
    try:
        done = subprocess.run(
            [sys.executable, "-c", HANGING_IMPORT_CHILD, str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=40,  # a hang guard: before the fix the app waited for the 60 s import limit
            env=env,
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the app did not exit while loading: {exc.stdout!r}") from None
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["loading", "exited"]


async def test_ctrl_q_while_the_first_load_mounts_the_panes_is_a_clean_exit(monkeypatch):
    """tmux, ctrl+q 0.6-0.85 s after start: the app took the Call view's panes down while the
    first load was mounting them, and ``RecordView.clear`` raised NoMatches: an 1,800-line
    traceback, exit 0. A quit in that window now just ends the app."""
    from textual.css.query import NoMatches

    from playground.tui.app import PlaygroundApp
    from playground.tui.views.call_view import CallView

    async def taken_down(self, pg, keep=False):
        self.app.exit()
        raise NoMatches("No nodes match '#rv-wire-gemini-json' on WireView()")

    monkeypatch.setattr(CallView, "set_playground", taken_down)
    app = PlaygroundApp(tools=[str(TOOLS / "shop.py")])
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            if app._exit:
                break
            await pilot.pause(0.01)
    assert app._exit and app.return_code in (0, None)


async def test_a_missing_widget_outside_a_quit_is_still_an_error(monkeypatch):
    from textual.css.query import NoMatches

    from playground.tui.app import PlaygroundApp
    from playground.tui.views.call_view import CallView

    async def broken(self, pg, keep=False):
        raise NoMatches("a real bug")

    monkeypatch.setattr(CallView, "set_playground", broken)
    app = PlaygroundApp(tools=[str(TOOLS / "shop.py")])
    with pytest.raises(NoMatches):
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await pilot.pause(0.01)
