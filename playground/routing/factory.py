"""Build a router by name for the CLI and the TUI, from the declarations in
:mod:`playground.routing.registry`.

A backend that needs a key (its ``key_env_vars``) and finds none in the environment cannot run:
:func:`choose_router` raises :class:`~playground.errors.UsageError` with the backend's own hint
(naming the variable), so ``--router gemini`` without a key is an error (exit 2), never a
silent run of another router (issue 20 item 8). Only a caller that asks for ``fallback`` (the
TUI, whose router switch skips such a backend with a note) gets the default router
(:data:`~playground.routing.registry.DEFAULT_ROUTER`) with :attr:`RouterChoice.notes` saying so.
A dry run builds the backend without any key (only its ``dry_run`` is used). ``model`` and ``mode``
given to a backend without models or modes are ignored with a note. A backend's module (and
google.genai for Gemini) is imported only when that backend is asked for.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from playground.errors import UsageError
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


def missing_setting(name: str, environ: Mapping[str, str] = os.environ) -> str:
    """Why router ``name`` cannot run with ``environ`` alone (no command-line options: the
    TUI), in one line: its ``no_key_hint`` without a key, or that it needs a base URL
    (``base_url_env_var``) when it has no endpoint of its own; ``""`` when it can run. Raises
    :class:`UsageError` for an unknown name."""
    spec = registry.get(name)
    if spec.needs_key and spec.key_from(environ) is None:
        return spec.no_key_hint or f"the {spec.name} router needs {' or '.join(spec.key_env_vars)}"
    if spec.needs_base_url and not (environ.get(spec.base_url_env_var or "") or "").strip():
        where = f"set {spec.base_url_env_var}" if spec.base_url_env_var else "use --base-url"
        return f"the {spec.name} router needs a base URL: {where}"
    return ""


def make_router(
    name: str = registry.DEFAULT_ROUTER,
    model: str | None = None,
    mode: str | None = None,
    environ: Mapping[str, str] = os.environ,
    *,
    dry_run: bool = False,
    fallback: bool = False,
    base_url: str | None = None,
    api: str | None = None,
) -> Router:
    """The router of :func:`choose_router`; its notes are dropped — use :func:`choose_router`
    to show them. Raises :class:`UsageError` as that does."""
    return choose_router(
        name, model, mode, environ, dry_run=dry_run, fallback=fallback, base_url=base_url, api=api
    ).router


def choose_router(
    name: str | None = registry.DEFAULT_ROUTER,
    model: str | None = None,
    mode: str | None = None,
    environ: Mapping[str, str] = os.environ,
    *,
    dry_run: bool = False,
    fallback: bool = False,
    base_url: str | None = None,
    api: str | None = None,
) -> RouterChoice:
    """Build the router called ``name`` (a registered name, case-insensitive).

    ``model``: for a backend with models (else ignored with a note); ``None`` = its
    ``model_env_var`` from ``environ``, else its default. ``mode``: one of its
    ``capabilities.modes`` (case-insensitive; else ignored with a note). ``environ``: where the
    key and the model variable are looked up (tests pass a dict). ``dry_run``: build the backend
    even without a key, and never with one. ``fallback``: without the key, build the default
    router and say so in the notes instead of raising (the TUI only). ``base_url`` / ``api``:
    ``--base-url`` / ``--api``, for a backend whose ``options`` name them (else ignored with a
    note).

    Raises :class:`UsageError` for an unknown name; for a backend that needs a key and finds
    none (not a dry run, no ``fallback``), with the backend's ``no_key_hint`` — one line naming
    its environment variable (``no Gemini API key: set GEMINI_API_KEY (or GOOGLE_API_KEY)…``);
    or what the backend's factory raises (an unknown mode).
    """
    spec = registry.get(name)
    notes: list[str] = []
    key = spec.key_from(environ)
    if spec.needs_key and key is None and not dry_run:
        if not fallback:
            raise UsageError(
                spec.no_key_hint or f"the {spec.name} router needs {' or '.join(spec.key_env_vars)}"
            )
        default = registry.get(registry.DEFAULT_ROUTER)
        notes.append(f"{spec.no_key_hint}; using the {default.name} router instead")
        return RouterChoice(default.build(RouterSettings()), spec.name, notes)
    ignored = [
        option
        for option, given, supported in (
            ("--model", model, spec.default_model is not None),
            ("--mode", mode, bool(spec.capabilities.modes)),
            ("--base-url", base_url, "base_url" in spec.options),
            ("--api", api, "api" in spec.options),
        )
        if given and not supported
    ]
    if ignored:
        verb = "does" if len(ignored) == 1 else "do"
        notes.append(f"{' and '.join(ignored)} {verb} not apply to the {spec.name} router; ignored")
    supported = spec.options
    settings = RouterSettings(
        model=spec.model_for(model, environ),
        mode=mode.upper() if mode and spec.capabilities.modes else None,
        api_key=None if dry_run else key,
        dry_run=dry_run,
        base_url=base_url.strip() if base_url and "base_url" in supported else None,
        api=api.strip().lower() if api and "api" in supported else None,
    )
    return RouterChoice(spec.build(settings), spec.name, notes)
