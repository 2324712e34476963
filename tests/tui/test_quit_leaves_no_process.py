"""ctrl+q leaves no process of ours (issue 28 item 2): a body that started 40 children — the
record says the playground ended them when the call ended — then a body that started 40 more
and is still running, and an MCP server whose tool started 3 (they live as long as the
server); ctrl+q, and not one process of the run is left. The app runs in a real process (as
``tests/tui/test_quit.py``), its processes counted by a marker (``tests.orphans``)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.orphans import SPAWNER_SERVER, ours, wait_until

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")

REPO = Path(__file__).resolve().parents[2]

TOOLS = '''
import subprocess
import time


def spawn_children(n: int) -> dict:
    """Starts n sleeping child processes and returns.

    Args:
        n: how many.
    """
    return {"started": len([subprocess.Popen(["sleep", "60"]) for _ in range(n)])}


def spawn_and_wait(n: int) -> dict:
    """Starts n sleeping child processes, then waits 60 s.

    Args:
        n: how many.
    """
    for _ in range(n):
        subprocess.Popen(["sleep", "60"])
    time.sleep(60)
    return {"done": True}


__tools__ = [spawn_children, spawn_and_wait]
__contracts__ = {"spawn_and_wait": {"timeout_s": 120, "cacheable": False}}
'''

CHILD = r"""
import asyncio
import os
import sys

from playground.sources.mcp_config import server_specs
from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.widgets.arg_form import ArgForm
from playground.tui.widgets.record_view import RecordView
from tests.orphans import sleepers

MARK = os.environ["ORPHAN_MARK"]


def say(line):
    sys.__stdout__.write(line + "\n")  # the app captures print()
    sys.__stdout__.flush()


async def run(pilot, tool, n):
    app = pilot.app
    view = app.query_one(CallView)
    for _ in range(1000):  # the list is filled after the tools are loaded: wait on that state
        if await view.select_contract(tool):
            break
        await pilot.pause()
    else:
        raise AssertionError(f"{tool} was never listed")
    await pilot.pause()
    app.query_one(ArgForm).set_field("n", str(n))
    before = view.last_record
    await pilot.press("ctrl+r")
    while not app.query_one(RecordView).fields.get("status", "").startswith("running"):
        if view.last_record is not before:
            break
        await pilot.pause()


async def drive(pilot):
    app = pilot.app
    while app.pg is None:
        await pilot.pause()
    view = app.query_one(CallView)
    await run(pilot, "spawn_children", 40)
    while view.last_record is None:
        await pilot.pause()
    say("worker: " + " | ".join(view.last_record.warnings))
    await run(pilot, "spawn", 3)
    while view.last_record.tool != "spawn":
        await pilot.pause()
    say("mcp: " + str(view.last_record.value))
    await run(pilot, "spawn_and_wait", 40)
    while sleepers(MARK) < 43:
        await asyncio.sleep(0.02)
    say(f"running: {sleepers(MARK)}")
    await pilot.press("ctrl+q")


app = PlaygroundApp(
    tools=[sys.argv[1]],
    in_process=False,
    no_history=True,
    mcp=server_specs(commands=[sys.argv[2]]),
)
app.run(headless=True, size=(100, 30), auto_pilot=drive)
say("exited")
"""


def test_ctrl_q_after_bodies_that_started_children_leaves_no_process(tmp_path):
    marker = uuid.uuid4().hex
    (tmp_path / "spawner.py").write_text(TOOLS, encoding="utf-8")
    server = tmp_path / "spawner_server.py"
    server.write_text(SPAWNER_SERVER, encoding="utf-8")
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "ORPHAN_MARK": marker}
    env["PYTHONPATH"] = str(REPO)
    env.pop("PLAYGROUND_IN_PROCESS", None)
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(tmp_path / "spawner.py"),
             f"{sys.executable} {server} {marker}"],
            capture_output=True,
            text=True,
            timeout=90,
            env=env,
            cwd=tmp_path,
        )  # fmt: skip
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the app did not exit: {exc.stdout!r}") from None
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "worker: the body left 40 child processes running; "
        "the playground ended them when the call ended"
    )
    assert lines[1].startswith("mcp: ") and "started 3" in lines[1]
    assert lines[2:] == ["running: 43", "exited"]
    assert wait_until(lambda: not ours(marker), 5.0), ours(marker)
