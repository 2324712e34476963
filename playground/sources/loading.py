"""Loading ``--tools`` paths: the source that runs them (here or in a worker) and its registry."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from playground.core.registry import Registry
from playground.core.toolsource import ToolSource


def load_registry(
    paths: Iterable[str | Path], *, in_process: bool = True, source: ToolSource | None = None
) -> Registry:
    """Load every tool module under ``paths`` into a new :class:`Registry`.

    ``in_process``: import the modules here and run bodies on a thread of this process
    (:class:`~playground.sources.in_process.InProcessSource`; for debuggers and library use), else in a
    worker process (:class:`~playground.sources.worker.WorkerSource`, the CLI's and TUI's
    default). ``source``: an already started source for these paths (the CLI starts the
    worker before importing the gate, so the two overlap); ``in_process`` is then ignored.
    Problems are in ``registry.problems`` (see :func:`collect_contracts`).
    """
    path_list = [Path(p) for p in paths]
    if source is not None:
        pass
    elif in_process:
        from playground.sources.in_process import InProcessSource

        source = InProcessSource(path_list)
    else:
        from playground.sources.worker import WorkerSource

        source = WorkerSource(path_list)
    registry = Registry(paths=path_list)
    registry.add_source(source)
    return registry
