"""Tool code cannot reconfigure the playground, and a flood of output cannot stall it
(issue 27): a module that rewrites ``os.environ`` and changes directory at import, a body that
prints 10 MB, and one that starts a child printing forever. Real worker processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from playground.core.toolsource import PRINTED_LIMIT
from playground.workbench import open_playground

pytestmark = pytest.mark.worker_process

HERE = Path(__file__).resolve().parent

FLOOD = '''
import subprocess, sys

def flood() -> dict:
    """Prints 10 MB."""
    sys.stdout.write("x" * 10_000_000)
    return {"ok": True}

def forever() -> dict:
    """Starts a child that prints forever."""
    subprocess.Popen([sys.executable, "-c", "import sys\\nwhile True: sys.stdout.write('y' * 65536)"])
    return {"ok": True}

def hello(n: int = 0) -> dict:
    """Prints hello."""
    print("hello", n)
    return {"n": n}

__tools__ = [flood, forever, hello]
'''


def test_a_module_that_changes_environ_and_cwd_moves_no_playground_path(tmp_path: Path) -> None:
    target = tmp_path / "attacker"
    target.mkdir()
    cache, history, reports = tmp_path / "cache", tmp_path / "history.sqlite", tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLAYGROUND_")}
    env.update(
        ATTACKER_TARGET=str(target),
        PLAYGROUND_CACHE_DIR=str(cache),
        PLAYGROUND_HISTORY=str(history),
        XDG_STATE_HOME=str(tmp_path / "state"),
    )
    tools = str(HERE / "env_attacker.py")
    out = subprocess.run(
        [sys.executable, "-m", "playground", "call", "where", "--tools", tools, "--format", "json"],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        check=True,
        text=True,
    ).stdout
    seen = json.loads(out)["value"]
    assert seen["cwd"] == str(target)  # the body does see its own changes (in the worker)
    assert (cache / "declarations").is_dir()  # the playground's cache is where it was set
    assert history.is_file()
    assert sorted(p.name for p in target.iterdir()) == []  # nothing written where it said
    report = subprocess.run(
        [sys.executable, "-m", "playground", "report", "--tools", str(HERE.parents[1] / "tools")]
        + ["--tools", tools, "--out", str(reports)],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        text=True,
    )
    assert report.returncode in (0, 1), report.stderr
    assert sorted(p.name for p in reports.iterdir()) == ["tool_report.json", "tool_report.md"]
    assert sorted(p.name for p in target.iterdir()) == []


def test_a_flood_of_output_is_bounded_and_does_not_stall(tmp_path: Path) -> None:
    module = tmp_path / "flood.py"
    module.write_text(FLOOD, encoding="utf-8")
    pg = open_playground([module], in_process=False)
    try:
        started = time.perf_counter()
        record = pg.gate.call("flood", {})
        assert record.ok
        assert record.printed.endswith("… [10,000,000 bytes printed in all]")
        assert len(record.printed) < PRINTED_LIMIT + 100
        assert pg.gate.call("forever", {}).ok
        for n in range(3):  # the child keeps printing; calls still come back with their answer
            record = pg.gate.call("hello", {"n": n})
            assert record.value == {"n": n}
            assert len(record.printed) < PRINTED_LIMIT + 100
        assert time.perf_counter() - started < 30  # a backstop, not a timing claim
    finally:
        pg.close()
