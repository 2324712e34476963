"""The ``Playground`` object: a registry, a gate (with its cache) and a router, passed around
instead of module-level state. The CLI and the TUI both build one with :func:`open_playground`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from playground.core.gate import Gate
from playground.core.registry import Registry, load_registry

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


def open_playground(tools: Iterable[str | Path] | None = None, *, wire: bool = True) -> Playground:
    """Load the tool modules under ``tools`` (default ``./tools``) and build a Playground.

    Load problems are kept in ``playground.registry.problems``; nothing is raised for them.
    """
    registry = load_registry(list(tools) if tools else list(DEFAULT_TOOLS))
    return Playground(registry=registry, gate=Gate(registry, wire=wire))
