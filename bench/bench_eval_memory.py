"""``playground eval`` of 100,000 generated cases in every output format: peak memory and the
time to the first result line.

The cases are ``fixtures/routing_cases.jsonl`` repeated until ``--cases`` lines, one in 50
replaced by a case the offline router fails (a wrong expected tool), so every format has
failing rows to write. Each format runs ``python -m playground eval CASES --tools tools --format F`` as a
subprocess writing to a pipe the benchmark reads line by line. Measured per run: *first line*
-- wall seconds from start to the first non-blank stdout line that carries a result (for
``table``: a failing question's row, or the first line when nothing fails; ``json``: the
first ``"case"`` key; ``jsonl``: the first line; ``junit``: the first ``<testcase``); *peak*
-- the child's peak resident set (``ru_maxrss`` of the reaped child, MiB, from
``os.wait4``); *total* -- wall seconds to exit. Goals (issue 25): the default (table) output
under 100 MiB with its first result line within 2 s; flat memory in every format.

Run from the repository root: ``python bench/bench_eval_memory.py [--cases 100000]
[--formats table,json,jsonl,junit]``. ``measure()`` returns the figures for ``run_all.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "fixtures" / "routing_cases.jsonl"
FORMATS = ("table", "json", "jsonl", "junit")
RESULT_MARK = {"table": "", "json": '"case"', "jsonl": "", "junit": "<testcase"}


def write_cases(path: Path, n: int) -> Path:
    """``n`` case lines: the bundled routing cases repeated."""
    lines = [
        line
        for line in CASES.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    wrong = json.dumps({"question": "HR20260621 택배 언제 와요?", "expect_tool": "check_stock"})
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):  # one case in 50 fails (a wrong expectation): rows to print
            out.write((wrong if i % 50 == 7 else lines[i % len(lines)]) + "\n")
    return path


def run_format(cases: Path, fmt: str, env: dict[str, str]) -> dict[str, float]:
    """One eval subprocess: ``{"first_s", "total_s", "peak_mib", "lines"}``."""
    cmd = [sys.executable, "-m", "playground", "eval", str(cases), "--tools", "tools"]
    cmd += ["--format", fmt]
    started = time.perf_counter()
    child = subprocess.Popen(
        cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert child.stdout is not None
    first = None
    lines = 0
    mark = RESULT_MARK[fmt]
    for line in child.stdout:
        lines += 1
        if first is None and line.strip() and mark in line:
            first = time.perf_counter() - started
    _, status, usage = os.wait4(child.pid, 0)
    total = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"eval --format {fmt} exited {child.returncode}")
    return {
        "first_s": first if first is not None else total,
        "total_s": total,
        "peak_mib": usage.ru_maxrss / 1024,
        "lines": lines,
    }


def measure(n: int = 100_000, formats: tuple[str, ...] = FORMATS) -> dict[str, dict[str, float]]:
    """Figures per format (see :func:`run_format`) for ``n`` generated cases."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "120"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        env["PLAYGROUND_CACHE_DIR"] = str(Path(tmp) / "cache")
        cases = write_cases(Path(tmp) / "cases.jsonl", n)
        return {fmt: run_format(cases, fmt, env) for fmt in formats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--formats", default=",".join(FORMATS))
    opts = parser.parse_args()
    figures = measure(opts.cases, tuple(opts.formats.split(",")))
    print(f"eval of {opts.cases} generated cases (load: {os.getloadavg()[0]:.2f})")
    print(f"{'format':<8}{'first line s':>14}{'total s':>10}{'peak MiB':>10}{'lines':>9}")
    for fmt, f in figures.items():
        print(
            f"{fmt:<8}{f['first_s']:>14.2f}{f['total_s']:>10.1f}{f['peak_mib']:>10.1f}"
            f"{int(f['lines']):>9}"
        )
    table = figures.get("table")
    if table:
        ok = table["peak_mib"] < 100 and table["first_s"] <= 2
        print(f"default output: < 100 MiB and first line <= 2 s: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
