"""Every text field's ``ctrl+a`` selects all (issue 13): the form's fields, the Ask question,
the History filter and case file, the Evaluate path and the export path.

Textual's ``Input`` binds ``ctrl+a`` to "start of line" (as a shell does); in a form the user
expects "select all" before typing over a value, so this subclass rebinds it (``home`` still
goes to the line start). The JSON editor does the same: :mod:`playground.tui.widgets.json_editor`.

The key is handled in the field's own key handler, in the order the keys came, not as a
binding: a binding runs only once its key has bubbled up to the app, after the keys typed
behind it are already in the field, so ``ctrl+a`` then an id, typed quickly after other keys,
appended the id instead of replacing the text (seen in tmux: ``HR55555555HR66666666``).
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import Input


class FieldInput(Input):
    """An ``Input`` whose ``ctrl+a`` selects all the text, in the order of the keys typed."""

    BINDINGS = [Binding("ctrl+a", "select_all", "Select all", show=False)]

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "ctrl+a":
            event.stop()
            event.prevent_default()
            self.select_all()
            return
        await super()._on_key(event)
