"""Tool modules: the ``--tools`` files and folders imported and turned into contracts.

Finds the tool module files of a path, imports them (one after another, or concurrently with a
time limit in the worker), and collects each module's ``__tools__`` / ``TOOLS`` into a
:class:`~playground.core.registry.Registry` without sources. Loading never stops at the first
bad module: each problem is a :class:`~playground.core.toolsource.LoadProblem` naming the place,
and the other modules still load. Both tool-module sources use it: the in-process source
(:mod:`playground.sources.in_process`) here, the worker (:mod:`playground.sources.worker_main`)
in its own process.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.machinery
import importlib.util
import inspect
import io
import json
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from playground.core.contracts import Contract, contract_from_function, contract_from_table
from playground.core.registry import Registry
from playground.core.toolsource import LoadProblem
from playground.errors import LoadError, Terminated

#: the problem of a ``--tools`` folder without any ``*.py`` tool module
NO_MODULES = "no tool modules found (expected .py files declaring __tools__ or TOOLS)"
#: the problem of a ``--tools`` path whose modules declare no tool at all
NO_CONTRACTS = "no tools declared (expected .py files declaring __tools__ or TOOLS)"


def tool_files(path: Path) -> list[Path]:
    """The tool module files a ``--tools`` path stands for: the file itself, or the ``*.py``
    files of a folder (not recursive; names starting with ``_`` or ``test_`` skipped), sorted.
    A folder's ``*.py`` entry that is not a readable regular file (a symbolic link loop, a
    dangling link, a FIFO, a folder) is left out here and named by :func:`unusable_entries`.
    Raises :class:`LoadError` when the path does not exist (``no such file or folder``), is
    a link that leads nowhere (:func:`not_a_file`) or is neither a ``.py`` file nor a folder
    (``not a Python file or folder``: ``/dev/null``, a FIFO, ``notes.txt``). A folder holding
    no tool module is not an error here (see :func:`load_registry`).
    """
    if path.is_dir():
        return sorted(p for p in _candidates(path) if p.is_file())
    if path.is_file() and path.suffix == ".py":
        return [path]
    if path.is_symlink():
        raise LoadError(f"{path}: {not_a_file(path)}")
    if path.exists():
        raise LoadError(
            f"{path}: not a Python file or folder (expected a .py file or a folder of them)"
        )
    raise LoadError(f"{path}: no such file or folder")


def _candidates(folder: Path) -> list[Path]:
    return [p for p in folder.glob("*.py") if not p.name.startswith(("_", "test_"))]


def not_a_file(path: Path) -> str:
    """Why ``path`` (an entry that is not a regular file) cannot be imported, in a few words:
    ``a symbolic link loop``, ``a symbolic link to a missing file (target)``, ``a folder``,
    ``not a regular file``."""
    import errno
    import os

    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop; the module was not loaded"
        if path.is_symlink():
            return (
                f"a symbolic link to a missing file ({os.readlink(path)}); "
                "the module was not loaded"
            )
        return f"cannot be read ({exc.strerror or exc}); the module was not loaded"
    if path.is_dir():
        return "a folder, not a module (folders are not searched recursively); not loaded"
    return "not a regular file (a FIFO, a device?); the module was not loaded"


def unusable_entries(path: Path) -> list[LoadProblem]:
    """One :class:`LoadProblem` per ``*.py`` entry of the folder ``path`` that
    :func:`tool_files` leaves out because it is not a regular file (``[]`` for a file)."""
    if not path.is_dir():
        return []
    return [
        LoadProblem(str(p), not_a_file(p)) for p in sorted(_candidates(path)) if not p.is_file()
    ]


def collect_contracts(
    paths: Iterable[str | Path],
    *,
    on_import: Callable[[Path, bool], None] | None = None,
    skip: Iterable[str] = (),
    import_timeout_s: float | None = None,
    hung: list[str] | None = None,
) -> Registry:
    """Import every tool module under ``paths`` in THIS process and collect its contracts.

    Returns a registry without sources; problems are in ``registry.problems`` (never raised),
    including a path that does not exist, and a path that contributes nothing: a folder with no
    tool module files gives :data:`NO_MODULES`, and a path whose modules loaded without a
    problem yet declared no contract gives :data:`NO_CONTRACTS` (a ``--tools`` typo must not
    look like an empty, healthy tool set). A path whose modules already had a problem gets no
    second line. ``on_import(file, done)`` is called before (``done`` false) and after each
    module's import (the worker reports progress with it, so a module that hangs or ends the
    process while importing can be named, and the import time limit covers only the import);
    ``skip``: files (as ``str(path)``) not to import again, already reported as problems.

    ``import_timeout_s``: import the modules concurrently, one thread each
    (:func:`import_concurrently`), each given that many seconds from the start; a module
    still importing then is a problem (``import did not finish within N s``), its thread is
    abandoned, and its file is appended to ``hung``, so that one module stuck at import
    delays the others by nothing. ``None``: one after the other, in this thread. Only for a
    process that can afford a stuck thread (the worker; see :mod:`playground.sources.worker`).
    """
    registry = Registry()
    skipped = set(skip)
    planned = _planned_files(registry, paths)
    imported: dict[Path, ModuleType | LoadProblem] | None = None
    if import_timeout_s is not None:
        wanted = [f for _, some in planned for f in some or [] if str(f) not in skipped]
        imported = import_concurrently(wanted, import_timeout_s, on_import)
        if hung is not None:
            hung.extend(str(f) for f in wanted if f not in imported)
    for path, maybe_files in planned:
        if maybe_files is not None:
            _load_path(
                registry,
                path,
                maybe_files,
                _Imports(skipped, imported, on_import, import_timeout_s),
            )
    return registry


def _planned_files(
    registry: Registry, paths: Iterable[str | Path]
) -> list[tuple[Path, list[Path] | None]]:
    """``(path, its tool files)`` per path, in order (each path also appended to
    ``registry.paths``); ``None`` instead of files for a path :func:`tool_files` refuses, whose
    problem is added to ``registry.problems``."""
    planned: list[tuple[Path, list[Path] | None]] = []
    for raw in paths:
        path = Path(raw)
        registry.paths.append(path)
        try:
            # absolute now: a module that changes the working directory as it is imported
            # must not move the files still to import
            files = [file.absolute() for file in tool_files(path)]
        except LoadError as exc:
            registry.problems.append(LoadProblem(str(path), str(exc).split(": ", 1)[-1]))
            planned.append((path, None))
            continue
        planned.append((path, files))
    return planned


@dataclass(frozen=True)
class _Imports:
    """How :func:`collect_contracts` gets each module: ``skipped`` files are left out,
    ``imported`` holds the modules imported concurrently (``None``: import each here, in
    turn, calling ``on_import``), ``timeout_s`` the limit those were given."""

    skipped: set[str]
    imported: dict[Path, ModuleType | LoadProblem] | None
    on_import: Callable[[Path, bool], None] | None
    timeout_s: float | None


def _load_path(registry: Registry, path: Path, files: list[Path], imports: _Imports) -> None:
    """Register the contracts of one path's ``files`` into ``registry``. Adds its unusable
    folder entries as problems, :data:`NO_MODULES` for a path without a module file, and
    :data:`NO_CONTRACTS` when its modules loaded without a new problem yet declared nothing
    (a skipped file's problem, reported by the caller, counts as one)."""
    unusable = unusable_entries(path)  # a link loop, a dangling link: say so
    registry.problems.extend(unusable)
    if not files:
        if not unusable:
            registry.problems.append(LoadProblem(str(path), NO_MODULES))
        return
    contracts_before, problems_before = len(registry.contracts), len(registry.problems)
    for file in files:
        if str(file) in imports.skipped:
            problems_before -= 1  # its problem was reported by the caller
            continue
        if imports.imported is None:
            load_module_into(registry, file, imports.on_import)
            continue
        module = imports.imported.get(file)
        if module is None:
            registry.problems.append(
                LoadProblem(
                    str(file.resolve()),
                    f"import did not finish within {imports.timeout_s:g} s (an endless "
                    "loop or a sleep at import time?); the module was not loaded",
                )
            )
        elif isinstance(module, LoadProblem):
            registry.problems.append(module)
        else:
            register_module(registry, module, file)
    if len(registry.contracts) == contracts_before and len(registry.problems) == problems_before:
        registry.problems.append(LoadProblem(str(path), NO_CONTRACTS))


def import_concurrently(
    files: list[Path],
    timeout_s: float,
    on_import: Callable[[Path, bool], None] | None = None,
) -> dict[Path, ModuleType | LoadProblem]:
    """Import each of ``files`` on its own daemon thread, all at once, and wait at most
    ``timeout_s`` seconds (from the start) for them. Returns the imported module or the
    import's :class:`LoadProblem` per file that finished; a file still importing is missing
    from the result (its thread is left running: the caller must be a process that is
    thrown away or forks clean children, as the worker's loader does). ``on_import(file,
    done)`` is called from the importing thread before and after the import, and for each
    file still importing at the end from this thread (``done`` true: the wait for it is
    over); never from an abandoned thread after this returns.

    The module folders are put on ``sys.path`` before the threads start and kept there (a
    folder that one import removed while another still needed it would break sibling
    imports); output printed at import time is not redirected (the worker's file descriptors
    1 and 2 are its capture file)."""
    import time

    folders = list(dict.fromkeys(str(f.resolve().parent) for f in files))
    at = tool_folder_index()  # a tool folder is no stdlib folder: inserting one moves it not
    for folder in reversed(folders):
        if folder not in sys.path:
            sys.path.insert(at, folder)
    done: dict[Path, ModuleType | LoadProblem] = {}
    gate = threading.Lock()  # no progress call from a thread once the wait is over
    over = False

    def report(file: Path, finished: bool) -> None:
        with gate:
            if not over and on_import is not None:
                on_import(file, finished)

    def work(file: Path) -> None:
        report(file, False)
        try:
            module: ModuleType | LoadProblem = import_tool_module(file, isolated=False)
        except LoadError as exc:
            where, _, message = str(exc).partition(": ")
            module = LoadProblem(where, message)
        with gate:
            if not over:
                done[file] = module
        report(file, True)

    threads = [
        threading.Thread(target=work, args=(f,), name=f"import {f.name}", daemon=True)
        for f in files
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout_s
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    with gate:
        over = True
        finished = dict(done)
    if on_import is not None:  # the import phase is over for the stuck ones too
        for file in files:
            if file not in finished:
                on_import(file, True)
    return finished


class SourceOnlyLoader(importlib.machinery.SourceFileLoader):
    """Loads a tool module from its source every time, never from ``__pycache__``.

    Python's byte-code cache is valid while the source's modification time, in whole seconds,
    and its size are unchanged (PEP 3147's ``.pyc`` header), so a module edited within the
    second of its last import, to text of the same size (a digit of a time limit, a Hangul
    syllable for another), was loaded as it was before the edit — stale after a reload. Tool
    modules are small and edited by hand while the playground runs; nothing is written into
    their folders either. The compiled code is cached by the hash of the source bytes in the
    playground's cache folder (:mod:`playground.sources.code_cache`)."""

    def get_code(self, fullname: str) -> Any:
        from playground.sources.code_cache import cached_code

        path = self.get_filename(fullname)
        return cached_code(self.get_data(path), path, self._compile)

    def _compile(self, source: bytes, path: str) -> Any:
        return self.source_to_code(source, path)


def tool_folder_index() -> int:
    """Where a tool module's folder goes on ``sys.path`` (for its sibling imports): right
    after the standard library's folders, before the installed packages. A tool file named
    like a standard module (``calendar.py``, ``email.py``, ``json.py``) is then never what
    ``import calendar`` finds, for the playground or for the tools: put first, it broke every
    later import of that module in the process ("module 'json' has no attribute 'loads'")."""
    stdlib = _stdlib_folders()
    index = 0
    for position, entry in enumerate(sys.path):
        if not entry:
            continue
        place = Path(entry).resolve()
        if "site-packages" not in place.parts and any(
            place == lib or lib in place.parents or place.suffix == ".zip" for lib in stdlib
        ):
            index = position + 1
    return index


@functools.cache
def _stdlib_folders() -> tuple[Path, ...]:
    """The standard library's folders (``sysconfig``'s ``stdlib`` and ``platstdlib``),
    resolved once per process."""
    import sysconfig

    paths = sysconfig.get_paths()
    return tuple(Path(paths[k]).resolve() for k in ("stdlib", "platstdlib") if k in paths)


def import_tool_module(file: Path, *, isolated: bool = True) -> ModuleType:
    """Import ``file`` as a fresh module (its folder on ``sys.path`` for sibling imports, at
    :func:`tool_folder_index`).

    Output the module prints at import is swallowed. Raises :class:`LoadError` with the
    exception type and message when the import fails in any way (``SystemExit`` included).
    ``isolated=False`` (:func:`import_concurrently`): neither ``sys.path`` nor the output
    streams are touched (both are process-wide; the caller has set ``sys.path`` up).
    """
    file = file.resolve()
    digest = hashlib.sha1(str(file).encode()).hexdigest()[:8]
    mod_name = f"playground_tools_{file.stem}_{digest}"
    spec = importlib.util.spec_from_file_location(
        mod_name, file, loader=SourceOnlyLoader(mod_name, str(file))
    )
    if spec is None or spec.loader is None:
        raise LoadError(f"{file}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    folder = str(file.parent)
    added = isolated and folder not in sys.path
    if added:
        sys.path.insert(tool_folder_index(), folder)
    sys.modules[mod_name] = module
    quiet: Any = (
        (contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()))
        if isolated
        else (contextlib.nullcontext(), contextlib.nullcontext())
    )
    try:
        with quiet[0], quiet[1]:
            spec.loader.exec_module(module)
    except KeyboardInterrupt:
        # ctrl+c reaches only the main thread of the process the user runs: anywhere else
        # (an import thread, the worker) the module raised it itself, a fault to name
        if (
            not IMPORT_INTERRUPT_IS_FAULT[0]
            and threading.current_thread() is threading.main_thread()
        ):
            raise
        sys.modules.pop(mod_name, None)
        raise LoadError(
            f"{file}: import failed: KeyboardInterrupt raised at import time by the module"
        ) from None
    except Terminated:  # SIGTERM / SIGHUP while importing: the process ends, the module is fine
        sys.modules.pop(mod_name, None)
        raise
    except BaseException as exc:  # SyntaxError, ImportError, SystemExit, anything
        sys.modules.pop(mod_name, None)
        line = getattr(exc, "lineno", None)
        where = f"{file}:{line}" if isinstance(exc, SyntaxError) and line else str(file)
        raise LoadError(f"{where}: import failed: {type(exc).__name__}: {exc}") from None
    finally:
        if added:
            with contextlib.suppress(ValueError):
                sys.path.remove(folder)
    return module


#: ``[True]`` in the worker process, where no ctrl+c arrives (it is in its own session): a
#: ``KeyboardInterrupt`` during an import is then always the module's own (set by the loader)
IMPORT_INTERRUPT_IS_FAULT = [False]


def load_module_into(
    registry: Registry, file: Path, on_import: Callable[[Path, bool], None] | None = None
) -> None:
    """Import one tool module and register its contracts; problems go to ``registry.problems``.
    ``on_import(file, done)``: called before and after the import (see :func:`collect_contracts`)."""
    try:
        if on_import is not None:
            on_import(file, False)
        module = import_tool_module(file)
        if on_import is not None:
            on_import(file, True)
    except LoadError as exc:
        where, _, message = str(exc).partition(": ")
        registry.problems.append(LoadProblem(where, message))
        return
    register_module(registry, module, file)


def register_module(registry: Registry, module: ModuleType, file: Path) -> None:
    """Register the contracts of the imported ``module`` (from ``file``); problems go to
    ``registry.problems``."""
    constants = module_constants(module)
    for contract_or_problem in contracts_of_module(module, file):
        if isinstance(contract_or_problem, LoadProblem):
            registry.problems.append(contract_or_problem)
        else:
            contract_or_problem.module_file = str(file)
            contract_or_problem.module_constants = constants
            registry.add(contract_or_problem)


def module_constants(module: ModuleType) -> dict[str, Any]:
    """The module's UPPER_CASE names whose values are plain JSON data of at most 10,000 bytes
    (``FALLBACK_REGION = "seoul"``, ``MAX_ROWS = 5``, ``REPORT_PROBES = {...}``): data the
    playground reads from a tool module (the repair loop's ``FALLBACK_<ARG>``, the report's
    ``REPORT_PROBES``), sent at load time because with the worker the module lives in another
    process. Tuples become lists; anything else (objects, NaN, cycles) is left out."""
    found: dict[str, Any] = {}
    for name, value in vars(module).items():
        if not name.isupper() or name.startswith("_") or callable(value):
            continue
        try:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            continue
        if len(text.encode()) <= 10_000:
            found[name] = json.loads(text)
    return found


def contracts_of_module(module: ModuleType, file: Path) -> list[Contract | LoadProblem]:
    """The contracts a module declares: its ``TOOLS`` table and its ``__tools__`` functions.

    A module declaring neither is not an error when it has no public functions (a helper
    module); otherwise it yields a problem saying how to declare tools.
    """
    found: list[Contract | LoadProblem] = []
    table = getattr(module, "TOOLS", None)
    listed = getattr(module, "__tools__", None)
    meta = getattr(module, "__contracts__", None) or {}
    if not isinstance(meta, dict):
        found.append(
            LoadProblem(str(file), "__contracts__ must be a dict of {tool name: metadata}")
        )
        meta = {}
    if table is not None:
        if not isinstance(table, dict):
            found.append(
                LoadProblem(str(file), f"TOOLS must be a dict, got {type(table).__name__}")
            )
        else:
            for name, entry in table.items():
                found.append(
                    _guard(
                        lambda name=name, entry=entry: contract_from_table(str(name), entry),
                        str(file),
                        f"TOOLS[{name!r}]",
                    )
                )
    if listed is not None:
        if not isinstance(listed, (list, tuple)):
            found.append(LoadProblem(str(file), "__tools__ must be a list of functions"))
        else:
            for fn in listed:
                if not callable(fn):
                    found.append(LoadProblem(str(file), f"__tools__ holds a non-callable: {fn!r}"))
                    continue
                entry = meta.get(getattr(fn, "__name__", ""), {})
                found.append(
                    _guard(
                        lambda fn=fn, entry=entry: contract_from_function(fn, entry),
                        str(file),
                        str(getattr(fn, "__name__", fn)),
                    )
                )
            listed_names = {getattr(fn, "__name__", None) for fn in listed}
            for stray in [n for n in meta if n not in listed_names]:
                found.append(
                    LoadProblem(
                        str(file),
                        f"__contracts__ has an entry for {stray!r}, which is not in __tools__",
                    )
                )
    if table is None and listed is None:
        public = [
            n
            for n, obj in vars(module).items()
            if inspect.isfunction(obj)
            and obj.__module__ == module.__name__
            and not n.startswith("_")
        ]
        if public:
            found.append(
                LoadProblem(
                    str(file),
                    "declares no tools: list functions in __tools__ = [...] or define a TOOLS "
                    f"contract table (public functions seen: {', '.join(public[:5])})",
                )
            )
    return found


def _guard(build: Callable[..., Contract], where: str, label: str = "") -> Contract | LoadProblem:
    """Build one contract; a failure becomes a :class:`LoadProblem` at ``where`` (the module
    file, or the ``path:line`` the message starts with). ``label`` names the tool in messages
    that would not otherwise say which entry failed."""
    try:
        return build()
    except LoadError as exc:
        message = str(exc)
    except Exception as exc:  # a malformed entry must not stop the other contracts
        message = f"{label + ': ' if label else ''}{type(exc).__name__}: {exc}"
    head, sep, rest = message.partition(": ")
    if sep and head.startswith(where):  # the message already names a more precise place
        return LoadProblem(head, rest)
    return LoadProblem(where, message)
