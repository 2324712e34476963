"""The worker process's side of :class:`~playground.sources.worker.WorkerSource`.

Two processes (Linux/macOS; ``os.fork``):

* the **loader** (started by the playground with ``subprocess``): imports the tool modules,
  builds the contracts (:func:`~playground.sources.tool_modules.collect_contracts`) and sends them as
  data, then never runs tool code again. It answers the playground over two pipes
  (:class:`multiprocessing.connection.Connection`: length-prefixed pickles of plain data).
* the **runner**, forked from the loader after loading: runs bodies one at a time in its main
  thread. The loader relays each call to it and waits at most the time limit plus a short
  grace; a runner that overruns is killed (SIGKILL) and a fresh one is forked from the
  still-pristine loader (about a millisecond: the modules are already imported), so a hung
  body costs its time limit, not a new interpreter. A runner that dies (``os._exit``, a
  signal, a segfault, the OOM killer) is reported with its exit code or signal and replaced
  the same way.

File descriptors 1 and 2 of both processes (and of every child process a body starts) are the
pipe the playground drains (:mod:`playground.sources.worker_output`), so nothing a body prints
reaches the terminal. Standard input is
``/dev/null``. The worker is in its own session (ctrl+c in the terminal does not reach it) and
exits when the playground closes its pipe; the runner is killed when the loader dies
(``PR_SET_PDEATHSIG`` on Linux).
"""

from __future__ import annotations

import contextlib
import faulthandler
import inspect
import os
import pickle
import signal
import sys
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from playground.core.toolsource import RaisedError, conversion_error, raised_error


def describe_status(status: int) -> str:
    """``exit code 3`` or ``SIGSEGV`` (signal name) for a ``waitpid`` status."""
    return describe_exit(os.waitstatus_to_exitcode(status))


def describe_exit(code: int) -> str:
    """``exit code 3`` for a return code, or the signal's name (``SIGSEGV``) for ``-11``."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"{name} (out of memory?)" if -code == signal.SIGKILL else name
    return f"exit code {code}"


def worker_exited(how: str, while_doing: str = "running the body") -> RaisedError:
    """The :class:`RaisedError` of a worker process that ended while ``while_doing`` (``how``:
    ``exit code 9``, ``SIGSEGV``): the body raised nothing, so ``details["process_ended"]``
    says how it ended, and the model's message says that instead of an exception
    (:func:`playground.core.outcome.process_ended_message`)."""
    text = f"WorkerExited: the worker process ended ({how}) while {while_doing}"
    details = {"process_ended": how, "while": while_doing}
    return RaisedError("WorkerExited", text, "raised", "WorkerExited", details=details)


def _die_with_parent() -> None:
    """Linux: get SIGKILL when the parent process ends (``prctl(PR_SET_PDEATHSIG)``)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1


def _flush() -> None:
    # a body that replaced or closed sys.stdout/sys.stderr does not keep it
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        original = getattr(sys, f"__{name}__")
        if stream is not original:
            with contextlib.suppress(Exception):
                stream.flush()
            setattr(sys, name, original)
        with contextlib.suppress(Exception):
            original.flush()


def run_one(fn: Any, name: str, args: dict[str, Any], cap: int) -> dict[str, Any]:
    """Run ``fn(**args)`` here and describe it: ``{"duration_ms", "error"? , "value"? ,
    "refused"?, "refused_message"?}``; the value is converted to JSON data first (docs/design.md's
    result rules) and refused when it is not JSON data or its pickle is over ``cap`` bytes."""
    from playground.core.canonical import NotSerializable, to_json_value
    from playground.core.convert import ArgConversionError, call_args

    reply: dict[str, Any] = {}
    try:  # the annotated types (issue 11 item 1), converted where the function lives
        args = call_args(fn, args)
    except ArgConversionError as exc:
        reply["error"] = conversion_error(exc)
        reply["duration_ms"] = 0.0
        return reply
    started = time.perf_counter()
    value: Any = None
    try:
        value = fn(**args)
        if inspect.isawaitable(value):
            import asyncio

            async def _awaited() -> Any:
                return await value

            value = asyncio.run(_awaited())
    except BaseException as exc:  # the body may raise anything, SystemExit included
        reply["error"] = raised_error(exc)
    reply["duration_ms"] = (time.perf_counter() - started) * 1000
    _flush()
    if "error" in reply:
        return reply
    try:
        data = to_json_value(value)
    except NotSerializable as exc:
        reply["refused"] = "not_serializable"
        reply["refused_message"] = (
            f"{name} returned {exc.what} at {exc.path}; a tool result must be JSON data."
        )
        return reply
    except RecursionError:
        reply["refused"] = "not_serializable"
        reply["refused_message"] = f"{name} returned a self-referencing value."
        return reply
    reply["value"] = data
    return reply


