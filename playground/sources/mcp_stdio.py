"""A stdio MCP server's process, started before the SDK is imported, and its pipes as the
``(read, write)`` streams a ``ClientSession`` takes (issue 10, performance).

The SDK's ``mcp.client.stdio.stdio_client`` starts the server inside its context manager, so a
client that imports the SDK first starts the server only after ~0.6 s of imports (``mcp``'s
package ``__init__`` loads the whole SDK, client and server, and any submodule import runs it).
Here :func:`spawn` starts the process the way ``stdio_client`` does — ``anyio.open_process``,
its own session and process group, exactly the environment given, stderr to a file — with
anyio only, so the server boots while the playground imports the SDK; :func:`process_streams`
then bridges its pipes to the memory streams of a ``ClientSession``. JSON-RPC stays the SDK's:
each stdout line is parsed by ``mcp_types.jsonrpc_message_adapter`` (a line that is not a
message reaches the session as the parse exception, as with ``stdio_client``), and each
outgoing ``SessionMessage`` is written as its own model's JSON plus a newline (the stdio
framing of the spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports).

Shutdown follows the spec's sequence as ``stdio_client`` does
(https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#shutdown): close the
server's stdin, wait for it to exit (``exit_grace_s``), then SIGTERM its process group and
SIGKILL what remains (``mcp.os.posix.utilities.terminate_posix_process_tree``); its stdout is
drained meanwhile so that a server flushing output can exit. Then, whether the server exited
by itself or not, its process group is ended the same way, so the processes its tools started
(which stay in its group) end with it (issue 28, item 2). No server process outlives
:func:`process_streams` or :func:`stop_process`.

Every exit path of the playground ends the group, a SIGKILL or a crash included: :func:`spawn`
also starts the server's **watchdog**, a ``/bin/sh`` in a session of its own that blocks reading
a pipe whose write end only the playground holds; at that pipe's end of file — the server was
stopped, or the playground is gone for any reason — it SIGKILLs the server's process group
(the same lifeline as the tool worker's, ``sources/worker_main.py``). A process that leaves the
group (``setsid``, a daemon) is out of reach, as with the SDK. POSIX only (the playground's
platforms).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import AsyncIterator, Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anyio.abc import Process

#: Variables every stdio server inherits, as the SDK's ``stdio_client`` gives them
#: (``mcp.client.stdio.DEFAULT_INHERITED_ENV_VARS`` on POSIX; a test keeps the two equal).
SDK_INHERITED_ENV = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
#: Longest stdout line (one JSON-RPC message) read from a server, in bytes.
MAX_LINE_BYTES = 256 * 1024 * 1024
#: Seconds a server may take to exit after its stdin closes before its group gets SIGTERM
#: (the SDK's ``PROCESS_TERMINATION_TIMEOUT``).
EXIT_GRACE_S = 2.0
#: Seconds between SIGTERM and SIGKILL of the group (the SDK's ``FORCE_KILL_TIMEOUT``).
KILL_TIMEOUT_S = 2.0
#: Seconds the writer may take to flush messages already accepted before stdin closes.
FLUSH_TIMEOUT_S = 0.5
_POLL_S = 0.01
#: The watchdog's script: wait for end of file on stdin (the lifeline), then SIGKILL the group
#: ``$1`` (``kill -9 -PGID``, the form dash's builtin takes).
_WATCHDOG_SCRIPT = 'read _ ; kill -9 -"$1"'
#: server pid → (the lifeline's write end, the watchdog's ``Popen``)
_WATCHDOGS: dict[int, tuple[int, subprocess.Popen[bytes]]] = {}


def inherited_environment(source: dict[str, str] | None = None) -> dict[str, str]:
    """The variables of :data:`SDK_INHERITED_ENV` set in ``source`` (default ``os.environ``),
    without shell functions (values starting ``()``), as the SDK's
    ``get_default_environment`` picks them."""
    source = dict(os.environ) if source is None else source
    return {
        k: source[k] for k in SDK_INHERITED_ENV if k in source and not source[k].startswith("()")
    }


async def spawn(
    command: str,
    args: Sequence[str],
    env: dict[str, str],
    cwd: str | None,
    stderr: IO[Any] | None,
) -> Process:
    """Start ``command args`` with exactly ``env``, in ``cwd``, its stderr to ``stderr``, in a
    new session (so :func:`stop_process` can end its whole process group).

    Raises ``OSError`` (``FileNotFoundError`` for a missing command or ``cwd``) as
    ``stdio_client`` would.
    """
    import anyio

    process = await anyio.open_process(
        [command, *args], env=env, cwd=cwd, stderr=stderr, start_new_session=True
    )
    _watch(int(process.pid))
    return process


def _watch(pgid: int) -> None:
    """Start the watchdog of process group ``pgid`` (see the module docstring). The lifeline's
    read end goes to the watchdog only; its write end stays here, not inheritable, until
    :func:`release_watchdog`. A watchdog that cannot start leaves the group unguarded (the
    normal stop still ends it)."""
    life_r, life_w = os.pipe()
    try:
        watchdog = subprocess.Popen(
            ["/bin/sh", "-c", _WATCHDOG_SCRIPT, "sh", str(pgid)],
            stdin=life_r,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a ctrl+c or SIGTERM sent to the playground's group spares it
        )
    except OSError:
        os.close(life_w)
        return
    finally:
        os.close(life_r)
    _WATCHDOGS[pgid] = (life_w, watchdog)


def release_watchdog(pgid: int) -> None:
    """Close the lifeline of group ``pgid``'s watchdog: it SIGKILLs what is left of the group
    and exits (it is reaped here, at most 1 s). No-op when there is none."""
    entry = _WATCHDOGS.pop(pgid, None)
    if entry is None:
        return
    life_w, watchdog = entry
    with contextlib.suppress(OSError):
        os.close(life_w)
    with contextlib.suppress(subprocess.TimeoutExpired):
        watchdog.wait(1.0)


def _group_alive(pgid: int) -> bool:
    """Whether process group ``pgid`` has a member (signal 0; only ``ESRCH`` proves it gone),
    so that a server whose group is already gone costs no import of the SDK."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


