"""Every text field's ``ctrl+a`` selects all (issue 13): the form's fields, the Ask question,
the History filter and case file, the Evaluate path and the export path
(:mod:`playground.tui.widgets.select_all`; the JSON editor does the same:
:mod:`playground.tui.widgets.json_editor`).
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input

from playground.tui.widgets.select_all import SelectAllInOrder


class FieldInput(SelectAllInOrder, Input):
    """An ``Input`` whose ``ctrl+a`` selects all the text, in the order of the keys typed."""

    BINDINGS = [Binding("ctrl+a", "select_all", "Select all", show=False)]