def _encode(reply: dict[str, Any], name: str, cap: int) -> bytes:
    payload = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
    if len(payload) > cap and "value" in reply:
        size = len(payload)
        del reply["value"]
        reply["refused"] = "too_big"
        reply["refused_message"] = (
            f"{name}'s result took {size:,} bytes to send from the worker (with what it "
            f"printed); the playground refuses more than {cap:,} bytes (the worker's result "
            "cap, PLAYGROUND_RESULT_CAP_MB)."
        )
        payload = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
    return payload


def _set_subreaper() -> None:
    """Linux: orphaned descendants of this process are re-parented to it, not to init
    (``prctl(PR_SET_CHILD_SUBREAPER)``), so :func:`end_descendants` finds a body's grandchildren
    too, even a daemon that double-forked into its own session."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER = 36


def _parents() -> dict[int, int]:
    """``{pid: parent pid}`` of every process, read from ``/proc/PID/stat`` (empty where there
    is no ``/proc``)."""
    out: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            out[int(name)] = int(fields[1])
    return out


def _has_children() -> bool:
    """Whether this process has a child (``/proc/self/task/*/children``; ``True`` when that
    cannot be read, so the full scan decides)."""
    try:
        tasks = os.listdir("/proc/self/task")
        for task in tasks:
            with open(f"/proc/self/task/{task}/children", "rb") as fh:
                if fh.read().strip():
                    return True
    except OSError:
        return True
    return False


def _children_files(pid: int) -> list[int] | None:
    """The children of ``pid`` from ``/proc/PID/task/*/children`` (``[]`` when it has ended;
    ``None`` when the kernel has no such file: scan ``/proc`` instead)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return []
    except OSError:
        return None
    found: list[int] = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as fh:
                found += [int(x) for x in fh.read().split()]
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{task}"):
                continue  # the thread ended
            return None
        except OSError:
            return None
    return found


def descendants(pid: int, keep: frozenset[int] = frozenset()) -> list[int]:
    """The processes below ``pid`` (children, theirs, ...), leaving out ``keep`` and what is
    below them. Walks the ``children`` files of the tree itself (a few reads) where the kernel
    has them, else reads every process's parent from ``/proc``."""
    found: list[int] = []
    stack = [pid]
    while stack:
        below = _children_files(stack.pop())
        if below is None:
            return _descendants_by_scan(pid, keep)
        for child in below:
            if child not in keep:
                found.append(child)
                stack.append(child)
    return found


def _descendants_by_scan(pid: int, keep: frozenset[int]) -> list[int]:
    """:func:`descendants` from every process's parent (``/proc/*/stat``)."""
    children: dict[int, list[int]] = {}
    for child, parent in _parents().items():
        children.setdefault(parent, []).append(child)
    found: list[int] = []
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in keep:
                found.append(child)
                stack.append(child)
    return found


def _command_line(pid: int) -> str | None:
    """``sleep 555``: the command line of ``pid`` from ``/proc`` (``""`` when unreadable,
    ``None`` for a runner or the watchdog: a fork of this process, not a started program)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            words = fh.read().split(b"\0")
    except OSError:
        return ""
    text = " ".join(w.decode("utf-8", "replace") for w in words if w)
    with contextlib.suppress(OSError), open("/proc/self/cmdline", "rb") as fh:
        if fh.read().split(b"\0") == words:
            return None
    return text


def end_descendants(
    keep: frozenset[int] = frozenset(), uncounted: frozenset[int] = frozenset()
) -> int:
    """SIGKILL every process below this one (but ``keep``), reap them; returns how many were
    ended, not counting ``uncounted`` (a runner ended on purpose). Repeats while new ones
    appear (a parent forking as it is killed), at most 5 times."""
    ended: set[int] = set()
    if not _has_children():  # a subreaper without children has no descendants: no /proc scan
        return 0
    for _ in range(5):
        pids = [p for p in descendants(os.getpid(), keep) if p not in ended]
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        ended.update(pids)
        time.sleep(0.001)
    # SIGKILL is not instant: reap until every one is gone (its orphans come back here too),
    # so none is found again, as a zombie, after the next call
    deadline = time.monotonic() + 2.0
    pending = set(ended)
    while pending and time.monotonic() < deadline:
        _reap_all()
        pending = {pid for pid in pending if os.path.exists(f"/proc/{pid}")}
        if pending:
            time.sleep(0.002)
    return len(ended - uncounted)


def _reap_all() -> None:
    """Collect the exit status of every child that has ended (zombies of killed processes)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


class _CleanState:
    """What a body may change that the next call must not see: the working directory (held as
    an open folder, so a renamed folder is still found) and the environment."""

    def __init__(self) -> None:
        self.cwd = os.getcwd()
        self.cwd_fd = os.open(".", os.O_RDONLY)
        self.environ = dict(os.environ)

    def restore(self) -> list[str]:
        """Put both back; returns a note for each that the body had changed."""
        notes: list[str] = []
        try:
            changed = os.getcwd() != self.cwd
        except OSError:  # the body removed the folder it moved into
            changed = True
        if changed:
            os.fchdir(self.cwd_fd)
            notes.append("the body changed the working directory; it was restored")
        if os.environ != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)
            notes.append("the body changed the environment; it was restored")
        return notes


