"""The TUI until its first useful screen -- the contract list AND the first contract's form --
in a real terminal (a pty at 160×48), beside a bare Textual app, with the memory of the whole
process tree.

Each run starts a fresh process on a new pseudo-terminal of 160×48 and feeds what it writes to
a terminal emulator (``pyte``); the screen is read after every chunk of output:

* ``bare`` -- a Textual ``App`` of ``Header() + Static("hello") + Footer()``: shown when
  "hello" is on the screen;
* ``playground`` -- ``python -m playground`` on ``./tools`` (bodies in the default worker
  process; state, history included, in a temporary ``XDG_STATE_HOME``): shown when every
  contract name of ``--expect`` is on the screen (the list) and the first contract's
  parameter labels are (its form).

Measured per run: *wall* -- seconds from starting the process to that screen; *CPU* -- user +
system seconds the whole tree (the app, the worker, their reaped children) had used by then
(``/proc/PID/stat``); *memory* -- PSS, USS and RSS summed over the tree (``smaps_rollup``) 0.5 s
after the screen was shown (the worker started in parallel is counted). Then ctrl+q and
the tree is reaped. The sides alternate; medians. Goals (issue 25): wall and CPU ≤ 3× the
bare app, tree memory ≤ 90 MiB.

``--headless`` runs the same two apps with Textual's headless driver at 160×48 instead (no
terminal; the screen is judged shown when the contract list has its modules and the form its
fields, after the next refresh -- a real one: Textual also runs after-refresh callbacks while
``App.batch_update`` defers the refresh, so the check waits for the batch to end first).

Run from the repository root: ``python bench/bench_first_screen.py [-n 7] [--dump] [--headless]``.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import select
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

import pyte

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from proctree import adopt_orphans, alternate, load, reap_all, tree_cpu_s, tree_memory_mib  # noqa: E402

COLS, ROWS = 160, 48
BARE = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Bare(App):
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer()

Bare().run()
"""
#: What the first useful screen of ``playground`` on ./tools shows: contract names of the list
#: and the first contract's parameter labels (its form).
PLAYGROUND_EXPECT = ("slow_lookup", "check_stock", "sku * string", "limit * integer", "Run  ctrl+r")


HEADLESS = """
import sys
from pathlib import Path
from textual.app import App
from textual.widgets import Footer, Header, Static

def shown(app):
    def say():  # past Textual's capture of print(); the exit only once it is said
        if app._batch_count:  # Textual runs after-refresh callbacks while a batch defers it
            app.set_timer(0.002, lambda: app.call_after_refresh(say))
            return
        sys.__stdout__.write("shown\\n")
        sys.__stdout__.flush()
        app.set_timer(1.0, app.exit)
    app.call_after_refresh(say)

if sys.argv[1] == "bare":
    class Bare(App):
        def compose(self):
            yield Header()
            yield Static("hello")
            yield Footer()
        def on_mount(self):
            shown(self)
    app = Bare()
else:
    import playground.tui.app as tui_app
    from playground.tui.app import PlaygroundApp
    from playground.tui.widgets.arg_form import ArgForm
    from playground.tui.widgets.contract_list import ContractList

    class Timed(PlaygroundApp):
        CSS_PATH = str(Path(tui_app.__file__).with_name(PlaygroundApp.CSS_PATH))
        def on_mount(self):
            super().on_mount()
            self._watch = self.set_interval(0.005, self._check)
        def _check(self):
            forms = self.query(ArgForm)
            lists = self.query(ContractList)
            if forms and forms.first().fields and lists and lists.first().root.children:
                self._watch.stop()
                shown(self)
    app = Timed(tools=[sys.argv[2]], in_process=False)
app.run(headless=True, size=(160, 48))
"""


def headless_run(side: str, env: dict[str, str]) -> dict[str, float]:
    """One headless process (Textual's ``headless=True`` at 160×48) until the same screen."""
    import subprocess

    cmd = [sys.executable, "-c", HEADLESS, side, str(REPO / "tools")]
    started = time.perf_counter()
    child = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    wall = time.perf_counter() - started
    cpu = tree_cpu_s(child.pid)
    time.sleep(0.5)
    memory = tree_memory_mib(child.pid)
    child.stdout.read()
    child.wait(60)
    reap_all()
    if line.strip() != "shown":
        raise RuntimeError(f"headless {side}: no first screen (exit {child.returncode})")
    return {"wall_s": wall, "cpu_s": cpu, **{f"{k}_mib": v for k, v in memory.items()}}


