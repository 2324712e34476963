"""The wire JSON of one call, per provider (Gemini / Anthropic / OpenAI tabs with ~tokens)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static, TabbedContent, TabPane

from playground.tui.formatting import PROVIDERS, bounded_syntax, pretty_json


class WireView(Vertical):
    """Shows a record's ``wire`` dict; ``texts`` holds the JSON text shown per provider.

    ``lazy``: the provider tabs are not composed; :meth:`build` mounts them (the Call view does
    so right after the TUI's first screen, where they sit below the fold at 80x24: issue 13
    item 6). A :meth:`show` before that is kept and shown once they are built."""

    def __init__(self, prefix: str = "wire", lazy: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.prefix = prefix
        self.texts: dict[str, str] = {}
        self._lazy = lazy
        self._wire: dict[str, Any] | None = None

    def compose(self) -> ComposeResult:
        if not self._lazy:
            yield self._tabs()

    def _tabs(self) -> TabbedContent:
        tabs = TabbedContent(id=f"{self.prefix}-tabs")
        for key, title in PROVIDERS:
            scroll = VerticalScroll(
                Static("(no call yet)", id=f"{self.prefix}-{key}-json", classes="json")
            )
            scroll.can_focus = False  # read-only JSON: not a tab stop
            tabs.compose_add_child(TabPane(title, scroll, id=f"{self.prefix}-{key}"))
        return tabs

    @property
    def tabs(self) -> TabbedContent | None:
        """The provider tabs, ``None`` until built (see ``lazy``)."""
        found = self.query_children(TabbedContent)
        return found.first() if found else None

    async def build(self) -> None:
        """Mount the provider tabs if they are not yet (see ``lazy``) and show the last
        :meth:`show`'s wire in them."""
        if self.tabs is not None or not self.is_attached:  # built, or the app is closing
            return
        await self.mount(self._tabs())
        if self._wire is not None:
            self.show(self._wire)

    def show(self, wire: dict[str, Any] | None) -> None:
        """Show ``wire`` (``{"gemini", "anthropic", "openai", "tokens"}``); ``None`` clears."""
        wire = wire or {}
        tokens = wire.get("tokens") or {}
        self._wire = wire
        self.texts = {key: pretty_json(wire[key]) for key, _ in PROVIDERS if key in wire}
        tabs = self.tabs
        if tabs is None:  # shown by build()
            return
        for key, title in PROVIDERS:
            static = self.query_one(f"#{self.prefix}-{key}-json", Static)
            if key in self.texts:
                static.update(bounded_syntax(self.texts[key]))
            else:
                static.update("(nothing sent)")
            count = tokens.get(key)
            label = f"{title} ~{count} tok" if isinstance(count, (int, float)) else title
            tabs.get_tab(f"{self.prefix}-{key}").label = label
