"""The JSON editor of the arguments' JSON tab and the Steps view's fork: a ``TextArea`` whose
``ctrl+a`` selects all (issue 13; Textual binds it to "start of line", ``home`` still is).

Its own module so that the first screen, which shows no editor, does not import Textual's
``TextArea`` and tree-sitter (issue 13 item 6: the editor is mounted after the first screen).
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import TextArea

from playground.tui.widgets.select_all import SelectAllInOrder


def json_language() -> str | None:
    """``"json"`` when JSON highlighting is available (tree-sitter: ``textual[syntax]``), else
    ``None`` (plain text)."""
    try:
        from textual._tree_sitter import TREE_SITTER
    except Exception:  # pragma: no cover
        return None
    return "json" if TREE_SITTER else None


class JsonEditor(SelectAllInOrder, TextArea):
    """A ``TextArea`` for JSON: ``ctrl+a`` selects all, no soft wrap (long strings scroll
    sideways rather than look as if they held line breaks)."""

    BINDINGS = [Binding("ctrl+a", "select_all", "Select all", show=False)]

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("soft_wrap", False)
        super().__init__(text, **kwargs)
