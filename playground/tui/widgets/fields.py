"""Every text field's ``ctrl+a`` selects all (issue 13): the form's fields, the Ask question,
the History filter and case file, the Evaluate path and the export path.

Textual's ``Input`` binds ``ctrl+a`` to "start of line" (as a shell does); in a form the user
expects "select all" before typing over a value, so this subclass rebinds it (``home`` still
goes to the line start). The JSON editor does the same: :mod:`playground.tui.widgets.json_editor`.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input


class FieldInput(Input):
    """An ``Input`` whose ``ctrl+a`` selects all the text."""

    BINDINGS = [Binding("ctrl+a", "select_all", "Select all", show=False)]
