"""The ``--in-process`` tool source: tool modules imported here, bodies run on this process's thread.

It is the core's :class:`~playground.core.runner.InProcessRunner` (what it can and cannot protect
against is said there) plus the loading of the ``--tools`` modules
(:func:`playground.sources.tool_modules.collect_contracts`) into this process.

The import time limit is the worker's (``PLAYGROUND_IMPORT_TIMEOUT_S``, default 10 s): each
module is imported on a thread of its own and a module still importing then is a load problem
(``import did not finish within N s``) while the others load. Unlike the worker, this process
cannot end that thread (Python has no way to stop a thread): it runs on, stuck, until the process
ends, and a reload does not import that file again (it stays a problem until a restart).
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterable
from pathlib import Path

from playground.core.runner import InProcessRunner
from playground.core.toolsource import LoadProblem, LoadResult
from playground.sources.tool_modules import collect_contracts


class InProcessSource(InProcessRunner):
    """Tool modules imported into this process; bodies run on a reused daemon thread.

    ``paths``: the ``--tools`` files or folders. ``import_timeout_s``: seconds each module may
    take to import (``None``: ``PLAYGROUND_IMPORT_TIMEOUT_S``, default 10). Implements
    :class:`~playground.core.toolsource.ToolSource`. Raises
    :class:`~playground.errors.UsageError` for a bad ``PLAYGROUND_IMPORT_TIMEOUT_S``.
    """

    def __init__(
        self, paths: Iterable[str | Path] = (), *, import_timeout_s: float | None = None
    ) -> None:
        super().__init__()
        self.paths = [Path(p) for p in paths]
        if import_timeout_s is None:
            from playground.core.settings import setting
            from playground.sources.worker import IMPORT_TIMEOUT_S

            import_timeout_s = float(setting("PLAYGROUND_IMPORT_TIMEOUT_S", IMPORT_TIMEOUT_S))
        self.import_timeout_s = import_timeout_s
        #: files whose import never finished: their threads still run, so never imported again
        self.hung: list[str] = []

    def load(self) -> LoadResult:
        """Import the modules under ``paths`` here, a thread each, within the time limit (see
        :func:`collect_contracts`); what they print while importing is dropped."""
        stuck = list(self.hung)
        path_before = list(sys.path)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            found = collect_contracts(
                self.paths, skip=stuck, import_timeout_s=self.import_timeout_s, hung=self.hung
            )
        if len(self.hung) == len(stuck):  # no import still running: the folders come off again
            sys.path[:] = path_before
        problems = [
            LoadProblem(
                str(Path(file).resolve()),
                "its import never finished (it was still stuck when this process loaded it "
                "before; a thread cannot be stopped in-process): restart the playground to "
                "import it again",
            )
            for file in stuck
        ]
        return LoadResult(list(found.contracts.values()), problems + list(found.problems))

    def reload(self) -> LoadResult:
        """Import the modules again (a fresh module object per file; a stuck one is not)."""
        return self.load()
