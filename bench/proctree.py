"""Whole-process-tree figures for the benchmarks (Linux): CPU of every descendant, memory of
the tree, and medians of alternated runs.

* :func:`adopt_orphans` makes this process a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``),
  so a grandchild left running by a command that exits without waiting for it (a worker
  process, a server an MCP client does not reap) is re-parented here; :func:`reap_all` then
  waits for it, and its CPU time lands in ``RUSAGE_CHILDREN`` like everyone else's.
* :func:`run_tree` runs one command: wall time to the command's exit (what the user waits
  for) and CPU time (user + system) of the command and every descendant, reaped.
* :func:`tree_pids`, :func:`tree_cpu_s` and :func:`tree_memory_mib` read ``/proc`` for a
  running tree: CPU so far, and the sum of PSS / USS / RSS (``smaps_rollup``, kB) over it.
* :func:`alternate` runs the sides of a comparison in alternating order and returns medians.
"""

from __future__ import annotations

import ctypes
import os
import resource
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
TICK = os.sysconf("SC_CLK_TCK")


def adopt_orphans() -> bool:
    """Become a child subreaper (``True`` when the kernel agreed)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def reap_all(timeout_s: float = 30.0) -> None:
    """Wait for every child (adopted orphans included) to exit, at most ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.005)


def children_cpu_s() -> float:
    """User + system seconds of every reaped descendant so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_tree(
    cmd: Sequence[str], *, cwd: str | Path | None = None, env: dict[str, str] | None = None
) -> tuple[float, float, str]:
    """(wall s to the command's exit, CPU s of the whole tree, stdout) of one run. Raises
    ``RuntimeError`` with the end of stderr when the command fails."""
    cpu0 = children_cpu_s()
    started = time.perf_counter()
    done = subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    reap_all()
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr[-400:]}")
    return wall, children_cpu_s() - cpu0, done.stdout


def tree_pids(root: int) -> list[int]:
    """``root`` and every descendant alive now (from ``/proc/*/task/*/children``)."""
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                todo += [int(p) for p in (task / "children").read_text().split()]
            except OSError:
                pass
    return pids


def tree_cpu_s(root: int) -> float:
    """User + system seconds used so far by ``root`` and its live descendants (``/proc/PID/stat``,
    clock ticks), plus what their reaped children used."""
    total = 0
    for pid in tree_pids(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime stime cutime cstime: fields 14..17 of stat, 12..15 after the ")" split
        total += sum(int(x) for x in fields[11:15])
    return total / TICK


def tree_memory_mib(root: int) -> dict[str, float]:
    """``{"pss", "uss", "rss"}`` MiB summed over ``root`` and its live descendants."""
    sums = {"pss": 0, "uss": 0, "rss": 0}
    for pid in tree_pids(root):
        try:
            text = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        kb = {}
        for line in text.splitlines()[1:]:
            key, _, rest = line.partition(":")
            kb[key] = int(rest.split()[0]) if rest.split() else 0
        sums["pss"] += kb.get("Pss", 0)
        sums["rss"] += kb.get("Rss", 0)
        sums["uss"] += kb.get("Private_Clean", 0) + kb.get("Private_Dirty", 0)
    return {k: v / 1024 for k, v in sums.items()}


def alternate(
    sides: dict[str, Callable[[], dict[str, float]]], runs: int
) -> dict[str, dict[str, float]]:
    """Run each side ``runs`` times, the order rotating run by run (machine load hits all
    alike); the median of every figure per side."""
    names = list(sides)
    got: dict[str, list[dict[str, float]]] = {n: [] for n in names}
    for i in range(runs):
        for name in names[i % len(names) :] + names[: i % len(names)]:
            got[name].append(sides[name]())
    return {
        n: {k: statistics.median(r[k] for r in rows) for k in rows[0]} for n, rows in got.items()
    }


def load() -> str:
    """The 1-minute load average and the core count, for a figure's caption."""
    return f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
