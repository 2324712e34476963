"""``ctrl+a`` selects all in a text widget, handled in the widget's own key handler (issue 13).

Textual binds ``ctrl+a`` to "start of line" in ``Input`` and ``TextArea`` (as a shell does); in
a form the user expects "select all" before typing over a value. It is handled here, in the
order the keys came, not as a binding: a binding runs only once its key has bubbled up to the
app, after the keys typed behind it are already in the widget, so ``ctrl+a`` then an id, typed
quickly after other keys, appended the id instead of replacing the text (seen in tmux:
``HR55555555HR66666666``). Used by :class:`playground.tui.widgets.fields.FieldInput` and
:class:`playground.tui.widgets.json_editor.JsonEditor`.
"""

from __future__ import annotations

from typing import Any

from textual import events


class SelectAllInOrder:
    """Mixin for an ``Input`` or a ``TextArea`` (first among its bases): ``ctrl+a`` selects all
    the text (``home`` still goes to the line start)."""

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "ctrl+a":
            event.stop()
            event.prevent_default()
            widget: Any = self
            widget.select_all()
            return
        await super()._on_key(event)  # type: ignore[misc]
