"""The TUI's main screen (the app's default screen): its layout classes for the terminal's
size, and the keys that must act in the order they were typed.

``tab``/``shift+tab`` move the focus as soon as they arrive (priority bindings, as ``ctrl+r``
is handled), so the keys typed right behind them go to the next field: as the screen's plain
bindings they ran only once the key had bubbled up from the field, after those keys had gone
to the old one ("HR1 Tab 500" put 500 into the first field). Dialogs (help, export, the
palette) are other screens and keep Textual's Tab. :meth:`MainScreen.after_typed_keys` runs
``ctrl+r``'s action behind every key already sent to the fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

#: Below this many columns the panes stack (see ``.-narrow`` in app.tcss).
NARROW_BELOW = 120

#: Below this many rows the contract description box is hidden (``.-short``).
SHORT_BELOW = 28


def fit(app: App[Any], width: int, height: int, update: bool = True) -> bool:
    """Set the screen's ``-narrow`` / ``-short`` classes and the compact footer for a
    ``width`` x ``height`` terminal (one restyle, only when a class changes; ``update``
    false: no restyle, before the widgets are styled). Returns whether it is narrow."""
    narrow = width < NARROW_BELOW
    app.screen.update_classes({"-narrow": narrow, "-short": height < SHORT_BELOW}, update=update)
    for footer in app.query(Footer):
        footer.compact = narrow
        footer.show_command_palette = not narrow
    return narrow


class MainScreen(Screen[None]):
    """The screen of the mode tabs (see the module docstring for its keys)."""

    #: The Call tab opens first and its contract list takes the focus from the first frame
    #: (Textual's default focuses the mode tabs, and the footer was recomposed for their keys
    #: and again for the list's: one frame more before the first screen).
    AUTO_FOCUS = "#contracts"

    BINDINGS = [
        Binding("tab", "focus_next_now", show=False, priority=True),
        Binding("shift+tab", "focus_previous_now", show=False, priority=True),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: the widgets the focus left since the last ctrl+r by Tab or by a key the contract
        #: list handed to a field: keys typed into them just before may still wait in their
        #: queues (see :meth:`note_focus_left`, :meth:`after_typed_keys`)
        self._left_with_keys: list[Widget] = []

    def action_focus_next_now(self) -> None:
        """Focus the next widget now (see the ``tab`` binding)."""
        if self.focused is not None:
            self.note_focus_left(self.focused)
        self.focus_next()

    def action_focus_previous_now(self) -> None:
        """Focus the previous widget now (see the ``shift+tab`` binding)."""
        if self.focused is not None:
            self.note_focus_left(self.focused)
        self.focus_previous()

    def note_focus_left(self, widget: Widget) -> None:
        """``widget`` loses the focus while keys typed into it may still wait in its queue (Tab,
        or a key the contract list hands to a field): the next ctrl+r waits for them first."""
        self._left_with_keys = [w for w in self._left_with_keys if w is not widget][-7:]
        self._left_with_keys.append(widget)

    def after_typed_keys(self, action: Callable[[], object]) -> None:
        """Run ``action`` after every key already sent to the focused widget.

        ``ctrl+r`` is a priority binding: the app handles it as soon as it arrives, while the
        keys typed just before it may still wait in the focused field's message queue. Reading
        the fields now would send what was there before those keys (seen as
        ``missing:order_id`` with the id on screen). So ``action`` is queued behind them, in the
        focused widget's own queue: what is sent is what the fields show once the keys before
        ctrl+r are in. The widgets the focus left since the last run are waited for first, in
        the order left ("HR1 Tab 500 ctrl+r": the first field's keys, then the second's, then
        the run)."""
        chain = [w for w in self._left_with_keys if w is not self.focused]
        if self.focused is not None:
            chain.append(self.focused)
        self._left_with_keys = []

        def after(index: int) -> None:
            if index == len(chain):
                action()
            elif not chain[index].is_attached or not chain[index].call_later(after, index + 1):
                after(index + 1)

        after(0)
