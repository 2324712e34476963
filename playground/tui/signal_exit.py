"""SIGTERM or SIGHUP while a call runs: the call is kept in the history as ``cancelled``.

``playground``'s entry point turns SIGTERM / SIGHUP into an exit (``playground.__main__``: exit
code 128 + the signal). The command line's ``call`` keeps a call whose body was running then
as ``cancelled``, naming the signal (``cli/cmd_call.py``); the TUI does the same here: while
the app runs, each of the two signals first stops the Call view's running call and writes its
record to the history on the spot (the app's history workers will not run again), then does
what it did before — the entry point's exit, or the default (the process ends).

Python runs signal handlers on the main thread between two bytecodes, which is the app's
thread: the handler reads the Call view's state as its own handlers do.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

    from playground.tui.state import PlaygroundState

#: The signals that end the playground as an exit does (``playground.__main__``).
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def keep_call_on_signal(app: App[Any], keep: Callable[[str], object]) -> Callable[[], None]:
    """Make SIGTERM and SIGHUP call ``keep(signal_name)`` (e.g. ``"SIGTERM"``) before their
    handler of now runs: a Python handler is called after it; the default ends the process by
    the signal again. An ignored signal (``nohup``) ends nothing and is left alone, and so is
    one whose handler was not set from Python. Call on the main thread (``signal.signal``'s
    rule); returns the function that puts the handlers of now back. ``app``: for its log,
    where a failing ``keep`` is written (it never stops the exit)."""
    before: dict[int, Any] = {}

    def handler(signum: int, frame: Any) -> None:
        try:
            keep(signal.Signals(signum).name)
        except Exception as exc:  # the exit must happen whatever the history did
            app.log.error(f"keeping the running call on {signum}: {exc!r}")
        previous = before.get(signum, signal.SIG_DFL)
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    for signum in ENDING_SIGNALS:
        previous = signal.getsignal(signum)
        if previous is None or previous == signal.SIG_IGN:  # not ours to change, or no exit
            continue
        before[signum] = previous
        signal.signal(signum, handler)

    def restore() -> None:
        for signum, previous in before.items():
            if signal.getsignal(signum) is handler:
                signal.signal(signum, previous)

    return restore


def keep_running_call(app: PlaygroundState, signal_name: str) -> int | None:
    """Stop the Call view's running call and record it in the history now as ``cancelled``,
    its message ``the call was cancelled (the playground was ended (SIGTERM)) after N s; no
    result`` (the command line's words). Returns the entry id; ``None`` when no call runs or
    nothing was written (history off)."""
    from playground.tui.history_link import record_now
    from playground.tui.views.call_view import CallView

    views = list(app.query(CallView))
    if not views:
        return None
    record = views[0].stop_running_call(f"the playground was ended ({signal_name})")
    return None if record is None else record_now(app, "call", record.to_json())
