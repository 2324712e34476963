"""The TUI's hand tests in the history: opening the store, recording a call or an episode in
a worker, and rerunning an entry (the History view's ``r``).

The store is :mod:`playground.history`'s (imported on first use: ~5 ms and ``sqlite3`` the
first screen does not need). Every function here takes the app as a
:class:`~playground.tui.state.PlaygroundState`; none imports the app's module.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

from playground.tui.state import PlaygroundState

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from playground.history.store import HistoryStore
    from playground.workbench import Playground


class HistoryWritten(Message):
    """A run was recorded in the history (posted from the history worker): ``entry_id`` (``None``:
    nothing was written)."""

    def __init__(self, entry_id: int | None) -> None:
        super().__init__()
        self.entry_id = entry_id


def open_store(app: PlaygroundState, option: str | None, disabled: bool) -> HistoryStore | None:
    """The history store of ``--history`` ``option`` (``None``: ``PLAYGROUND_HISTORY``, else
    ``.playground/history.db``; ``disabled``: ``--no-history``, and the result is ``None``).
    Call it on the app's thread; what the store has to say later (a file it cannot write) is a
    warning toast, from whichever thread it says it."""
    from playground.history.store import open_history

    ui_thread = threading.get_ident()

    def notice(text: str) -> None:
        if threading.get_ident() == ui_thread:
            app.notify(text, title="History", severity="warning", timeout=10)
        else:
            app.call_from_thread(app.notify, text, title="History", severity="warning", timeout=10)

    return open_history(option, disabled=disabled, notice=notice)


def history_source(app: PlaygroundState) -> str:
    """The tool source as the history stores it: the module paths (none for an MCP-only
    session), then ``MCP server NAME`` for each server (as the CLI stores it)."""
    from playground.history.runs import source_text

    sources = app.workbench.pg.registry.sources if app.workbench is not None else []
    loaded = [s.label[4:] for s in sources if s.label.startswith("mcp:")]
    names = loaded or [spec.name for spec in app.mcp]
    servers = [f"MCP server {name}" for name in names]
    paths = source_text(app.tools or ([] if servers else ["tools"]))
    return os.pathsep.join(part for part in (paths, *servers) if part)


def record_now(app: PlaygroundState, kind: str, data: Any) -> int | None:
    """Record a call record's JSON (``kind`` ``"call"``) or an episode's (``"episode"``) of a
    hand test now, on this thread (blocking: a worker's, or the last act of an ending app).
    Returns the entry id; ``None`` when history is off, the tools are not loaded or the write
    failed (the store's notice says why). Never raises."""
    store, loaded = app.store, app.workbench
    if store is None or loaded is None:
        return None
    from playground.history.runs import mcp_sources, record_run

    registry = loaded.pg.registry
    return record_run(
        store,
        registry,
        kind,
        data,
        source=history_source(app),
        origin="tui",
        mcp=mcp_sources(registry.sources),  # for `playground history rerun` to reconnect
    )


def record_in_worker(node: DOMNode, app: PlaygroundState, kind: str, data: Any) -> None:
    """:func:`record_now` in a thread worker of ``node``, which then gets
    :class:`HistoryWritten`. Nothing is recorded while history is off or the tools are not
    loaded; a write never fails the app."""
    if app.store is None or app.workbench is None:
        return

    def write() -> None:
        node.post_message(HistoryWritten(record_now(app, kind, data)))

    node.run_worker(write, thread=True, group="history-write", exit_on_error=False)


@dataclass
class Rerun:
    """A history entry run again: the ``old`` entry and the ``new`` one, or an ``error`` (one
    line: ``ExceptionName: message``)."""

    old: Any
    new: Any = None
    error: str = ""


def rerun_entry(app: PlaygroundState, store: HistoryStore, pg: Playground, entry: Any) -> Rerun:
    """Run history ``entry`` again on ``pg`` (same arguments or question, a fresh cache; an
    episode on the router it ran on, else the default) and record the rerun in ``store``.
    Blocking (call it on a worker thread); an exception is returned as the ``error``."""
    from playground.batch.replay import rerun
    from playground.history.entries import call_entry, episode_entry
    from playground.history.runs import mcp_sources, record_run

    try:
        router = None
        if entry.type == "episode" and entry.question is not None:
            from playground.routing import registry as router_registry
            from playground.routing.factory import choose_router

            name = (
                entry.router
                if entry.router in router_registry.names()
                else router_registry.DEFAULT_ROUTER
            )
            router = choose_router(name, None, None, os.environ, fallback=True).router
        result = rerun(pg, entry.type, entry.data, entry.hashes, router)
    except Exception as exc:  # a rerun must never take the app down
        return Rerun(entry, error=f"{type(exc).__name__}: {exc}")
    new_id = record_run(
        store,
        pg.registry,
        entry.type,
        result.new,
        source=history_source(app),
        origin="rerun",
        rerun_of=entry.id,
        mcp=mcp_sources(pg.registry.sources),
    )
    build = call_entry if entry.type == "call" else episode_entry
    new = build(result.new, result.hashes, origin="rerun", rerun_of=entry.id)
    new.id = new_id or 0
    return Rerun(entry, new)
