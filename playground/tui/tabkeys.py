"""Keys for sub-tabs: one key cycles a ``TabbedContent`` (Form/JSON, Calls/Moves/Gemini
request, the wire JSON's Gemini/Anthropic/OpenAI tabs), so every tab is reachable from the
keyboard and the footer names the key (issue 13)."""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import ContentSwitcher, TabbedContent, TabPane, Tabs


def cycle_tabs(tabs: TabbedContent, focus: bool = False) -> str:
    """Activate the tab after the active one of ``tabs`` (wrapping around, skipping disabled
    and hidden tabs); returns the id of the tab now active (``""`` when there is none).

    ``focus``: then focus the first focusable widget of the new pane (else its tab bar), so the
    focus never stays on a widget the switch hid (the view's keys would stop working)."""
    switcher = tabs.get_child_by_type(ContentSwitcher)  # its own panes, not nested ones
    panes = [pane.id for pane in switcher.children if isinstance(pane, TabPane) and pane.id]
    if not panes:
        return ""
    start = panes.index(tabs.active) if tabs.active in panes else -1
    for step in range(1, len(panes) + 1):
        pane_id = panes[(start + step) % len(panes)]
        tab = tabs.get_tab(pane_id)
        if not tab.disabled and tab.display:
            tabs.active = pane_id
            if focus:
                tabs.call_after_refresh(_focus_in, tabs, switcher.get_child_by_id(pane_id))
            return pane_id
    return tabs.active or ""


def _focus_in(tabs: TabbedContent, pane: Widget) -> None:
    for widget in pane.query(Widget):
        if widget.focusable:
            widget.focus()
            return
    tabs.query_one(Tabs).focus()
