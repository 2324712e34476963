"""The router options ``ask`` and ``eval`` share: ``--router``, ``--model``, ``--mode``.

Their help lists the routers of :mod:`playground.routing.registry` (names only: no backend is
imported to print ``--help``); the values are checked when the router is built
(:func:`playground.routing.factory.choose_router`: an unknown name or mode is a usage error,
exit 2).
"""

from __future__ import annotations

from typing import Annotated

import typer

from playground.routing import registry

RouterOption = Annotated[
    str,
    typer.Option(
        "--router",
        "-r",
        help=f"Who picks the tools: {' | '.join(registry.names())} "
        f"(default {registry.DEFAULT_ROUTER}; a router that needs a key says how to set it).",
    ),
]
ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model",
        help="Model name, for a router with models (gemini: default gemini-3.6-flash, or "
        "$PLAYGROUND_GEMINI_MODEL).",
    ),
]
ModeOption = Annotated[
    str | None,
    typer.Option(
        "--mode",
        help="Function-calling mode, for a router with modes (gemini: AUTO, ANY, NONE or "
        "VALIDATED).",
    ),
]
