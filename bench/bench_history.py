"""Benchmark: what the history costs (issue 14, "history never slows a call by more than 1 ms").

Two measurements, on real SQLite files in a temp folder:

1. **Writing an entry.** The same gate call (``get_order_status``, a cache miss: the body
   runs) timed without history and with ``record_run`` after it, the two sides alternated call
   by call. Prints the median wall and CPU time of each side, the added time per call, and the
   write alone (``record_run``), each beside its goal (≤ 1 ms).
2. **Listing 100,000 entries.** A file with ``--entries`` entries (default 100,000; calls and
   episodes with Korean questions, spread over 30 days), then medians (cases alternated round
   by round) of: every entry's list row (``HistoryStore.summary_rows``: what a list shows), the
   table lines ``playground history -n 0`` prints for them, the JSON Lines with each record,
   the same through the old path (``entries()`` building an ``Entry`` per row, with and without
   the parsed data) for comparison, the newest 50 with their data, filtered listings
   (``--tool``, ``--kind``, ``--question``, ``--since``, the TUI's filter box). Goal: ≤ 300 ms.
3. **The CLI end to end**: ``playground history -n 0`` (table, jsonl, json) and the default
   listing in a subprocess, beside ``playground --help`` (start-up alone).

Run: ``python bench/bench_history.py [--calls N] [--entries N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WRITE_GOAL_MS = 1.0
LIST_GOAL_MS = 300.0


def timed(fn: Callable[[], Any]) -> tuple[float, float]:
    """(wall ms, CPU ms) of one call of ``fn``."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def verdict(value: float, goal: float) -> str:
    return f"{value:8.3f} ms  (goal ≤ {goal:g} ms: {'ok' if value <= goal else 'OVER'}, ratio {value / goal:.2f})"


def bench_write(folder: Path, calls: int) -> None:
    from playground.history.runs import record_run
    from playground.history.store import HistoryStore
    from playground.workbench import open_playground

    pg = open_playground([ROOT / "tools" / "shop.py"], wire=True)
    store = HistoryStore(folder / "write.db")
    store.connection()  # open and migrate once, as the first write of a process does
    plain: list[tuple[float, float]] = []
    recorded: list[tuple[float, float]] = []
    write_only: list[tuple[float, float]] = []
    for i in range(calls):
        args = {"order_id": f"HR2026{i % 9000:04d}"}
        pg.gate.cache.clear()
        plain.append(timed(lambda a=args: pg.gate.call("get_order_status", a)))
        pg.gate.cache.clear()

        def with_history(a: dict[str, str] = args) -> None:
            record = pg.gate.call("get_order_status", a).to_json()
            record_run(store, pg.registry, "call", record, source="bench", origin="bench")

        recorded.append(timed(with_history))
        record = pg.gate.call("get_order_status", args).to_json()
        write_only.append(
            timed(lambda r=record: record_run(store, pg.registry, "call", r, source="bench"))
        )
    assert store.count() == 2 * calls
    print(f"write: {calls} calls each side, alternated (median)")
    for label, rows in (("call, no history", plain), ("call + history", recorded)):
        wall = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[1] for r in rows)
        print(f"  {label:<20} wall {wall:8.3f} ms   cpu {cpu:8.3f} ms")
    added_wall = statistics.median(r[0] for r in recorded) - statistics.median(r[0] for r in plain)
    added_cpu = statistics.median(r[1] for r in recorded) - statistics.median(r[1] for r in plain)
    print(f"  added per call, wall {verdict(added_wall, WRITE_GOAL_MS)}")
    print(f"  added per call, cpu  {verdict(added_cpu, WRITE_GOAL_MS)}")
    print(
        f"  record_run alone, wall {verdict(statistics.median(r[0] for r in write_only), WRITE_GOAL_MS)}"
    )
    print(
        f"  record_run alone, cpu  {verdict(statistics.median(r[1] for r in write_only), WRITE_GOAL_MS)}"
    )
    store.close()


