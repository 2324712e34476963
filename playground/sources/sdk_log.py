"""The MCP SDK client's own log lines, kept as the notices of the source they are about.

The SDK's ``ClientSession`` logs under the logger ``client`` (``mcp.client.session``), not
under ``mcp``: with no handler configured, Python's last-resort handler printed its warnings
raw on stderr — over the TUI's screen, or beside the command line's own ``error:`` lines. Each
:class:`~playground.sources.mcp_source.McpSource` runs its session on a loop thread of its own;
:func:`keep_sdk_log` hands the records written on that thread to the source (its notices: the
TUI's MCP log, ``mcp log``), and nothing of the SDK's client log reaches stderr. The SDK's
``dropping tool …: invalid x-mcp-header`` line is left out: the source names that tool as a
load problem itself (:func:`playground.sources.mcp_listing.dropped_problems`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

#: The logger the SDK's ``ClientSession`` writes to.
SDK_CLIENT_LOGGER = "client"
#: How the SDK's line about a tool it drops for its ``x-mcp-header`` begins.
DROPPING_TOOL = "dropping tool "

# never the last-resort handler's raw stderr, even when no source is listening
logging.getLogger(SDK_CLIENT_LOGGER).addHandler(logging.NullHandler())


class _ToNotices(logging.Handler):
    """Passes the records written on one thread to ``note`` as ``SDK WARNING: …`` text."""

    def __init__(self, thread_id: int, note: Callable[[str], None]) -> None:
        super().__init__(logging.INFO)
        self.thread_id = thread_id
        self.note = note

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread_id:
            return
        try:
            text = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format
            text = str(record.msg)
        if not text.startswith(DROPPING_TOOL):
            self.note(f"SDK {record.levelname}: {' '.join(text.split())}")


def keep_sdk_log(thread_id: int, note: Callable[[str], None]) -> Callable[[], None]:
    """Call ``note(text)`` for each record of level INFO and above that the SDK's client logger
    gets on thread ``thread_id`` (``threading.get_ident()`` of a source's loop thread), its
    text ``SDK WARNING: <message>`` on one line, but for the ``dropping tool`` line. Returns
    the function that stops it (call it when the thread ends)."""
    logger = logging.getLogger(SDK_CLIENT_LOGGER)
    handler = _ToNotices(thread_id, note)
    logger.addHandler(handler)
    return lambda: logger.removeHandler(handler)
