"""What a command says of a run that ctrl+c or a signal ended early: the one line a batch
command prints (issue 28 item 3), and the words a kept record uses."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playground.loop.episode import Episode
    from playground.loop.interrupted import RunningEpisode


def interrupted_after(done: int, planned: int) -> str:
    """``interrupted after 3 of 120 cases (the cases done are above)``: the ``error:`` line of
    ``check`` and ``probe`` stopped by ctrl+c. ``done``: cases run; ``planned``: cases the run
    was given."""
    return (
        f"interrupted after {done:,} of {planned:,} case{'s' if planned != 1 else ''} "
        "(the cases done are above)"
    )


def stopped_how(ending: BaseException) -> str:
    """What stopped a run, in the words a kept record uses: ``"ctrl+c"`` for a
    ``KeyboardInterrupt``; ``"the playground was ended (SIGTERM)"`` for the ``SystemExit``
    that ``playground.__main__`` raises on SIGTERM / SIGHUP (exit code 128 + the signal);
    ``"the playground was ended (exit N)"`` for another exit."""
    import signal

    if isinstance(ending, KeyboardInterrupt):
        return "ctrl+c"
    code = ending.code if isinstance(ending, SystemExit) and isinstance(ending.code, int) else 0
    try:
        name = signal.Signals(code - 128).name
    except ValueError:
        name = f"exit {code}"
    return f"the playground was ended ({name})"


def run_episode_kept(
    run: Callable[[RunningEpisode], Episode], keep: Callable[[dict[str, Any]], object]
) -> Episode:
    """``run(running)`` (an episode run, handed a
    :class:`~playground.loop.interrupted.RunningEpisode`) and return its episode; when ctrl+c
    or a signal ending the playground stops it, ``keep`` the episode as it stood (its JSON:
    the calls made so far, the running one ``cancelled``) and re-raise. A failing ``keep``
    never stands in the way of the exit."""
    from playground.loop.interrupted import RunningEpisode

    running = RunningEpisode()
    try:
        return run(running)
    except (KeyboardInterrupt, SystemExit) as ending:
        episode = running.stop(stopped_how(ending))
        if episode is not None:
            with contextlib.suppress(Exception):
                keep(episode.to_json())
        raise