def fill(path: Path, count: int) -> None:
    """``count`` entries in one transaction (the realistic shapes, not their real bodies)."""
    import json
    import sqlite3

    from playground.history.entries import call_entry, episode_entry, what_of
    from playground.history.store import HistoryStore

    store = HistoryStore(path)
    conn = store.connection()
    assert conn is not None
    now = time.time()
    tools = ["get_order_status", "track_shipping", "check_stock", "search_products"]
    kinds = ["ok", "ok", "ok", "invalid_args", "empty", "bad_result"]
    rows = []
    bodies = []
    for i in range(count):
        tool = tools[i % len(tools)]
        record = {
            "tool": tool,
            "args": {"order_id": f"HR{i:08d}"},
            "kind": kinds[i % len(kinds)],
            "verdict": "",
            "body_ran": True,
            "cache": "stored",
            "value": {"found": True},
        }
        if i % 5 == 0:
            entry = episode_entry(
                {
                    "question": f"텀블러 주문 {i} 어디쯤이에요?",
                    "router": "offline",
                    "end": "answered",
                    "calls": [record],
                }
            )
        else:
            entry = call_entry(record)
        created = now - (count - i) * (30 * 86400 / count)
        rows.append(
            (
                created,
                entry.type,
                entry.tool,
                f",{','.join(entry.tools)},",
                f",{','.join(entry.kinds)},",
                entry.outcome,
                entry.question,
                entry.router,
                "bench",
                None,
                what_of(entry.type, entry.data),
            )
        )
        bodies.append(
            ("bench", json.dumps({tool: "0" * 64}), json.dumps(entry.data, ensure_ascii=False))
        )
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO entries (created, type, tool, tools, kinds, outcome, question, router, "
        "origin, rerun_of, what) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    first = conn.execute("SELECT min(id) FROM entries").fetchone()[0]
    conn.executemany(
        "INSERT INTO bodies (id, source, hashes, data) VALUES (?,?,?,?)",
        [(first + n, *body) for n, body in enumerate(bodies)],
    )
    conn.execute("COMMIT")
    store.close()
    assert sqlite3.connect(path).execute("SELECT count(*) FROM entries").fetchone()[0] == count


def _sink(lines: Any) -> int:
    """Consume ``lines`` as the CLI writes them (its own chunked writer); returns the characters."""
    import io

    from playground.cli.cmd_history import write_lines

    out = io.StringIO()
    write_lines(lines, out)
    return out.tell()


def _sink_blocks(blocks: Any) -> int:
    """Consume ``blocks`` as the CLI writes the table (``write_blocks``); returns the characters."""
    import io

    from playground.cli.cmd_history import write_blocks

    out = io.StringIO()
    write_blocks(blocks, out)
    return out.tell()


def bench_list(folder: Path, count: int, rounds: int) -> None:
    from playground.cli import render
    from playground.cli.cmd_history import _table_blocks
    from playground.history.queries import Query
    from playground.history.store import HistoryStore

    path = folder / "list.db"
    started = time.perf_counter()
    fill(path, count)
    print(
        f"\nlist: {count:,} entries written in {time.perf_counter() - started:.1f} s; "
        f"median of {rounds} rounds, a fresh process-like connection each round"
    )
    every = Query(limit=None)
    cases: list[tuple[str, Callable[[HistoryStore], int], float | None]] = [
        ("every entry: list rows", lambda s: sum(1 for _ in s.summary_rows(every)), LIST_GOAL_MS),
        (
            "every entry: table lines (streamed)",
            lambda s: _sink_blocks(
                _table_blocks(s.summary_pages(every), s.summary_shape(every), render.console())
            ),
            LIST_GOAL_MS,
        ),
        ("every entry: jsonl with data", lambda s: _sink(s.json_lines(every)), None),
        ("before: Entry objects", lambda s: len(s.entries(every)), None),
        ("before: Entry objects + data", lambda s: len(s.entries(every, with_data=True)), None),
        (
            "newest 50 with data",
            lambda s: len(s.entries(Query(limit=50), with_data=True)),
            LIST_GOAL_MS,
        ),
        (
            "--tool check_stock (50)",
            lambda s: sum(1 for _ in s.summary_rows(Query(tool="check_stock"))),
            LIST_GOAL_MS,
        ),
        (
            "--kind bad_result (50)",
            lambda s: sum(1 for _ in s.summary_rows(Query(kind="bad_result"))),
            LIST_GOAL_MS,
        ),
        (
            "--question 텀블러 (50)",
            lambda s: sum(1 for _ in s.summary_rows(Query(question="텀블러"))),
            LIST_GOAL_MS,
        ),
        (
            "--since 1d (all)",
            lambda s: sum(1 for _ in s.summary_rows(Query(since=time.time() - 86400, limit=None))),
            LIST_GOAL_MS,
        ),
        (
            "TUI filter 'invalid' (page of 200)",
            lambda s: sum(1 for _ in s.summary_rows(Query(text="invalid", limit=200))),
            LIST_GOAL_MS,
        ),
    ]
    walls: dict[str, list[float]] = {label: [] for label, _, _ in cases}
    cpus: dict[str, list[float]] = {label: [] for label, _, _ in cases}
    sizes: dict[str, int] = {}
    for _ in range(rounds):  # the cases alternate round by round
        for label, run, _ in cases:
            store = HistoryStore(path)
            store.connection()
            out: list[int] = []
            wall, cpu = timed(lambda s=store, r=run, o=out: o.append(r(s)))
            walls[label].append(wall)
            cpus[label].append(cpu)
            sizes[label] = out[0]
            store.close()
    for label, _, goal in cases:
        wall, cpu = statistics.median(walls[label]), statistics.median(cpus[label])
        shown = verdict(wall, goal) if goal else f"{wall:8.3f} ms"
        print(f"  {label:<36} {sizes[label]:>11,}  wall {shown}  cpu {cpu:8.3f} ms")
    print("  (sizes: rows, or characters written for the line cases)")
    bench_cli(path, rounds)


def bench_cli(path: Path, rounds: int) -> None:
    """End to end: ``playground history -n 0`` in a subprocess, stdout to /dev/null, alternated
    with ``playground --help`` (the start-up it cannot avoid)."""
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    commands = {
        "playground --help (start-up)": ["--help"],
        "history -n 0 (table)": ["history", "--history", str(path), "-n", "0"],
        "history -n 0 --format jsonl": [
            "history",
            "--history",
            str(path),
            "-n",
            "0",
            "-f",
            "jsonl",
        ],
        "history -n 0 --format json": ["history", "--history", str(path), "-n", "0", "-f", "json"],
        "history (newest 50, table)": ["history", "--history", str(path)],
    }
    walls: dict[str, list[float]] = {k: [] for k in commands}
    for _ in range(rounds):
        for label, args in commands.items():
            started = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "playground", *args],
                stdout=subprocess.DEVNULL,
                env=env,
                check=True,
            )
            walls[label].append((time.perf_counter() - started) * 1000)
    base = statistics.median(walls["playground --help (start-up)"])
    print(f"\nCLI end to end, {rounds} alternated runs each (median wall; stdout to /dev/null)")
    for label, values in walls.items():
        wall = statistics.median(values)
        print(f"  {label:<36} {wall:8.1f} ms   beyond start-up {wall - base:8.1f} ms")


