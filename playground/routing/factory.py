"""Build a router by name for the CLI and the TUI, from the declarations in
:mod:`playground.routing.registry`.

A backend that needs a key (its ``key_env_vars``) and finds none in the environment is replaced
by the default router (:data:`~playground.routing.registry.DEFAULT_ROUTER`), and
:attr:`RouterChoice.notes` says so with the backend's own hint — unless a dry run is wanted,
which builds the backend without any key (only its ``dry_run`` is used). ``model`` and ``mode``
given to a backend without models or modes are ignored with a note. A backend's module (and
google.genai for Gemini) is imported only when that backend is asked for.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from playground.routing import registry
from playground.routing.base import Router
from playground.routing.registry import RouterSettings


@dataclass
class RouterChoice:
    """What :func:`choose_router` built: ``router``, the ``requested`` name, and ``notes`` — one-line
    messages for stderr (e.g. the missing key and the fallback to the default router)."""

    router: Router
    requested: str
    notes: list[str] = field(default_factory=list)

    @property
    def fell_back(self) -> bool:
        """Whether another router than the one requested was built (no key)."""
        return self.requested != self.router.name


def has_key(name: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether router ``name`` can run with ``environ``: it needs no key, or one of its key
    variables is set (not blank). Raises :class:`UsageError` for an unknown name."""
    spec = registry.get(name)
    return not spec.needs_key or spec.key_from(environ) is not None


def make_router(
    name: str = registry.DEFAULT_ROUTER,
    model: str | None = None,
    mode: str | None = None,
    environ: Mapping[str, str] = os.environ,
    *,
    dry_run: bool = False,
) -> Router:
    """The router of :func:`choose_router`; its notes are dropped — use :func:`choose_router`
    to show them. Raises :class:`UsageError` as that does."""
    return choose_router(name, model, mode, environ, dry_run=dry_run).router


def choose_router(
    name: str | None = registry.DEFAULT_ROUTER,
    model: str | None = None,
    mode: str | None = None,
    environ: Mapping[str, str] = os.environ,
    *,
    dry_run: bool = False,
) -> RouterChoice:
    """Build the router called ``name`` (a registered name, case-insensitive).

    ``model``: for a backend with models (else ignored with a note); ``None`` = its
    ``model_env_var`` from ``environ``, else its default. ``mode``: one of its
    ``capabilities.modes`` (case-insensitive; else ignored with a note). ``environ``: where the
    key and the model variable are looked up (tests pass a dict). ``dry_run``: build the backend
    even without a key, and never with one. Raises :class:`UsageError` for an unknown name, or
    what the backend's factory raises (an unknown mode).
    """
    spec = registry.get(name)
    notes: list[str] = []
    key = spec.key_from(environ)
    if spec.needs_key and key is None and not dry_run:
        fallback = registry.get(registry.DEFAULT_ROUTER)
        notes.append(f"{spec.no_key_hint}; using the {fallback.name} router instead")
        return RouterChoice(fallback.build(RouterSettings()), spec.name, notes)
    ignored = [
        option
        for option, given, supported in (
            ("--model", model, spec.default_model is not None),
            ("--mode", mode, bool(spec.capabilities.modes)),
        )
        if given and not supported
    ]
    if ignored:
        verb = "does" if len(ignored) == 1 else "do"
        notes.append(f"{' and '.join(ignored)} {verb} not apply to the {spec.name} router; ignored")
    settings = RouterSettings(
        model=spec.model_for(model, environ),
        mode=mode.upper() if mode and spec.capabilities.modes else None,
        api_key=None if dry_run else key,
        dry_run=dry_run,
    )
    return RouterChoice(spec.build(settings), spec.name, notes)
