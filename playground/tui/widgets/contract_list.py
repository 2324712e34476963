"""The contract list: a tree with one expanded node per tool module file (``shop.py``,
``inventory.py``, …) whose leaves are the contracts with their badges.

Order: the registry's load order (the ``--tools`` order; files of a folder sorted by name), both
for the modules and for the contracts inside a module. The selection starts on the first
contract of that order: no guessing which tools are "demo" tools; the module headings say where
each contract comes from. Highlighting a contract posts :class:`ContractList.Chosen`; ``Enter``
on a contract posts :class:`ContractList.Entered` (the Call view then focuses the first field).
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from playground.core.contracts import SourceLocation
from playground.core.registry import Registry
from playground.tui.formatting import contract_label


def module_of(source: str) -> str:
    """The module file name of a contract ``source`` (``"/x/tools/shop.py:175"`` →
    ``"shop.py"``); ``"(unknown module)"`` when ``source`` is empty."""
    if not source:
        return "(unknown module)"
    return SourceLocation.parse(source).file_name


def group_by_module(registry: Registry) -> dict[str, list[str]]:
    """``{module file name: [contract names]}`` in the registry's load order."""
    groups: dict[str, list[str]] = {}
    for contract in registry.contracts.values():
        groups.setdefault(module_of(contract.source), []).append(contract.name)
    return groups


class ContractList(Tree):
    """Modules → contracts. ``chosen``: the highlighted contract's name."""

    BINDINGS = [Binding("enter", "select_cursor", "Edit arguments", show=False)]

    class Chosen(Message):
        """A contract was highlighted: ``name``."""

        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    class Entered(Message):
        """Enter (or a click) on a contract: ``name``; go to its arguments."""

        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("contracts", **kwargs)
        self.show_root = False
        self.guide_depth = 2
        self.auto_expand = False
        self._leaves: dict[str, TreeNode] = {}

    def show_registry(self, registry: Registry) -> None:
        """Replace the tree with ``registry``'s contracts grouped by module, all expanded, and
        highlight the first contract."""
        self.clear()
        self._leaves = {}
        for module, names in group_by_module(registry).items():
            count = f"{len(names)} contract" + ("" if len(names) == 1 else "s")
            node = self.root.add(f"[b]{module}[/]  [dim]{count}[/]", expand=True)
            for name in names:
                self._leaves[name] = node.add_leaf(
                    contract_label(registry.contracts[name]), data=name
                )
        self.root.expand()
        if self._leaves:
            self.select_name(next(iter(self._leaves)))

    @property
    def names(self) -> list[str]:
        """The listed contract names, in tree order."""
        return list(self._leaves)

    def select_name(self, name: str) -> bool:
        """Highlight the contract called ``name``; ``False`` when it is not listed."""
        node = self._leaves.get(name)
        if node is None:
            return False
        self._tree_lines  # noqa: B018 -- build the lines so the node has its line number
        self.move_cursor(node)
        self._chosen = name
        return True

    @property
    def chosen(self) -> str | None:
        """The highlighted contract's name (the last one when a module heading is highlighted)."""
        node = self.cursor_node
        if node is not None and isinstance(node.data, str):
            return node.data
        return getattr(self, "_chosen", None)

    @on(Tree.NodeHighlighted)
    def _highlighted(self, event: Tree.NodeHighlighted) -> None:
        event.stop()
        if isinstance(event.node.data, str):
            self._chosen = event.node.data
            self.post_message(self.Chosen(event.node.data))

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected) -> None:
        event.stop()
        if isinstance(event.node.data, str):
            self.post_message(self.Entered(event.node.data))
        else:
            event.node.toggle()
