"""Benchmark: what each performance trick of docs/performance.md gains, with the trick and without.

Each case runs two variants as fresh ``python`` processes, alternated run by run (the first
variant swapping every run, so machine load and cache warmth hit both alike), after one warm-up
run of each; it prints the median wall time and the median CPU time of the child (user +
system, ``os.wait4``) per variant, and the difference. Nothing in the package is changed: the
"without" variant reaches the same code another way.

* ``fast-exit``: ``playground call`` on a stdio MCP server (the SDK, pydantic and jsonschema
  loaded) through :func:`playground.cli.main.run` without arguments (the entry point: ends with
  :func:`playground.cli.fast_exit.leave`) against ``run(argv)`` (raises ``SystemExit``: the
  interpreter's normal teardown).
* ``mcp-imports``: importing the SDK's client session and Streamable HTTP client after
  :func:`playground.sources.mcp_imports.load_client_packages` against plain imports.
* ``lazy-commands``: building the Typer app with only ``call``'s module
  (``build_app("call")``, what ``playground call`` does) against every command module.
* ``startup-caches``: ``playground list --format json`` on ``./tools`` with the declaration and
  schema caches warm against an empty cache folder (google-genai imported to build the
  declarations, every schema checked against the metaschema).
* ``quick-valid`` / ``typer-quick``: ``playground call get_order_status order_id=HR20260604
  --tools tools`` (the default worker) as shipped, against the gate's quick valid turned off
  (``surely_valid`` replaced: jsonschema validates every call) / against typer's own pydantic
  coercion (:func:`playground.cli.quick_params.install` replaced).
* ``tui-gc-pause`` / ``tui-css-split``: the TUI's first screen (headless, 80x24, to the first
  refresh after mount, as ``bench/bench_tui.py`` times it) as shipped, against the collector
  left running (``on_load`` replaced) / against every TCSS file given in ``CSS_PATH``.

Run from the repository root: ``python bench/bench_tricks.py [-n 9] [CASE ...]``.
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
PY = sys.executable
MCP_SERVER = f"{PY} fixtures/mcp_shop_server.py"
CALL_ARGS = [
    "call",
    "get_order_status",
    "order_id=HR99999999",
    "--mcp",
    MCP_SERVER,
    "--format",
    "json",
    "--no-history",
]
#: ``playground call`` on the default worker (./tools)
WORKER_CALL_ARGS = [
    "call",
    "get_order_status",
    "order_id=HR20260604",
    "--tools",
    "tools",
    "--format",
    "json",
    "--no-history",
]

TUI_CHILD = r"""
import gc, resource, sys
from pathlib import Path
import playground.tui.app as tui_app
from playground.tui.app import PlaygroundApp

def cpu_ms():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return (r.ru_utime + r.ru_stime) * 1000

variant = sys.argv[1]
here = Path(tui_app.__file__).parent
css = [str(here / "app.tcss")]
if variant == "css-at-start":
    css += [str(here / "call.tcss"), str(here / "views.tcss")]

class Timed(PlaygroundApp):
    CSS_PATH = css
    if variant == "gc-running":
        def on_load(self):
            pass
    def on_mount(self):
        super().on_mount()
        self.call_after_refresh(self.first)
    def first(self):
        print("ready", cpu_ms(), flush=True)
        self.exit()

