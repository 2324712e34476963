"""Benchmark: ``playground list`` with 300 tools against 30 (issue 8, "Speed": goal ≤ 2×).

Generates two folders of tool modules in a temporary folder -- 30 and 300 tools, ten per module,
half plain functions with a ``returns`` schema in ``__contracts__``, half seed-003 ``TOOLS``
table entries (whose argument and ``returns`` schemas are checked too) -- and runs
``python -m playground list --tools DIR --format json`` on each as a subprocess, alternating the
two sides round by round after a warm-up run of each (so the declaration cache and the schema
check cache, both in a private ``PLAYGROUND_CACHE_DIR``, are warm). Prints the medians of CPU
time (the child's user + system time, ``resource.getrusage(RUSAGE_CHILDREN)``) and wall time in
milliseconds, then the ratio beside its goal and whether it is met (on CPU time).

Run: ``python bench/bench_list.py [--rounds R] [--small 30] [--large 300]``.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PER_MODULE = 10
GOAL = 2.0


def _function_tool(i: int) -> str:
    return f'''
def lookup_{i}(item_id: str, region: str = "seoul", limit: int = 3) -> dict:
    """Look up item {i} in one region.

    Args:
        item_id: the item's id. e.g. IT-{i:03d}
        region: a city, lower case. e.g. seoul
        limit: how many rows, 1..5
    """
    return {{"item_id": item_id, "rows": []}}
'''


def _returns(i: int) -> dict[str, Any]:
    item = {
        "type": "object",
        "required": ["store", "count"],
        "properties": {
            "store": {"type": "string", "minLength": 1},
            "count": {"type": "integer", "minimum": 0, "maximum": 1000 + i},
        },
    }
    return {
        "type": "object",
        "required": ["item_id", "rows"],
        "max_rows": 5,
        "properties": {
            "item_id": {"type": "string", "pattern": "^IT-[0-9]{3}$"},
            "rows": {"type": "array", "items": item},
        },
    }


def _table_entry(i: int) -> dict[str, Any]:
    return {
        "description": f"Stock of one SKU ({i}).",
        "args": {
            "sku": {"type": "str", "required": True, "pattern": "^[A-Z]{2}-[0-9]{3}$"},
            "region": {"type": "str", "required": True, "allowed": ["seoul", "busan"]},
            "limit": {"type": "int", "required": True, "min": 1, "max": 5 + i},
        },
        "returns": {
            "keys": {"sku": "str", "rows": "list"},
            "rows": {"max_len": 5, "item": {"store": "str", "count": "int"}, "min": {"count": 0}},
        },
    }


def _module(first: int) -> str:
    """Ten tools numbered from ``first``: five plain functions, five table entries."""
    funcs = range(first, first + PER_MODULE // 2)
    table = range(first + PER_MODULE // 2, first + PER_MODULE)
    parts = [_function_tool(i) for i in funcs]
    parts += [f"\ndef stock_{i}(sku, region, limit):\n    return {{'rows': []}}\n" for i in table]
    parts.append(f"\n__tools__ = [{', '.join(f'lookup_{i}' for i in funcs)}]\n")
    contracts = {f"lookup_{i}": {"returns": _returns(i)} for i in funcs}
    parts.append(f"__contracts__ = {contracts!r}\n")
    entries = ", ".join(
        f"{f'stock_{i}'!r}: {{**{_table_entry(i)!r}, 'fn': stock_{i}}}" for i in table
    )
    parts.append(f"TOOLS = {{{entries}}}\n")
    return "".join(parts)


def _folder(base: Path, tools: int) -> Path:
    folder = base / f"tools_{tools}"
    folder.mkdir()
    for m in range(tools // PER_MODULE):
        (folder / f"mod_{m:03d}.py").write_text(_module(m * PER_MODULE), encoding="utf-8")
    return folder


def _run(folder: Path, env: dict[str, str], expect: int) -> tuple[float, float]:
    """(CPU ms, wall ms) of one ``playground list`` subprocess on ``folder``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "playground", "list", "--tools", str(folder), "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    wall = (time.perf_counter() - wall0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 or len(json.loads(proc.stdout)) != expect:
        raise SystemExit(f"list failed on {folder}: {proc.stderr.strip()[:400]}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="alternated rounds (medians)")
    parser.add_argument("--small", type=int, default=30, help="tools on the small side")
    parser.add_argument("--large", type=int, default=300, help="tools on the large side")
    opts = parser.parse_args()

    base = Path(tempfile.mkdtemp(prefix="bench-list-"))
    atexit.register(shutil.rmtree, base, True)
    env = {**os.environ, "PLAYGROUND_CACHE_DIR": str(base / "cache"), "PYTHONPATH": str(ROOT)}
    sides = {opts.small: _folder(base, opts.small), opts.large: _folder(base, opts.large)}
    for n, folder in sides.items():  # warm-up: fills the declaration and schema caches
        _run(folder, env, n)
    cpu: dict[int, list[float]] = {n: [] for n in sides}
    wall: dict[int, list[float]] = {n: [] for n in sides}
    order = list(sides)
    for r in range(opts.rounds):
        for n in order if r % 2 == 0 else reversed(order):
            c, w = _run(sides[n], env, n)
            cpu[n].append(c)
            wall[n].append(w)
    print(
        f"python {sys.version.split()[0]}; playground list --format json; "
        f"{opts.rounds} alternated rounds, warm caches; medians"
    )
    print(f"{'tools':>6}{'CPU ms':>10}{'wall ms':>10}")
    for n in sides:
        print(f"{n:>6}{statistics.median(cpu[n]):>10.1f}{statistics.median(wall[n]):>10.1f}")
    rc = statistics.median(cpu[opts.large]) / statistics.median(cpu[opts.small])
    rw = statistics.median(wall[opts.large]) / statistics.median(wall[opts.small])
    met = "yes" if rc <= GOAL else "NO"
    print(
        f"\nratio list {opts.large} / list {opts.small}: CPU {rc:.2f}, wall {rw:.2f}"
        f"   goal ≤ {GOAL:g} (CPU)   met: {met}"
    )


if __name__ == "__main__":
    main()
