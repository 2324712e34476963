"""The help screen (``?``, or "Help: keys" in the command palette): every key of the current
view, grouped by where it works — the focused widget, the open view, everywhere.

Built from the screen's live bindings (``Screen.active_bindings``: the focused widget up to the
app) plus the open view's own bindings, so what it lists is what the keys do right now. Unlike
Textual's keys panel it is a full screen: nothing is cut off at 80×24.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Static

#: Keys of widgets that may not hold the focus now (listed so that they can be found).
TEXT_KEYS = (
    ("ctrl+a", "select all (every text field and JSON editor)"),
    ("ctrl+n", "send the focused argument as null (Call form)"),
    ("escape", "close a dialog (this help, copy / save, the palette)"),
)


def key_rows(app: App[Any], view: DOMNode | None) -> list[tuple[str, str, str]]:
    """``(where, keys, what)`` for every described binding active on ``app``'s screen, plus
    the bindings of ``view`` (the open mode's view) that the focus does not reach. ``where``:
    ``"this view"`` (``view`` itself), ``"in <Widget>"`` (the focused widget or a container of
    it), or ``"everywhere"`` (the app or screen). Keys bound to one action are joined (``ctrl+r, f5``)."""
    seen: dict[tuple[int, str], list[str]] = {}
    where_of: dict[tuple[int, str], tuple[str, str]] = {}

    def add(node: DOMNode, binding: Binding) -> None:
        if not binding.description:
            return
        slot = (id(node), binding.action)
        keys = seen.setdefault(slot, [])
        shown = app.get_key_display(binding)
        if shown not in keys:
            keys.append(shown)
        if node is app or node is app.screen:
            where = "everywhere"
        elif node is view:
            where = "this view"
        else:
            where = f"in {type(node).__name__}"
        where_of[slot] = (where, binding.description)

    for active in app.screen.active_bindings.values():
        add(active.node, active.binding)
    if view is not None:
        for _, binding in view._bindings:
            add(view, binding)
    order = {"this view": 0}
    rows = [(where, ", ".join(seen[slot]), what) for slot, (where, what) in where_of.items()]
    rows.sort(key=lambda row: order.get(row[0], 2 if row[0] == "everywhere" else 1))
    return rows


class HelpScreen(ModalScreen[None]):
    """The keys of the current view (``escape``, ``q`` or ``?`` closes it)."""

    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close", id="help-close"),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 100; height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, title: str, rows: list[tuple[str, str, str]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title_text = title
        self.rows = rows

    def compose(self) -> ComposeResult:
        table = Table(box=None, expand=True, show_header=True, header_style="bold")
        table.add_column("keys", style="bold cyan", no_wrap=True)
        table.add_column("does")
        table.add_column("where", style="dim", no_wrap=True)
        for where, keys, what in self.rows:
            table.add_row(keys, what, where)
        for keys, what in TEXT_KEYS:
            table.add_row(keys, what, "")
        with VerticalScroll(id="help-body") as body:
            body.border_title = f"Keys · {self.title_text}   (escape closes)"
            yield Static(table, id="help-table")

    @property
    def text(self) -> str:
        """The listed keys as plain lines ``keys — does (where)`` (for tests and copying)."""
        lines = [f"{keys} — {what} ({where})" for where, keys, what in self.rows]
        lines += [f"{keys} — {what}" for keys, what in TEXT_KEYS]
        return "\n".join(lines)
