"""Benchmark: what the worker-process tool source costs (issue 9).

1. Per call on a cache miss: the same gate call (``get_order_status`` with a fresh order id each
   time, so the body runs) through the worker source and the in-process source, alternated,
   CPU and wall medians per call; goal: the worker adds at most 1 ms.
2. ``playground call get_order_status order_id=HR20260604 --format json`` with the worker (the
   default) and with ``--in-process``, beside MCP Inspector's CLI ``tools/call`` of the same
   tool on an equivalent one-tool MCP server (``bench/mcp_one_tool_server.py``: the same body,
   output schema and annotations), each a subprocess started from a shell the way a user runs
   it; the three alternate run by run, in a rotating order (machine load hits all alike). Prints
   median wall and child CPU times (user + system, ``os.times``) and the ratio worker /
   Inspector beside its goal (issue 9: wall ≤ 0.2×). Inspector runs as ``npx -y
   @modelcontextprotocol/inspector`` (``$INSPECTOR_CMD`` overrides it, e.g. an installed
   ``mcp-inspector``); without ``npx`` the comparison is skipped with a note.

The subprocesses run without ``PYTHONDONTWRITEBYTECODE`` (a user's Python caches the bytecode of
the project's modules in ``__pycache__``; with the variable set every run would recompile them,
which no installed copy does); the warm-up run writes the caches.

Run from the repository root: ``python bench/bench_worker.py [-n 400] [--cli-runs 7]``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from playground.workbench import open_playground  # noqa: E402

SHOP = REPO / "tools" / "shop.py"


def per_call(n: int) -> None:
    worker = open_playground([SHOP], wire=False, in_process=False)
    local = open_playground([SHOP], wire=False, in_process=True)
    walls: dict[str, list[float]] = {"worker": [], "in-process": []}
    cpus: dict[str, list[float]] = {"worker": [], "in-process": []}
    try:
        for pg in (worker, local):  # warm: first runs read the CSV files
            pg.gate.call("get_order_status", {"order_id": "HR20260604"})
        for i in range(n):
            args = {"order_id": f"HR2026{i:04d}"}  # a fresh id each time: a cache miss
            for label, pg in (("worker", worker), ("in-process", local))[:: 1 if i % 2 else -1]:
                wall0, cpu0 = time.perf_counter(), time.process_time()
                record = pg.gate.call("get_order_status", dict(args))
                cpus[label].append((time.process_time() - cpu0) * 1000)
                walls[label].append((time.perf_counter() - wall0) * 1000)
                assert record.cache == "stored" and record.body_ran, record.to_json()
    finally:
        worker.close()
        local.close()
    w, p = statistics.median(walls["worker"]), statistics.median(walls["in-process"])
    wc, pc = statistics.median(cpus["worker"]), statistics.median(cpus["in-process"])
    print(f"cache-miss call, median of {n} (wall / playground-process CPU, ms):")
    print(f"  in-process  {p:7.3f} / {pc:7.3f}")
    print(f"  worker      {w:7.3f} / {wc:7.3f}")
    verdict = "ok" if w - p <= 1.0 else "OVER"
    print(f"  worker adds {w - p:7.3f} ms wall (ratio {w / p:.2f}x)   goal <= 1 ms: {verdict}")


GOAL_INSPECTOR = 0.2  # issue 9: worker call wall ≤ 0.2 × Inspector's tools/call wall


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall ms, CPU ms of the command and its reaped children, stdout) of one run; exits the
    benchmark when the command fails."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    wall = (time.perf_counter() - started) * 1000
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    if done.returncode != 0:
        sys.exit(f"{shlex.join(cmd)} exited {done.returncode}: {done.stderr[-400:]}")
    return wall, cpu * 1000, done.stdout


def cli(runs: int) -> None:
    call = [sys.executable, "-m", "playground", "call", "get_order_status"]
    call += ["order_id=HR20260604", "--format", "json"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cases: dict[str, list[str]] = {
        "worker": call,
        "in-process": [*call, "--in-process"],
    }
    inspector = shlex.split(
        os.environ.get("INSPECTOR_CMD", "npx -y @modelcontextprotocol/inspector")
    )
    if shutil.which(inspector[0]):
        cases["inspector"] = [
            *inspector,
            "--cli",
            sys.executable,
            "bench/mcp_one_tool_server.py",
            "--method",
            "tools/call",
            "--tool-name",
            "get_order_status",
            "--tool-arg",
            "order_id=HR20260604",
        ]
    for cmd in cases.values():  # warm-up: bytecode caches, npx's package cache, page cache
        _, _, out = _run(cmd, env)
        assert "HR20260604" in out, out[:300]
    walls: dict[str, list[float]] = {k: [] for k in cases}
    cpus: dict[str, list[float]] = {k: [] for k in cases}
    names = list(cases)
    for i in range(runs):
        for name in names[i % len(names) :] + names[: i % len(names)]:
            wall, cpu, _ = _run(cases[name], env)
            walls[name].append(wall)
            cpus[name].append(cpu)
    print(
        f"\n`playground call get_order_status order_id=HR20260604 --format json`, {runs} "
        "rotating runs per side (medians):"
    )
    print(f"  {'side':<12}{'wall ms':>9}{'best ms':>9}{'cpu ms':>9}")
    for name in names:
        print(
            f"  {name:<12}{statistics.median(walls[name]):>9.0f}{min(walls[name]):>9.0f}"
            f"{statistics.median(cpus[name]):>9.0f}"
        )
    wmed = {k: statistics.median(v) for k, v in walls.items()}
    print(f"  worker / in-process wall: {wmed['worker'] / wmed['in-process']:.2f}x")
    if "inspector" not in cases:
        print(f"  MCP Inspector not run: {inspector[0]!r} not found (set INSPECTOR_CMD)")
        return
    ratio = wmed["worker"] / wmed["inspector"]
    verdict = "met" if ratio <= GOAL_INSPECTOR else "NOT met"
    print(
        f"  worker / Inspector tools/call wall: {ratio:.2f}  (goal <= {GOAL_INSPECTOR}: {verdict})"
    )
    print(f"  in-process / Inspector wall:        {wmed['in-process'] / wmed['inspector']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=400, help="calls per side")
    parser.add_argument("--cli-runs", type=int, default=7, help="CLI runs per side")
    opts = parser.parse_args()
    per_call(opts.n)
    cli(opts.cli_runs)


if __name__ == "__main__":
    main()
