"""ctrl+c, SIGTERM or SIGHUP during ``playground ask`` (and ``call --repair``): the episode is
kept in the history as what happened — the calls made so far, the running one ``cancelled``,
``end`` ``cancelled`` — as ``playground call`` keeps a stopped call. Before, the command exited
(130 / 143 / 129) and kept nothing, though a tool had run. A real ``playground`` process, a
real history file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.signals import kept_entries, sigint_as_in_a_terminal

REPO = Path(__file__).resolve().parents[2]

#: ``nap(seconds)`` writes ``started-SECONDS`` beside this module as its body starts, then sleeps.
NAPPING = '''
import time
from pathlib import Path


def nap(seconds: int) -> dict:
    """Sleeps.

    Args:
        seconds: how long.
    """
    (Path(__file__).parent / f"started-{seconds}").write_text("")
    time.sleep(seconds)
    return {"slept": seconds}


__tools__ = [nap]
__contracts__ = {"nap": {"timeout_s": 60, "cacheable": False}}
'''


def _stopped_while_running(tmp_path: Path, sig: int, args: list[str]) -> tuple[int, str, Path]:
    """``playground ARGS --tools napping.py --history h.db`` stopped by ``sig`` once the body
    of ``nap(30)`` has started; returns the exit code, stderr and the history path."""
    (tmp_path / "napping.py").write_text(NAPPING, encoding="utf-8")
    history = tmp_path / "h.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "playground", *args, "--tools", "napping.py"]
        + ["--history", str(history)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_in_a_terminal,
    )
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "started-30").exists():  # the body of the second call runs
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.02)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, err, history


def _kept(history: Path) -> list[tuple[str, str, dict]]:
    return [(kind, outcome, data) for kind, _, outcome, data in kept_entries(history)]


@pytest.mark.parametrize(
    ("sig", "how"),
    [
        pytest.param(  # in the worker process bodies run in by default
            signal.SIGTERM, "the playground was ended (SIGTERM)", marks=pytest.mark.worker_process
        ),
        (signal.SIGHUP, "the playground was ended (SIGHUP)"),
        (signal.SIGINT, "ctrl+c"),
    ],
)
def test_ask_stopped_during_its_second_call_keeps_the_calls_so_far(
    tmp_path: Path, sig: int, how: str
) -> None:
    code, err, history = _stopped_while_running(
        tmp_path, sig, ["ask", "nap for 0 seconds and nap for 30 seconds"]
    )
    assert code == (130 if sig == signal.SIGINT else 128 + sig), err
    [(kind, outcome, episode)] = _kept(history)
    assert (kind, outcome) == ("episode", "cancelled")
    assert (episode["end"], episode["ok"], episode["gave_up"]) == ("cancelled", False, True)
    assert episode["question"] == "nap for 0 seconds and nap for 30 seconds"
    first, second = episode["calls"]
    assert (first["args"], first["kind"], first["value"]) == ({"seconds": 0}, "ok", {"slept": 0})
    assert (second["args"], second["kind"], second["body_ran"]) == (
        {"seconds": 30},
        "cancelled",
        True,
    )
    assert second["call_id"] == "call_2"
    assert second["message"].startswith(f"the call was cancelled ({how}) after ")
    assert episode["attempts"] == 2
    last = episode["steps"][-1]
    assert (last["node"], last["reason"], last["call"], last["kind"]) == (
        "giveup",
        "cancelled",
        1,
        "cancelled",
    )
    assert episode["reply"] == f"The episode was cancelled ({how}) after 2 call(s); no reply."


def test_call_with_repair_stopped_by_sigterm_keeps_its_episode(tmp_path: Path) -> None:
    code, err, history = _stopped_while_running(
        tmp_path, signal.SIGTERM, ["call", "nap", "seconds:=30", "--repair"]
    )
    assert code == 128 + signal.SIGTERM, err
    [(kind, outcome, episode)] = _kept(history)
    assert (kind, outcome, episode["end"], episode["question"]) == (
        "episode",
        "cancelled",
        "cancelled",
        None,
    )
    calls = [(c["tool"], c["args"], c["kind"], c["body_ran"]) for c in episode["calls"]]
    assert calls == [("nap", {"seconds": 30}, "cancelled", True)]
