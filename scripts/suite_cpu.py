"""Where the test suite's CPU goes: a pytest plugin that records each test's CPU, and a report.

Wall time on a shared 2-core machine says little; CPU time does not depend on the load. Each
test process (an xdist worker, or the one process of ``-n 0``) appends one JSON line per test
to ``DIR/<worker>.jsonl``: the test's id, its wall time, the CPU its own process used
(``os.times``: user + system) and the CPU of the child processes it waited for
(``resource.getrusage(RUSAGE_CHILDREN)``: ``playground`` commands, tool workers, MCP servers,
and their own waited-for children), in seconds, setup and teardown included (a module-scoped
fixture counts for the first test that uses it)::

    SUITE_CPU_DIR=/tmp/cpu python -m pytest -p scripts.suite_cpu    # record (any pytest options)
    python scripts/suite_cpu.py /tmp/cpu [N]                          # report: folders, files, tests

The report sums by folder, then lists the N (default 30) files and tests that cost the most
CPU. A child killed by a signal after it was waited for is counted; one never waited for is
not (pytest's own processes and a server a test left running are not in the figures).
"""

from __future__ import annotations

import collections
import json
import os
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

_out: list[IO[str]] = []


def _cpu() -> tuple[float, float]:
    """(this process's CPU, its waited-for children's CPU), in seconds."""
    own = os.times()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.user + own.system, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    folder = os.environ.get("SUITE_CPU_DIR")
    if not folder:
        yield
        return
    if not _out:
        Path(folder).mkdir(parents=True, exist_ok=True)
        name = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _out.append(open(Path(folder) / f"{name}.jsonl", "a", encoding="utf-8"))  # noqa: SIM115
    wall, (own, children) = time.perf_counter(), _cpu()
    yield
    wall_after, (own_after, children_after) = time.perf_counter(), _cpu()
    line = {
        "id": item.nodeid,
        "wall": wall_after - wall,
        "self": own_after - own,
        "child": children_after - children,
    }
    _out[0].write(json.dumps(line) + "\n")
    _out[0].flush()


def pytest_unconfigure(config: pytest.Config) -> None:
    while _out:
        _out.pop().close()


def _table(title: str, sums: dict[str, list[float]], limit: int) -> None:
    print(f"\n{title}: tests  wall  self  children  (s)")
    for key, (count, wall, own, children) in sorted(
        sums.items(), key=lambda kv: -(kv[1][2] + kv[1][3])
    )[:limit]:
        print(f"{int(count):5d} {wall:7.1f} {own:6.1f} {children:6.1f}  {key}")


def report(folder: Path, limit: int = 30) -> None:
    """Print the sums by folder and the ``limit`` costliest files and tests."""
    rows: list[dict[str, Any]] = [
        json.loads(line) for path in folder.glob("*.jsonl") for line in path.open(encoding="utf-8")
    ]
    total_own = sum(r["self"] for r in rows)
    total_children = sum(r["child"] for r in rows)
    print(
        f"{len(rows)} tests: {total_own:.1f} s in the test processes, {total_children:.1f} s in children"
    )
    by_folder: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0, 0, 0])
    by_file: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0, 0, 0])
    by_test: dict[str, list[float]] = {}
    for r in rows:
        path = r["id"].split("::")[0]
        for sums in (by_folder[str(Path(path).parent)], by_file[path]):
            sums[0] += 1
            sums[1] += r["wall"]
            sums[2] += r["self"]
            sums[3] += r["child"]
        by_test[r["id"]] = [1, r["wall"], r["self"], r["child"]]
    _table("folders", by_folder, limit)
    _table("files", by_file, limit)
    _table("tests", by_test, limit)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python scripts/suite_cpu.py DIR [N]")
    report(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 30)
