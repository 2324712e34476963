"""The MCP log panel: per server, what it wrote to stderr and what the playground noticed
(non-protocol stdout lines, server log messages, progress, tool list changes, restarts).

Secrets are already redacted by the source (``McpSource.stderr_text`` / ``notices``); what a
server wrote is shown by the rule for untrusted text (:mod:`playground.core.untrusted`). The panel
re-reads the sources twice a second while there are any; it never blocks on a server.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import var
from textual.widgets import Log, Static

from playground.core.untrusted import shown

if TYPE_CHECKING:
    from playground.workbench import Playground

NO_SERVERS = "No MCP servers. Start with --mcp, --mcp-url or --mcp-config to see their logs here."


def log_text(sources: list[Any]) -> str:
    """The panel's text: one block per source (``== mcp:NAME ==``, its notices, its stderr)."""
    blocks = []
    for source in sources:
        lines = [f"== {source.label} ({source.spec.transport}) =="]
        lines += [f"[playground] {n}" for n in source.notices]
        lines += [
            f"[progress] {tool}: {done:g}/{total if total is not None else '?'} {msg or ''}".rstrip()
            for tool, done, total, msg in source.progress[-20:]
        ]
        stderr = source.stderr_text().rstrip("\n")
        lines += [f"[stderr] {line}" for line in stderr.splitlines()[-200:]]
        blocks.append("\n".join(lines))
    return shown("\n\n".join(blocks))


def mcp_sources(pg: Playground) -> list[Any]:
    """``pg``'s MCP sources (none unless ``core.mcp_source`` was ever imported: no McpSource can
    exist without it, and importing it would pull in the ``mcp`` SDK)."""
    module = sys.modules.get("playground.sources.mcp_source")
    if module is None:
        return []
    return [s for s in pg.registry.sources if isinstance(s, module.McpSource)]


class McpLogView(Vertical):
    """The log panel of the MCP servers of the current playground."""

    #: The loaded tools (bound to the app's workbench): their MCP sources are shown.
    pg: var[Playground | None] = var(None, init=False, always_update=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sources: list[Any] = []
        self._shown = ""
        self._timer: Any = None

    def compose(self) -> ComposeResult:
        yield Static(NO_SERVERS, id="mcp-log-help")
        yield Log(id="mcp-log", highlight=False)

    @property
    def log_panel(self) -> Log:
        """The log widget."""
        return self.query_one("#mcp-log", Log)

    def watch_pg(self, pg: Playground | None) -> None:
        if pg is not None and self.is_mounted:
            self.set_sources(mcp_sources(pg))

    def set_sources(self, sources: list[Any]) -> None:
        """Show the logs of ``sources`` (McpSource objects); re-read twice a second while
        there are any (no timer runs without MCP servers)."""
        self.sources = list(sources)
        self.query_one("#mcp-log-help", Static).display = not self.sources
        if self.sources and self._timer is None:
            self._timer = self.set_interval(0.5, self.refresh_log)
        self.refresh_log()

    def refresh_log(self) -> None:
        """Re-read the sources; rewrite the log when something changed."""
        text = log_text(self.sources) if self.sources else ""
        if text == self._shown:
            return
        self._shown = text
        log = self.query_one("#mcp-log", Log)
        log.clear()
        if text:
            log.write(text + "\n")
