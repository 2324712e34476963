"""The wire JSON of one call, per provider (Gemini / Anthropic / OpenAI tabs with ~tokens)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import Static, TabbedContent, TabPane

from playground.tui.formatting import PROVIDERS, bounded_syntax, pretty_json
from playground.tui.tabkeys import cycle_tabs


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

    def _composed(self, retry: Callable[[], None]) -> bool:
        """Whether the provider tabs and their JSON panes are composed (``TabbedContent``
        composes them a moment after this view is mounted, which the record panel does with
        its first record); if not, ``retry`` runs after the next refresh."""
        try:
            for key, _ in PROVIDERS:
                self.tabs.get_tab(f"{self.prefix}-{key}")
                self.query_one(f"#{self.prefix}-{key}-json", Static)
        except NoMatches:
            if self.is_attached:
                self.call_after_refresh(retry)
            return False
        return True

    def next_tab(self) -> None:
        """Show the next provider's tab (f7: Gemini → Anthropic → OpenAI, wrapping around),
        once the tabs are composed."""
        if self._composed(self.next_tab):
            cycle_tabs(self.tabs)

    def show(self, wire: dict[str, Any] | None) -> None:
        """Show ``wire`` (``{"gemini", "anthropic", "openai", "tokens"}``); ``None`` clears.
        The JSON texts are made now (:attr:`texts`); the panes show them once composed."""
        wire = wire or {}
        self.texts = {key: pretty_json(wire[key]) for key, _ in PROVIDERS if key in wire}
        self._fill(wire.get("tokens") or {})

    def _fill(self, tokens: dict[str, Any]) -> None:
        """The panes and tab labels from :attr:`texts` and ``tokens`` (once composed)."""
        if not self._composed(lambda: self._fill(tokens)):
            return
        tabs = self.tabs
        for key, title in PROVIDERS:
            static = self.query_one(f"#{self.prefix}-{key}-json", Static)
            static.update(
                bounded_syntax(self.texts[key]) if key in self.texts else "(nothing sent)"
            )
            count = tokens.get(key)
            label = f"{title} ~{count} tok" if isinstance(count, (int, float)) else title
            tabs.get_tab(f"{self.prefix}-{key}").label = label
