"""A case of a batch run is streamed and counted as one step that ctrl+c cannot split.

``check`` and ``probe`` print each case's line as it is done and, on ctrl+c, say how many
cases are above (``interrupted after N of M cases``). A ``KeyboardInterrupt`` raised between
writing a line and counting its case made the two disagree ("after 0 of 11" under one printed
line, or "after 2" under one). :func:`case_step` holds a SIGINT that arrives while a case is
being written and counted, and raises it right after, so every case is both or neither.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def case_step() -> Iterator[None]:
    """Run the block with SIGINT held: one that arrives meanwhile raises ``KeyboardInterrupt``
    as the block ends. Only on the main thread and only while SIGINT raises
    ``KeyboardInterrupt`` (Python's default handler); otherwise the block just runs (a TUI
    worker thread, an ignored SIGINT)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:
        yield
        return
    held: list[Any] = []
    signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held:
        raise KeyboardInterrupt