async def _exited(process: Process, within_s: float) -> bool:
    """Whether ``process`` exited within ``within_s`` seconds, polling its return code (not
    ``wait()``, which also waits for the pipes of any child that inherited them)."""
    import anyio

    with anyio.move_on_after(within_s):
        while process.returncode is None:
            await anyio.sleep(_POLL_S)
    return process.returncode is not None


async def stop_process(process: Process, exit_grace_s: float = EXIT_GRACE_S) -> None:
    """Close the server's stdin, wait up to ``exit_grace_s`` seconds for it to exit, then end
    its process group — exited or not, since the processes its tools started are in it
    (SIGTERM, SIGKILL after :data:`KILL_TIMEOUT_S`) — and release its watchdog. Never raises for a
    server already gone; shielded from cancellation (every wait is bounded)."""
    import anyio

    with anyio.CancelScope(shield=True):
        if process.stdin is not None:
            with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                await process.stdin.aclose()
        await _exited(process, exit_grace_s)
        if _group_alive(int(process.pid)):  # exited or not: what its tools started is in it
            from playground.sources.mcp_imports import load_client_packages

            load_client_packages()
            from mcp.os.posix.utilities import terminate_posix_process_tree

            await terminate_posix_process_tree(process, KILL_TIMEOUT_S)
            await _exited(process, KILL_TIMEOUT_S)
        release_watchdog(int(process.pid))
        if process.stdout is not None:  # a survivor may hold the pipe: end the reader anyway
            with contextlib.suppress(OSError, anyio.BrokenResourceError):
                await process.stdout.aclose()


@contextlib.asynccontextmanager
async def process_streams(
    process: Process, exit_grace_s: float = EXIT_GRACE_S
) -> AsyncIterator[tuple[Any, Any]]:
    """``(read_stream, write_stream)`` over ``process``'s stdout and stdin, for a
    ``ClientSession``: the read stream yields ``SessionMessage`` values (or the exception for a
    line that is not a JSON-RPC message); messages sent to the write stream go to the server,
    one JSON line each. On exit the server is stopped (:func:`stop_process`). A server that
    stops reading its stdin ends the read stream, so the session sees the connection close
    instead of waiting.
    """
    import anyio

    pipes = _Pipes(process)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(pipes.reader)
            tg.start_soon(pipes.writer)
            try:
                yield pipes.read_stream, pipes.write_stream
            finally:
                with anyio.CancelScope(shield=True):
                    await pipes.close(process, exit_grace_s)
                tg.cancel_scope.cancel()
    finally:
        await stop_process(process, 0.0)  # also when the task group never started


