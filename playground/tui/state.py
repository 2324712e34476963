"""The TUI's shared state: what the app holds and its views and commands read.

:class:`PlaygroundState` is the base of :class:`~playground.tui.app.PlaygroundApp` that declares
it: the loaded workbench and the router choice as Textual reactives (``var``), bound to the views
(``data_bind`` for the Call view the app composes, ``watch`` for the views built later: see
:mod:`playground.tui.modes`), and the plain settings the palette and the loader read. The
commands (:mod:`playground.tui.commands`), the router choice (:mod:`playground.tui.router_choice`)
and the loader (:mod:`playground.tui.loading`) take a ``PlaygroundState``, so none of them
imports the app module (no import circle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.reactive import var

from playground.routing.registry import DEFAULT_ROUTER
from playground.tui.router_pick import RouterPick

if TYPE_CHECKING:
    from playground.history.store import HistoryStore
    from playground.workbench import Playground


@dataclass(frozen=True, eq=False)
class Loaded:
    """A loaded workbench: the :class:`~playground.workbench.Playground` ``pg`` (registry, gate,
    cache) and ``keep``: a reload of the same tools (ctrl+l, an MCP server's new tool list),
    after which the Call view keeps its selection, typed arguments and records. Compared by
    identity: each load is a change, even of the same ``pg`` (an MCP refresh)."""

    pg: Playground
    keep: bool = False


class PlaygroundState(App[None]):
    """The app's state (no methods: the behaviour is in the app and the modules it uses).

    ``workbench``: the loaded tools (``None`` until the first load); ``router``: the router
    chosen for Ask and Evaluate with its mode and model (the mode resolved to the router's
    default when none was chosen); ``compare``: Ask's second router (``None``: compare off); ``store``: the history."""

    workbench: var[Loaded | None] = var(None, init=False)
    router: var[RouterPick] = var(RouterPick(DEFAULT_ROUTER), init=False)
    compare: var[str | None] = var(None, init=False, always_update=True)
    #: the history store (``None``: history off, or not opened yet: the app opens it right
    #: after its first screen)
    store: var[HistoryStore | None] = var(None, init=False, always_update=True)

    #: tool module paths (``None``: ``./tools``, or nothing when only MCP servers are given)
    tools: list[str] | None
    #: MCP server specs (``sources.mcp_config.McpServerSpec``)
    mcp: list[Any]
    #: a worker source the CLI started before Textual was imported, for the first load
    started_source: Any
    #: run bodies in this process (palette "Tool source: in-process") instead of a worker
    in_process: bool
    #: Per router name: the function-calling mode and the model chosen in the palette
    #: (absent: the router's default — its first mode; ``--model``'s default).
    router_modes: dict[str, str]
    router_models: dict[str, str]