Timed(tools=[sys.argv[2]], no_history=True).run(headless=True, size=(80, 24))
"""


def _cli(code: str, *args: str) -> list[str]:
    return [PY, "-c", code, *args]


#: case -> (variant with the trick, variant without), each (label, argv, extra env)
CASES: dict[str, tuple[tuple[str, list[str], dict[str, str]], ...]] = {
    "fast-exit": (
        (
            "with (fast exit)",
            _cli("from playground.cli.main import run; run()", *CALL_ARGS),
            {},
        ),
        (
            "without (normal teardown)",
            _cli("import sys; from playground.cli.main import run; run(sys.argv[1:])", *CALL_ARGS),
            {},
        ),
    ),
    "mcp-imports": (
        (
            "with (deferred __init__)",
            _cli(
                "from playground.sources.mcp_imports import load_client_packages; "
                "load_client_packages(); import mcp.client.session, mcp.client.streamable_http"
            ),
            {},
        ),
        (
            "without",
            _cli("import mcp.client.session, mcp.client.streamable_http"),
            {},
        ),
    ),
    "lazy-commands": (
        (
            "with (call's module)",
            _cli("from playground.cli.main import build_app as b; b('call')"),
            {},
        ),
        ("without (every module)", _cli("from playground.cli.main import build_app as b; b()"), {}),
    ),
    "startup-caches": (
        ("with (warm caches)", [PY, "-m", "playground", "list", "--format", "json"], {}),
        (
            "without (empty cache folder)",
            [PY, "-m", "playground", "list", "--format", "json"],
            {"EMPTY_CACHE": "1"},
        ),
    ),
    "quick-valid": (
        (
            "with (jsonschema-rs says valid)",
            _cli("from playground.cli.main import run; run()", *WORKER_CALL_ARGS),
            {},
        ),
        (
            "without (jsonschema every call)",
            _cli(
                "import playground.core.validation as v; v.surely_valid = lambda s, i: False; "
                "from playground.cli.main import run; run()",
                *WORKER_CALL_ARGS,
            ),
            {},
        ),
    ),
    "typer-quick": (
        (
            "with (quick coercion)",
            _cli("from playground.cli.main import run; run()", *WORKER_CALL_ARGS),
            {},
        ),
        (
            "without (typer's pydantic adapters)",
            _cli(
                "import playground.cli.quick_params as q; q.install = lambda: None; "
                "from playground.cli.main import run; run()",
                *WORKER_CALL_ARGS,
            ),
            {},
        ),
    ),
    "tui-gc-pause": (
        ("with (collector paused)", [PY, "-c", TUI_CHILD, "shipped", "tools"], {}),
        ("without (collector running)", [PY, "-c", TUI_CHILD, "gc-running", "tools"], {}),
    ),
    "tui-css-split": (
        ("with (app.tcss first)", [PY, "-c", TUI_CHILD, "shipped", "tools"], {}),
        ("without (all TCSS at start)", [PY, "-c", TUI_CHILD, "css-at-start", "tools"], {}),
    ),
}


def one_run(argv: list[str], env: dict[str, str], state: Path) -> tuple[float, float]:
    """Wall ms (to the ``ready`` line when the child prints one, else to its exit) and the
    child's CPU ms."""
    env = dict(env)
    if env.pop("EMPTY_CACHE", None):
        env["PLAYGROUND_CACHE_DIR"] = tempfile.mkdtemp(dir=state)
    start = time.perf_counter()
    child = subprocess.Popen(
        argv, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert child.stdout is not None
    wall = 0.0
    for line in child.stdout:
        if line.startswith("ready"):
            wall = (time.perf_counter() - start) * 1000
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = wall or (time.perf_counter() - start) * 1000
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:4])}...: exit {child.returncode}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=9, help="runs per variant (alternated)")
    parser.add_argument("cases", nargs="*", help=f"default: every case ({', '.join(CASES)})")
    opts = parser.parse_args()
    unknown = [c for c in opts.cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}; the cases are {', '.join(CASES)}")
    with tempfile.TemporaryDirectory() as folder:
        state = Path(folder)
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "XDG_STATE_HOME": str(state),
            "PLAYGROUND_CACHE_DIR": str(state / "cache"),
            "PYTHONPYCACHEPREFIX": str(state / "pycache"),
        }
        env.pop("PLAYGROUND_IN_PROCESS", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        print(f"load average at start: {os.getloadavg()[0]:.1f}; {opts.n} runs per variant")
        for case in opts.cases or list(CASES):
            variants = CASES[case]
            for _, argv, extra in variants:  # warm-up: byte code and caches
                one_run(argv, {**env, **extra}, state)
            times: list[list[tuple[float, float]]] = [[] for _ in variants]
            for i in range(opts.n):
                order = range(len(variants)) if i % 2 == 0 else reversed(range(len(variants)))
                for k in order:
                    _, argv, extra = variants[k]
                    times[k].append(one_run(argv, {**env, **extra}, state))
            print(f"\n{case}")
            medians = []
            for (label, _, _), runs in zip(variants, times):
                wall = statistics.median(t[0] for t in runs)
                cpu = statistics.median(t[1] for t in runs)
                medians.append((wall, cpu))
                print(f"  {label:32} wall {wall:8.1f} ms   cpu {cpu:8.1f} ms")
            (w1, c1), (w2, c2) = medians
            print(f"  {'gain':32} wall {w2 - w1:8.1f} ms   cpu {c2 - c1:8.1f} ms")


if __name__ == "__main__":
    main()