def measure_listing(count: int = 100_000, rounds: int = 5) -> dict[str, float]:
    """Medians over ``rounds`` alternated rounds on a file of ``count`` entries:
    ``table_s`` / ``table_cpu_s`` -- wall / CPU seconds of every entry's table lines in this
    process (what ``history -n 0`` prints, streamed to a buffer); ``cli_s`` -- ``playground history -n 0`` end to end in a subprocess
    (stdout to /dev/null); ``help_s`` -- ``playground --help`` (start-up alone)."""
    import os
    import subprocess

    from playground.cli import render
    from playground.cli.cmd_history import _table_blocks
    from playground.history.queries import Query
    from playground.history.store import HistoryStore

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    every = Query(limit=None)
    got: dict[str, list[float]] = {"table_s": [], "table_cpu_s": [], "cli_s": [], "help_s": []}
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        path = Path(tmp) / "list.db"
        fill(path, count)

        def table() -> None:
            store = HistoryStore(path)
            store.connection()
            _sink_blocks(
                _table_blocks(
                    store.summary_pages(every), store.summary_shape(every), render.console()
                )
            )
            store.close()

        def cli(*args: str) -> Callable[[], None]:
            cmd = [sys.executable, "-m", "playground", *args]
            return lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, env=env, check=True)

        sides = {
            "table_s": table,
            "cli_s": cli("history", "--history", str(path), "-n", "0"),
            "help_s": cli("--help"),
        }
        for run in sides.values():
            run()  # warm-up
        for i in range(rounds):
            for name in list(sides)[:: 1 if i % 2 == 0 else -1]:
                started, cpu = time.perf_counter(), time.process_time()
                sides[name]()
                got[name].append(time.perf_counter() - started)
                if name == "table_s":
                    got["table_cpu_s"].append(time.process_time() - cpu)
    return {name: statistics.median(values) for name, values in got.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="calls per side (default 300)")
    parser.add_argument(
        "--entries", type=int, default=100_000, help="entries to list (default 100,000)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds per listing (default 5)")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        bench_write(Path(tmp), opts.calls)
        bench_list(Path(tmp), opts.entries, opts.rounds)


if __name__ == "__main__":
    main()
