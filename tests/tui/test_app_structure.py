"""The TUI reads as Textual code: a small app whose state is reactive and bound to the views,
and no import circle inside ``playground.tui`` (``app`` ↔ ``commands`` was one)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from textual.reactive import Reactive

from playground.tui.app import PlaygroundApp
from playground.tui.router_pick import RouterPick
from tests.tui.helpers import ROOT, SIZE, TOOLS, settle

TUI = ROOT / "playground" / "tui"


def test_the_app_has_at_most_25_methods_and_its_state_is_reactive():
    own = [
        name
        for name, value in vars(PlaygroundApp).items()
        if inspect.isfunction(value) or isinstance(value, property)
    ]
    assert len(own) <= 25, sorted(own)
    for name in ("workbench", "router", "compare", "store"):
        assert isinstance(getattr(PlaygroundApp, name), Reactive), name


def _imports(path: Path, package: str) -> set[str]:
    """The modules of ``package`` that the module at ``path`` imports, anywhere in it (also
    under ``TYPE_CHECKING`` and inside functions)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(package):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(package))
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_inside_the_tui_package():
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in TUI.rglob("*.py")
    }
    graph = {
        name: {m for m in _imports(path, "playground.tui") if m in modules and m != name}
        for name, path in modules.items()
    }
    assert "playground.tui.app" not in graph["playground.tui.commands"]
    assert _cycles(graph) == []


async def test_views_built_later_follow_the_apps_router_and_workbench():
    app = PlaygroundApp(tools=[str(TOOLS / "shop.py")], in_process=True, no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        ask = await app.view("ask")
        evaluate = await app.view("evaluate")
        assert ask.router == evaluate.router == app.router == RouterPick("offline")
        app.router = RouterPick("gemini", "ANY", "gemini-3.6-pro")  # as the palette sets it
        assert ask.router == evaluate.router == app.router
        assert "router: gemini (ANY, gemini-3.6-pro)" in str(ask.query_one("#ask-router").render())
        assert "gemini (ANY, gemini-3.6-pro)" in app.sub_title
        assert ask.pg is evaluate.pg is app.pg is not None
        first = app.pg
        await pilot.press("ctrl+l")  # a reload: a new playground, handed to every view
        await settle(app, pilot)
        assert app.pg is not first
        assert ask.pg is evaluate.pg is app.query_one("#call-view").pg is app.pg
        app.compare = "offline"
        assert ask.compare == "offline" and ask.query_one("#ask-compare").display


async def test_the_mcp_tab_is_hidden_without_mcp_servers() -> None:
    from textual.widgets import TabbedContent

    app = PlaygroundApp(tools=[str(TOOLS / "shop.py")], in_process=True, no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        tabs = app.query_one("#modes", TabbedContent)
        assert tabs.get_tab("mcp-tab").display is False
        assert tabs.get_tab("mcp-log-tab").display is True
