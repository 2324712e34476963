"""The wire JSON of one call, per provider (Gemini / Anthropic / OpenAI tabs with ~tokens)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
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

    def show(self, wire: dict[str, Any] | None) -> None:
        """Show ``wire`` (``{"gemini", "anthropic", "openai", "tokens"}``); ``None`` clears.
        Asked before the provider tabs are composed (the first load, on a loaded machine:
        ``TabbedContent`` composes its panes after this widget is mounted), it shows ``wire``
        once they are."""
        wire = wire or {}
        tokens = wire.get("tokens") or {}
        self.texts = {key: pretty_json(wire[key]) for key, _ in PROVIDERS if key in wire}
        if not self.query(f"#{self.prefix}-{PROVIDERS[-1][0]}-json"):
            if self.is_attached:
                self.call_after_refresh(self.show, wire)
            return
        tabs = self.tabs
        for key, title in PROVIDERS:
            static = self.query_one(f"#{self.prefix}-{key}-json", Static)
            if key in self.texts:
                static.update(bounded_syntax(self.texts[key]))
            else:
                static.update("(nothing sent)")
            count = tokens.get(key)
            label = f"{title} ~{count} tok" if isinstance(count, (int, float)) else title
            tabs.get_tab(f"{self.prefix}-{key}").label = label
