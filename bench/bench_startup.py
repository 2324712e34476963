"""Benchmark: command-line start-up time (subprocess wall time, best of N).

Cases: ``python -c pass`` (the floor), ``python -c "import playground.workbench"``,
``playground --help``, and ``playground call get_order_status order_id=HR00000000`` with a
warm declaration cache and with a cold one (an empty ``PLAYGROUND_CACHE_DIR``, so google-genai
is imported to build the declarations). ``playground`` is run as ``python -m playground`` so
the numbers do not depend on how the console script was installed. Prints a table of the best
and median times in ms and the ratio to ``python -c pass``.

Run from the repository root: ``python bench/bench_startup.py [-n 7]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def timed(
    cmd: list[str], env: dict[str, str], runs: int, fresh_cache: bool = False
) -> tuple[float, float, int]:
    """(best ms, median ms, last return code) of ``runs`` runs of ``cmd``."""
    times, code = [], 0
    for _ in range(runs):
        run_env = dict(env)
        if fresh_cache:
            run_env["PLAYGROUND_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-cold-")
        started = time.perf_counter()
        done = subprocess.run(
            cmd, env=run_env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        times.append((time.perf_counter() - started) * 1000)
        code = done.returncode
        if code not in (0, 1):
            print(
                f"  ! {' '.join(cmd[2:])} exited {code}: {done.stderr.decode(errors='replace')[-300:]}",
                file=sys.stderr,
            )
            break
    return min(times), statistics.median(times), code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "-n", "--runs", type=int, default=7, help="runs per case; the best is reported (default 7)"
    )
    opts = parser.parse_args()

    py = sys.executable
    warm_dir = tempfile.mkdtemp(prefix="bench-warm-")
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PLAYGROUND_CACHE_DIR": warm_dir,
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }
    call = [
        py,
        "-m",
        "playground",
        "call",
        "get_order_status",
        "order_id=HR00000000",
        "--tools",
        "tools",
    ]
    # warm the declaration cache once
    subprocess.run(call, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    cases = [
        ("python -c pass", [py, "-c", "pass"], False),
        ("import playground.workbench", [py, "-c", "import playground.workbench"], False),
        ("playground --help", [py, "-m", "playground", "--help"], False),
        ("playground call (warm decl cache)", call, False),
        ("playground call (cold decl cache)", call, True),
    ]
    rows = []
    for label, cmd, cold in cases:
        best, median, code = timed(cmd, env, opts.runs, fresh_cache=cold)
        rows.append((label, best, median, code))
    floor = rows[0][1]
    print(f"python {sys.version.split()[0]}, best of {opts.runs} runs (wall time of a subprocess)")
    print(f"{'case':<36}{'best ms':>10}{'median ms':>11}{'x pass':>8}{'exit':>6}")
    for label, best, median, code in rows:
        print(f"{label:<36}{best:>10.0f}{median:>11.0f}{best / floor:>8.1f}{code:>6}")


if __name__ == "__main__":
    main()
