"""The MCP view (issue 21, item 6): per server, the roots offered, its resources, resource
templates and prompts, the ``resource_link`` blocks of the results so far, and the sampling
requests answered for it, as steps.

Pick an entry (enter) to send it: a resource or a link is read (``resources/read``), a template
is read at the URI typed in the field (its ``{…}`` filled in), a prompt is got with the
``name=value`` arguments typed there (``prompts/get``). The answer is shown as the server sent
it (JSON). Requests run in a thread worker; a server's error is one line. Built when first
opened ("MCP" tab, or "MCP: resources, prompts, roots" in the palette).
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.widgets import Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from playground.core.untrusted import shown

if TYPE_CHECKING:
    from playground.workbench import Playground

NO_SERVERS = "No MCP servers. Start with --mcp, --mcp-url or --mcp-config to browse them here."


@dataclass(frozen=True)
class Entry:
    """One pickable line: ``kind`` (resource, template, prompt, link), its server's source and
    the server's own JSON for it."""

    kind: str
    source: Any
    item: dict[str, Any]

    @property
    def label(self) -> str:
        where = self.source.label
        if self.kind == "prompt":
            args = ", ".join(a.get("name", "") for a in self.item.get("arguments") or [])
            return f"{where} prompt {self.item.get('name')}({args})"
        if self.kind == "template":
            return f"{where} template {self.item.get('uriTemplate')}"
        if self.kind == "link":
            return f"{where} link {self.item.get('uri')} (from {self.item.get('tool')})"
        return f"{where} resource {self.item.get('uri')}"


def prompt_arguments(text: str) -> dict[str, str]:
    """``name=value`` words (shell quoting) as a dict; raises ``ValueError`` for a word
    without ``=``."""
    found = {}
    for word in shlex.split(text):
        name, sep, value = word.partition("=")
        if not sep:
            raise ValueError(f"{word!r}: give arguments as name=value")
        found[name] = value
    return found


def steps_text(sources: list[Any]) -> str:
    """The roots offered and each sampling exchange as a step (request → answer or refusal)."""
    from playground.sources.mcp_client import ClientFeatures

    lines = []
    for source in sources:
        roots = ", ".join(ClientFeatures(source.spec).root_folders())
        offered = roots or "none (--root DIR offers folders)"
        lines.append(f"{source.label}: roots offered: {offered}")
        for n, exchange in enumerate(source.exchanges, start=1):
            asked = [m.get("content", {}).get("text", "") for m in exchange["request"]["messages"]]
            lines.append(f"  sampling {n}: asked {' / '.join(map(str, asked))!r}")
            if "answer" in exchange:
                text = exchange["answer"].get("content", {}).get("text", "")
                lines.append(f"    answered by {exchange.get('by') or 'the router'}: {text!r}")
            else:
                lines.append(f"    {exchange.get('refused', '')}")
    return shown("\n".join(lines))


class McpView(Vertical):
    """The MCP browser of the current playground's servers."""

    DEFAULT_CSS = """
    McpView #mcp-panes { height: 1fr; }
    McpView #mcp-items { width: 1fr; }
    McpView #mcp-right { width: 2fr; }
    McpView #mcp-detail { height: 1fr; }
    McpView #mcp-steps { height: auto; max-height: 12; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sources: list[Any] = []
        self.entries: list[Entry] = []
        self.answer: Any = None
        self._links = 0
        self._timer: Any = None

    def compose(self) -> ComposeResult:
        yield Static(NO_SERVERS, id="mcp-help")
        with Horizontal(id="mcp-panes"):
            yield OptionList(id="mcp-items")
            with Vertical(id="mcp-right"):
                yield Input(
                    placeholder="prompt arguments name=value … / a URI for a template",
                    id="mcp-args",
                )
                yield TextArea("", id="mcp-detail", read_only=True, language="json")
        yield Static("", id="mcp-steps")

    #: the loaded playground, bound to the app's state (:func:`playground.tui.modes.bind_state`)
    pg: var[Playground | None] = var(None, init=False, always_update=True)

    def watch_pg(self, pg: Playground | None) -> None:
        if pg is not None and self.is_mounted:
            self.set_playground(pg)

    def on_mount(self) -> None:
        if self.pg is not None:
            self.set_playground(self.pg)

    def set_playground(self, pg: Playground) -> None:
        """Browse the MCP servers of ``pg`` (listing runs in a worker)."""
        self.sources = [s for s in pg.registry.sources if hasattr(s, "request")]
        self.query_one("#mcp-help", Static).display = not self.sources
        if self.sources and self._timer is None:
            self._timer = self.set_interval(0.5, self.refresh_steps)
        self.list_entries()

    @work(thread=True, exclusive=True, group="mcp-list", exit_on_error=False)
    def list_entries(self) -> None:
        entries: list[Entry] = []
        problems: list[str] = []
        for source in self.sources:
            try:
                listed = source.request("resources/list")
                prompts = source.request("prompts/list")
            except Exception as exc:  # LoadError: one line naming the server
                problems.append(str(exc))
                continue
            entries += [Entry("resource", source, r) for r in listed["resources"]]
            entries += [Entry("template", source, t) for t in listed["resourceTemplates"]]
            entries += [Entry("prompt", source, p) for p in prompts["prompts"]]
        self.app.call_from_thread(self._show_entries, entries, problems)

    def _show_entries(self, entries: list[Entry], problems: list[str]) -> None:
        links = [Entry("link", s, link) for s in self.sources for link in s.links]
        self._links = len(links)
        self.entries = entries + links
        items = self.query_one("#mcp-items", OptionList)
        items.clear_options()
        items.add_options([Option(shown(e.label)) for e in self.entries])
        for problem in problems:
            self.app.notify(problem, title="MCP", severity="error")
        self.refresh_steps()

    def refresh_steps(self) -> None:
        """Re-read the roots, sampling steps and links (twice a second while shown)."""
        self.query_one("#mcp-steps", Static).update(steps_text(self.sources))
        if sum(len(s.links) for s in self.sources) != self._links:
            self._show_entries([e for e in self.entries if e.kind != "link"], [])

    @on(OptionList.OptionSelected, "#mcp-items")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.open_entry(self.entries[event.option_index], self.query_one("#mcp-args", Input).value)

    @work(thread=True, exclusive=True, group="mcp-read", exit_on_error=False)
    def open_entry(self, entry: Entry, typed: str = "") -> None:
        """Send ``entry``'s request (``typed``: the field's text) and show the answer."""
        try:
            if entry.kind == "prompt":
                answer = entry.source.request(
                    "prompts/get", name=entry.item["name"], arguments=prompt_arguments(typed)
                )
            else:
                uri = typed.strip() if entry.kind == "template" else entry.item["uri"]
                if not uri:
                    raise ValueError("type the URI to read (the template filled in)")
                answer = entry.source.request("resources/read", uri=uri)
        except Exception as exc:
            self.app.call_from_thread(self.app.notify, str(exc), title="MCP", severity="error")
            return
        self.app.call_from_thread(self._show_answer, answer)

    def _show_answer(self, answer: Any) -> None:
        self.answer = answer
        text = json.dumps(answer, ensure_ascii=False, indent=2)
        self.query_one("#mcp-detail", TextArea).load_text(shown(text))


async def open_mcp_view(app: Any) -> None:
    """Build (the first time) and show the MCP tab."""
    from playground.tui.modes import ModeTabs

    modes = app.query_one(ModeTabs)
    view = await modes.view("mcp-tab")
    modes.active = "mcp-tab"
    app.set_focus(view.query_one("#mcp-items"))
