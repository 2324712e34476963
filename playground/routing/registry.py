"""The router registry: every router backend declared in one place, read by everyone else.

A backend is a module that defines ``SPEC`` (a :class:`RouterSpec`): its name, a one-line
summary, the environment variables that hold its key (none: it needs no key), what to tell a
user without one, its capabilities (:class:`~playground.routing.base.RouterCapabilities`: modes,
dry run, explanations, parallel calls, who repairs, the default rate limit), its model settings,
and ``build`` (the factory: :class:`RouterSettings` -> a router). The CLI options, the TUI's router
switch and palette, :mod:`playground.routing.factory` and the loop read these declarations; no
module outside a backend compares router names.

Adding a backend = its module (with ``SPEC``) plus one line in :data:`BUILTIN`. A test or a
plugin registers a spec at run time with :func:`register` (one line). Built-in backends are
imported only when their spec is first asked for, so ``playground --help`` and ``playground
call`` never import them (nor google.genai).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from playground.errors import UsageError

if TYPE_CHECKING:  # annotations only: the TUI's first screen reads DEFAULT_ROUTER and names()
    from playground.core.wire import ProviderDeclaration
    from playground.routing.base import Router, RouterCapabilities

#: Built-in backends: name -> the module defining its ``SPEC``, in the order the UI offers them.
BUILTIN: dict[str, str] = {
    "offline": "playground.routing.offline",
    "gemini": "playground.routing.gemini",
    "openai": "playground.routing.openai_api",
    "anthropic": "playground.routing.anthropic_api",
    "openai-compatible": "playground.routing.openai_compatible",
}

#: The router used when none is named, and when a named one has no key (it needs none).
DEFAULT_ROUTER = "offline"


@dataclass(frozen=True)
class RouterSettings:
    """What a user chose for one router build (CLI options, TUI palette, environment).

    ``model``: the model name (``None``: :meth:`RouterSpec.model_for` picks). ``mode``: a
    function-calling mode from ``capabilities.modes`` (``None``: the first). ``api_key``: the key
    found in the environment, ``None`` without one (or in a dry run, which never uses a key).
    ``dry_run``: the router is built only to show its next request. ``base_url``: the API's
    base URL (``--base-url``; ``None``: the provider's own). ``api``: which of the backend's
    APIs to speak (``--api``; ``None``: its first, e.g. OpenAI ``responses``).
    """

    model: str | None = None
    mode: str | None = None
    api_key: str | None = None
    dry_run: bool = False
    base_url: str | None = None
    api: str | None = None


@dataclass(frozen=True)
class RouterSpec:
    """One backend's declaration.

    ``name``: what ``--router`` and the TUI call it (lower case). ``summary``: one line for help
    texts and the palette. ``build``: the factory, ``RouterSettings -> Router``; may raise
    :class:`UsageError` (bad mode or model). ``key_env_vars``: environment variables holding the
    API key, in order of precedence; empty = needs no key. ``no_key_hint``: one line telling a
    user without a key how to set one. ``capabilities``: what the router can do. ``default_model``
    and ``model_env_var``: the model used when ``--model`` is not given (the variable wins over
    the default); ``None`` for a backend without models. ``declare``: for a backend that talks
    to a provider of the same name, the one function its requests build a tool's declaration
    with (``{"name", "description", "parameters"}`` ->
    :class:`~playground.core.wire.ProviderDeclaration`), so ``show --provider NAME`` prints
    exactly what its requests carry (:mod:`playground.routing.declarations`); ``None`` for a
    backend that sends no declarations (offline). ``options``: which of the settings
    ``base_url`` and ``api`` the backend reads (another given to it is ignored with a note).
    ``needs_base_url``: the backend has no endpoint of its own (``eval`` with several routers
    gives ``--base-url`` to these only; the TUI, which has no ``--base-url``, offers them only
    when ``base_url_env_var`` is set).
    """

    name: str
    summary: str
    build: Callable[[RouterSettings], Router]
    capabilities: RouterCapabilities
    key_env_vars: tuple[str, ...] = ()
    no_key_hint: str = ""
    default_model: str | None = None
    model_env_var: str | None = None
    declare: Callable[[dict[str, Any]], ProviderDeclaration] | None = None
    options: frozenset[str] = frozenset()
    needs_base_url: bool = False
    base_url_env_var: str | None = None

    @property
    def needs_key(self) -> bool:
        """Whether the backend needs an API key (it declares key variables)."""
        return bool(self.key_env_vars)

    def key_from(self, environ: Mapping[str, str]) -> str | None:
        """The first non-blank value of :attr:`key_env_vars` in ``environ`` (stripped), or ``None``."""
        for var in self.key_env_vars:
            value = (environ.get(var) or "").strip()
            if value:
                return value
        return None

    def model_for(self, model: str | None, environ: Mapping[str, str]) -> str | None:
        """The model to use: ``model`` if given, else ``environ[model_env_var]`` if set (not
        blank), else :attr:`default_model`; ``None`` for a backend without models."""
        if self.default_model is None:
            return None
        if model and model.strip():
            return model.strip()
        if self.model_env_var:
            from_env = (environ.get(self.model_env_var) or "").strip()
            if from_env:
                return from_env
        return self.default_model


@dataclass
class _Registry:
    specs: dict[str, RouterSpec] = field(default_factory=dict)
    modules: dict[str, str] = field(default_factory=lambda: dict(BUILTIN))


_REGISTRY = _Registry()


def register(spec: RouterSpec) -> RouterSpec:
    """Add (or replace) the backend ``spec`` under ``spec.name``; returns it. A backend
    registered at run time comes after the built-in ones in :func:`names`."""
    name = spec.name.strip().lower()
    _REGISTRY.specs[name] = spec
    return spec


def unregister(name: str) -> None:
    """Forget a backend registered with :func:`register` (tests); built-ins stay registered."""
    _REGISTRY.specs.pop(name, None)


def names() -> list[str]:
    """Every registered router name, built-ins first, without importing any backend."""
    return list(dict.fromkeys([*_REGISTRY.modules, *_REGISTRY.specs]))


def get(name: str | None) -> RouterSpec:
    """The spec of router ``name`` (case-insensitive; ``None`` or blank: :data:`DEFAULT_ROUTER`).

    Imports a built-in backend's module on first use. Raises :class:`UsageError` naming the
    registered routers for an unknown name.
    """
    wanted = str(name or DEFAULT_ROUTER).strip().lower() or DEFAULT_ROUTER
    spec = _REGISTRY.specs.get(wanted)
    if spec is not None:
        return spec
    module_name = _REGISTRY.modules.get(wanted)
    if module_name is None:
        raise UsageError(f"unknown router {name!r}; use one of {', '.join(names())}")
    loaded: Any = importlib.import_module(module_name).SPEC
    if not isinstance(loaded, RouterSpec):  # pragma: no cover - a built-in's own bug
        raise TypeError(f"{module_name}.SPEC is not a RouterSpec")
    _REGISTRY.specs[wanted] = loaded
    return loaded


def specs() -> list[RouterSpec]:
    """Every registered spec, in :func:`names` order (imports the built-in backends)."""
    return [get(name) for name in names()]


def repairs_by_loop(router: Router) -> bool:
    """Whether the loop's REPAIRS table repairs this router's failed calls (``capabilities.repairs
    == "loop"``) rather than the model reading the error (seed 003 vs seed 004)."""
    return router.capabilities.repairs == "loop"
