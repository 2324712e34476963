"""Every user-facing performance figure in one table: measured, peer, ratio, goal, met.

Runs, in turn: :mod:`bench_first_screen` (the TUI until the contract list and the first
contract's form are shown in a 160×48 pty, then headless, beside a bare Textual app; the
memory of the whole process tree), :mod:`bench_call` (``call`` and ``call --mcp`` beside MCP Inspector's CLI as
npm installs it, the whole tree's CPU), :mod:`bench_gate` (the gate's validation and a full
cache miss, beside raw jsonschema), :mod:`bench_eval_memory` (``eval`` of 100,000 generated
cases in every output format) and :func:`bench_history.measure_listing` (listing 100,000
history entries). Each benchmark alternates its sides and reports medians; the machine's load
is printed with the table (a loaded machine stretches wall times, not CPU times).

Each part's rows are kept in ``.bench/run_all.json``; the table printed lists every part as
last measured, so ``--only history`` measures one part again and prints the whole table.
``--write-readme`` replaces the table in README.md between ``<!-- bench:start -->`` and
``<!-- bench:end -->`` (the README's performance table is this script's output, never edited
by hand). ``--quick`` runs fewer rounds and 20,000 eval cases (for a check, not a figure).

Run from the repository root: ``python bench/run_all.py [--quick] [--write-readme]``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

START, END = "<!-- bench:start -->", "<!-- bench:end -->"


@dataclass
class Row:
    """One line of the table."""

    what: str
    measured: str
    peer: str
    ratio: str
    goal: str
    met: bool | None  # None: not measured (say why in ``measured``)

    def cells(self) -> list[str]:
        verdict = "-" if self.met is None else ("met" if self.met else "NOT met")
        return [self.what, self.measured, self.peer, self.ratio, self.goal, verdict]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def tui_rows(runs: int) -> list[Row]:
    from bench_first_screen import measure

    f = measure(runs)
    pg, bare = f["playground"], f["bare"]
    wall, cpu = pg["wall_s"] / bare["wall_s"], pg["cpu_s"] / bare["cpu_s"]
    return [
        Row(
            "TUI until the contract list and the first form (pty 160×48)",
            f"{_ms(pg['wall_s'])} wall, {_ms(pg['cpu_s'])} CPU",
            f"bare Textual app {_ms(bare['wall_s'])}, {_ms(bare['cpu_s'])} CPU",
            f"{wall:.1f}× wall, {cpu:.1f}× CPU",
            "≤ 3× (wall and CPU)",
            wall <= 3 and cpu <= 3,
        ),
        Row(
            "TUI memory, process tree (worker included)",
            f"{pg['pss_mib']:.0f} MiB PSS ({pg['uss_mib']:.0f} USS, {pg['rss_mib']:.0f} RSS)",
            f"bare app {bare['pss_mib']:.0f} MiB PSS",
            f"{pg['pss_mib'] / bare['pss_mib']:.1f}×",
            "≤ 90 MiB",
            pg["pss_mib"] <= 90,
        ),
    ]


def headless_rows(runs: int) -> list[Row]:
    from bench_first_screen import measure_headless

    f = measure_headless(runs)
    pg, bare = f["playground"], f["bare"]
    wall, cpu = pg["wall_s"] / bare["wall_s"], pg["cpu_s"] / bare["cpu_s"]
    return [
        Row(
            "TUI until the contract list and the first form (headless 160×48)",
            f"{_ms(pg['wall_s'])} wall, {_ms(pg['cpu_s'])} CPU, {pg['pss_mib']:.0f} MiB PSS",
            f"bare Textual app {_ms(bare['wall_s'])}, {_ms(bare['cpu_s'])} CPU",
            f"{wall:.1f}× wall, {cpu:.1f}× CPU",
            "≤ 3× (wall and CPU)",
            wall <= 3 and cpu <= 3,
        )
    ]


def call_rows(runs: int) -> list[Row]:
    from bench_call import measure

    f = measure(runs)
    rows = []
    for mine, peer, goal, what in (
        ("call", "inspector", 0.2, "`call` (default worker) vs Inspector CLI"),
        (
            "call --mcp",
            "inspector-shop",
            0.7,
            "`call --mcp` on the same Python server vs Inspector",
        ),
    ):
        m = f[mine]
        if peer not in f:
            rows.append(
                Row(what, _ms(m["wall_s"]), "Inspector not installed (npm)", "-", "-", None)
            )
            continue
        p = f[peer]
        wall, cpu = m["wall_s"] / p["wall_s"], m["cpu_s"] / p["cpu_s"]
        rows.append(
            Row(
                what,
                f"{_ms(m['wall_s'])} wall, {_ms(m['cpu_s'])} CPU",
                f"{_ms(p['wall_s'])} wall, {_ms(p['cpu_s'])} CPU",
                f"{wall:.2f}× wall, {cpu:.2f}× CPU",
                f"≤ {goal}× wall",
                wall <= goal,
            )
        )
    return rows


def gate_rows(rounds: int) -> list[Row]:
    from bench_gate import measure

    cpu, _wall = measure(2000, rounds)
    rows = []
    for mine, peer, goal, what in (
        ("gate validation", "raw validation", 1.2, "gate validation of args + result"),
        ("gate miss", "body + raw validation", 2.0, "a full cache miss"),
    ):
        ratio = cpu[mine] / cpu[peer]
        rows.append(
            Row(
                what,
                f"{cpu[mine]:.0f} µs CPU",
                f"{peer} {cpu[peer]:.0f} µs",
                f"{ratio:.2f}×",
                f"≤ {goal}×",
                ratio <= goal,
            )
        )
    return rows


def eval_rows(cases: int) -> list[Row]:
    from bench_eval_memory import measure

    f = measure(cases)
    table = f["table"]
    others = ", ".join(f"{fmt} {v['peak_mib']:.0f}" for fmt, v in f.items() if fmt != "table")
    return [
        Row(
            f"`eval` of {cases:,} cases, default table output",
            f"{table['peak_mib']:.0f} MiB peak, first result line {table['first_s']:.2f} s "
            f"(all in {table['total_s']:.0f} s)",
            "-",
            "-",
            "< 100 MiB, first line ≤ 2 s",
            table["peak_mib"] < 100 and table["first_s"] <= 2,
        ),
        Row(
            f"`eval` of {cases:,} cases, other formats",
            f"peak MiB: {others}",
            "-",
            "-",
            "flat (< 100 MiB) in every format",
            all(v["peak_mib"] < 100 for v in f.values()),
        ),
    ]


def history_rows(rounds: int) -> list[Row]:
    from bench_history import measure_listing

    f = measure_listing(100_000, rounds)
    return [
        Row(
            "`history` listing 100,000 entries",
            f"{_ms(f['table_s'])} wall, {_ms(f['table_cpu_s'])} CPU (end to end {_ms(f['cli_s'])})",
            f"`--help` {_ms(f['help_s'])}",
            f"{f['table_s'] / f['help_s']:.2f}× `--help`",
            "≤ 300 ms",
            f["table_s"] <= 0.3,
        )
    ]


SAVED = REPO / ".bench" / "run_all.json"


def _load_saved() -> dict[str, dict[str, Any]]:
    """The rows of each part as last measured (``.bench/run_all.json``), ``{}`` when none."""
    try:
        data: dict[str, dict[str, Any]] = json.loads(SAVED.read_text(encoding="utf-8"))
        return data
    except (OSError, ValueError):
        return {}


HEAD = ["what the user waits for", "measured", "peer / floor", "ratio", "goal", "met"]


def markdown(rows: list[Row], caption: str) -> str:
    lines = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    lines += ["| " + " | ".join(r.cells()) + " |" for r in rows]
    return "\n".join([*lines, "", caption])


def write_readme(text: str, readme: Path = REPO / "README.md") -> None:
    """Put ``text`` between the markers of ``readme`` (appended with a heading when absent)."""
    body = readme.read_text(encoding="utf-8")
    block = f"{START}\n{text}\n{END}"
    if START in body and END in body:
        head, rest = body.split(START, 1)
        body = head + block + rest.split(END, 1)[1]
    else:
        body = body.rstrip("\n") + "\n\n## Performance\n\n" + block + "\n"
    readme.write_text(body, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, 20,000 eval cases")
    parser.add_argument("--write-readme", action="store_true", help="update README.md's table")
    parser.add_argument(
        "--eval-cases", type=int, default=0, help="cases for eval (default 100,000; 20,000 quick)"
    )
    parser.add_argument(
        "--only",
        default="tui,headless,call,gate,eval,history",
        help="comma-separated parts to run",
    )
    opts = parser.parse_args()
    runs = 3 if opts.quick else 7
    parts: dict[str, Callable[[], list[Row]]] = {
        "tui": lambda: tui_rows(runs),
        "headless": lambda: headless_rows(runs),
        "call": lambda: call_rows(runs),
        "gate": lambda: gate_rows(5 if opts.quick else 15),
        "eval": lambda: eval_rows(opts.eval_cases or (20_000 if opts.quick else 100_000)),
        "history": lambda: history_rows(3 if opts.quick else 5),
    }
    for name in [n for n in opts.only.split(",") if n]:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        load_before = os.getloadavg()[0]
        rows = parts[name]()
        saved = _load_saved()  # read again: another run may have saved a part meanwhile
        saved[name] = {
            "rows": [asdict(r) for r in rows],
            "when": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "load": [load_before, os.getloadavg()[0]],
            "quick": opts.quick,
        }
        SAVED.parent.mkdir(exist_ok=True)
        SAVED.write_text(json.dumps(saved, ensure_ascii=False, indent=1), encoding="utf-8")
    # the table: every part, in order, as last measured (this run's parts, and earlier ones)
    saved = _load_saved()
    shown = [name for name in parts if name in saved]
    rows = [Row(**r) for name in shown for r in saved[name]["rows"]]
    loads = [x for name in shown for x in saved[name]["load"]]
    times = sorted({saved[name]["when"] for name in shown})
    when = times[0] if len(times) == 1 else f"{times[0]} to {times[-1]}"
    quick = [name for name in shown if saved[name].get("quick")]
    caption = (
        f"Measured by `python bench/run_all.py` on {when}, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} cores, 1-minute load {min(loads):.1f}–{max(loads):.1f} during the run "
        "(medians of alternated runs; wall times stretch under load, CPU times much less)."
        + (f" Quick runs (fewer rounds): {', '.join(quick)}." if quick else "")
    )
    text = markdown(rows, caption)
    print(text)
    if opts.write_readme:
        write_readme(text)
        print("README.md updated", file=sys.stderr)


if __name__ == "__main__":
    main()
