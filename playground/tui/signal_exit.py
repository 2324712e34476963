"""SIGTERM or SIGHUP while a call or an episode runs: it is kept in the history as what happened.

``playground``'s entry point turns SIGTERM / SIGHUP into an exit (``playground.__main__``: exit
code 128 + the signal). The command line's ``call`` keeps a call whose body was running then
as ``cancelled``, naming the signal (``cli/cmd_call.py``), and ``ask`` / ``call --repair`` keep
the episode as it stood (``cli/interrupted.py``); the TUI does the same here: while the app
runs, each of the two signals first stops the Call view's running call, and the Ask or Steps
view's running episode (the calls it made so far, the running one ``cancelled``:
:mod:`playground.loop.interrupted`), and writes them to the history on the spot (the app's
history workers will not run again), then does what it did before — the entry point's exit,
or the default (the process ends).

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

    from playground.loop.episode import Episode
    from playground.loop.interrupted import RunningEpisode
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
            app.log.error(f"keeping what ran on {signum}: {exc!r}")
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


class EpisodeSlot:
    """Where a view's worker runs an episode so that a signal ending the app can keep it.

    ``running``: the :class:`~playground.loop.interrupted.RunningEpisode` of the episode
    running now (``None`` between episodes)."""

    def __init__(self) -> None:
        self.running: RunningEpisode | None = None

    def run(self, run: Callable[[RunningEpisode], Episode]) -> Episode | None:
        """``run(running)`` (on the worker's thread) and return its episode; ``None`` when a
        signal stopped it (:meth:`stop` kept it; the app is ending: show nothing)."""
        from playground.loop.interrupted import RunningEpisode

        running = self.running = RunningEpisode()
        try:
            episode = run(running)
        finally:
            self.running = None
        return None if running.stopped else episode

    def stop(self, how: str) -> Episode | None:
        """Stop the running episode and return it as it stood
        (:meth:`~playground.loop.interrupted.RunningEpisode.stop`); ``None`` when none runs."""
        running = self.running
        return None if running is None else running.stop(how)


def stop_episode(slot: EpisodeSlot, pg: Any, how: str) -> Episode | None:
    """Stop ``slot``'s running episode (ctrl+c in the Ask or Steps view) and return it as it
    stood (:meth:`EpisodeSlot.stop`; ``None`` when none runs); the call it was waiting on is
    stopped where its source can stop it (a worker's process group, an MCP request), as the
    Call view's ctrl+c stops a call. The episode's thread finishes the call it is in and shows
    nothing (its slot says it was stopped)."""
    running = slot.running
    call = running.call if running is not None else None
    episode = slot.stop(how)
    if episode is not None and call is not None and pg is not None:
        contract = pg.registry.get(call.tool)
        cancel = getattr(getattr(contract, "tool_source", None), "cancel", None)
        if callable(cancel):
            cancel()
    return episode


def keep_what_runs(app: PlaygroundState, signal_name: str) -> list[int]:
    """Stop the Call view's running call and the Ask and Steps views' running episodes, and
    record them in the history now: the call as ``cancelled``, its message ``the call was
    cancelled (the playground was ended (SIGTERM)) after N s; no result`` (the command
    line's words); an episode with the calls it made so far, the running one so, ``end``
    ``cancelled``. Returns the entry ids written (none when nothing ran or history is off)."""
    from playground.tui.history_link import record_now
    from playground.tui.views.call_view import CallView

    how = f"the playground was ended ({signal_name})"
    kept: list[tuple[str, Any]] = []
    for call_view in app.query(CallView):
        record = call_view.stop_running_call(how)
        if record is not None:
            kept.append(("call", record.to_json()))
    for view in app.query("AskView, StepsView"):  # by name: a view never built is not imported
        slot = getattr(view, "episode_slot", None)
        episode = slot.stop(how) if isinstance(slot, EpisodeSlot) else None
        if episode is not None:
            kept.append(("episode", episode.to_json()))
    ids = [record_now(app, kind, data) for kind, data in kept]
    return [entry for entry in ids if entry is not None]
