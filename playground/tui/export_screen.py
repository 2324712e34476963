"""Copy or save what the current view shows: the wire JSON, the record, the declaration, the
episode (``ctrl+s``, or "Copy / save…" in the command palette).

Copying uses ``App.copy_to_clipboard`` (the OSC 52 escape: works over ssh and in tmux with
``set -g set-clipboard on``). Saving writes UTF-8 JSON (Korean kept) to the path typed; an
existing file is overwritten only when the save is confirmed a second time (a device or a
FIFO never), the file is written to a temporary file and renamed into place, and every failure
(a missing folder, no permission, a folder given as the path) is a one-line notification.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList
from textual.widgets.option_list import Option

from playground.tui.widgets.fields import FieldInput


def save_text(path_text: str, text: str, overwrite: bool = False) -> tuple[bool, str]:
    """Write ``text`` to ``path_text`` (``~`` expanded; relative to the working folder).

    Returns ``(True, "saved <path> (<n> bytes)")`` or ``(False, "<one-line reason>")``; an
    existing file is refused unless ``overwrite`` (the reason says so). Never raises."""
    if not path_text.strip():
        return False, "type a file path first"
    from playground.batch.outfiles import write_text_atomic
    from playground.errors import UsageError

    path = Path(path_text.strip()).expanduser()
    if path.is_dir():
        return False, f"{path} is a folder: give a file name"
    if os.path.lexists(path) and not overwrite and (path.is_file() or path.is_symlink()):
        return False, f"{path} exists: press enter again to overwrite it"
    data = text if text.endswith("\n") else text + "\n"
    try:  # a temp file renamed into place: a full disk leaves the old file whole
        write_text_atomic(path, data, force=overwrite)
    except UsageError as exc:
        return False, str(exc)
    return True, f"saved {path} ({len(data.encode('utf-8'))} bytes)"


class ExportScreen(ModalScreen[None]):
    """Pick an item (up/down), then ``f8`` copies it or ``enter`` in the path saves it."""

    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="export-close"),
        Binding("f8", "copy", "Copy", id="export-copy"),
    ]

    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    ExportScreen > Vertical {
        width: 90%; max-width: 90; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    ExportScreen OptionList { height: auto; max-height: 8; }
    ExportScreen #export-buttons { height: auto; }
    ExportScreen #export-buttons Button { margin-right: 1; }
    """

    def __init__(self, items: dict[str, tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.items = items
        self.labels = list(items)
        self.confirm_overwrite = ""
        self.last_message = ""

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Copy / save   (f8 copies · enter saves · escape closes)"
            yield Label("What")
            yield OptionList(*[Option(label, id=str(i)) for i, label in enumerate(self.labels)])
            yield Label("Save to (a file path)")
            first = self.items[self.labels[0]][1] if self.labels else ""
            yield FieldInput(value=first, id="export-path")
            with Horizontal(id="export-buttons"):
                yield Button("Copy  f8", id="export-copy-button", variant="primary")
                yield Button("Save  enter", id="export-save-button")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        if self.labels:
            options.highlighted = 0
        options.focus()

    @property
    def chosen(self) -> str | None:
        index = self.query_one(OptionList).highlighted
        return self.labels[index] if index is not None and index < len(self.labels) else None

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        label = self.chosen
        if label is not None:
            self.query_one("#export-path", FieldInput).value = self.items[label][1]
            self.confirm_overwrite = ""

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.query_one("#export-path", FieldInput).focus()

    def action_copy(self) -> None:
        """Copy the chosen item to the clipboard (OSC 52) and close."""
        label = self.chosen
        if label is None:
            return
        text = self.items[label][0]
        self.app.copy_to_clipboard(text)
        self.last_message = f"copied {label} ({len(text)} characters)"
        self.app.notify(self.last_message)
        self.dismiss()

    def action_save(self) -> None:
        """Save the chosen item to the typed path; asks again before overwriting."""
        label = self.chosen
        if label is None:
            return
        path = self.query_one("#export-path", FieldInput).value
        ok, message = save_text(path, self.items[label][0], self.confirm_overwrite == path)
        self.last_message = message
        if ok:
            self.app.notify(f"{label}: {message}")
            self.dismiss()
            return
        self.confirm_overwrite = path if "exists" in message else ""
        self.app.notify(message, title="Not saved", severity="warning")

    @on(FieldInput.Submitted, "#export-path")
    def _submitted(self, event: FieldInput.Submitted) -> None:
        event.stop()
        self.action_save()

    @on(Button.Pressed, "#export-copy-button")
    def _copy_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_copy()

    @on(Button.Pressed, "#export-save-button")
    def _save_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_save()
