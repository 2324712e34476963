"""Loading the tools into the TUI: the tool modules and MCP servers become a
:class:`~playground.workbench.Playground`, set as the app's reactive
:attr:`~playground.tui.state.PlaygroundState.workbench` (the views bound to it follow).

Loading runs on a daemon thread (ctrl+q while a module hangs at import quits at once; a thread
worker is waited for at exit); the worker process it starts ends at exit. An MCP server's
progress notifications go to the Call view's record panel, and its ``tools/list_changed`` lists
that server's tools again (a reload that keeps what the views show).
"""

from __future__ import annotations

import contextlib
from typing import Any

from playground.tui.state import Loaded, PlaygroundState
from playground.tui.views.call_view import CallView, import_later_panes


def load_tools(app: PlaygroundState, keep: bool = False) -> None:
    """Load ``app.tools`` and ``app.mcp`` again (a new registry, gate and cache), in an
    exclusive worker (a new load supersedes a running one); ``keep``: a reload, the views keep
    what they show (selection, typed arguments, records)."""
    from playground.tui.daemon_thread import in_daemon_thread

    async def load() -> None:
        await in_daemon_thread(_open, app, keep, name="playground-load")

    app.run_worker(load(), exclusive=True, group="load", exit_on_error=False)


def _set_workbench(app: PlaygroundState, loaded: Loaded) -> None:
    app.workbench = loaded


def _open(app: PlaygroundState, keep: bool) -> None:
    """Open the playground (on the load thread) and hand it to the app's thread."""
    from playground.workbench import Playground, open_playground

    if not keep:  # the first load: the Call view's later panes are built once it is done
        import_later_panes()
    source, app.started_source = app.started_source, None
    if not app.mcp:
        if source is not None and (app.in_process or keep):
            source.close()  # the first load is not this one: the source is not for it
            source = None
        pg = open_playground(app.tools, in_process=app.in_process, source=source)
        app.call_later(_set_workbench, app, Loaded(pg, keep))
        return
    # a reload (ctrl+l) reconnects the MCP servers too: the app closes the old playground
    from playground.sources.mcp_source import add_mcp_servers, start_mcp_servers

    pending = start_mcp_servers(app.mcp)
    if app.tools:
        pg = open_playground(app.tools, in_process=app.in_process)
    else:
        from playground.core.gate import Gate
        from playground.core.registry import Registry

        contracts = Registry()
        pg = Playground(registry=contracts, gate=Gate(contracts), in_process=app.in_process)
    sources, choices = add_mcp_servers(pg.registry, pending)
    for source in sources:
        source.on_progress = lambda tool, done, total, message: app.call_from_thread(
            _show_progress, app, tool, done, total, message
        )
        source.on_tools_changed = lambda source=source: app.call_from_thread(
            _tools_changed, app, source
        )
    from playground.tui.mcp_hooks import attach_client_features

    attach_client_features(app, sources)  # the elicitation form, sampling by the router
    for choice in choices:
        app.call_from_thread(app.notify, choice, title="Name clash")
    app.call_later(_set_workbench, app, Loaded(pg, keep))


def _show_progress(
    app: PlaygroundState, tool: str, done: float, total: float | None, message: str | None
) -> None:
    """A ``notifications/progress`` from a server about ``tool`` (its name on the server):
    the Call view's record panel shows it while that tool's call runs there."""
    with contextlib.suppress(Exception):  # the view may be gone (quitting)
        app.query_one(CallView).show_progress(tool, done, total, message)


def _tools_changed(app: PlaygroundState, source: Any) -> None:
    """``notifications/tools/list_changed``: list that server's tools again (in a worker), into
    the registry as the command line does (``McpSource.relist_if_changed``:
    ``sources.mcp_source.relisted_into``; nothing more when a call's end relisted them first),
    then show the registry again as after a load: its problems and warnings (the relisting's
    left-out entries among them) as toasts and in the Call view."""
    app.notify(f"{source.label}: tool list changed; refreshing", title="MCP")

    def refresh() -> None:
        if app.workbench is None:
            return
        pg = app.workbench.pg
        source.relist_if_changed()
        app.call_later(_set_workbench, app, Loaded(pg, True))

    app.run_worker(refresh, thread=True, group="mcp-refresh", exit_on_error=False)
