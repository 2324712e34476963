"""Suite-wide fixtures: no test writes a history into the repository's working directory; and
the test processes' garbage collection is set up for a process that builds many Textual apps."""

from __future__ import annotations

import compileall
import gc
import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

#: CPython's first collection threshold in the test processes (default 700 allocations). Each
#: xdist worker builds dozens of Textual apps; with the default, garbage collection took 45 % of
#: the TUI tests' CPU time (27 of 59 s for two of their files, mostly ~50 full collections over
#: heaps of several hundred thousand objects); at 10,000 it took 10 of 38 s. The same garbage
#: goes, less often; nothing a test checks depends on when.
GC_THRESHOLD0 = 10_000
#: The third threshold (default 10): a full collection after this many second-generation ones.
#: Each full pass walks the whole heap (~0.6 s of CPU in a process that ran TUI tests); at 100,
#: about half as many run. Measured on five TUI/MCP-TUI/router files (``-n 0``, alternated, two
#: runs each): garbage collection 10.3–11.0 → 7.8–7.9 s, CPU 50.1–53.8 → 45.4–47.6 s.
GC_THRESHOLD2 = 100

REPO = Path(__file__).resolve().parents[1]

#: The folders of Python code the suite's processes import: the package (every ``playground``
#: subprocess), the bundled tools, the fixture servers and the test helpers.
COMPILED_FOLDERS = ("playground", "tools", "fixtures", "tests")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the ``addopts``) starts two test processes per CPU (at most four more than
    the CPUs): about a third of the suite's time is spent waiting, not computing — on CLI and
    MCP server subprocesses, on bodies past their time limits, on workers' threads — and xdist's
    default of one process per CPU left a core idle meanwhile (2 CPUs: 154 s with two processes,
    136 s with four, for the same ~230 s of CPU). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still
    decides when set, as in xdist."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if chosen.isdigit():
        return int(chosen)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cpus = cpus or 1
    return min(2 * cpus, cpus + 4)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "worker_process: the test is about tool bodies running in a worker process (the CLI and "
        "TUI tests otherwise run them in-process: tests/cli/conftest.py, tests/tui/conftest.py)",
    )
    _, second, _ = gc.get_threshold()
    gc.set_threshold(GC_THRESHOLD0, second, GC_THRESHOLD2)
    if not hasattr(config, "workerinput"):  # the controller (or the one process of -n 0)
        write_bytecode_once()


@pytest.hookimpl(trylast=True)  # after the other plugins' session-end work (syrupy's report)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Collect the garbage once, then freeze what is left (``gc.freeze``) before pytest's own
    end-of-run collections.

    After the last test, pytest (8.4: ``unraisableexception.cleanup``) collects five times in a
    row so that a finaliser's warning (an unclosed file, pipe or socket) still fails the run;
    each pass walks the whole heap of a test process that built dozens of Textual apps. Measured
    after two TUI files (``-n 0``): pytest's five passes took ~1.1 s of CPU; with this hook they
    take ~0.01 s and the one collection here ~0.55 s (per test process; four in the suite). It
    finds the same garbage and runs the same finalisers while pytest's hook still reports them;
    every fixture is torn down by now, so what is frozen is alive, and pytest's passes walk only
    what is made after it. Nothing is unfrozen: the process ends."""
    gc.collect()
    gc.freeze()


def write_bytecode_once() -> None:
    """Compile the project's modules into ``__pycache__`` once, before any test process starts,
    and let the processes the suite starts read and write byte code as Python does by default.

    The suite starts several hundred Python processes (``playground`` commands, tool workers,
    MCP servers) and each xdist worker imports every test module. With
    ``PYTHONDONTWRITEBYTECODE`` set (as in some developer shells) nothing is ever cached: each
    ``playground`` subprocess compiled the package again (~0.1 s of CPU of its ~0.3 s) and each
    xdist worker rewrote and compiled every test module (~2.5 s of its ~5 s collection). So the
    variable is removed from this process's environment (inherited by the xdist workers and
    every subprocess), and the package is compiled here, once, rather than by four workers at
    the same time on a fresh clone. ``__pycache__`` is git-ignored."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    for folder in COMPILED_FOLDERS:
        compileall.compile_dir(REPO / folder, quiet=2)


@pytest.fixture(scope="session")
def _histories(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of this test process's history files (one per test, named by a number)."""
    return tmp_path_factory.mktemp("histories")


#: The number of the next test's history file in :func:`_histories`.
_HISTORY_NUMBERS = itertools.count()


@pytest.fixture(autouse=True)
def _history_in_tmp(_histories: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``PLAYGROUND_HISTORY`` (read by every command and the TUI, and inherited by the
    subprocesses a test starts) at a fresh temp file for each test: ``historyN.db`` in one
    folder per test process, created by the first command that writes a history.

    Not a folder per test (``tmp_path_factory.mktemp``): pytest numbers a new folder by
    listing the whole base folder, which then grew by one folder per test (~2,000 a run), each
    listed again for every later ``tmp_path``; and a later run removes them all when it clears
    this run's folder. Measured on 1,300 core/routing/batch tests (``-n 0``, three alternated
    runs): 4.4–4.9 → 3.1–3.4 s of system CPU."""
    path = _histories / f"history{next(_HISTORY_NUMBERS)}.db"
    monkeypatch.setenv("PLAYGROUND_HISTORY", str(path))
    return path


@pytest.fixture(autouse=True)
def _no_textual_styles_cache_kept() -> Iterator[None]:
    """After a test that ran a Textual app, empty ``StylesCache.get_inner_outer``'s cache: it is
    an ``lru_cache`` on a method, so it keeps up to 1024 ``StylesCache`` objects (every line a
    widget rendered) of apps that have ended (Textualize/textual#6665, open) — over one worker's
    run, about 500,000 objects that every full garbage collection walks again."""
    yield
    styles_cache = sys.modules.get("textual._styles_cache")
    if styles_cache is not None:
        styles_cache.StylesCache.get_inner_outer.cache_clear()


@pytest.fixture(scope="session", autouse=True)
def _server_zygote() -> Iterator[None]:
    """End this test process's server zygote (:mod:`tests.zygote`) after its last test, if a
    test started one."""
    yield
    from tests import zygote

    zygote.stop()
