"""What the TUI's router switch and palette chose: a router name, its mode and its model."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RouterPick:
    """A registered router ``name`` (:mod:`playground.routing.registry`), its function-calling
    ``mode`` (``None`` for a router without modes) and ``model`` (``None``: the router's default,
    i.e. ``PLAYGROUND_GEMINI_MODEL`` or the built-in one for Gemini)."""

    name: str
    mode: str | None = None
    model: str | None = None

    def __str__(self) -> str:
        """``gemini (ANY, gemini-3.6-pro)``, ``gemini (AUTO)`` or ``offline``."""
        extra = ", ".join(x for x in (self.mode, self.model) if x)
        return f"{self.name} ({extra})" if extra else self.name
