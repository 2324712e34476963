"""Case text as people read it in a table cell or a one-line summary: bounded.

A question, a reason or the arguments of a case can be megabytes (a case line of 6 million
Hangul once made ``eval``'s failing-questions table wrap the whole question: 51 MB printed over
minutes). Tables and one-line summaries — the CLI's, the TUI's and the HTML report's — show
such text cut to a bounded number of characters, the last one ``…``; the full text stays in
the JSON and JSONL output, the records and the history.
"""

from __future__ import annotations

from playground.core.canonical import shorten

#: The most characters of a question (or other case text) a table cell shows.
QUESTION_CHARS = 300
#: The most characters of a reason or mismatch (which may quote arguments) a cell shows.
REASON_CHARS = 500


def cell(text: str | None, limit: int = QUESTION_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters, ``…`` last when cut (``""`` for ``None``)."""
    return shorten(text or "", limit)
