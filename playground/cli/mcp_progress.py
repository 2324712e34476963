"""A live progress bar on stderr for the MCP calls of a command (issue 21, item 1).

While a command waits for an MCP tool, each ``notifications/progress`` the server sends moves a
Rich progress bar on stderr — only when stderr is a terminal, so pipes and ``--format json``
stay clean. The same progress is kept in the call record (``mcp.progress``).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def live_progress(pg: Any, stream: Any = None) -> Iterator[None]:
    """Show the progress of ``pg``'s MCP sources on ``stream`` (default ``sys.stderr``) while
    the block runs; a no-op when ``stream`` is not a terminal or there is no MCP source. The
    sources' own ``on_progress`` callbacks are put back afterwards."""
    stream = sys.stderr if stream is None else stream
    sources = [s for s in pg.registry.sources if hasattr(s, "on_progress")]
    if not sources or not getattr(stream, "isatty", lambda: False)():
        yield
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[shown]}"),
        TimeElapsedColumn(),
        console=Console(file=stream),
        transient=True,
    )
    tasks: dict[str, Any] = {}

    def on_progress(tool: str, done: float, total: float | None, message: str | None) -> None:
        shown = (f"{done:g}/{total:g}" if total else f"{done:g}") + (
            f" {message}" if message else ""
        )
        if tool not in tasks:
            tasks[tool] = progress.add_task(tool, total=total, shown=shown)
        progress.update(tasks[tool], completed=done, total=total, shown=shown)

    saved = [(s, s.on_progress) for s in sources]
    for source in sources:
        source.on_progress = on_progress
    try:
        with progress:
            yield
    finally:
        for source, callback in saved:
            source.on_progress = callback