#: the first byte of a runner's reply: it ends after this reply, or keeps serving
_ENDS, _KEEPS = b"E", b"K"


def _runner_loop(requests: Connection, replies: Connection, functions: dict[str, Any]) -> None:
    _set_subreaper()
    clean = _CleanState()
    while True:
        try:
            msg = requests.recv()
        except (EOFError, OSError):
            return
        name = msg["name"]
        reply = run_one(functions[name], name, msg["args"], msg["cap"])
        # each call starts clean (issue 28 item 6): nothing the body left carries over
        notes = clean.restore()
        ended = end_descendants()
        if ended:
            notes.append(
                f"the body left {ended} child process{'es' if ended != 1 else ''} running; "
                "the playground ended them when the call ended"
            )
        threads = threading.active_count() - 1
        if threads > 0:
            notes.append(
                f"the body left {threads} thread{'s' if threads != 1 else ''} running; the "
                "next call runs in a fresh process"
            )
        if notes:
            reply["notes"] = notes
        # one byte ahead of the reply: E, this runner ends now (the loader waits for it, so the
        # next call never reaches a runner on its way out); K, it keeps serving
        ending = threads > 0  # its output would land in a later call: end this runner
        replies.send_bytes((_ENDS if ending else _KEEPS) + _encode(reply, name, msg["cap"]))
        if ending:
            os._exit(0)


