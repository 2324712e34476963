"""The command palette provider (ctrl+p): every app action by name, as in Posting.

Each command runs an action of the app by name (as its key binding does) or a function of
:mod:`playground.tui.router_choice`; the app is read as a :class:`~playground.tui.state.PlaygroundState`,
so this module does not import the app's. The router commands come from
:mod:`playground.routing.registry`: one ``Router: NAME`` per registered router, one
``Mode: MODE`` per mode of the current router, and for a router with models ``Model: NAME`` —
typing ``model NAME`` offers that model (any name the API knows).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from typing import cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from playground.routing import registry
from playground.tui.loading import load_tools
from playground.tui.modes import ModeTabs
from playground.tui.router_choice import (
    set_compare_router,
    set_router,
    set_router_mode,
    set_router_model,
)
from playground.tui.state import PlaygroundState


def run_repair(app: PlaygroundState) -> None:
    """Run the Call view's arguments as a manual episode (opens Steps)."""
    modes = app.query_one(ModeTabs)
    modes.show("call")
    modes.call_view.request_repair()


def clear_cache(app: PlaygroundState) -> None:
    """Forget every cached result of the gate."""
    if app.workbench is None:
        return
    cache = app.workbench.pg.gate.cache
    count = len(cache)
    cache.clear()
    app.notify(f"Cache cleared ({count} entries).")


async def _open_mcp_view(app: PlaygroundState) -> None:
    from playground.tui.views.mcp_view import open_mcp_view  # built when first asked for

    await open_mcp_view(app)


def save_value(app: PlaygroundState) -> None:
    """Write the Call view's last value (all of it, not the preview) to a file, and an MCP
    result's images and audio beside it; a path that cannot be written is an error toast."""
    call_view = app.query_one(ModeTabs).call_view
    try:  # the record panel is mounted right after the first screen
        path = call_view.record_view.save_value() if call_view.completed else None
        media = call_view.record_view.save_media() if path is not None else []
    except OSError as exc:
        app.notify(f"Could not save the value: {exc}", severity="error")
        return
    if path is None:
        app.notify("No value to save yet: run a call first.", severity="warning")
    else:  # an MCP result's images and audio too, as the bytes the server sent
        also = "; " + ", ".join(str(p) for p in media) if media else ""
        app.notify(f"Value saved to {path}{also}")


def toggle_in_process(app: PlaygroundState) -> None:
    """Switch where bodies run (worker process ⇄ this process) and reload the tools."""
    app.in_process = not app.in_process
    where = "in this process (for a debugger)" if app.in_process else "in a worker process"
    app.notify(f"Tool bodies now run {where}; reloading tools…")
    load_tools(app)


#: What starts a typed model name in the palette: ``model gemini-3.6-pro``.
MODEL_PREFIX = "model "


#: A palette command: its name, what it runs, its help line.
Command = tuple[str, Callable[[], object], str]


def palette_commands(app: PlaygroundState) -> list[Command]:
    """``(name, callback, help)`` for every palette command of ``app`` (a PlaygroundApp)."""
    return _session_commands(app) + _view_commands(app) + _router_commands(app)


def _session_commands(app: PlaygroundState) -> list[Command]:
    """Run, the tools, the cache, the tool source, the MCP log, the value, the router."""
    return [
        (
            "Run",
            partial(app.run_action, "run"),
            "Run the current view: the call, the question, or the evaluation (ctrl+r)",
        ),
        (
            "Run with repair",
            partial(run_repair, app),
            "Run the selected call as a manual episode and open the step-through",
        ),
        (
            "Clear cache",
            partial(clear_cache, app),
            "Forget every cached result of this session's gate",
        ),
        (
            "Reload tools",
            partial(app.run_action, "reload_tools"),
            "Import the tool modules again (a fresh gate, cache and counts) (ctrl+l)",
        ),
        (
            "Tool source: worker process" if app.in_process else "Tool source: in-process",
            partial(toggle_in_process, app),
            "Run tool bodies in an isolated worker process (safe; the default)"
            if app.in_process
            else "Run tool bodies in this process (for a debugger; a crashing body can take "
            "the playground down); reloads the tools",
        ),
        (
            "MCP log",
            partial(app.run_action, "mcp_log"),
            "Open the MCP log: each server's stderr, log messages, progress and notices (f11)",
        ),
        (
            "MCP: resources, prompts, roots",
            partial(_open_mcp_view, app),
            "Browse the MCP servers: resources, templates, prompts, the links of results, the "
            "roots offered and the sampling requests answered",
        ),
        (
            "Save value to a file",
            partial(save_value, app),
            "Write the last call's whole value (the view shows a bounded preview) to "
            "./playground-<call id>-<tool>.json, and an MCP result's images and audio beside it",
        ),
        (
            "Switch router",
            partial(app.run_action, "switch_router"),
            f"Switch Ask and Evaluate to the next router: {', '.join(registry.names())} "
            f"(now {app.router}) (F9)",
        ),
    ]


