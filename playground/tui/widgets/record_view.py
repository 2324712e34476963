"""One call record on screen: verdict, body, cache, outcome, value, the traceback of a
``raised`` body and the wire JSON."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Label, Static

from playground.core.untrusted import shown
from playground.tui.formatting import (
    KIND_STYLES,
    bounded_syntax,
    plain,
    pretty_json,
    record_fields,
)
from playground.tui.widgets.wire_view import WireView

if TYPE_CHECKING:
    from playground.core.record import CallRecord

#: (field id, label) rows of the status grid, in display order.
ROWS = (
    ("verdict", "Verdict"),
    ("message", "Message"),
    ("body", "Body ran"),
    ("runs", "Body runs"),
    ("cache", "Cache"),
    ("cache_key", "Cache key"),
    ("kind", "Outcome"),
    ("error", "Error"),
    ("retries", "Retries"),
    ("duration", "Duration"),
    ("printed", "Printed"),
)


class RecordGrid(Widget):
    """The :data:`ROWS` of a record as one two-column grid (label | value; long values wrap).

    One widget rather than a label and a value widget per row: 22 fewer widgets to style and
    lay out per record panel, which the first screen of the TUI pays for (issue 13 item 6).
    ``cells`` holds each row's value as styled text, by field id."""

    COMPONENT_CLASSES = {"record-grid--key"}

    DEFAULT_CSS = """
    RecordGrid {
        height: auto;
    }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cells: dict[str, Text] = {field: Text("-") for field, _ in ROWS}

    def set_cell(self, field: str, text: Text) -> None:
        """Show ``text`` in row ``field`` (a :data:`ROWS` id)."""
        self.cells[field] = text
        self.refresh(layout=True)

    def render(self) -> RenderableType:
        grid = Table.grid(padding=0, expand=True)
        grid.add_column(width=KEY_WIDTH, no_wrap=True)
        grid.add_column(ratio=1, overflow="fold")
        key_style = self.get_component_rich_style("record-grid--key", partial=True)
        width = self.size.width - KEY_WIDTH
        for field, label in ROWS:
            cell = self.cells[field]
            grid.add_row(
                Text(label, style=key_style), break_long_words(cell, width) if width > 0 else cell
            )
        return grid


#: Width of the grid's label column (cells).
KEY_WIDTH = 12
#: Where a word longer than its line breaks first: after JSON's ``,`` ``:`` ``{`` ``[`` (and
#: ``;``, a path's ``/``, a query's ``&``).
_STRONG_BREAKS = frozenset(",:;{[/&")
#: Where it may break when no strong break fits in the second half of the line: after a name's
#: ``_`` ``-`` ``.`` or a query's ``=``.
_WEAK_BREAKS = frozenset("_-.=")


def break_long_words(text: Text, width: int) -> Text:
    """``text`` with each whitespace-free run longer than ``width`` cells broken into lines
    after its punctuation — the last of :data:`_STRONG_BREAKS` that fits in the second half of
    the line, else the last of :data:`_WEAK_BREAKS` — never inside a run of letters or digits
    when a break fits; every character is kept, only line breaks are added. A run with no break
    that fits is left to the grid's fold. Wide characters (Hangul) count as one here, so a
    line of them may still fold: a bound, not an exact fit."""
    plain_text = text.plain
    offsets: list[int] = []
    for match in re.finditer(r"\S+", plain_text):
        start, end = match.span()
        line_start = start
        while end - line_start > width:
            window = range(line_start, min(line_start + width, end - 1))
            strong = [i + 1 for i in window if plain_text[i] in _STRONG_BREAKS]
            weak = [i + 1 for i in window if plain_text[i] in _WEAK_BREAKS]
            if strong and (strong[-1] - line_start >= width // 2 or not weak):
                at = strong[-1]
            elif weak:
                at = weak[-1]
            else:
                line_start += width  # no break fits: the fold cuts here
                continue
            offsets.append(at)
            line_start = at
    if not offsets:
        return text
    return Text("\n").join(text.divide(offsets))


class RecordView(VerticalScroll):
    """Displays a :class:`CallRecord`; ``fields`` holds the plain strings shown, by field id."""

    #: Read-only: never a tab stop (scroll it with the mouse wheel).
    can_focus = False

    def __init__(self, prefix: str = "rv", empty_text: str = "No call yet.", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.prefix = prefix
        self.empty_text = empty_text
        self.fields: dict[str, str] = {}
        self.value_text = ""
        #: The shown record's traceback frames ``{file, line, function, code}`` (innermost
        #: last); empty unless the record is ``raised``. Never part of the wire JSON.
        self.frames: list[dict[str, Any]] = []
        self._body_mounted = False

    def compose(self) -> ComposeResult:
        yield Static(self.empty_text, id=f"{self.prefix}-status", classes="status")
        from textual.widgets import ProgressBar

        bar = ProgressBar(id=f"{self.prefix}-progress", show_eta=False)
        bar.display = False  # shown while an MCP server sends notifications/progress
        yield bar
        # the rest (grid, value, traceback, wire JSON) comes with the first record: before
        # it, the status line says there is none (:meth:`_body`)

    @property
    def has_body(self) -> bool:
        """Whether the grid, value, traceback and wire JSON are mounted (a record was shown,
        or the wire tabs were asked for)."""
        return self._body_mounted

    def _body(self) -> None:
        """Mount the record's grid, value, traceback and wire JSON under the status line, once:
        before the first record they would only show "-" (~25 widgets the first screen of the
        Call view would style, lay out and draw; docs/performance.md). Mounted widgets are in
        the DOM at once (queries find them); the wire tabs compose their panes a moment later
        (:meth:`WireView.show` waits for them)."""
        if self._body_mounted:
            return
        self._body_mounted = True
        self.mount_all(
            [
                RecordGrid(id=f"{self.prefix}-grid", classes="record-grid"),
                Label("Value", classes="section"),
                Static("-", id=f"{self.prefix}-value", classes="json"),
                # the traceback's title and text, hidden by the ``traceback`` class's CSS
                Label(
                    "Traceback (the tool's own frames; f8 opens $EDITOR at the last)",
                    id=f"{self.prefix}-traceback-label",
                    classes="section traceback",
                ),
                Static("", id=f"{self.prefix}-traceback", classes="traceback", markup=False),
                Label("Wire JSON (what the model reads back)", classes="section"),
                WireView(prefix=f"{self.prefix}-wire"),
            ]
        )

    def _set(self, field: str, text: str, style: str = "") -> None:
        self.fields[field] = text
        self._body()
        self.query_one(RecordGrid).set_cell(field, plain(text, style=style))

    def show_status(self, text: str, running: bool = False) -> None:
        """The one-line status above the grid (``running`` adds the running style)."""
        status = self.query_one(f"#{self.prefix}-status", Static)
        status.update(plain(text))
        status.set_class(running, "running")
        self.fields["status"] = text

    def show_running(self, tool: str, timeout_s: float | None = None) -> None:
        """Mark a call to ``tool`` as running: the previous record is cleared (its fields,
        value and wire JSON must not read as this call's) and the status line says
        ``running TOOL… (time limit N s)``."""
        limit = f" (time limit {timeout_s:g} s)" if timeout_s else ""
        self.running_text = f"running {tool}…{limit}"
        self.clear(self.running_text, running=True)
        self._progress_bar(False)

    def _progress_bar(self, shown: bool) -> Any:
        from textual.widgets import ProgressBar

        bar = self.query_one(f"#{self.prefix}-progress", ProgressBar)
        bar.display = shown
        if not shown:
            bar.update(total=None, progress=0)
        return bar

    def show_progress(self, done: float, total: float | None, message: str | None) -> None:
        """A ``notifications/progress`` of the running call: the bar (its total when the
        server gives one) and the message in the status line."""
        self._progress_bar(True).update(total=total, progress=done)
        shown = f"{done:g}/{total:g}" if total else f"{done:g}"
        text = f"{getattr(self, 'running_text', 'running')} progress {shown}"
        self.show_status(f"{text} {message}" if message else text, running=True)

    def show_record(self, record: CallRecord) -> None:
        """Show every field of ``record`` and its wire JSON, secrets redacted as in its
        ``to_json()`` (:mod:`playground.core.redaction`)."""
        import dataclasses

        from playground.core.record import VALID, verdict_of

        data = record.to_json()
        record = dataclasses.replace(
            record,
            **{
                k: data[k]
                for k in ("args", "canonical_args", "message", "error", "value", "wire", "printed")
            },
            warnings=list(data["warnings"]),
        )
        self._progress_bar(False)
        self.media = media_blocks(record.mcp)
        values = record_fields(record)
        kind_style = KIND_STYLES.get(record.kind, "")
        for field, _ in ROWS:
            style = ""
            if field == "kind":
                style = kind_style
            elif field == "verdict":
                style = "bold red" if record.verdict != VALID else "green"
            elif field == "body":
                style = "bold" if record.body_ran else "dim"
            self._set(field, values[field], style)
        self.fields["tool"] = record.tool
        self.fields["call_id"] = record.call_id
        verdict = verdict_of(record.verdict)
        media = ""
        if self.media:
            kinds = ", ".join(media_label(mime, data) for _, mime, data in self.media)
            media = f" · {len(self.media)} media block(s) ({kinds}): f12 saves them"
        self.show_status(
            f"{record.call_id} {record.tool}: {record.kind} · verdict {verdict} · cache "
            f"{record.cache}{media}"
        )
        self.value_text = pretty_json(record.value)
        self.query_one(f"#{self.prefix}-value", Static).update(bounded_syntax(self.value_text))
        self.show_traceback(record.traceback if record.kind == "raised" else [])
        self.query_one(WireView).show(record.wire)

    def show_traceback(self, frames: list[dict[str, Any]]) -> None:
        """Show ``frames`` (``{file, line, function, code}``, innermost last) as
        ``file:line in function`` over the code line; hide the panel when empty."""
        self.frames = list(frames)
        if not self._body_mounted and not self.frames:
            return  # nothing shown yet, nothing to hide
        self._body()
        text = Text()
        for i, frame in enumerate(self.frames):
            if i:
                text.append("\n")
            text.append(shown(f"{frame.get('file')}:{frame.get('line')}"), style="bold")
            text.append(shown(f" in {frame.get('function')}"))
            if frame.get("code"):
                text.append(shown(f"\n    {frame.get('code')}"), style="yellow")
        self.query_one(f"#{self.prefix}-traceback", Static).update(text)
        for widget in self.query(".traceback"):
            widget.display = bool(self.frames)

    def clear(self, text: str | None = None, running: bool = False) -> None:
        """Forget the shown record; the status line says ``text`` (default: ``empty_text``),
        in the running style when ``running``."""
        text = self.empty_text if text is None else text
        self.value_text = ""
        self.show_traceback([])
        if self._body_mounted:
            for field, _ in ROWS:
                self._set(field, "-")
            self.query_one(f"#{self.prefix}-value", Static).update("-")
            self.query_one(WireView).show(None)
        else:
            self.fields.update({field: "-" for field, _ in ROWS})
        self.show_status(text, running=running)

    def save_media(self, folder: Path | None = None) -> list[Path]:
        """Write each image, audio or blob block of the shown MCP result as the bytes the
        server sent, to ``<folder>/playground-<call id>-<tool>-<index>.<ext>``; returns the
        paths (``[]`` when there is none). Raises ``OSError``."""
        import base64
        import mimetypes

        name = f"playground-{self.fields.get('call_id', 'call')}-{self.fields.get('tool', '')}"
        paths = []
        for index, mime, data in getattr(self, "media", []):
            ext = (  # audio/wav is registered as audio/x-wav
                mimetypes.guess_extension(mime)
                or mimetypes.guess_extension(mime.replace("/", "/x-", 1))
                or ".bin"
            )
            path = (folder or Path.cwd()) / f"{name}-{index}{ext}"
            path.write_bytes(base64.b64decode(data))
            paths.append(path)
        return paths

    def save_value(self, folder: Path | None = None) -> Path | None:
        """Write the shown value (all of it, not the preview) and its wire JSON to
        ``<folder>/playground-<call id>-<tool>.json`` (default: the working directory);
        returns the path, or ``None`` when no record is shown. Raises ``OSError`` when the file
        exists (never overwritten) or cannot be written (a temp file renamed into place)."""
        if not self.value_text:
            return None
        name = f"playground-{self.fields.get('call_id', 'call')}-{self.fields.get('tool', '')}"
        path = (folder or Path.cwd()) / f"{name}.json"
        from playground.batch.outfiles import write_text_atomic
        from playground.errors import UsageError

        try:
            write_text_atomic(path, self.value_text + "\n", option="another name")
        except UsageError as exc:
            raise OSError(str(exc)) from None
        return path

    @property
    def wire(self) -> WireView:
        """The wire JSON tabs (mounted now if no record was shown yet)."""
        self._body()
        return self.query_one(WireView)


def media_label(mime: str, data: str) -> str:
    """``image/png 800×600 4.0 kB``: the type, an image's size in pixels (read from its
    header) and the decoded size of base64 ``data`` (the terminal shows no image itself)."""
    from playground.core.wire_content import image_size

    size = len(data) * 3 // 4 - data[-2:].count("=")
    shown = f"{size / 1000:.1f} kB" if size >= 1000 else f"{size} B"
    pixels = image_size(data) if mime.startswith("image/") else None
    return f"{mime} {pixels[0]}×{pixels[1]} {shown}" if pixels else f"{mime} {shown}"


def media_blocks(mcp: dict[str, Any]) -> list[tuple[int, str, str]]:
    """``(index, mimeType, base64 data)`` of the image / audio / blob blocks of an MCP
    record's result as sent (``record.mcp["result"]["content"]``)."""
    found = []
    content = (mcp.get("result") or {}).get("content") or [] if mcp else []
    for index, block in enumerate(content):
        if not isinstance(block, dict):
            continue
        if block.get("type") in ("image", "audio") and isinstance(block.get("data"), str):
            found.append((index, str(block.get("mimeType") or ""), block["data"]))
        resource = block.get("resource")
        if isinstance(resource, dict) and isinstance(resource.get("blob"), str):
            found.append((index, str(resource.get("mimeType") or ""), resource["blob"]))
    return found
