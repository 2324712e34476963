"""The command palette provider (ctrl+p): every app action by name, as in Posting.

Each command calls a public method or action of :class:`playground.tui.app.PlaygroundApp`.
The router commands come from :mod:`playground.routing.registry`: one ``Router: NAME`` per
registered router, one ``Mode: MODE`` per mode of the current router, and for a router with
models ``Model: NAME`` — typing ``model NAME`` offers that model (any name the API knows).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from playground.routing import registry

if TYPE_CHECKING:
    from playground.tui.app import PlaygroundApp

#: What starts a typed model name in the palette: ``model gemini-3.6-pro``.
MODEL_PREFIX = "model "


async def _open_mcp_view(app: PlaygroundApp) -> None:
    from playground.tui.views.mcp_view import open_mcp_view  # built when first asked for

    await open_mcp_view(app)


def palette_commands(app: PlaygroundApp) -> list[tuple[str, Callable[[], object], str]]:
    """``(name, callback, help)`` for every palette command of ``app`` (a PlaygroundApp)."""
    commands: list[tuple[str, Callable[[], object], str]] = [
        (
            "Run",
            app.action_run,
            "Run the current view: the call, the question, or the evaluation (ctrl+r)",
        ),
        (
            "Run with repair",
            app.action_run_repair,
            "Run the selected call as a manual episode and open the step-through",
        ),
        (
            "Clear cache",
            app.action_clear_cache,
            "Forget every cached result of this session's gate",
        ),
        (
            "Reload tools",
            app.action_reload_tools,
            "Import the tool modules again (a fresh gate, cache and counts) (ctrl+l)",
        ),
        (
            "Tool source: worker process" if app.in_process else "Tool source: in-process",
            app.action_toggle_in_process,
            "Run tool bodies in an isolated worker process (safe; the default)"
            if app.in_process
            else "Run tool bodies in this process (for a debugger; a crashing body can take "
            "the playground down); reloads the tools",
        ),
        (
            "MCP log",
            app.action_mcp_log,
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
            app.action_save_value,
            "Write the last call's whole value (the view shows a bounded preview) to "
            "./playground-<call id>-<tool>.json, and an MCP result's images and audio beside it",
        ),
        (
            "Switch router",
            app.action_switch_router,
            f"Switch Ask and Evaluate to the next router: {', '.join(registry.names())} "
            f"(now {app.router_pick}) (F9)",
        ),
        (
            "Open Call",
            partial(app.action_mode, "call"),
            "The call view: contracts, arguments, the gate (F1)",
        ),
        (
            "Open Ask",
            partial(app.action_mode, "ask"),
            "Ask a customer question and watch the episode (F2)",
        ),
        (
            "Open Steps",
            partial(app.action_mode, "steps"),
            "Step through the last episode; edit and fork (F3)",
        ),
        (
            "Open Evaluate",
            partial(app.action_mode, "evaluate"),
            "Run a routing case file; rates, confusion, lint (F4)",
        ),
    ]
    commands += [
        (
            "Help: keys",
            app.action_help,
            "Every key of the current view, in one screen (?)",
        ),
        (
            "Copy / save…",
            app.action_export,
            "Copy or save the wire JSON, the record, the declaration or the episode (ctrl+s)",
        ),
    ]
    for spec in registry.specs():
        commands.append((f"Router: {spec.name}", partial(app.set_router, spec.name), spec.summary))
        if spec.name != app.router_name:
            commands.append(
                (
                    f"Compare with: {spec.name}",
                    partial(app.set_compare_router, spec.name),
                    f"Ask: also run each question on the {spec.name} router, side by side",
                )
            )
    commands.append(("Compare: off", partial(app.set_compare_router, None), "Ask: one router"))
    current = registry.get(app.router_name)
    pick = app.router_pick
    for mode in current.capabilities.modes:
        commands.append(
            (
                f"Mode: {mode}",
                partial(app.set_router_mode, mode),
                f"{current.name} function-calling mode {mode} (now {pick.mode})",
            )
        )
    if current.default_model is not None:
        default = current.model_for(None, os.environ)
        commands.append(
            (
                f"Model: {default}",
                partial(app.set_router_model, ""),
                f"{current.name}'s default model (now {pick.model or default}); "
                f"type '{MODEL_PREFIX}NAME' for another",
            )
        )
    return commands


def typed_model_command(
    app: PlaygroundApp, query: str
) -> tuple[str, Callable[[], object], str] | None:
    """The ``Model: NAME`` command for a query ``model NAME`` when the current router has
    models, else ``None``."""
    if not query.lower().startswith(MODEL_PREFIX) or not query[len(MODEL_PREFIX) :].strip():
        return None
    current = registry.get(app.router_name)
    if current.default_model is None:
        return None
    model = query[len(MODEL_PREFIX) :].strip()
    return (
        f"Model: {model}",
        partial(app.set_router_model, model),
        f"Use the {current.name} model {model!r} for Ask and Evaluate",
    )


class PlaygroundCommands(Provider):
    """Offers :func:`palette_commands`; fuzzy-matched on the command name."""

    async def discover(self) -> Hits:
        for name, callback, help_text in palette_commands(cast("PlaygroundApp", self.app)):
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        typed = typed_model_command(cast("PlaygroundApp", self.app), query)
        if typed is not None:
            name, callback, help_text = typed
            yield Hit(1.0, name, callback, text=name, help=help_text)
        matcher = self.matcher(query)
        for name, callback, help_text in palette_commands(cast("PlaygroundApp", self.app)):
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, text=name, help=help_text)
