"""One declaration path: what a request to a provider carries for one tool (issue 20 item 5).

``show --provider P``, the TUI's copy of a declaration and every request to ``P`` use the same
builder, picked here: a router backend named ``P`` that declares one
(:attr:`playground.routing.registry.RouterSpec.declare` — Gemini: the very function its
requests are built with), else the provider view of :mod:`playground.core.wire`
(:data:`~playground.core.wire.DECLARATION_VIEWS`: Anthropic, OpenAI, which have no router
yet). Nothing here knows a provider by name.
"""

from __future__ import annotations

from typing import Any

from playground.core.wire import DECLARATION_VIEWS, PROVIDERS, ProviderDeclaration
from playground.errors import UsageError
from playground.routing import registry


def provider_declaration(provider: str, declaration: dict[str, Any]) -> ProviderDeclaration:
    """What a request to ``provider`` carries for the tool ``declaration`` (``{"name",
    "description", "parameters"}``, as :meth:`playground.core.contracts.Contract.declaration`
    gives it), with notes on what that provider cannot carry (see
    :class:`~playground.core.wire.ProviderDeclaration`).

    Raises :class:`~playground.errors.UsageError` for a provider with no declaration builder
    (the known ones: :data:`playground.core.wire.PROVIDERS`), and what the builder raises
    (:class:`~playground.errors.RouterError` for a declaration without a name).
    """
    wanted = str(provider).strip().lower()
    if wanted in registry.names():
        declare = registry.get(wanted).declare
        if declare is not None:
            return declare(declaration)
    view = DECLARATION_VIEWS.get(wanted)
    if view is None:
        raise UsageError(
            f"no declaration for provider {provider!r}; use one of {', '.join(PROVIDERS)}"
        )
    return view(declaration)
