"""A body whose process ended under it (``os._exit``, a segfault) raised nothing: its message
says how the process ended, never "it raised WorkerExited" (issue 26 item 7). Real worker
process, the fault tools of ``faulty.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.workbench import open_playground

FAULTY = Path(__file__).resolve().parent / "faulty.py"


@pytest.mark.parametrize(("tool", "how"), [("hard_exit", "exit code 3"), ("segfault", "SIGSEGV")])
def test_the_message_says_how_the_process_ended(tool, how):
    pg = open_playground([FAULTY], wire=True, in_process=False)
    try:
        record = pg.gate.call(tool, {})
    finally:
        pg.close()
    assert (record.kind, record.error) == ("raised", "raised:WorkerExited")
    said = (
        f"{tool} failed: it raised no exception; the process running it ended ({how}) while "
        "running the body. Do not repeat the same call unchanged: tell the user the tool failed "
        "or try another tool."
    )
    assert record.message == said
    assert record.wire["anthropic"]["content"] == said
