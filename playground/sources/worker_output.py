"""The pipe that is standard output and standard error of the worker processes (issue 27).

File descriptors 1 and 2 of the worker's loader, of its runners and of every child process a
tool body starts are the write end of one pipe; nothing they print reaches the playground's
terminal. A daemon thread of the playground process drains the pipe as it fills (a pipe that
nobody read would block the printing body), keeps the first :data:`KEEP_BYTES` bytes since the
last :meth:`WorkerOutput.reset` and the last :data:`TAIL_BYTES`, and counts the rest: memory
stays bounded whatever a tool prints. Once the kept part is full the thread pauses
:data:`FLOOD_PAUSE_S` between reads of up to a pipe's size (1 MiB where Linux allows it), so a
flood — a child that prints forever — costs the playground little CPU and is slowed to at most
about 200 MB/s instead of filling a disk (the temporary file of earlier versions did).
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import os
import select
import termios
import threading
import time

from playground.core.toolsource import PRINTED_LIMIT, bounded_output

#: bytes kept from the start of what was printed (a UTF-8 character is at most 4 bytes)
KEEP_BYTES = PRINTED_LIMIT * 4
#: bytes kept from the end (for the one-line reason when a worker dies)
TAIL_BYTES = 4096
#: seconds the reader pauses between reads once the kept part is full
FLOOD_PAUSE_S = 0.005
_READ = 1 << 20
_F_SETPIPE_SZ = 1031  # Linux fcntl


class WorkerOutput:
    """One pipe and its reader. ``write_fd`` is handed to the worker processes as fds 1 and 2
    (the playground never writes to it); :meth:`printed` is what was printed since
    :meth:`reset`; :meth:`close` stops the reader and closes both ends."""

    def __init__(self) -> None:
        read_fd, self.write_fd = os.pipe()
        with contextlib.suppress(OSError):
            fcntl.fcntl(read_fd, _F_SETPIPE_SZ, _READ)
        os.set_blocking(read_fd, False)
        self._read_fd = read_fd
        self._lock = threading.Lock()  # held while a read is under way and its bytes are kept
        self._head = bytearray()
        self._tail = bytearray()
        self._total = 0
        self._reported = 0  # of ``_total``: the bytes :meth:`printed` has handed out
        self._read_total = 0  # every byte read, never reset
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._drain, name="worker-output", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        try:
            while not self._stop.is_set():
                ready, _, _ = select.select([self._read_fd], [], [], 0.25)
                if not ready:
                    continue
                with self._lock:
                    try:
                        data = os.read(self._read_fd, _READ)
                    except BlockingIOError:
                        continue
                    except OSError:
                        return
                    if not data:
                        return
                    self._keep(data)
                    full = len(self._head) >= KEEP_BYTES
                if full:
                    self._stop.wait(FLOOD_PAUSE_S)
        finally:
            with contextlib.suppress(OSError):
                os.close(self._read_fd)

    def _keep(self, data: bytes) -> None:
        room = KEEP_BYTES - len(self._head)
        if room > 0:
            self._head += data[:room]
        self._total += len(data)
        self._read_total += len(data)
        self._tail = (self._tail + data)[-TAIL_BYTES:]

    def _unread(self) -> int:
        """Bytes waiting in the pipe (``FIONREAD``)."""
        count = array.array("i", [0])
        try:
            fcntl.ioctl(self._read_fd, termios.FIONREAD, count)
        except OSError:
            return 0
        return count[0]

    def settle(self, limit_s: float = 0.25) -> None:
        """Wait until every byte written before this call is read (at most ``limit_s``
        seconds). The runner flushes its streams before it answers, so after its answer this
        collects all the body printed; a child that keeps printing does not make it wait."""
        deadline = time.monotonic() + limit_s
        with self._lock:  # no read under way: what was written so far is read or unread
            target = self._read_total + self._unread()
        while self._thread.is_alive() and time.monotonic() < deadline:
            with self._lock:
                if self._read_total >= target:
                    return
            time.sleep(0.001)

    def reset(self) -> int:
        """Forget what was printed so far (a call or a load starts); returns how many bytes
        were forgotten unseen: printed since the last reset and never handed out by
        :meth:`printed` (written after a body returned, as a call starts)."""
        self.settle(0.05)
        with self._lock:
            dropped = self._total - self._reported
            self._head = bytearray()
            self._tail = bytearray()
            self._total = 0
            self._reported = 0
        return dropped

    def printed(self) -> str:
        """What was printed since :meth:`reset` (after :meth:`settle`): the first
        :data:`~playground.core.toolsource.PRINTED_LIMIT` characters, with ``… [N bytes printed
        in all]`` when more was printed (:func:`~playground.core.toolsource.bounded_output`)."""
        self.settle()
        with self._lock:
            head, total = bytes(self._head), self._total
            self._reported = total  # shown with the call: never "dropped" at the next reset
        if not total:
            return ""
        return bounded_output(head.decode("utf-8", "replace"), total)

    def tail(self, chars: int = 300) -> str:
        """The last ``chars`` characters printed since :meth:`reset` (a dying worker's reason)."""
        self.settle()
        with self._lock:
            return bytes(self._tail).decode("utf-8", "replace")[-chars:]

    def close(self) -> None:
        """Stop the reader (it closes the read end) and close the write end; safe twice."""
        if self._stop.is_set():
            return
        self._stop.set()
        with contextlib.suppress(OSError):
            os.close(self.write_fd)
