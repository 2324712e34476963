"""An MCP server's stderr, kept bounded: a pipe whose reader keeps at most a cap of bytes.

A stdio server writes its log to stderr. Written straight to a file (as before), a server that
logs forever fills the disk; written to a pipe nobody reads, it blocks. Here a daemon thread
reads the pipe as fast as the server writes and keeps the first :data:`CAP_BYTES` in a
temporary file (read back with ``os.pread`` by position, as the MCP log and each call's
``printed`` do); the rest is counted and dropped (issue 27 item 2: a flood cannot stall the UI
or fill the disk).
"""

from __future__ import annotations

import contextlib
import os
import select
import tempfile
import threading
from typing import IO, Any

#: bytes of a server's stderr kept (8 MiB); what comes after is counted, not kept
CAP_BYTES = 8 << 20


class CappedLog:
    """The server's end is :attr:`writer` (a text file object to pass as the child's stderr);
    :meth:`fileno` is the kept file's descriptor for ``os.pread``. ``dropped``: bytes read past
    the cap (not kept). Call :meth:`settle` before reading what was just written: it takes in
    what the pipe holds at once, in order with the reader thread (both read under one lock)."""

    def __init__(self, cap_bytes: int = CAP_BYTES) -> None:
        read_fd, write_fd = os.pipe()
        self.cap = cap_bytes
        self.writer: IO[Any] = os.fdopen(write_fd, "w", encoding="utf-8")
        self._read_fd = read_fd
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self._lock = threading.Lock()
        self._kept = 0
        self._eof = False
        self.dropped = 0
        os.set_blocking(read_fd, False)
        self._thread = threading.Thread(target=self._drain, name="mcp-stderr", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while not self._eof:
            try:
                ready, _, _ = select.select([self._read_fd], [], [], 0.5)
            except (OSError, ValueError):
                return
            if ready:
                with self._lock:
                    self._read_available()

    def _read_available(self) -> None:
        """Read what the pipe holds now, in order (the caller holds the lock; the pipe is
        non-blocking)."""
        while not self._eof:
            try:
                data = os.read(self._read_fd, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                self._eof = True
                return
            if not data:
                self._eof = True
                return
            room = max(0, self.cap - self._kept)
            keep = data[:room]
            if keep:
                with contextlib.suppress(OSError, ValueError):
                    os.pwrite(self._file.fileno(), keep, self._kept)
                self._kept += len(keep)
            self.dropped += len(data) - len(keep)

    def settle(self) -> None:
        """Take in, now, every byte the server wrote so far (the reader thread may not have
        woken yet): what a call printed before it answered is then in the file."""
        if self._file.closed:
            return
        with self._lock:
            self._read_available()

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
        self._thread.join(1.0)
        with self._lock:
            self._eof = True
            with contextlib.suppress(OSError):
                os.close(self._read_fd)
            self._file.close()
