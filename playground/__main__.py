"""``python -m playground`` is the same as the ``playground`` command: both enter at :func:`main`."""

from __future__ import annotations

import signal
import sys


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM / SIGHUP: end like an exit (``atexit`` and ``weakref.finalize`` run, so the
    worker process and MCP servers are ended), with exit code 128 + the signal's number."""
    signal.signal(signum, signal.SIG_DFL)  # a second one ends the process at once
    # the process's own stderr: sys.stderr may be swapped for a while (a module's import output)
    err = sys.__stderr__ or sys.stderr
    err.write(f"error: terminated ({signal.Signals(signum).name})\n")
    err.flush()
    from playground.errors import Terminated

    raise Terminated(128 + signum)


def main() -> None:
    """The process's entry point (``playground`` and ``python -m playground``): runs
    :func:`playground.cli.main.run`, which never returns.

    A ctrl+c while the command-line modules are still importing (the first tenth of a second
    or so) ends as a later one does — ``error: interrupted`` on stderr, exit 130 — rather than
    with a traceback. SIGTERM and SIGHUP end the process as an exit does, ending what it
    started (exit 143 / 129).
    """
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminated)
    try:
        from playground.cli.main import run
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        raise SystemExit(130) from None
    run()


if __name__ == "__main__":  # pragma: no cover - exercised through a subprocess test
    main()
