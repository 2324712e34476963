"""The garbage collector around the TUI's first useful screen (docs/performance.md, "The TUI's
first screen: collector paused, then what start-up left frozen").

The imports leave ~0.5 M objects; every full pass of the collector walks them all (~60 ms each
on the development machine), and building the Call view, the contract list and the first form
allocates enough to trigger two full passes and ~30 middle ones (~0.2 s of CPU in all). So the
collector is paused from the app's Load event until the contract list and the first form are
drawn; then everything alive is frozen (:func:`gc.freeze`: moved to a generation the collector
never walks) and the collector resumes, so later passes walk only what the session allocates.
Cyclic garbage made before the freeze is kept until the app ends (at unmount everything is
unfrozen again, and a process that goes on -- a test run -- collects it as usual).

If the first form never comes (the tools' load fails or hangs), the collector resumes anyway
after :data:`PAUSE_LIMIT_S`.
"""

from __future__ import annotations

import gc

#: The longest the collector stays paused waiting for the first form (seconds).
PAUSE_LIMIT_S = 10.0


class CollectorPause:
    """The pause of one app: :meth:`start` at Load, :meth:`end` once the first form is drawn,
    :meth:`release` at unmount. Each is a no-op when there is nothing to undo, and nothing is
    done when the collector was already off at :meth:`start` (someone else owns it)."""

    def __init__(self) -> None:
        self.paused = False
        self.frozen = False

    def start(self) -> None:
        """Pause the collector (when it runs)."""
        if gc.isenabled():
            gc.disable()
            self.paused = True

    def end(self, freeze: bool = True) -> None:
        """Resume the collector paused by :meth:`start`; with ``freeze``, what is alive now is
        frozen first (never walked again until :meth:`release`)."""
        if not self.paused:
            return
        self.paused = False
        if freeze:
            gc.freeze()
            self.frozen = True
        gc.enable()

    def release(self) -> None:
        """The app ends: resume the collector if still paused, and unfreeze what :meth:`end`
        froze (the process may go on: its collector sees those objects again)."""
        self.end(freeze=False)
        if self.frozen:
            self.frozen = False
            gc.unfreeze()


def first_form_drawn(app: object) -> None:
    """The contract list and the first form are on the screen: end ``app``'s pause (its
    ``collector``, a :class:`CollectorPause`; a no-op for an app without one)."""
    pause = getattr(app, "collector", None)
    if isinstance(pause, CollectorPause):
        pause.end()
