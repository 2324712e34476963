"""The worker-process tool source: tool bodies run in a child process (the default).

:class:`WorkerSource` starts ``python`` with :func:`playground.sources.worker_main.main` (a loader
that imports the tool modules and forks a runner; see that module for the process layout) and
talks to it over two pipes with :class:`multiprocessing.connection.Connection` (no socket, no
port). What this buys (issue 9): a body stuck in one C call (a catastrophic regular
expression), ``os._exit``, a segfault, the OOM killer, a changed working directory or
environment, a non-daemon thread, raw writes to file descriptors 1 and 2 or a child process
printing — none of it reaches the playground process, its terminal or the TUI's screen.

* Time limit: the loader waits ``timeout_s`` plus :func:`grace_s`, then kills the runner and
  forks a fresh one; the call is ``transient`` with ``stopped after N s``. The playground waits
  a further :data:`BACKSTOP_S` for the loader itself before killing the whole worker.
* A runner that dies gives ``raised:WorkerExited`` naming the exit code or signal
  (``exit code 3``, ``SIGSEGV``); the next call runs on a fresh runner.
* Import-time faults: the loader imports the modules concurrently, a thread each, and each
  import must finish within ``import_timeout_s`` (default :data:`IMPORT_TIMEOUT_S`, env
  ``PLAYGROUND_IMPORT_TIMEOUT_S``), so one stuck module delays the others by nothing. A module
  still importing then is a load problem naming it; its thread keeps running in that loader
  (runners fork clean: a fork copies only the forking thread), and a fresh worker without it
  loads in the background and takes over (:meth:`WorkerSource._replace`). A module that ends
  the process, or a hang that stops every thread (a long C call holding the GIL), is found by
  loading again one module at a time, and the worker is started again without it.
* Values cross as JSON data after docs/design.md's result rules; a result whose data is over
  ``result_cap_bytes`` (default :data:`RESULT_CAP_BYTES`, 16 MB; env
  ``PLAYGROUND_RESULT_CAP_MB``) is refused in the worker as ``result:too_big`` with its size.
* Printed output: fds 1 and 2 of the worker (and its children) are a pipe the playground
  drains (:class:`~playground.sources.worker_output.WorkerOutput`); each call keeps what was
  written during it (first :data:`~playground.core.toolsource.PRINTED_LIMIT` characters, with
  the full size), and a flood of output neither stalls the caller nor grows without bound.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playground.core.toolsource import BodyRun, LoadResult, RaisedError
from playground.sources.worker_output import WorkerOutput

if TYPE_CHECKING:
    from playground.core.contracts import Contract

IMPORT_TIMEOUT_S = 10.0
RESULT_CAP_BYTES = 16 * 1024 * 1024
#: restarts of a worker that died or hung while importing, before loading gives up: each
#: restart leaves out the module that caused it, so this bounds loading to about this many
#: import time limits (issue 28 item 1)
MAX_LOAD_RESTARTS = 8
#: how much longer than time limit + grace the playground waits for the loader to answer
BACKSTOP_S = 2.0
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
_ENTRY = "from playground.sources.worker_main import main; main()"
#: :meth:`WorkerSource._load_once`'s answer when several imports were under way as the worker
#: stopped answering or ended: load again, one module at a time, to name the culprit
_ONE_AT_A_TIME = "\0one at a time"


def _late_output_note(late: int) -> list[str]:
    """The note for ``late`` bytes found in the output pipe as a call starts: written after an
    earlier call's body returned (a thread or process it left), dropped and never attributed to
    this call (issue 28 item 6); ``[]`` for none."""
    if not late:
        return []
    return [
        f"{late:,} byte{'s' if late != 1 else ''} of output written after an earlier call's "
        "body returned were dropped (not this call's)"
    ]


def _culprit(pending: dict[str, None]) -> str:
    """The module to blame among those whose import started and did not report back: the last
    one started (one after the other, the earlier ones ended without a word: a module that
    raised ``KeyboardInterrupt`` or a ``SyntaxError``, found again on the next load)."""
    return next(reversed(pending))


def grace_s(timeout_s: float) -> float:
    """The grace after a time limit before the body is killed: a fifth of the limit, at most
    0.5 s (so a 0.01 s limit costs 0.012 s and a 5 s limit 5.5 s)."""
    return min(0.5, timeout_s * 0.2)


class _Process:
    """One running worker: the ``Popen``, the two connections and its lifeline."""

    def __init__(self, output: WorkerOutput) -> None:
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        # the worker's lifeline: this end stays here, unwritten; when this process is gone for
        # any reason (SIGKILL, a crash) the worker's watchdog reads EOF and ends the worker
        life_r, self._life_w = os.pipe()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p
        )
        env["PYTHONBREAKPOINT"] = "0"  # no debugger without a terminal: breakpoint() is a no-op
        try:
            self.popen = subprocess.Popen(
                # -P: the working directory is not put first on sys.path (a selectors.py
                # there ran at start-up); the worker appends it last (worker_main.main)
                [sys.executable, "-P", "-c", _ENTRY, str(req_r), str(rep_w), str(life_r)],
                stdin=subprocess.DEVNULL,
                stdout=output.write_fd,
                stderr=output.write_fd,
                pass_fds=(req_r, rep_w, life_r),
                start_new_session=True,
                env=env,
            )
        except BaseException:
            os.close(self._life_w)
            raise
        finally:
            os.close(req_r)
            os.close(rep_w)
            os.close(life_r)
        self.requests = Connection(req_w, readable=False)
        self.replies = Connection(rep_r, writable=False)

    def end(self, wait_s: float = 0.5) -> None:
        """Ask the worker to exit, then kill it if it has not after ``wait_s`` seconds; then
        SIGKILL what is left of its process group (children the tool modules started at
        import: the loader ends only its runners, and its watchdog dies with it)."""
        with contextlib.suppress(OSError, ValueError):
            self.requests.send({"op": "exit"})
        for conn in (self.requests, self.replies):
            with contextlib.suppress(OSError):
                conn.close()
        try:
            self.popen.wait(wait_s)
        except subprocess.TimeoutExpired:
            self.kill()
        with contextlib.suppress(OSError):  # ESRCH: nothing was left
            os.killpg(self.popen.pid, 9)
        self._close_life()

    def _close_life(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._life_w)
        self._life_w = -1

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.popen.pid, 9)
        with contextlib.suppress(OSError):
            self.popen.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(2)
        for conn in (self.requests, self.replies):
            with contextlib.suppress(OSError):
                conn.close()
        self._close_life()


def _shutdown(holder: list[_Process | None], output: WorkerOutput) -> None:
    for slot in range(len(holder)):  # the worker, and a replacement still loading
        proc = holder[slot]
        holder[slot] = None
        if proc is not None:
            proc.end(0.2)
    output.close()


class WorkerSource:
    """Tool modules imported and run in a worker process; implements
    :class:`~playground.core.toolsource.ToolSource` (see the module docstring).

    ``paths``: the ``--tools`` files or folders. ``import_timeout_s``: seconds one module's
    import may take. ``result_cap_bytes``: the largest result accepted, in bytes. The process
    starts at construction (so it boots while the caller goes on), is ended by :meth:`close`,
    and at the latest when this object is collected or the interpreter exits.
    """

    label = "worker"

    def __init__(
        self,
        paths: Iterable[str | Path] = (),
        *,
        import_timeout_s: float | None = None,
        result_cap_bytes: int | None = None,
    ) -> None:
        self.paths = [str(p) for p in paths]
        from playground.core.settings import setting  # a bad value: UsageError naming it

        self.import_timeout_s = import_timeout_s or setting(
            "PLAYGROUND_IMPORT_TIMEOUT_S", IMPORT_TIMEOUT_S
        )
        self.result_cap_bytes = result_cap_bytes or int(
            setting("PLAYGROUND_RESULT_CAP_MB", RESULT_CAP_BYTES / 1048576) * 1048576
        )
        self._lock = threading.Lock()
        self._slot_lock = threading.Lock()  # the replacement slot against close()
        self._load_sent: _Process | None = None
        self._skip: list[str] = []
        self._skip_problems: list[tuple[str, str]] = []
        self._output = WorkerOutput()
        # [the worker, a replacement loading in the background (see _replace)]
        self._holder: list[_Process | None] = [None, None]
        self._generation = 0  # bumped by every new worker: a stale replacement is dropped
        self._concurrent = True  # imports on threads; False after a hang that held them all
        self._finalizer = weakref.finalize(self, _shutdown, self._holder, self._output)
        # start importing at once: the worker loads while the caller goes on (the CLI imports
        # the gate meanwhile); :meth:`load` collects the answer
        self._load_sent = self._send_load(self._start())

    # -- process management -------------------------------------------------------------

    def _start(self) -> _Process:
        proc = _Process(self._output)
        self._holder[0] = proc
        self._generation += 1
        return proc

    def _load_message(self, skip: list[str]) -> dict[str, Any]:
        return {
            "op": "load",
            "paths": self.paths,
            "skip": list(skip),
            # the loader imports the modules concurrently, each within the limit; None: one
            # after the other, the limit kept here (after a hang that stopped every thread)
            "import_timeout_s": self.import_timeout_s if self._concurrent else None,
        }

    def _proc(self) -> _Process:
        proc = self._holder[0]
        if proc is None or proc.popen.poll() is not None:
            if proc is not None:
                proc.kill()
            proc = self._start()
            self._load(proc)
        return proc

    @property
    def pid(self) -> int | None:
        """The process id of the worker serving calls now (``None`` before it starts or after
        :meth:`close`); it changes when a worker is restarted or replaced."""
        proc = self._holder[0]
        return proc.popen.pid if proc is not None else None

    def cancel(self) -> None:
        """Stop the body running now (ctrl+c in the TUI): the worker's process group is
        killed; the running call returns ``WorkerExited`` and the next call starts a fresh
        worker (the modules are imported again). Safe from any thread, with or without a
        running call."""
        proc = self._holder[0]
        if proc is not None:
            with contextlib.suppress(OSError):
                os.killpg(proc.popen.pid, 9)

    def close(self) -> None:
        """End the worker process and stop reading its output; safe to call twice."""
        with self._slot_lock:
            self._finalizer()

    # -- loading ----------------------------------------------------------------------------

    def load(self) -> LoadResult:
        """Import the tool modules in the worker; faulty modules become problems (see the
        module docstring). Never raises."""
        with self._lock:
            proc = self._holder[0]
            if proc is None:
                proc = self._start()
            return self._load(proc)

    def reload(self) -> LoadResult:
        """End the worker and load everything again in a new one (faulty modules included:
        they may have been fixed)."""
        with self._lock:
            old = self._holder[0]
            if old is not None:
                old.kill()
            self._skip, self._skip_problems = [], []
            self._concurrent = True
            return self._load(self._start())

    def _load(self, proc: _Process) -> LoadResult:
        from playground.core.contracts import contract_from_data
        from playground.core.toolsource import LoadProblem

        restarts = 0
        while True:
            if self._load_sent is not proc:
                self._output.reset()
            outcome = self._load_once(proc)
            if isinstance(outcome, dict):
                break
            file, problem = outcome
            proc.kill()
            restarts += 1
            if restarts > MAX_LOAD_RESTARTS:  # bounded whatever the combination of faults
                self._holder[0] = None
                problems = [LoadProblem(w, m) for w, m in self._skip_problems]
                problems.append(
                    LoadProblem(
                        self.label,
                        f"the worker was restarted {MAX_LOAD_RESTARTS} times while importing "
                        f"the tool modules; loading stopped ({problem or 'no answer'})",
                    )
                )
                return LoadResult([], problems)
            if file is _ONE_AT_A_TIME:  # a hang held every import thread: find it, one by one
                self._concurrent = False
                proc = self._start()
                continue
            if file is None:
                return LoadResult([], [LoadProblem(self.label, problem)])
            self._skip.append(file)
            self._skip_problems.append((str(Path(file).resolve()), problem))
            proc = self._start()
        self._output.reset()  # what the modules printed at import time is no call's
        problems = [LoadProblem(w, m) for w, m in self._skip_problems]
        problems += [LoadProblem(w, m) for w, m in outcome["problems"]]
        where = ", ".join(self.paths) or self.label  # which module started them is not known
        warnings = [LoadProblem(w or where, m) for w, m in outcome.get("warnings") or []]
        contracts = [contract_from_data(d) for d in outcome["contracts"]]
        hung = [str(f) for f in outcome.get("hung") or []]
        if hung:  # their threads still run in this worker: load a clean one meanwhile
            self._skip += hung
            known = {w for w, _ in self._skip_problems}
            self._skip_problems += [
                (p.where, p.message)
                for p in problems
                if p.where not in known and p.where in {str(Path(f).resolve()) for f in hung}
            ]
            self._replace(list(self._skip))
        return LoadResult(contracts, problems, warnings)

    def _replace(self, skip: list[str]) -> None:
        """Load a fresh worker without the ``skip`` modules on a background thread and swap it
        in when it has loaded (the current one keeps serving calls meanwhile). A module whose
        import never finished left a thread running in the current worker — a busy loop would
        hold a CPU for the whole session; the runners it forks are clean (a fork copies only
        the forking thread). Dropped when another worker was started in the meantime."""
        generation = self._generation
        message = self._load_message(skip)
        wait_s = self.import_timeout_s + 60.0

        def run() -> None:
            with self._slot_lock:  # never a process started after close()
                if not self._finalizer.alive or self._generation != generation:
                    return
                try:
                    proc = _Process(self._output)
                except OSError:
                    return
                self._holder[1] = proc
            try:
                proc.requests.send(message)
                while proc.replies.poll(wait_s):
                    if proc.replies.recv().get("op") == "loaded":
                        break
                else:
                    raise TimeoutError
            except (EOFError, OSError, TimeoutError):
                self._holder[1] = None
                proc.kill()
                return
            with self._lock:
                old = self._holder[0]
                if self._generation != generation or self._holder[1] is not proc:
                    old = proc  # a newer worker (reload, restart) is already there
                else:
                    self._holder[0], self._generation = proc, self._generation + 1
                self._holder[1] = None
            if old is not None:
                old.kill()

        threading.Thread(target=run, name="worker-replace", daemon=True).start()

    def _send_load(self, proc: _Process) -> _Process | None:
        try:
            self._output.reset()
            proc.requests.send(self._load_message(self._skip))
        except OSError:
            return None  # the worker died at once: _load_once reports it
        return proc

    def _load_once(self, proc: _Process) -> dict[str, Any] | tuple[str | None, str]:
        """The ``loaded`` message, or ``(file being imported or None, problem)``, or
        ``(_ONE_AT_A_TIME, "")`` when the process stopped answering with several modules
        importing at once (load again one module at a time to name the culprit)."""
        pending: dict[str, None] = {}  # files importing now, in the order they started
        stage = "at start-up"
        limit = self.import_timeout_s
        concurrent = self._concurrent
        try:
            if self._load_sent is not proc:
                proc.requests.send(self._load_message(self._skip))
            self._load_sent = None
            # the interpreter's own start-up gets a generous allowance of its own
            deadline = limit + 30.0
            while True:
                if not proc.replies.poll(deadline):
                    if not pending:
                        return (
                            None,
                            f"the worker process did not answer {stage} within {deadline:g} s",
                        )
                    if len(pending) > 1 and concurrent:
                        return _ONE_AT_A_TIME, ""
                    return _culprit(pending), (
                        f"import did not finish within {limit:g} s (an endless loop or a "
                        "sleep at import time?); the module was not loaded"
                    )
                msg = proc.replies.recv()
                if msg.get("op") == "importing":
                    pending[msg["file"]] = None
                    # concurrent: the loader itself bounds each import; this is the backstop
                    deadline = limit + BACKSTOP_S if concurrent else limit
                    continue
                if msg.get("op") == "imported":  # building its contracts: no import limit
                    pending.pop(msg["file"], None)
                    if not pending:
                        deadline = 60.0
                        stage = f"while building the contracts of {msg['file']}"
                    continue
                return dict(msg)
        except (EOFError, OSError):
            from playground.sources.worker_main import describe_exit

            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.popen.wait(2)
            status = proc.popen.returncode
            how = "unknown status" if status is None else describe_exit(status)
            printed = self._output.tail().strip()
            tail = f": {' '.join(printed.split())}" if printed else ""
            if not pending:
                return None, f"the worker process ended {stage} ({how}){tail}"
            if len(pending) > 1 and concurrent:
                return _ONE_AT_A_TIME, ""
            return _culprit(pending), (
                f"import ended the worker process ({how}); the module was not loaded"
            )

    # -- calls ------------------------------------------------------------------------------

    def call(self, contract: Contract, args: dict[str, Any], timeout_s: float) -> BodyRun:
        """Run one body in the worker; returns within ``timeout_s`` + grace + a little. Never
        raises."""
        with self._lock:
            return self._call(contract, args, timeout_s)

    def _call(self, contract: Contract, args: dict[str, Any], timeout_s: float) -> BodyRun:
        from playground.sources.worker_main import worker_exited

        proc = self._proc()
        late = _late_output_note(self._output.reset())
        grace = grace_s(timeout_s)
        started = time.perf_counter()
        msg = {
            "op": "call",
            "name": contract.name,
            "args": args,
            "timeout_s": timeout_s,
            "grace_s": grace,
            "cap": self.result_cap_bytes,
        }
        try:
            proc.requests.send(msg)
            if not proc.replies.poll(timeout_s + grace + BACKSTOP_S):
                raise TimeoutError
            reply = pickle.loads(proc.replies.recv_bytes())
        except TimeoutError:
            proc.kill()
            self._holder[0] = None
            elapsed = time.perf_counter() - started
            return BodyRun(
                timed_out=True,
                stopped=f"stopped after {elapsed:.1f} s (the whole worker was restarted)",
                output=self._output.printed(),
                duration_ms=elapsed * 1000,
            )
        except (EOFError, OSError, pickle.UnpicklingError):
            from playground.sources.worker_main import describe_exit

            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.popen.wait(2)
            status = proc.popen.returncode
            how = "unknown status" if status is None else describe_exit(status)
            proc.kill()
            self._holder[0] = None
            return BodyRun(
                error=worker_exited(how),
                stopped=how,
                output=self._output.printed(),
                duration_ms=(time.perf_counter() - started) * 1000,
            )
        error = reply.get("error")
        return BodyRun(
            notes=[*late, *(reply.get("notes") or [])],
            value=reply.get("value"),
            error=error if isinstance(error, RaisedError) else None,
            timed_out=bool(reply.get("timed_out")),
            stopped=reply.get("stopped", ""),
            output=self._output.printed(),
            duration_ms=reply.get("duration_ms", 0.0),
            refused=reply.get("refused", ""),
            refused_message=reply.get("refused_message", ""),
        )
