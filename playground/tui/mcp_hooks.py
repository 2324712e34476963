"""What the TUI gives its MCP servers' client side (issue 21, item 6): the elicitation form
(:mod:`playground.tui.elicit_form`) and the router picked in the TUI for sampling
(:mod:`playground.routing.sampling`). Called once per load with the new sources."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def attach_client_features(app: Any, sources: Iterable[Any]) -> None:
    """Each source's elicitation requests open the form; its sampling requests go to the
    router ``app.router_pick`` names at that moment (without its key: the offline router,
    which refuses, saying why)."""
    from playground.routing.sampling import answer_sampling_with
    from playground.tui.elicit_form import tui_elicitor

    def current_router() -> Any:
        from playground.routing.factory import choose_router

        pick = app.router_pick
        return choose_router(pick.name, pick.model, pick.mode, fallback=True).router

    sources = list(sources)
    for source in sources:
        source.elicitor = tui_elicitor(app, source.label)
    answer_sampling_with(sources, current_router)
