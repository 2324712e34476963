"""The ``Playground`` object: a registry, a gate (with its cache) and a router, passed around
instead of module-level state. The CLI and the TUI both build one with :func:`open_playground`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from playground.core.gate import Gate
from playground.core.registry import Registry
from playground.core.toolsource import ToolSource
from playground.sources.loading import load_registry

if TYPE_CHECKING:
    from playground.routing.base import Router

DEFAULT_TOOLS = ("tools",)


@dataclass
class Playground:
    """Everything one session works with.

    ``registry``: the loaded contracts (and load problems). ``gate``: the single door, with the
    cache and body-run counts. ``router``: a :class:`~playground.routing.base.Router`, or
    ``None`` until one is needed (built by the command that routes, so ``call`` never imports a
    router).
    """

    registry: Registry
    gate: Gate
    router: Router | None = None
    #: whether bodies run in this process (``--in-process``) rather than in a worker
    in_process: bool = True

    def close(self) -> None:
        """End the tool sources' worker processes and connections; safe to call twice."""
        self.registry.close()


def open_playground(
    tools: Iterable[str | Path] | None = None,
    *,
    wire: bool = True,
    in_process: bool = True,
    source: ToolSource | None = None,
) -> Playground:
    """Load the tool modules under ``tools`` (default ``./tools``) and build a Playground.

    ``in_process``: run bodies in this process (the library default, and ``--in-process``
    for debuggers) or, when false, in a worker process (the CLI's and the TUI's default; see
    :mod:`playground.sources.worker`). Load problems are kept in ``playground.registry.problems``;
    nothing is raised for them. ``source``: an already started tool source for ``tools``
    (see :func:`~playground.sources.loading.load_registry`). Call :meth:`Playground.close` when done (a worker also ends
    when the interpreter exits).
    """
    registry = load_registry(
        list(tools) if tools else list(DEFAULT_TOOLS), in_process=in_process, source=source
    )
    return Playground(registry=registry, gate=Gate(registry, wire=wire), in_process=in_process)
