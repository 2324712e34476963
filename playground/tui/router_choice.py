"""Choosing the router of Ask and Evaluate: F9 and the palette's ``Router:``, ``Mode:``,
``Model:`` and ``Compare with:`` commands.

Each function sets the app's reactive :attr:`~playground.tui.state.PlaygroundState.router` (or
``compare``); the views bound to it follow (Ask's status line, Evaluate's next run, the app's
subtitle). A router that cannot run here (its key is missing) is never chosen: the app says how
to set the key and keeps the current router. The routers are those of
:mod:`playground.routing.registry`.
"""

from __future__ import annotations

import os

from playground.routing import registry
from playground.tui.router_pick import RouterPick
from playground.tui.state import PlaygroundState


def pick_for(app: PlaygroundState, name: str) -> RouterPick:
    """Router ``name`` (registered) with the mode and model chosen for it in ``app`` (its first
    mode, and the default model, when none was chosen)."""
    spec = registry.get(name)
    mode = app.router_modes.get(spec.name) or (
        spec.capabilities.modes[0] if spec.capabilities.modes else None
    )
    return RouterPick(spec.name, mode, app.router_models.get(spec.name))


def usable(app: PlaygroundState, name: str) -> bool:
    """Whether router ``name`` can run here; notifies the backend's key hint when not."""
    from playground.routing.factory import missing_setting

    missing = missing_setting(name)
    if not missing:
        return True
    app.notify(
        f"{missing}. Staying with the {app.router.name} router.",
        title=registry.get(name).name,
        severity="warning",
        timeout=12,
    )
    return False


def set_router(app: PlaygroundState, name: str) -> None:
    """Use router ``name`` (a registered name) for Ask and Evaluate. An unknown name is an error
    notification; a router whose key is missing is not chosen (see :func:`usable`)."""
    try:
        spec = registry.get(name)
    except Exception as exc:  # UsageError: an unknown name from the palette
        app.notify(str(exc), severity="error")
        return
    if not usable(app, spec.name):
        return
    app.router = pick_for(app, spec.name)
    app.notify(f"Router: {app.router}")


def switch_router(app: PlaygroundState) -> None:
    """F9: the next registered router that can run here (in registry order, wrapping), skipping
    the others with their key hints."""
    names = registry.names()
    start = names.index(app.router.name) if app.router.name in names else -1
    for step in range(1, len(names)):
        name = names[(start + step) % len(names)]
        if usable(app, name):
            set_router(app, name)
            return


def set_router_mode(app: PlaygroundState, mode: str) -> None:
    """Use function-calling ``mode`` for the current router (one of its ``capabilities.modes``;
    Gemini: AUTO, ANY, NONE, VALIDATED); another is an error notification."""
    spec = registry.get(app.router.name)
    if mode not in spec.capabilities.modes:
        app.notify(f"the {spec.name} router has no mode {mode!r}", severity="error")
        return
    app.router_modes[spec.name] = mode
    app.router = pick_for(app, spec.name)
    app.notify(f"{spec.name} mode: {mode}")


def set_router_model(app: PlaygroundState, model: str) -> None:
    """Use ``model`` for the current router (one with models: Gemini). Blank: back to the
    default (``PLAYGROUND_GEMINI_MODEL`` or the built-in default)."""
    spec = registry.get(app.router.name)
    if spec.default_model is None:
        app.notify(f"the {spec.name} router has no models", severity="error")
        return
    model = model.strip()
    if model:
        app.router_models[spec.name] = model
    else:
        app.router_models.pop(spec.name, None)
    app.router = pick_for(app, spec.name)
    shown = model or f"{spec.model_for(None, os.environ)} (default)"
    app.notify(f"{spec.name} model: {shown}")


def set_compare_router(app: PlaygroundState, name: str | None) -> None:
    """Ask's compare mode: also run each question on router ``name`` and show both side by
    side (``None``: off). A router that cannot run here is refused with the reason."""
    if name is not None and not usable(app, name):
        return
    app.compare = name
    app.notify(f"Compare with: {name}" if name else "Compare: off")
