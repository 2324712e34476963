"""The ``--in-process`` tool source: tool modules imported here, bodies run on this process's thread.

It is the core's :class:`~playground.core.runner.InProcessRunner` (what it can and cannot protect
against is said there) plus the loading of the ``--tools`` modules
(:func:`playground.sources.tool_modules.collect_contracts`) into this process.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from playground.core.runner import InProcessRunner
from playground.core.toolsource import LoadResult
from playground.sources.tool_modules import collect_contracts


class InProcessSource(InProcessRunner):
    """Tool modules imported into this process; bodies run on a reused daemon thread.

    ``paths``: the ``--tools`` files or folders. Implements
    :class:`~playground.core.toolsource.ToolSource`.
    """

    def __init__(self, paths: Iterable[str | Path] = ()) -> None:
        super().__init__()
        self.paths = [Path(p) for p in paths]

    def load(self) -> LoadResult:
        """Import the modules under ``paths`` here (see :func:`collect_contracts`)."""
        found = collect_contracts(self.paths)
        return LoadResult(list(found.contracts.values()), list(found.problems))

    def reload(self) -> LoadResult:
        """Import the modules again (a fresh module object per file)."""
        return self.load()