class Loader:
    """The loader process: holds the imported functions, the active runner and one spare
    runner forked ahead of need (so replacing a killed runner costs no fork on the way)."""

    def __init__(self, requests: Connection, replies: Connection) -> None:
        self.requests = requests
        self.replies = replies
        self.functions: dict[str, Any] = {}
        self.runner: tuple[int, Connection, Connection] | None = None
        self.spare: tuple[int, Connection, Connection] | None = None
        self.killed: list[int] = []

    def serve(self) -> None:
        while True:
            try:
                msg = self.requests.recv()
            except (EOFError, OSError):
                break
            op = msg.get("op")
            if op == "load":
                self.load(msg)
            elif op == "call":
                self.replies.send_bytes(self.call(msg))
                if self.spare is None:
                    self.spare = self.fork_runner()
                self.reap()
            elif op == "exit":
                break
        for runner in (self.runner, self.spare):
            if runner is not None:
                self.kill(runner)
        os._exit(0)

    def load(self, msg: dict[str, Any]) -> None:
        from playground.core import canonical, convert, outcome  # noqa: F401 - warm the runners
        from playground.sources.tool_modules import IMPORT_INTERRUPT_IS_FAULT, collect_contracts

        IMPORT_INTERRUPT_IS_FAULT[0] = True  # no ctrl+c reaches this process

        sending = threading.Lock()  # progress comes from the importing threads

        def progress(file: Path, done: bool) -> None:
            with sending:
                self.replies.send({"op": "imported" if done else "importing", "file": str(file)})

        hung: list[str] = []
        found = collect_contracts(
            msg["paths"],
            on_import=progress,
            skip=msg.get("skip", ()),
            import_timeout_s=msg.get("import_timeout_s"),  # concurrent, each import bounded
            hung=hung,
        )
        self.functions = {n: c.fn for n, c in found.contracts.items()}
        for runner in (self.runner, self.spare):
            if runner is not None:
                self.kill(runner)
        self.runner = self.spare = None
        warnings = self._end_import_children()
        with sending:
            self.replies.send(
                {
                    "op": "loaded",
                    "contracts": [c.to_data() for c in found.contracts.values()],
                    "problems": [(p.where, p.message) for p in found.problems],
                    "warnings": warnings,
                    "hung": hung,  # their threads still run here; runners fork without them
                }
            )
        self.runner = self.fork_runner()

    def _end_import_children(self) -> list[tuple[str, str]]:
        """End the processes the tool modules started while importing (children of this
        loader, a daemon in its own session included: this process is a subreaper), as a body's
        are ended when its call ends; returns the load warning saying so, or ``[]``."""
        keep = frozenset(WATCHDOG)
        commands = [_command_line(pid) for pid in descendants(os.getpid(), keep)]
        commands = [c for c in commands if c is not None]
        ended = end_descendants(keep, uncounted=frozenset(self.killed))
        self.killed.clear()  # reaped by end_descendants
        if not ended:
            return []
        shown = ", ".join(c for c in commands if c)[:300] or "unknown commands"
        return [
            (
                "",  # the worker names itself (its label)
                f"the tool modules started {ended} process{'es' if ended != 1 else ''} while "
                f"importing ({shown}); the playground ended "
                f"{'them' if ended != 1 else 'it'} when the import ended",
            )
        ]

    def fork_runner(self) -> tuple[int, Connection, Connection]:
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        _flush()
        pid = os.fork()
        if pid == 0:  # the runner
            try:
                os.close(req_w)
                os.close(rep_r)
                for conn in (self.requests, self.replies):
                    conn.close()
                for other in (self.runner, self.spare):
                    if other is not None:
                        other[1].close()
                        other[2].close()
                _die_with_parent()
                _runner_loop(
                    Connection(req_r, writable=False),
                    Connection(rep_w, readable=False),
                    self.functions,
                )
            finally:
                os._exit(0)
        os.close(req_r)
        os.close(rep_w)
        return pid, Connection(req_w, readable=False), Connection(rep_r, writable=False)

    def kill(self, runner: tuple[int, Connection, Connection]) -> None:
        """SIGKILL a runner; it is reaped later (:meth:`reap`)."""
        pid, req, rep = runner
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        req.close()
        rep.close()
        self.killed.append(pid)

    @staticmethod
    def _ended(pid: int) -> bool:
        try:
            return os.waitpid(pid, os.WNOHANG)[0] != 0
        except ChildProcessError:
            return True

    def reap(self) -> None:
        for pid in list(self.killed):
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    continue
            self.killed.remove(pid)

    def call(self, msg: dict[str, Any]) -> bytes:
        if self.runner is not None and self._ended(self.runner[0]):
            self.runner[1].close()
            self.runner[2].close()
            self.runner = None  # it ended itself after a body left a thread running
        if self.runner is None:
            self.runner, self.spare = self.spare or self.fork_runner(), None
        pid, req, rep = self.runner
        timeout_s, grace_s = msg["timeout_s"], msg["grace_s"]
        started = time.perf_counter()
        try:
            req.send({"name": msg["name"], "args": msg["args"], "cap": msg["cap"]})
            if self.spare is None:  # fork the next runner while this body runs
                self.spare = self.fork_runner()
            left = timeout_s + grace_s - (time.perf_counter() - started)
            if rep.poll(max(0.0, left)):
                data = rep.recv_bytes()
                if data[:1] == _ENDS:  # it ends itself now: the next call takes the spare
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(pid, 0)
                    req.close()
                    rep.close()
                    self.runner = None
                return data[1:]
        except (EOFError, OSError):
            # the runner died: reap it for its status
            how = ""
            with contextlib.suppress(ChildProcessError):
                how = describe_status(os.waitpid(pid, 0)[1])
            self.runner = None
            req.close()
            rep.close()
            reply = {
                "error": worker_exited(how or "unknown status"),
                "stopped": how,
                "duration_ms": (time.perf_counter() - started) * 1000,
            }
            self._end_orphans(reply, pid)
            return pickle.dumps(reply)
        elapsed = time.perf_counter() - started
        self.kill(self.runner)
        self.runner = None
        reply = {
            "timed_out": True,
            "stopped": f"stopped after {elapsed:.{1 if elapsed >= 0.1 else 3}f} s",
            "duration_ms": elapsed * 1000,
        }
        self._end_orphans(reply, pid)
        return pickle.dumps(reply)

    def _end_orphans(self, reply: dict[str, Any], runner_pid: int) -> None:
        """End what the stopped runner's body had started (re-parented to this subreaper),
        sparing the spare runner; the reply's ``notes`` say how many."""
        keep = frozenset([*WATCHDOG, *([self.spare[0]] if self.spare is not None else [])])
        # reap the killed runner first: its children are ours from then on, and a runner
        # that had none leaves nothing to scan for again and nothing to wait for
        deadline = time.monotonic() + 0.5
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(runner_pid, os.WNOHANG)[0] == 0 and time.monotonic() < deadline:
                time.sleep(0.0002)
        ended = end_descendants(keep, uncounted=frozenset([runner_pid, *self.killed]))
        self.killed.clear()  # reaped by end_descendants
        if ended:
            reply["notes"] = [
                f"the body left {ended} child process{'es' if ended != 1 else ''} running; "
                "the playground ended them when the call ended"
            ]


