"""The wire JSON of one call, per provider (Gemini / Anthropic / OpenAI tabs with ~tokens)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import Static, TabbedContent, TabPane

from playground.tui.formatting import PROVIDERS, bounded_syntax, pretty_json


class WireView(Vertical):
    """Shows a record's ``wire`` dict; ``texts`` holds the JSON text shown per provider."""

    def __init__(self, prefix: str = "wire", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.prefix = prefix
        self.texts: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        with TabbedContent(id=f"{self.prefix}-tabs"):
            for key, title in PROVIDERS:
                with TabPane(title, id=f"{self.prefix}-{key}"):
                    scroll = VerticalScroll(
                        Static("(no call yet)", id=f"{self.prefix}-{key}-json", classes="json")
                    )
                    scroll.can_focus = False  # read-only JSON: not a tab stop
                    yield scroll

    @property
    def tabs(self) -> TabbedContent:
        """The provider tabs."""
        return self.query_one(f"#{self.prefix}-tabs", TabbedContent)

    def next_tab(self) -> None:
        """Show the next provider's tab (f7: Gemini → Anthropic → OpenAI, wrapping around);
        asked before the tabs are composed (the record panel has just mounted this view), once
        they are."""
        from playground.tui.tabkeys import cycle_tabs

        last = PROVIDERS[-1][0]
        try:
            tabs = self.tabs
            tabs.get_tab(f"{self.prefix}-{last}")
            self.query_one(f"#{self.prefix}-{last}-json")
        except NoMatches:
            if self.is_attached:
                self.call_after_refresh(self.next_tab)
            return
        cycle_tabs(tabs)

    def show(self, wire: dict[str, Any] | None) -> None:
        """Show ``wire`` (``{"gemini", "anthropic", "openai", "tokens"}``); ``None`` clears.
        Asked before the provider tabs and their panes are composed (``TabbedContent``
        composes them after this widget is mounted: the record panel mounts it with its first
        record), it shows ``wire`` once they are."""
        wire = wire or {}
        tokens = wire.get("tokens") or {}
        self.texts = {key: pretty_json(wire[key]) for key, _ in PROVIDERS if key in wire}
        try:
            tabs = self.tabs
            statics = [self.query_one(f"#{self.prefix}-{key}-json", Static) for key, _ in PROVIDERS]
            tab_labels = [tabs.get_tab(f"{self.prefix}-{key}") for key, _ in PROVIDERS]
        except NoMatches:  # not composed yet: the panes and their tabs come a moment later
            if self.is_attached:
                self.call_after_refresh(self.show, wire)
            return
        for (key, title), static, tab in zip(PROVIDERS, statics, tab_labels):
            static.update(
                bounded_syntax(self.texts[key]) if key in self.texts else "(nothing sent)"
            )
            count = tokens.get(key)
            tab.label = f"{title} ~{count} tok" if isinstance(count, (int, float)) else title
