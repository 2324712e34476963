"""The command palette provider (ctrl+p): every app action by name, as in Posting.

Each command calls a public method or action of :class:`playground.tui.app.PlaygroundApp`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

GEMINI_MODES = ("AUTO", "ANY", "NONE", "VALIDATED")  # playground.routing.gemini.MODES


def palette_commands(app) -> list[tuple[str, Callable[[], object], str]]:
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
            "Switch router",
            app.action_switch_router,
            f"Toggle the Ask router between offline and gemini (now {app.router_name})",
        ),
        (
            "Router: offline",
            partial(app.set_router, "offline"),
            "Deterministic, explainable routing; no network",
        ),
        (
            "Router: gemini",
            partial(app.set_router, "gemini"),
            "A real Gemini model (needs GEMINI_API_KEY)",
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
    for mode in GEMINI_MODES:
        commands.append(
            (
                f"Gemini mode: {mode}",
                partial(app.set_gemini_mode, mode),
                f"function_calling_config.mode = {mode} (now {app.gemini_mode})",
            )
        )
    return commands


class PlaygroundCommands(Provider):
    """Offers :func:`palette_commands`; fuzzy-matched on the command name."""

    async def discover(self) -> Hits:
        for name, callback, help_text in palette_commands(self.app):
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in palette_commands(self.app):
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, text=name, help=help_text)