def _view_commands(app: PlaygroundState) -> list[Command]:
    """Open each mode, the help screen, the copy / save dialog."""
    return [
        (
            "Open Call",
            partial(app.run_action, "mode('call')"),
            "The call view: contracts, arguments, the gate (F1)",
        ),
        (
            "Open Ask",
            partial(app.run_action, "mode('ask')"),
            "Ask a customer question and watch the episode (F2)",
        ),
        (
            "Open Steps",
            partial(app.run_action, "mode('steps')"),
            "Step through the last episode; edit and fork (F3)",
        ),
        (
            "Open Evaluate",
            partial(app.run_action, "mode('evaluate')"),
            "Run a routing case file; rates, confusion, lint (F4)",
        ),
        (
            "Help: keys",
            partial(app.run_action, "help"),
            "Every key of the current view, in one screen (?)",
        ),
        (
            "Copy / save…",
            partial(app.run_action, "export"),
            "Copy or save the wire JSON, the record, the declaration or the episode (ctrl+s)",
        ),
    ]


def _router_commands(app: PlaygroundState) -> list[Command]:
    """``Router:``, ``Compare with:``, and the current router's ``Mode:`` and ``Model:``."""
    commands: list[Command] = []
    for spec in registry.specs():
        commands.append((f"Router: {spec.name}", partial(set_router, app, spec.name), spec.summary))
        if spec.name != app.router.name:
            commands.append(
                (
                    f"Compare with: {spec.name}",
                    partial(set_compare_router, app, spec.name),
                    f"Ask: also run each question on the {spec.name} router, side by side",
                )
            )
    commands.append(("Compare: off", partial(set_compare_router, app, None), "Ask: one router"))
    current = registry.get(app.router.name)
    pick = app.router
    for mode in current.capabilities.modes:
        commands.append(
            (
                f"Mode: {mode}",
                partial(set_router_mode, app, mode),
                f"{current.name} function-calling mode {mode} (now {pick.mode})",
            )
        )
    if current.default_model is not None:
        default = current.model_for(None, os.environ)
        commands.append(
            (
                f"Model: {default}",
                partial(set_router_model, app, ""),
                f"{current.name}'s default model (now {pick.model or default}); "
                f"type '{MODEL_PREFIX}NAME' for another",
            )
        )
    return commands


def typed_model_command(app: PlaygroundState, query: str) -> Command | None:
    """The ``Model: NAME`` command for a query ``model NAME`` when the current router has
    models, else ``None``."""
    if not query.lower().startswith(MODEL_PREFIX) or not query[len(MODEL_PREFIX) :].strip():
        return None
    current = registry.get(app.router.name)
    if current.default_model is None:
        return None
    model = query[len(MODEL_PREFIX) :].strip()
    return (
        f"Model: {model}",
        partial(set_router_model, app, model),
        f"Use the {current.name} model {model!r} for Ask and Evaluate",
    )


class PlaygroundCommands(Provider):
    """Offers :func:`palette_commands`; fuzzy-matched on the command name."""

    async def discover(self) -> Hits:
        for name, callback, help_text in palette_commands(cast(PlaygroundState, self.app)):
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        typed = typed_model_command(cast(PlaygroundState, self.app), query)
        if typed is not None:
            name, callback, help_text = typed
            yield Hit(1.0, name, callback, text=name, help=help_text)
        matcher = self.matcher(query)
        for name, callback, help_text in palette_commands(cast(PlaygroundState, self.app)):
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, text=name, help=help_text)
