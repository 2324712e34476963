"""The History view (F5): what the hand tests did, from :mod:`playground.history`.

The list (newest first) with a filter box, focused when the tab opens (what is typed first
filters; ``down``/``enter`` go to the list, ``/`` back, and a character no list key uses goes to
the filter); the selected entry's fields below it. Keys on the list: ``enter`` opens the entry
in the Call view (a call) or the Steps view (an episode); ``r`` reruns it (same arguments or
question; the new run is recorded and compared side by side; an entry that called a tool that
may write, or a question whose router may now choose a loaded tool that may write, is rerun by
a second ``r`` only);
``m`` marks an entry and ``d`` diffs the marked entry with the selected one (or an entry with
the run it re-ran) side by side, changed fields highlighted; ``s`` appends it to the case file
in the box (a call → a ``check`` line, a question → an ``eval`` line); ``g`` saves a golden
file next to it (``playground replay FILE``).

Reading and writing the database, and reruns, run in thread workers; the view is bound to the
app's history store and loaded tools (``store``, ``pg``), and posts :class:`OpenEntry` up for
the work that touches other views (:class:`~playground.tui.modes.ModeTabs`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import var
from textual.widgets import DataTable, Input, Static

from playground.core.record import verdict_of
from playground.history.entries import Entry
from playground.history.queries import Query
from playground.history.store import HistoryStore
from playground.tui.formatting import json_text, plain
from playground.tui.history_link import Rerun, rerun_entry
from playground.tui.state import PlaygroundState
from playground.tui.widgets.fields import FieldInput

if TYPE_CHECKING:
    from playground.workbench import Playground

#: Entries the view reads at a time (newest first); the next page is read when the cursor
#: comes near the end of the list, so a history of 100,000 entries opens as fast as one of 10.
PAGE = 200
DEFAULT_CASE_FILE = "saved_cases.jsonl"


def entry_summary(entry: Entry) -> str:
    """One line for the list: ``tool({"a": 1})`` for a call, the question for an episode."""
    data = entry.data if isinstance(entry.data, dict) else {}
    if entry.type == "call":
        return f"{entry.tool}({json.dumps(data.get('args'), ensure_ascii=False, default=repr)})"
    if entry.question is not None:
        return entry.question
    return f"manual: {entry.tool}"


def matches(entry: Entry, text: str) -> bool:
    """Whether ``entry`` matches the filter box: every word (case-insensitive) appears in its
    tool names, outcome kinds, type, router or summary; ``tool:X`` / ``kind:Y`` match exactly."""
    haystack = " ".join(
        [entry.type, entry.router, entry.outcome, *entry.tools, *entry.kinds, entry_summary(entry)]
    ).lower()
    for word in text.lower().split():
        key, sep, value = word.partition(":")
        if sep and key == "tool":
            if value not in [t.lower() for t in entry.tools]:
                return False
        elif sep and key == "kind":
            if value not in [k.lower() for k in (*entry.kinds, entry.type)]:
                return False
        elif word not in haystack:
            return False
    return True


def record_from_json(data: dict[str, Any]) -> Any:
    """A :class:`~playground.core.record.CallRecord` rebuilt from its ``to_json()`` (fields it
    does not know are left out; retries become :class:`Retry`)."""
    from playground.core.record import CallRecord, Retry

    known = {f.name for f in dataclasses.fields(CallRecord)}
    values = {k: v for k, v in data.items() if k in known}
    values["verdict"] = verdict_of(values.get("verdict"))  # "" in records saved before "valid"
    values["retries"] = [
        Retry(int(r.get("attempt") or 0), str(r.get("reason") or ""), float(r.get("delay_ms") or 0))
        for r in data.get("retries") or []
        if isinstance(r, dict)
    ]
    return CallRecord(**values)


def episode_from_json(data: dict[str, Any]) -> Any:
    """A :class:`~playground.loop.episode.Episode` rebuilt from its ``to_json()`` for the Steps
    view, its calls as :class:`CallRecord` and its steps as ``Step`` (it cannot be forked: the
    conversation and checkpoints are not stored)."""
    from playground.loop.episode import Episode

    known = {f.name for f in dataclasses.fields(Episode)} - {
        "conversation",
        "checkpoints",
        "router_obj",
    }
    values = {k: v for k, v in data.items() if k in known}
    values["calls"] = [record_from_json(c) for c in data.get("calls") or [] if isinstance(c, dict)]
    values["steps"] = [step_from_json(s) for s in data.get("steps") or [] if isinstance(s, dict)]
    return Episode(**values)


def step_from_json(data: dict[str, Any]) -> Any:
    """A :class:`~playground.loop.step.Step` from its ``to_json()`` (keys it does not know are
    left out; a node it does not know stays as the text stored)."""
    from playground.loop.step import Node, Step

    known = {f.name for f in dataclasses.fields(Step)}
    values = {k: v for k, v in data.items() if k in known}
    node = str(values.get("node") or "")
    values["node"] = Node(node) if node in Node._value2member_map_ else node
    values.setdefault("attempt", 0)
    return Step(**values)


class HistoryView(Vertical):
    """The History tab. ``store``: the app's :class:`HistoryStore` (``None``: history is off)."""

    BINDINGS = [
        Binding("r", "rerun", "Rerun", id="history-rerun"),
        Binding("m", "mark", "Mark", id="history-mark"),
        Binding("d", "diff", "Diff", id="history-diff"),
        Binding("s", "save_case", "Save case", id="history-save-case"),
        Binding("g", "save_golden", "Save golden", id="history-save-golden"),
        Binding("ctrl+g", "refresh", "Refresh", id="history-refresh"),
        Binding("/", "focus_filter", "Filter", id="history-focus-filter"),
        Binding("down", "to_list", "List", show=False),
    ]

    class Loaded(Message):
        """Entries read by the load worker."""

        def __init__(
            self, entries: list[Entry], select: int | None, query: Query, total: int | None
        ) -> None:
            super().__init__()
            self.entries = entries
            self.select = select
            self.query = query  # what was read (a page after older_than when that is set)
            self.total = total  # every entry in the file (None for a next page)

    class OpenEntry(Message):
        """Open ``entry`` in the Call view (a call) or the Steps view (an episode)."""

        def __init__(self, entry: Entry) -> None:
            super().__init__()
            self.entry = entry

    class RerunDone(Message):
        """An entry ran again (posted from the rerun worker): the ``result``."""

        def __init__(self, result: Rerun) -> None:
            super().__init__()
            self.result = result

    #: The history store (bound to the app's; ``None``: history is off).
    store: var[HistoryStore | None] = var(None, init=False, always_update=True)
    #: The loaded tools (bound to the app's workbench): reruns run on it.
    pg: var[Playground | None] = var(None, init=False, always_update=True)

    #: The widget focused when the History tab opens: the filter box, so what is typed first
    #: filters (down or enter moves to the list, where the single keys act; ``/`` comes back).
    FIRST_FOCUS = "#history-filter"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entries: list[Entry] = []
        self.shown: list[Entry] = []
        self.marked: int | None = None
        self.diffed: tuple[int, int] | None = None
        self.loads = 0  # finished loads (tests wait on it)
        self.total = 0  # entries in the file
        self.more = False  # the filter may match entries past the loaded pages
        self._paging = False
        self._confirm_golden = ""  # the golden file a second g overwrites
        self._confirm_rerun: int | None = None  # the entry a second r reruns (it may write)

    def compose(self) -> ComposeResult:
        with Horizontal(id="history-bar"):
            yield FieldInput(
                placeholder="filter: words, tool:NAME, kind:ok|invalid_args|call|episode",
                id="history-filter",
            )
            yield FieldInput(value=DEFAULT_CASE_FILE, id="history-case-file")
        yield Static("", id="history-status", classes="status")
        table: DataTable[Any] = DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static("", id="history-detail", classes="json", markup=False)
        diff: DataTable[Any] = DataTable(id="history-diff", cursor_type="row")
        diff.display = False
        yield diff

    def on_mount(self) -> None:
        table = self.query_one("#history-table", DataTable)
        table.add_columns("id", "time", "type", "outcome", "router", "what")
        diff = self.query_one("#history-diff", DataTable)
        diff.add_columns("field", "left", "right")

    # -- state down ------------------------------------------------------------------------------
    def watch_store(self) -> None:
        """Load the store's entries."""
        if self.is_mounted:
            self.refresh_entries()

    def refresh_entries(self, select: int | None = None) -> None:
        """Read the first page of entries matching the filter box again (in a worker);
        ``select``: an id to highlight."""
        if self.store is None:
            self.query_one("#history-status", Static).update(
                "History is off (--no-history or PLAYGROUND_HISTORY=off)."
            )
            return
        self._load_worker(self.store, select, self._query())

    def _query(self, older_than: tuple[float, int] | None = None) -> Query:
        """The filter box as a :class:`Query` (``tool:NAME``, ``kind:KIND``, other words)."""
        tool = kind = None
        words = []
        for word in self.query_one("#history-filter", Input).value.split():
            key, sep, value = word.partition(":")
            if sep and key.lower() == "tool" and value:
                tool = value
            elif sep and key.lower() == "kind" and value:
                kind = value.lower()
            else:
                words.append(word)
        return Query(
            tool=tool, kind=kind, text=" ".join(words) or None, limit=PAGE, older_than=older_than
        )

    @work(thread=True, exclusive=True, group="history-load", exit_on_error=False)
    def _load_worker(self, store: HistoryStore, select: int | None, query: Query) -> None:
        entries = store.summaries(query)  # the list's columns only: no stored record is read
        total = store.count() if query.older_than is None else None
        self.post_message(self.Loaded(entries, select, query, total))

    @on(Loaded)
    def _loaded(self, event: Loaded) -> None:
        event.stop()
        after = event.query.older_than
        if after is not None:
            self._paging = False
            last = self.entries[-1] if self.entries else None
            if last is None or after != (last.created, last.id):
                return  # the list was read again meanwhile: this page no longer follows it
        if dataclasses.replace(event.query, older_than=None) != self._query():
            return  # the filter changed while this page was read
        self.more = len(event.entries) == PAGE
        if after is None:
            self.entries = event.entries
            self.total = event.total or 0
            self._fill(event.select)
        else:
            self.entries = self.shown = [*self.entries, *event.entries]
            self._add_rows(event.entries)
            self._status()
        self.loads += 1

    def _next_page(self) -> None:
        """Read the page after the last loaded entry, once at a time."""
        if self.store is None or not self.more or self._paging or not self.entries:
            return
        self._paging = True
        last = self.entries[-1]
        self._page_worker(self.store, self._query((last.created, last.id)))

    @work(thread=True, group="history-page", exit_on_error=False)
    def _page_worker(self, store: HistoryStore, query: Query) -> None:
        self.post_message(self.Loaded(store.summaries(query), None, query, None))

    def _fill(self, select: int | None = None) -> None:
        self.shown = self.entries  # the filter is applied where the entries are read
        table = self.query_one("#history-table", DataTable)
        table.clear()
        self._add_rows(self.shown)
        self._status()
        if select is not None:
            for row, e in enumerate(self.shown):
                if e.id == select:
                    table.move_cursor(row=row)
                    break
        self._show_detail()

    def _status(self) -> None:
        where = str(self.store.path) if self.store is not None else "-"
        more = " (more as you scroll)" if self.more else ""
        self.query_one("#history-status", Static).update(
            plain(
                f"{len(self.shown)} of {self.total} entries{more} · {where} · enter open · r rerun · "
                "m mark · d diff · s save case · g save golden"
            )
        )

    def _add_rows(self, entries: list[Entry]) -> None:
        table = self.query_one("#history-table", DataTable)
        for e in entries:
            mark = "*" if e.id == self.marked else ""
            what = (e.what or entry_summary(e)) + (
                f"  (rerun of #{e.rerun_of})" if e.rerun_of else ""
            )
            table.add_row(
                f"{mark}{e.id}",
                e.time_text,
                plain(e.type),
                plain(e.outcome),
                plain(e.router or "-"),
                plain(what),
                key=str(e.id),
            )

    @property
    def selected(self) -> Entry | None:
        """The entry under the cursor, or ``None``."""
        table = self.query_one("#history-table", DataTable)
        row = table.cursor_row
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def entry(self, entry_id: int) -> Entry | None:
        """An entry by id with its stored record, read from the store (one row): the list
        holds only what it shows (:meth:`HistoryStore.summaries`); a record is read when an
        action needs it (open, rerun, diff, save)."""
        found = next((e for e in self.entries if e.id == entry_id), None)
        if found is not None and found.data is not None:
            return found
        full = self.store.get(entry_id) if self.store is not None else None
        return full if full is not None and not full.unreadable else None

    def _opened(self) -> Entry | None:
        """The selected entry with its record (``None`` with a notification when it cannot be
        read)."""
        entry = self.selected
        if entry is None:
            return None
        full = self.entry(entry.id)
        if full is None:
            self.notify(f"#{entry.id}'s record cannot be read.", severity="error")
        return full

    def _show_detail(self) -> None:
        entry = self.selected
        box = self.query_one("#history-detail", Static)
        if entry is None:
            box.update("No entry yet: calls and questions you run are recorded here.")
            return
        # a small record is read for these lines; a big one (a 51 MB printed output) stays on
        # disk until the entry is opened
        data = (self.store.glance(entry.id) if self.store is not None else None) or {}
        lines = [f"#{entry.id} {entry.time_text} · {entry.type} · {entry.outcome}"]
        if "verdict" not in data and "size" in data:
            lines.append(f"{entry.what}")
            lines.append(
                f"record {data['size'] / 1_048_576:.1f} MB: enter opens it (r reruns, d diffs)"
            )
        elif entry.type == "call":
            lines.append(
                f"verdict {verdict_of(data.get('verdict'))} · body "
                f"{'ran' if data.get('body_ran') else 'did not run'} · cache {data.get('cache')}"
            )
            lines.append("value " + str(data.get("value", "null")))
        else:
            lines.append(f"calls {', '.join(entry.tools) or '-'} · router {entry.router}")
            lines.append(f"reply {data.get('reply') or ''}")
        hashes = data.get("hashes") or {}
        if hashes:
            lines.append(
                "declarations "
                + ", ".join(f"{name} {digest[:12]}" for name, digest in list(hashes.items())[:6])
            )
        box.update(plain("\n".join(lines)))

    # -- the diff --------------------------------------------------------------------------------
    def show_diff(self, left: Entry, right: Entry) -> None:
        """Show ``left`` and ``right`` side by side; changed fields highlighted."""
        from playground.batch.drift import side_by_side

        diff = self.query_one("#history-diff", DataTable)
        diff.clear(columns=True)
        diff.add_columns("field", f"#{left.id}", f"#{right.id}")
        rows = side_by_side(left.data or {}, right.data or {})
        changed = 0
        for path, a, b, differs in rows:
            style = "bold yellow" if differs else "dim"
            changed += differs
            diff.add_row(
                plain(path, style=style),
                Text(_cell(a), style="red" if differs else ""),
                Text(_cell(b), style="green" if differs else ""),
            )
        diff.display = True
        self.diffed = (left.id, right.id)
        self.changed_fields = [path for path, _, _, differs in rows if differs]
        self.notify(
            f"#{left.id} ↔ #{right.id}: {changed} field{'s' if changed != 1 else ''} changed"
        )

    # -- actions ---------------------------------------------------------------------------------
    def action_refresh(self) -> None:
        self.refresh_entries()

    def action_mark(self) -> None:
        """Mark the selected entry as the left side of the next diff."""
        entry = self.selected
        if entry is None:
            return
        self.marked = None if self.marked == entry.id else entry.id
        self._fill(entry.id)

    def action_diff(self) -> None:
        """Diff the marked entry (or the entry this one re-ran) with the selected one."""
        entry = self._opened()
        if entry is None:
            return
        other_id = self.marked if self.marked not in (None, entry.id) else entry.rerun_of
        other = self.entry(other_id) if other_id is not None else None
        if other is None:
            self.notify("Mark an entry with m first (or select a rerun).", severity="warning")
            return
        self.show_diff(other, entry)

    def action_rerun(self) -> None:
        """Run the selected entry again (in a worker), record the rerun and show the two side by
        side."""
        entry = self._opened() if self.store is not None else None
        if entry is None or self.store is None:
            return
        if self.pg is None:
            self.app.notify("The tools are still loading.", severity="warning")
            return
        warning = rerun_warning(self.pg, entry)
        if warning and self._confirm_rerun != entry.id:
            self._confirm_rerun = entry.id
            self.app.notify(
                f"{warning} Press r again to rerun it.", title="Rerun", severity="warning"
            )
            return
        self._confirm_rerun = None
        self.app.notify(f"Rerunning #{entry.id}…")
        self._rerun_worker(self.store, self.pg, entry)

    @work(thread=True, group="history-rerun", exit_on_error=False)
    def _rerun_worker(self, store: HistoryStore, pg: Playground, entry: Entry) -> None:
        app = cast(PlaygroundState, self.app)
        self.post_message(self.RerunDone(rerun_entry(app, store, pg, entry)))

    @on(RerunDone)
    def _rerun_done(self, event: RerunDone) -> None:
        result = event.result
        if result.error:
            self.app.notify(result.error, title="Rerun", severity="error")
            return
        self.show_diff(result.old, result.new)
        self.refresh_entries(select=result.new.id or None)

    def action_save_case(self) -> None:
        """Append the selected entry to the case file (check line or eval line)."""
        from playground.batch.savecase import append_line, case_for_entry
        from playground.errors import UsageError

        entry = self._opened()
        if entry is None:
            return
        target = self.query_one("#history-case-file", Input).value.strip() or DEFAULT_CASE_FILE
        try:
            case = case_for_entry(entry.type, entry.data, entry.hashes, note=f"history #{entry.id}")
            line = append_line(target, case)
        except UsageError as exc:
            self.notify(str(exc), title="Not saved", severity="error")
            return
        kind = "a check" if entry.type == "call" else "an eval"
        self.notify(f"Saved #{entry.id} as {kind} case: {target} line {line}")

    def action_save_golden(self) -> None:
        """Write the selected entry as a golden file ``golden_<id>.json`` next to the case file;
        an existing file is overwritten only when ``g`` is pressed a second time."""
        from playground.batch.replay import golden_document, write_json_atomic
        from playground.errors import UsageError

        entry = self._opened()
        if entry is None or not isinstance(entry.data, dict):
            return
        folder = Path(self.query_one("#history-case-file", Input).value.strip() or ".").parent
        target = folder / f"golden_{entry.id}.json"
        force = self._confirm_golden == str(target)
        try:
            if not force and (target.is_file() or target.is_symlink()):
                raise UsageError(f"{target} exists: press g again to overwrite it")
            write_json_atomic(
                target, golden_document(entry.type, entry.data, entry.hashes), force=force
            )
        except UsageError as exc:
            self._confirm_golden = str(target) if "press g again" in str(exc) else ""
            self.notify(str(exc), title="Not saved", severity="error")
            return
        self._confirm_golden = ""
        self.notify(f"Saved #{entry.id} as a golden file: {target} (playground replay {target})")

    # -- events ----------------------------------------------------------------------------------
    @on(Input.Changed, "#history-filter")
    def _filter(self, event: Input.Changed) -> None:
        event.stop()
        self.refresh_entries()

    @on(Input.Submitted, "#history-filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#history-table", DataTable).focus()

    def action_focus_filter(self) -> None:
        """``/``: the filter box, its text kept, the cursor at its end."""
        box = self.query_one("#history-filter", Input)
        box.focus()
        box.cursor_position = len(box.value)

    def action_to_list(self) -> None:
        """``down`` in the filter or case-file box: the list (its own ``down`` moves the
        cursor)."""
        self.query_one("#history-table", DataTable).focus()

    def on_key(self, event: events.Key) -> None:
        """A character typed on the list that no key of the list acts on goes to the filter box
        (typing starts a filter, as on the Call view's contract list)."""
        table = self.query_one("#history-table", DataTable)
        if self.app.focused is not table or not event.is_printable or not event.character:
            return
        if event.key in self.screen.active_bindings:  # the list's, this view's, the app's (?)
            return
        event.stop()
        event.prevent_default()
        box = self.query_one("#history-filter", Input)
        box.value += event.character
        self.action_focus_filter()

    @on(DataTable.RowHighlighted, "#history-table")
    def _row(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._confirm_rerun = None  # a second r confirms the rerun of the entry it named
        self._show_detail()
        if event.cursor_row >= len(self.shown) - 20:
            self._next_page()

    @on(DataTable.RowSelected, "#history-table")
    def _open(self, event: DataTable.RowSelected) -> None:
        event.stop()
        entry = self._opened()
        if entry is not None:
            self.post_message(self.OpenEntry(entry))


def may_write(pg: Playground, names: Iterable[str]) -> list[str]:
    """The tools of ``names`` that are registered in ``pg`` and not known to only read (effects
    ``write`` or ``unknown``: :mod:`playground.core.effects`), in order, once each."""
    contracts = pg.registry.contracts
    return [
        name for name in dict.fromkeys(names) if name in contracts and contracts[name].side_effects
    ]


def rerun_warning(pg: Playground, entry: Entry) -> str:
    """Why a rerun of ``entry`` on the tools loaded now (``pg``) waits for a second ``r``, or
    ``""``: the tools it called that may write, else, for a question's episode, the loaded
    tools that may write — the router chooses again from the tools loaded now, which may not
    be those it chose from then (an episode that called only readers, or nothing, may call a
    writer now)."""
    called = may_write(pg, entry.tools or ([entry.tool] if entry.tool else []))
    if called:
        return (
            f"#{entry.id} called {', '.join(called)}: running it again may change something again."
        )
    if entry.type != "episode" or entry.question is None:
        return ""
    loaded = may_write(pg, pg.registry.names())
    if not loaded:
        return ""
    return (
        f"#{entry.id} asks the router again, and it chooses from the tools loaded now, which "
        f"include tools that may write: {', '.join(loaded)}."
    )


def _cell(value: Any, limit: int = 70) -> str:
    """A diff cell: ``value`` (a string as it is shown, other values as JSON) cut to ``limit``
    characters."""
    text = json_text(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
