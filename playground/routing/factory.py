"""Build a router by name for the CLI and the TUI: ``offline`` (default) or ``gemini``.

``gemini`` needs an API key in ``GEMINI_API_KEY`` or ``GOOGLE_API_KEY`` (the variables the
google-genai SDK reads). Without one, :func:`make_router` falls back to the offline router and
says so in :attr:`RouterChoice.notes` — unless a dry run is wanted, which shows the exact Gemini
request without any key (``GeminiRouter.dry_run``). (:func:`choose_router` returns the notes;
:func:`make_router` just the router.) google-genai is imported only when
``gemini`` is asked for.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from playground.errors import UsageError

ROUTERS = ("offline", "gemini")
KEY_ENV_VARS = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
NO_KEY_HINT = (
    "no Gemini API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), e.g. `export GEMINI_API_KEY=...` "
    "with a key from https://aistudio.google.com/apikey"
)


@dataclass
class RouterChoice:
    """What :func:`choose_router` built: ``router``, the ``requested`` name, and ``notes`` — one-line
    messages for stderr (e.g. the missing key and the fallback to offline)."""

    router: Any
    requested: str
    notes: list[str] = field(default_factory=list)

    @property
    def fell_back(self) -> bool:
        return self.requested != getattr(self.router, "name", self.requested)


def has_gemini_key(environ: Mapping[str, str]) -> bool:
    """Whether ``environ`` holds a non-blank ``GEMINI_API_KEY`` or ``GOOGLE_API_KEY``."""
    return any((environ.get(name) or "").strip() for name in KEY_ENV_VARS)


def make_router(
    name: str = "offline",
    model: str | None = None,
    mode: str | None = None,
    environ: Mapping[str, str] = os.environ,
    *,
    dry_run: bool = False,
) -> Any:
    """The router of :func:`choose_router` (a ``Router``); its notes are dropped — use
    :func:`choose_router` to show them. Raises :class:`UsageError` as that does."""
    return choose_router(name, model, mode, environ, dry_run=dry_run).router


def choose_router(
    name: str = "offline",
    model: str | None = None,
    mode: str | None = None,
    environ: Mapping[str, str] = os.environ,
    *,
    dry_run: bool = False,
) -> RouterChoice:
    """Build the router called ``name`` (``offline`` | ``gemini``, case-insensitive).

    ``model`` / ``mode``: Gemini only (default model and ``AUTO``); given with ``offline`` they
    are ignored with a note. ``environ``: where the key is looked up (tests pass a dict).
    ``dry_run``: build the Gemini router even without a key (only its ``dry_run`` is used).
    Raises :class:`UsageError` for an unknown name or an unknown Gemini mode.
    """
    wanted = str(name or "offline").strip().lower()
    if wanted not in ROUTERS:
        raise UsageError(f"unknown router {name!r}; use one of {', '.join(ROUTERS)}")
    notes: list[str] = []
    if wanted == "gemini":
        key_ok = has_gemini_key(environ)
        if key_ok or dry_run:
            from playground.routing.gemini import DEFAULT_MODEL, GeminiRouter

            key = next(
                (
                    (environ.get(n) or "").strip()
                    for n in ("GOOGLE_API_KEY", "GEMINI_API_KEY")
                    if (environ.get(n) or "").strip()
                ),
                None,
            )
            router = GeminiRouter(model=model or DEFAULT_MODEL, mode=(mode or "AUTO"), api_key=key)
            if not key_ok:
                router.api_key = None  # never pick up a key from another environment in a dry run
            return RouterChoice(router, wanted, notes)
        notes.append(f"{NO_KEY_HINT}; using the offline router instead")
    elif model or mode:
        notes.append("--model and --mode apply to the gemini router only; ignored for offline")
    from playground.routing.offline import OfflineRouter

    return RouterChoice(OfflineRouter(), wanted, notes)
