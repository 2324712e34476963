"""A model router's retries as ``note:`` lines on stderr, as each happens.

:func:`playground.routing.retry.send_with_retries` logs each retry of a provider request on the
``playground.routing`` logger at INFO (a timeout, a 429 or a 5xx, the wait and the time left);
without a handler nothing shows (the TUI shows them in its own way). :func:`show_router_notes`
makes every command print them at once, so a slow or hung server is never a silent wait.
"""

from __future__ import annotations

import logging


class NoteHandler(logging.Handler):
    """Prints each record's message as one ``note:`` line on stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        from playground.cli.common import note_line

        try:
            note_line(record.getMessage())
        except Exception:  # a closed stderr: the note is lost, the command goes on
            self.handleError(record)


def show_router_notes() -> None:
    """Install :class:`NoteHandler` on the ``playground.routing`` logger at INFO (once)."""
    logger = logging.getLogger("playground.routing")
    if not any(isinstance(h, NoteHandler) for h in logger.handlers):
        logger.addHandler(NoteHandler())
    logger.setLevel(logging.INFO)
    logger.propagate = False
