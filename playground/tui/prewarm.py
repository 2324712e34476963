"""Imports the first screen does not need, made after it on a daemon thread.

The chosen router's module (the offline router's rules compile ~150 regular expressions,
~0.1 s) serves only Ask, Evaluate and the router palette; the JSON editor (Textual's
``TextArea`` and tree-sitter's JSON grammar) only the arguments' JSON tab. Imported while the
tools loaded, they competed with the contract list and the first form for the interpreter;
imported once they are drawn, the Ask view and the JSON tab still find them loaded
(docs/performance.md, "The TUI's first screen: everything else later").
"""

from __future__ import annotations

import threading

from playground.routing import registry
from playground.tui.state import PlaygroundState


def prewarm_router(app: PlaygroundState) -> None:
    """Import the JSON editor's modules and ``app.router``'s module on a daemon thread (a no-op
    once they are imported; a router import that fails is left for the view that needs the
    router to report)."""

    def load(name: str) -> None:
        from playground.tui.widgets.json_editor import json_language

        json_language()  # the JSON tab's editor and its grammar
        try:
            registry.get(name)
        except Exception:  # the Ask view or the palette says what is wrong when asked
            return

    threading.Thread(
        target=load, args=(app.router.name,), name="router-import", daemon=True
    ).start()