#: the watchdog process's id (:func:`_watch_parent`): never ended as an orphan of a body
WATCHDOG: list[int] = []


def _watch_parent(life_fd: int, close: tuple[int, ...] = ()) -> None:
    """Fork the worker's watchdog: a process that blocks reading ``life_fd`` (a pipe whose
    write end only the playground holds) and, at its end of file — the playground is gone,
    whatever ended it — SIGKILLs the worker's whole process group (the loader, the runners,
    the bodies' children), itself included. It dies with the loader (``PR_SET_PDEATHSIG``).
    A separate process, since a module hanging in C at import holds the loader's GIL."""
    pid = os.fork()
    if pid != 0:
        os.close(life_fd)
        WATCHDOG.append(pid)
        return
    try:  # the watchdog: holds no end of the playground's pipes
        for fd in close:
            with contextlib.suppress(OSError):
                os.close(fd)
        _die_with_parent()
        if os.getppid() == 1:  # the loader is already gone
            os._exit(0)
        with contextlib.suppress(OSError):
            while os.read(life_fd, 1):
                pass
        os.killpg(0, signal.SIGKILL)
    finally:
        os._exit(0)


def main() -> None:
    """Entry point: ``python -c "...main()" REQUESTS_FD REPLIES_FD [LIFE_FD]``."""
    # started with -P: the working directory is on sys.path last (a tool module may import
    # the project it sits in), never before the standard library and installed packages
    sys.path.append(os.getcwd())
    req_fd, rep_fd = int(sys.argv[1]), int(sys.argv[2])
    for fd in (req_fd, rep_fd):
        os.set_inheritable(fd, False)
    if len(sys.argv) > 3:
        _watch_parent(int(sys.argv[3]), close=(req_fd, rep_fd))
    faulthandler.enable()  # a segfault's Python traceback goes to fd 2: the output pipe
    _set_subreaper()  # a stopped runner's children come back here to be ended
    from playground.core.settings import freeze

    freeze()  # before any tool module is imported: what one sets in os.environ moves nothing
    loader = Loader(Connection(req_fd, writable=False), Connection(rep_fd, readable=False))
    loader.serve()


if __name__ == "__main__":  # pragma: no cover
    main()
