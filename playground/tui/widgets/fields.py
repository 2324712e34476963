"""Text widgets of the playground's editors: ``ctrl+a`` selects all (issue 13).

Textual's ``Input`` and ``TextArea`` bind ``ctrl+a`` to "start of line" (as a shell does); in a
form or a JSON editor the user expects "select all" before typing over a value, so these
subclasses rebind it (``home`` still goes to the line start).
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import Input, TextArea


class FieldInput(Input):
    """An ``Input`` whose ``ctrl+a`` selects all the text."""

    BINDINGS = [Binding("ctrl+a", "select_all", "Select all", show=False)]


class JsonEditor(TextArea):
    """A ``TextArea`` for JSON: ``ctrl+a`` selects all, no soft wrap (long strings scroll
    sideways rather than look as if they held line breaks)."""

    BINDINGS = [Binding("ctrl+a", "select_all", "Select all", show=False)]

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("soft_wrap", False)
        super().__init__(text, **kwargs)
