"""An MCP server's stderr, kept bounded: a pipe whose reader keeps at most a cap of bytes.

A stdio server writes its log to stderr. Written straight to a file (as before), a server that
logs forever fills the disk; written to a pipe nobody reads, it blocks. Here a daemon thread
reads the pipe as fast as the server writes and keeps the first :data:`CAP_BYTES` in a
temporary file (read back with ``os.pread`` by position, as the MCP log and each call's
``printed`` do); the rest is counted and dropped (issue 27 item 2: a flood cannot stall the UI
or fill the disk).
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import os
import tempfile
import termios
import threading
import time
from typing import IO, Any

#: bytes of a server's stderr kept (8 MiB); what comes after is counted, not kept
CAP_BYTES = 8 << 20


class CappedLog:
    """The server's end is :attr:`writer` (a text file object to pass as the child's stderr);
    :meth:`fileno` is the kept file's descriptor for ``os.pread``. ``dropped``: bytes read past
    the cap (not kept). Call :meth:`settle` before reading what was just written."""

    def __init__(self, cap_bytes: int = CAP_BYTES) -> None:
        read_fd, write_fd = os.pipe()
        self.cap = cap_bytes
        self.writer: IO[Any] = os.fdopen(write_fd, "w", encoding="utf-8")
        self._read_fd = read_fd
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self._lock = threading.Lock()
        self._kept = 0
        self._read = 0
        self.dropped = 0
        self._thread = threading.Thread(target=self._drain, name="mcp-stderr", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self._read_fd, 1 << 16)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                room = max(0, self.cap - self._kept)
                keep = data[:room]
                if keep:
                    with contextlib.suppress(OSError, ValueError):
                        os.pwrite(self._file.fileno(), keep, self._kept)
                    self._kept += len(keep)
                self.dropped += len(data) - len(keep)
                self._read += len(data)

    def _unread(self) -> int:
        count = array.array("i", [0])
        try:
            fcntl.ioctl(self._read_fd, termios.FIONREAD, count)
        except OSError:
            return 0
        return count[0]

    def settle(self, limit_s: float = 0.25) -> None:
        """Wait until every byte written to the pipe before this call is kept or counted (at
        most ``limit_s`` seconds; a server that keeps writing does not make it wait longer)."""
        deadline = time.monotonic() + limit_s
        with self._lock:
            target = self._read + self._unread()
        while self._thread.is_alive() and time.monotonic() < deadline:
            with self._lock:
                if self._read >= target:
                    return
            time.sleep(0.001)

    def fileno(self) -> int:
        """The kept file's descriptor (read it with ``os.pread``)."""
        return self._file.fileno()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` ran."""
        return self._file.closed

    def close(self) -> None:
        """Close the server's end, let the reader finish (0.5 s at most), free the file."""
        with contextlib.suppress(OSError):
            self.writer.close()
        self._thread.join(0.5)
        with contextlib.suppress(OSError):
            os.close(self._read_fd)
        self._file.close()
