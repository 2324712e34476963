"""Every text field's ``ctrl+a`` selects all (issue 13): the form's fields, the Ask question,
the History filter and case file, the Evaluate path and the export path
(:mod:`playground.tui.widgets.select_all`; the JSON editor does the same:
:mod:`playground.tui.widgets.json_editor`).
"""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Input

from playground.core.untrusted import one_cell
from playground.tui.widgets.select_all import SelectAllInOrder


class FieldInput(SelectAllInOrder, Input):
    """An ``Input`` whose ``ctrl+a`` selects all the text, in the order of the keys typed, and
    whose value is drawn by the one-cell form of the rule for untrusted text
    (:func:`~playground.core.untrusted.one_cell`: a default or a rerun's argument from a tool
    may hold an ESC); the value itself, what is sent, is unchanged."""

    BINDINGS = [Binding("ctrl+a", "select_all", "Select all", show=False)]

    @property
    def _value(self) -> Text:
        if self.password:
            return super()._value
        text = Text(one_cell(self.value), no_wrap=True, overflow="ignore", end="")
        return self.highlighter(text) if self.highlighter is not None else text