class _Pipes:
    """The bridge between a server's stdout/stdin and a ``ClientSession``'s memory streams
    (unbuffered: size 0). :meth:`reader` turns each stdout line into a ``SessionMessage`` on
    ``read_stream``; :meth:`writer` writes each message sent to ``write_stream`` to stdin as
    one JSON line; :meth:`close` flushes, stops the server and closes the four stream ends."""

    def __init__(self, process: Process) -> None:
        import anyio
        import mcp_types

        from playground.sources.mcp_imports import load_client_packages

        load_client_packages()
        from mcp.shared.message import SessionMessage

        assert process.stdin is not None and process.stdout is not None, "spawned with pipes"
        self.stdin, self.stdout = process.stdin, process.stdout
        self._message, self._adapter = SessionMessage, mcp_types.jsonrpc_message_adapter
        self.read_writer, self.read_stream = anyio.create_memory_object_stream[
            SessionMessage | Exception
        ](0)
        self.write_stream, self.write_reader = anyio.create_memory_object_stream[SessionMessage](0)
        self.writer_done = anyio.Event()

    def parse(self, line: bytes) -> Any:
        """The ``SessionMessage`` of one stdout line, or the exception for non-protocol text
        (pydantic's ``ValidationError``, a ``ValueError``), as ``stdio_client`` hands it on."""
        try:
            text = line.decode("utf-8", "replace")
            return self._message(self._adapter.validate_json(text, by_name=False))
        except ValueError as exc:  # pydantic's ValidationError: non-protocol text
            return exc

    async def drain(self) -> None:
        """Read stdout to its end and drop it (shielded), so a server flushing output can exit."""
        import anyio

        with (
            anyio.CancelScope(shield=True),
            contextlib.suppress(
                anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError
            ),
        ):
            while True:
                await self.stdout.receive()

    async def reader(self) -> None:
        """Send each stdout line (at most :data:`MAX_LINE_BYTES`; a longer one is sent as a
        ``ValueError`` and ends the stream) parsed to the session, until stdout or the session
        ends; then drain stdout."""
        import anyio
        from anyio.streams.buffered import BufferedByteReceiveStream

        lines = BufferedByteReceiveStream(self.stdout)
        try:
            async with self.read_writer:
                while True:
                    try:
                        line = await lines.receive_until(b"\n", MAX_LINE_BYTES)
                    except anyio.DelimiterNotFound:
                        await self.read_writer.send(
                            ValueError(f"a stdout line longer than {MAX_LINE_BYTES} bytes")
                        )
                        return
                    await self.read_writer.send(self.parse(line))
        except (
            anyio.EndOfStream,
            anyio.IncompleteRead,
            anyio.ClosedResourceError,
            anyio.BrokenResourceError,
            OSError,
        ):
            pass  # the server ended its stdout, or the session is gone
        finally:
            await self.drain()

    async def writer(self) -> None:
        """Write each message the session sends to stdin as one JSON line; when the server
        stops reading, close the read stream (the connection is over)."""
        import anyio

        try:
            async with self.write_reader:
                async for message in self.write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await self.stdin.send(data.encode("utf-8") + b"\n")
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await self.read_writer.aclose()  # the server stopped reading: the connection is over
        finally:
            self.writer_done.set()

    async def close(self, process: Process, exit_grace_s: float) -> None:
        """End the bridge (the caller shields it): stop taking messages, let the writer flush
        for up to :data:`FLUSH_TIMEOUT_S`, stop the server (:func:`stop_process`), close the
        four stream ends."""
        import anyio
        import anyio.lowlevel

        self.read_stream.close()  # the reader drains from now on
        self.write_stream.close()
        with anyio.move_on_after(FLUSH_TIMEOUT_S):
            await self.writer_done.wait()
        await stop_process(process, exit_grace_s)
        for stream in (self.read_stream, self.write_stream, self.read_writer, self.write_reader):
            await stream.aclose()
        await anyio.lowlevel.checkpoint()
