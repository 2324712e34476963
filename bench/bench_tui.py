"""Benchmark: the TUI's first screen, memory and quit time against a bare Textual app (issue 13
item 6).

Each run is a fresh ``python`` process (imports included) running headless at 80×24, started
alternately for the two sides within one run of this script:

* ``bare`` -- ``App`` with ``Header() + Static("hello") + Footer()``;
* ``playground`` -- ``PlaygroundApp`` on ``./tools`` (history off, state in a temp
  ``XDG_STATE_HOME``), tool bodies in the default worker process.

Measured per run: *first screen* -- wall ms from starting the process to the app's first
refresh after mount (the parent's clock, from ``Popen`` to the child's ``ready`` line), and the
CPU ms the child had used by then (user + system, ``getrusage``: interpreter start-up included);
*tools loaded* (playground only) -- the same clock to the moment the registry worker has
delivered the contracts; *RSS* -- the child's peak resident set (``ru_maxrss``, MiB) once loaded;
*quit* -- wall ms from ``action_quit`` (what ctrl+q runs) to ``App.run`` returning (includes
ending the tool worker process). Prints medians with each goal beside it: first screen ≤ 1.5×
bare, RSS ≤ 80 MiB, quit ≤ 0.3 s.

Run from the repository root: ``python bench/bench_tui.py [-n 7]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, resource, sys, time

def cpu_ms():
    r = resource.getrusage(resource.RUSAGE_SELF)  # microseconds (os.times ticks at 10 ms)
    return (r.ru_utime + r.ru_stime) * 1000

side = sys.argv[1]
from textual.app import App
from textual.widgets import Footer, Header, Static

marks = {}

def mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

if side == "bare":
    class Bare(App):
        def compose(self):
            yield Header()
            yield Static("hello")
            yield Footer()
        def on_mount(self):
            self.call_after_refresh(first)
    app = Bare()
    def first():
        print("ready", cpu_ms(), flush=True)
        marks["rss_mib"] = mib()
        app.call_later(quit_now)
else:
    from pathlib import Path
    import playground.tui.app as tui_app
    from playground.tui.app import PlaygroundApp
    class Timed(PlaygroundApp):
        CSS_PATH = str(Path(tui_app.__file__).with_name(PlaygroundApp.CSS_PATH))
        def on_mount(self):
            super().on_mount()
            self.call_after_refresh(first)
        def on_playground_app_loaded(self, event):
            self.call_after_refresh(loaded)
    def loaded():
        print("loaded", flush=True)
        marks["rss_mib"] = mib()
        app.call_later(quit_now)
    app = Timed(tools=[sys.argv[2]], no_history=True)
    def first():
        print("ready", cpu_ms(), flush=True)

def quit_now():
    marks["quit_start"] = time.perf_counter()
    app.call_later(app.action_quit)  # what ctrl+q runs

app.run(headless=True, size=(80, 24))
marks["quit_ms"] = (time.perf_counter() - marks["quit_start"]) * 1000
print(json.dumps(marks), flush=True)
"""


def one_run(side: str, env: dict[str, str]) -> dict[str, float]:
    """One child process: ``{"first_ms", "first_cpu_ms", "loaded_ms"?, "rss_mib", "quit_ms"}``."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, side, str(REPO / "tools")],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )
    assert child.stdout is not None
    out: dict[str, float] = {}
    for line in child.stdout:
        now = (time.perf_counter() - start) * 1000
        if line.startswith("ready"):
            out["first_ms"] = now
            out["first_cpu_ms"] = float(line.split()[1])
        elif line.strip() == "loaded":
            out["loaded_ms"] = now
        elif line.startswith("{"):
            data = json.loads(line)
            out["rss_mib"], out["quit_ms"] = data["rss_mib"], data["quit_ms"]
    child.wait(timeout=60)
    if child.returncode != 0 or "first_ms" not in out:
        raise SystemExit(f"{side} run failed (exit {child.returncode})")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=7, help="runs per side (alternated)")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as state:
        # Both sides import from byte code, as an installed package does: the warm-up runs
        # compile it into a temporary cache (PYTHONDONTWRITEBYTECODE in a developer's shell
        # would otherwise make every playground run compile its ~40 modules, ~100 ms of CPU,
        # while Textual's byte code was compiled at install).
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "XDG_STATE_HOME": state,
            "PYTHONPYCACHEPREFIX": str(Path(state) / "pycache"),
        }
        env.pop("PLAYGROUND_IN_PROCESS", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        runs: dict[str, list[dict[str, float]]] = {"bare": [], "playground": []}
        one_run("bare", env), one_run("playground", env)  # warm the OS file cache
        for _ in range(opts.n):
            for side in ("bare", "playground"):
                runs[side].append(one_run(side, env))

    def med(side: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[side])

    bare, pg = med("bare", "first_ms"), med("playground", "first_ms")
    bare_cpu, pg_cpu = med("bare", "first_cpu_ms"), med("playground", "first_cpu_ms")
    print(f"TUI start-up, {opts.n} alternated runs per side, headless 80x24, medians")
    print(f"  bare Textual app first screen      {bare:8.0f} ms wall  {bare_cpu:6.0f} ms CPU")
    print(f"  playground first screen            {pg:8.0f} ms wall  {pg_cpu:6.0f} ms CPU")
    print(f"    wall ratio {pg / bare:4.2f}x  goal <= 1.5x")
    print(f"    CPU ratio  {pg_cpu / bare_cpu:4.2f}x  goal <= 1.5x")
    print(f"  playground tools loaded            {med('playground', 'loaded_ms'):8.0f} ms")
    rss = med("playground", "rss_mib")
    print(
        f"  playground peak RSS (loaded)       {rss:8.1f} MiB goal <= 80 MiB "
        f"(bare {med('bare', 'rss_mib'):.1f} MiB)"
    )
    quit_ms = med("playground", "quit_ms")
    print(
        f"  playground quit (ctrl+q action)    {quit_ms:8.0f} ms   goal <= 300 ms "
        f"(bare {med('bare', 'quit_ms'):.0f} ms)"
    )


if __name__ == "__main__":
    main()
