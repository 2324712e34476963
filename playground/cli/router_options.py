"""The router options ``ask`` and ``eval`` share: ``--router``, ``--model``, ``--mode``,
``--base-url``, ``--api``.

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
        metavar="NAME",
        help="Model name, for a router with models (gemini: default gemini-3.6-flash, or "
        "$PLAYGROUND_GEMINI_MODEL; openai: gpt-5-mini or $PLAYGROUND_OPENAI_MODEL; anthropic: "
        "claude-haiku-4-5 or $PLAYGROUND_ANTHROPIC_MODEL; openai-compatible: required).",
    ),
]
ModeOption = Annotated[
    str | None,
    typer.Option(
        "--mode",
        help="Function-calling mode, for a router with modes (gemini: AUTO, ANY, NONE or "
        "VALIDATED; openai, anthropic, openai-compatible: AUTO, ANY or NONE).",
    ),
]
BaseUrlOption = Annotated[
    str | None,
    typer.Option(
        "--base-url",
        metavar="URL",
        help="The API's base URL (openai-compatible: required, e.g. http://127.0.0.1:11434/v1 "
        "for Ollama; openai, anthropic: another endpoint of the same API).",
        show_default=False,
    ),
]
ApiOption = Annotated[
    str | None,
    typer.Option(
        "--api",
        help="Which API the router speaks (openai: responses, the default, or chat).",
        show_default=False,
    ),
]
RoutersOption = Annotated[
    list[str] | None,
    typer.Option(
        "--router",
        "-r",
        help=f"Who picks the tools: {' | '.join(registry.names())} (default "
        f"{registry.DEFAULT_ROUTER}). Repeat it to compare routers on the same questions side by "
        "side; NAME:MODEL picks that router's model (openai:gpt-5-mini).",
        metavar="NAME[:MODEL]",
        show_default=False,
    ),
]


def split_router(value: str) -> tuple[str, str | None]:
    """``NAME`` or ``NAME:MODEL`` -> ``(name, model or None)``."""
    name, _, model = value.partition(":")
    return name.strip(), (model.strip() or None)
