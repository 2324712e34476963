"""Benchmark: the TUI's History tab (F5) on a history holding a few big records (issue: the
tester's 102-entry history with a 4 MB value, a 5.5 MB pasted argument and a 51 MB stdout flood
took 16.3 s to show its entries, and the TUI went from 62 MB to 219 MB RSS).

A history of that shape is written to a temp folder (99 small calls, then the three big ones),
then each measurement runs in a fresh subprocess (its own peak RSS: ``VmHWM``, which an
exec starts again, unlike ``ru_maxrss``), the cases
alternated round by round, medians printed:

* ``old page``: the first page as the History view read it before (``HistoryStore.entries(...,
  with_data=True)``: every record parsed).
* ``new page``: the first page as it reads it now (``HistoryStore.summaries``: the list's
  columns only), plus the detail line of the biggest entry (``HistoryStore.glance``).
* ``tui``: the app headless, F5, until the History view has loaded its first page (wall time
  from pressing F5, and the process's peak RSS).

Run: ``python bench/bench_history_big_records.py [--rounds R]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MB = 1024 * 1024

CASES = {
    "old page": """
from playground.history.queries import Query
from playground.history.store import HistoryStore
store = HistoryStore(DB)
t = time.perf_counter()
entries = store.entries(Query(limit=200), with_data=True)
took = time.perf_counter() - t
assert len(entries) == 102
""",
    "new page": """
from playground.history.queries import Query
from playground.history.store import HistoryStore
store = HistoryStore(DB)
t = time.perf_counter()
entries = store.summaries(Query(limit=200))
detail = store.glance(entries[0].id)
took = time.perf_counter() - t
assert len(entries) == 102 and detail is not None
""",
    "tui": """
import asyncio
from playground.tui.app import PlaygroundApp
from playground.tui.views.history_view import HistoryView

async def main():
    app = PlaygroundApp(tools=[TOOLS], history=DB)
    async with app.run_test(size=(120, 40)) as pilot:
        while app.pg is None:
            await pilot.pause(0.01)
        t = time.perf_counter()
        await pilot.press("f5")
        view = app.query_one(HistoryView)
        while view.loads < 1:
            await pilot.pause(0.01)
        await pilot.pause()
        return time.perf_counter() - t

took = asyncio.run(main())
""",
}

RUNNER = """
import json, sys, time
sys.path.insert(0, {root!r})
DB, TOOLS = {db!r}, {tools!r}
{body}
hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({{"s": took, "rss_mb": int(hwm.split()[1]) / 1024}}))
"""


def write_history(path: Path) -> None:
    """102 entries: 99 small calls, a 4 MB value, a 5.5 MB pasted argument, 51 MB printed."""
    from playground.history.entries import call_entry
    from playground.history.store import HistoryStore

    store = HistoryStore(path)
    for i in range(99):
        store.add(
            call_entry(
                {"tool": "get_order_status", "args": {"order_id": f"HR{i:04d}"}, "kind": "ok"}
            )
        )
    big = [
        {"tool": "big_value", "args": {}, "kind": "ok", "value": {"blob": "가" * (4 * MB // 3)}},
        {"tool": "echo", "args": {"text": "x" * int(5.5 * MB)}, "kind": "ok", "value": 1},
        {"tool": "flood", "args": {}, "kind": "ok", "printed": "y" * 51 * MB, "value": 1},
    ]
    for record in big:
        store.add(call_entry(record))
    store.close()


def run(case: str, db: Path) -> dict[str, float]:
    code = RUNNER.format(root=str(ROOT), db=str(db), tools=str(ROOT / "tools"), body=CASES[case])
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "history.db"
        started = time.perf_counter()
        write_history(db)
        size = db.stat().st_size / MB
        print(f"history: 102 entries, {size:.0f} MB ({time.perf_counter() - started:.1f} s)")
        results: dict[str, list[dict[str, float]]] = {c: [] for c in CASES}
        for _ in range(args.rounds):
            for case in CASES:
                results[case].append(run(case, db))
        for case, runs in results.items():
            seconds = statistics.median(r["s"] for r in runs)
            rss = statistics.median(r["rss_mb"] for r in runs)
            print(
                f"{case:>9}: {seconds * 1000:8.1f} ms   peak RSS {rss:6.1f} MB   ({len(runs)} runs)"
            )


if __name__ == "__main__":
    main()