def measure_headless(runs: int = 7) -> dict[str, dict[str, float]]:
    """:func:`measure` without a terminal: Textual's headless driver at 160×48."""
    adopt_orphans()
    state = tempfile.mkdtemp(prefix="bench-first-screen-")
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_STATE_HOME": state}
    for key in ("PYTHONDONTWRITEBYTECODE", "PLAYGROUND_IN_PROCESS"):
        env.pop(key, None)
    for side in ("bare", "playground"):
        headless_run(side, env)  # warm-up
    return alternate(
        {side: (lambda side=side: headless_run(side, env)) for side in ("bare", "playground")},
        runs,
    )


def screen_text(screen: pyte.Screen) -> str:
    return "\n".join(screen.display)


def one_run(
    cmd: list[str], expect: tuple[str, ...], env: dict[str, str], dump: bool = False
) -> dict[str, float]:
    """One process on a 160×48 pty until every string of ``expect`` is on its screen."""
    screen = pyte.Screen(COLS, ROWS)
    stream = pyte.ByteStream(screen)
    pid, fd = os.forkpty()
    if pid == 0:  # the child: a terminal of 160×48, then the command
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        os.execvpe(cmd[0], cmd, env)
    started = time.perf_counter()
    shown_at = cpu = None
    memory: dict[str, float] = {}
    deadline = started + 60
    quit_sent = False
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            stream.feed(chunk)
            if shown_at is None:
                text = screen_text(screen)
                if all(word in text for word in expect):
                    shown_at = time.perf_counter() - started
                    cpu = tree_cpu_s(pid)
        if shown_at is not None and not memory and time.perf_counter() - started > shown_at + 0.5:
            memory = tree_memory_mib(pid)
            if dump:
                print(screen_text(screen))
            os.write(fd, b"\x11")  # ctrl+q
            quit_sent = True
    if not quit_sent:
        os.kill(pid, 9)
    os.close(fd)
    reap_all()
    if shown_at is None or cpu is None:
        raise RuntimeError(f"{cmd[-1]}: {expect} never all shown:\n{screen_text(screen)}")
    return {"wall_s": shown_at, "cpu_s": cpu, **{f"{k}_mib": v for k, v in memory.items()}}


def measure(runs: int = 7, dump: bool = False) -> dict[str, dict[str, float]]:
    """Medians per side (``bare``, ``playground``): ``wall_s``, ``cpu_s``, ``pss_mib``,
    ``uss_mib``, ``rss_mib``."""
    adopt_orphans()
    state = tempfile.mkdtemp(prefix="bench-first-screen-")
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_STATE_HOME": state, "TERM": "xterm-256color"}
    env["COLUMNS"], env["LINES"] = str(COLS), str(ROWS)
    for key in ("PYTHONDONTWRITEBYTECODE", "PLAYGROUND_IN_PROCESS", "NO_COLOR", "TEXTUAL"):
        env.pop(key, None)
    py = sys.executable
    bare = ([py, "-c", BARE], ("hello",))
    playground = ([py, "-m", "playground", "--tools", str(REPO / "tools")], PLAYGROUND_EXPECT)
    for cmd, expect in (bare, playground):  # warm-up: byte code and page cache
        one_run(cmd, expect, env, dump=dump)
    return alternate(
        {
            "bare": lambda: one_run(*bare, env),
            "playground": lambda: one_run(*playground, env),
        },
        runs,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=7, help="runs per side (alternated)")
    parser.add_argument("--dump", action="store_true", help="print the warm-up runs' screens")
    parser.add_argument("--headless", action="store_true", help="Textual's headless driver")
    opts = parser.parse_args()
    figures = measure_headless(opts.n) if opts.headless else measure(opts.n, opts.dump)
    where = "headless at 160x48" if opts.headless else "in a 160x48 pty"
    print(f"first useful screen {where}, {opts.n} alternated runs, medians ({load()})")
    print(f"  {'side':<12}{'wall ms':>9}{'cpu ms':>9}{'PSS MiB':>9}{'USS MiB':>9}{'RSS MiB':>9}")
    for name, f in figures.items():
        print(
            f"  {name:<12}{f['wall_s'] * 1000:>9.0f}{f['cpu_s'] * 1000:>9.0f}"
            f"{f['pss_mib']:>9.1f}{f['uss_mib']:>9.1f}{f['rss_mib']:>9.1f}"
        )
    pg, bare = figures["playground"], figures["bare"]
    print(f"  wall {pg['wall_s'] / bare['wall_s']:.2f}x, cpu {pg['cpu_s'] / bare['cpu_s']:.2f}x")
    print("  (goals: <= 3x the bare app; tree PSS <= 90 MiB)")


if __name__ == "__main__":
    main()
