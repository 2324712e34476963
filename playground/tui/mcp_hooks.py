"""What the TUI gives its MCP servers' client side (issue 21, item 6): the elicitation form
(:mod:`playground.tui.elicit_form`) and the router picked in the TUI for sampling
(:mod:`playground.routing.sampling`), and the MCP tab shown. Called once per load (on the
load thread) with the new sources."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def attach_client_features(app: Any, sources: Iterable[Any]) -> None:
    """Each source's elicitation requests open the form; its sampling requests go to the
    router ``app.router`` names at that moment (without its key: the offline router,
    which refuses, saying why)."""
    from playground.routing.sampling import answer_sampling_with
    from playground.tui.elicit_form import tui_elicitor

    def current_router() -> Any:
        from playground.routing.factory import choose_router

        pick = app.router
        return choose_router(pick.name, pick.model, pick.mode, fallback=True).router

    sources = list(sources)
    for source in sources:
        source.elicitor = tui_elicitor(app, source.label)
    answer_sampling_with(sources, current_router)
    if sources:  # the MCP tab is hidden until there are servers to browse (app.tcss)
        app.call_from_thread(show_mcp_tab, app)


def show_mcp_tab(app: Any) -> None:
    """Show the MCP tab's label in the tab bar."""
    from textual.widgets import TabbedContent

    app.query_one("#modes", TabbedContent).show_tab("mcp-tab")
