"""Benchmark: one tool call on a stdio MCP server, playground vs MCP Inspector's CLI.

Both sides start the same server (``python fixtures/mcp_shop_server.py``), initialize, and call
``get_order_status`` with ``order_id=HR99999999`` once, as a user would from a shell:

* playground: ``python -m playground call get_order_status order_id=HR99999999 --mcp
  "python fixtures/mcp_shop_server.py" --format json`` (no ./tools is loaded; the local
  verdict, the gate, the record and the provider views included);
* Inspector: ``npx -y @modelcontextprotocol/inspector --cli python fixtures/mcp_shop_server.py
  --method tools/call --tool-name get_order_status --tool-arg order_id=HR99999999`` (override
  the command with ``$INSPECTOR_CMD``, e.g. a locally installed ``mcp-inspector`` binary).

The two sides alternate run by run, the first side swapping every run (so machine load and
cache warmth hit both alike); the subprocesses run without ``PYTHONDONTWRITEBYTECODE`` (a
user's Python caches the project's bytecode; the warm-up run writes it). Prints, for each side, the
median wall time and the median CPU time of the child processes (user + system, from
``os.wait4``), and the ratios playground / Inspector beside the goal (issue 10: wall ≤ 0.7×).
Node 20 and network access to the npm registry are needed the first time (npx caches the
package). Run from the repository root: ``python bench/bench_mcp.py [-n 7]``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOAL_WALL = 0.7
SERVER = [sys.executable, "fixtures/mcp_shop_server.py"]


def run_once(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall ms, CPU ms of the command and its children, stdout) of one run; exits the
    benchmark when the command fails. CPU comes from ``os.times()`` children deltas (the
    command is reaped before the second reading, its own children before it exits)."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=REPO, capture_output=True, text=True)
    wall = (time.perf_counter() - started) * 1000
    after = os.times()
    cpu = (
        after.children_user - before.children_user + after.children_system - before.children_system
    ) * 1000
    if done.returncode != 0:
        sys.exit(f"{shlex.join(cmd)} exited {done.returncode}: {done.stderr[-400:]}")
    return wall, cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=7, help="runs per side (default 7)")
    opts = parser.parse_args()

    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PLAYGROUND_CACHE_DIR": tempfile.mkdtemp(prefix="bench-mcp-cache-"),
        "NO_COLOR": "1",
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    playground = [
        sys.executable,
        "-m",
        "playground",
        "call",
        "get_order_status",
        "order_id=HR99999999",
        "--mcp",
        shlex.join(SERVER),
        "--format",
        "json",
    ]
    inspector_cmd = shlex.split(
        os.environ.get("INSPECTOR_CMD", "npx -y @modelcontextprotocol/inspector")
    )
    inspector = [
        *inspector_cmd,
        "--cli",
        *SERVER,
        "--method",
        "tools/call",
        "--tool-name",
        "get_order_status",
        "--tool-arg",
        "order_id=HR99999999",
    ]
    # one warm-up run each (npx fetches the package the first time; page cache for both)
    for cmd in (playground, inspector):
        _, _, out = run_once(cmd, env)
        assert "HR99999999" in out, out[:300]

    walls: dict[str, list[float]] = {"playground": [], "inspector": []}
    cpus: dict[str, list[float]] = {"playground": [], "inspector": []}
    sides = [("playground", playground), ("inspector", inspector)]
    for i in range(opts.runs):
        for name, cmd in sides if i % 2 == 0 else sides[::-1]:
            wall, cpu, _ = run_once(cmd, env)
            walls[name].append(wall)
            cpus[name].append(cpu)

    print(f"one tools/call on a stdio MCP server, median of {opts.runs} alternating runs")
    print(f"{'side':<12}{'wall ms':>10}{'cpu ms':>10}")
    med = {k: (statistics.median(walls[k]), statistics.median(cpus[k])) for k in walls}
    for name, (wall, cpu) in med.items():
        print(f"{name:<12}{wall:>10.0f}{cpu:>10.0f}")
    wall_ratio = med["playground"][0] / med["inspector"][0]
    cpu_ratio = med["playground"][1] / med["inspector"][1]
    verdict = "met" if wall_ratio <= GOAL_WALL else "NOT met"
    print(f"wall ratio playground/inspector: {wall_ratio:.2f}  (goal <= {GOAL_WALL}: {verdict})")
    print(f"cpu ratio  playground/inspector: {cpu_ratio:.2f}  (no goal; shown for reference)")


if __name__ == "__main__":
    main()
