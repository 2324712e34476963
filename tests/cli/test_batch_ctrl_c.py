"""ctrl+c during ``eval``, ``check`` and ``probe`` (issue 28 item 3): the command stops within
a second with exit 130, keeps what is done — every JSON line already written is whole and was
flushed as it was judged — and prints one line saying it was interrupted and how many cases
were done. Real ``playground`` processes; each test waits for a first line (state), then
presses ctrl+c."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.signals import sigint_as_in_a_terminal

REPO = Path(__file__).resolve().parents[2]

SLOW_TOOLS = '''
import time


def slow_echo(i: int) -> dict:
    """Echoes i after a short wait.

    Args:
        i: a number.
    """
    time.sleep(0.2)
    return {"i": i}


__tools__ = [slow_echo]
__contracts__ = {"slow_echo": {"timeout_s": 10, "cacheable": False}}
'''


def interrupt_after_first_line(args: list[str], cwd: Path) -> tuple[list[str], str, int, float]:
    """Run ``playground ARGS`` with ``--format jsonl``, press ctrl+c once its first stdout
    line is written; ``(stdout lines, stderr, exit code, seconds from ctrl+c to exit)``."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("PLAYGROUND_IN_PROCESS", None)
    with subprocess.Popen(
        [sys.executable, "-m", "playground", *args, "--format", "jsonl"],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_in_a_terminal,
    ) as proc:  # the pipes are closed on the way out
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first, proc.communicate(timeout=30)[1]
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        # read(), not communicate(): lines already in the reader's buffer are kept
        # (communicate reads the pipe itself); stderr is one or two lines, so reading stdout
        # first cannot block
        rest = proc.stdout.read()
        took = time.monotonic() - sent
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.wait(30)
    return [first.rstrip("\n"), *rest.splitlines()], err, proc.returncode, took


def test_ctrl_c_during_eval(tmp_path: Path) -> None:
    cases = (REPO / "fixtures" / "routing_cases.jsonl").read_text(encoding="utf-8")
    (tmp_path / "many.jsonl").write_text(cases * 400, encoding="utf-8")  # 25,200 cases
    lines, err, code, took = interrupt_after_first_line(
        ["eval", "many.jsonl", "--tools", str(REPO / "tools")], tmp_path
    )
    assert code == 130, err
    assert took < 1.0
    rows = [json.loads(line) for line in lines]  # every line whole
    judged = [r for r in rows if "category" in r]
    assert 1 <= len(judged) < 25_200
    assert rows[-1]["summary"]["counts"]["total"] == len(judged)
    assert err.splitlines()[-1] == (
        f"error: interrupted after {len(judged):,} case{'s' if len(judged) != 1 else ''} "
        "(the cases done so far are above)"
    )


def test_ctrl_c_during_check(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(SLOW_TOOLS, encoding="utf-8")
    cases = "".join(
        json.dumps({"tool": "slow_echo", "args": {"i": i}, "expect": {"value": {"i": i}}}) + "\n"
        for i in range(100)
    )
    (tmp_path / "cases.jsonl").write_text(cases, encoding="utf-8")
    lines, err, code, took = interrupt_after_first_line(
        ["check", "cases.jsonl", "--tools", "slow.py"], tmp_path
    )
    assert code == 130, err
    assert took < 1.0
    rows = [json.loads(line) for line in lines]
    assert 1 <= len(rows) < 100
    assert [r["line"] for r in rows] == list(range(1, len(rows) + 1))
    assert all(r["passed"] for r in rows)
    assert err.splitlines()[-1] == (
        f"error: interrupted after {len(rows):,} of 100 cases (the cases done are above)"
    )


def test_ctrl_c_during_probe(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(SLOW_TOOLS, encoding="utf-8")
    lines, err, code, took = interrupt_after_first_line(
        ["probe", "slow_echo", "--tools", "slow.py"], tmp_path
    )
    assert code == 130, err
    assert took < 1.0
    rows = [json.loads(line) for line in lines]
    planned = int(err.splitlines()[-1].split(" of ")[1].split()[0])
    assert 1 <= len(rows) < planned
    assert err.splitlines()[-1] == (
        f"error: interrupted after {len(rows)} of {planned} cases (the cases done are above)"
    )
