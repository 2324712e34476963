"""Benchmark: what the worker-process tool source costs (issue 9).

1. Per call on a cache miss: the same gate call (``get_order_status`` with a fresh order id each
   time, so the body runs) through the worker source and the in-process source, alternated,
   CPU and wall medians per call; goal: the worker adds at most 1 ms.
2. ``playground call get_order_status order_id=HR20260604 --format json`` wall time with the
   worker (the default) and ``--in-process``, alternated, as subprocesses (absolute times; the
   comparison with MCP Inspector's CLI is made elsewhere).

Run from the repository root: ``python bench/bench_worker.py [-n 400] [--cli-runs 7]``.
"""

from __future__ import annotations

import argparse
import os
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


def cli(runs: int) -> None:
    cmd = [sys.executable, "-m", "playground", "call", "get_order_status"]
    cmd += ["order_id=HR20260604", "--format", "json"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    times: dict[str, list[float]] = {"worker": [], "in-process": []}
    for i in range(runs):
        for label in ("worker", "in-process") if i % 2 else ("in-process", "worker"):
            extra = ["--in-process"] if label == "in-process" else []
            started = time.perf_counter()
            done = subprocess.run(cmd + extra, cwd=REPO, env=env, capture_output=True)
            times[label].append((time.perf_counter() - started) * 1000)
            assert done.returncode == 0, done.stderr.decode()[-300:]
    print(f"\n`playground call get_order_status order_id=HR20260604 --format json`, {runs} runs:")
    for label, values in times.items():
        print(
            f"  {label:<11} median {statistics.median(values):7.1f} ms  best {min(values):7.1f} ms"
        )
    ratio = statistics.median(times["worker"]) / statistics.median(times["in-process"])
    print(f"  worker / in-process: {ratio:.2f}x (the MCP Inspector comparison is made elsewhere)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=400, help="calls per side")
    parser.add_argument("--cli-runs", type=int, default=7, help="CLI runs per side")
    opts = parser.parse_args()
    per_call(opts.n)
    cli(opts.cli_runs)


if __name__ == "__main__":
    main()
