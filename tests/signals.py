"""Signal dispositions for tests that start a playground child and press ctrl+c on it."""

from __future__ import annotations

import signal


def sigint_as_in_a_terminal() -> None:
    """In the child, before exec: ctrl+c's default disposition. A shell starts a background
    job (``cmd &`` without job control, as CI scripts and ``nohup`` do) with SIGINT ignored,
    and an ignored signal stays ignored across ``fork``/``exec`` (POSIX), so a playground
    started from such a test process would ignore the test's SIGINT, as it should there; these
    tests are about the foreground command of a terminal, where SIGINT is not ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
