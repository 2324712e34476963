"""The contract list: a tree with one expanded node per tool module file (``shop.py``,
``inventory.py``, …) whose leaves are the contracts with their badges.

Order: the registry's load order (the ``--tools`` order; files of a folder sorted by name), both
for the modules and for the contracts inside a module. The selection starts on the contract last
run (``playground.tui.last_used``) when it is still registered, else on the first contract of
the first module that is not a demo of faults: a module declares itself one with a top-level
``__demo__ = True`` (read from the file with ``ast``, never by its name; see docs/tool-modules.md). Highlighting a contract posts :class:`ContractList.Chosen`; ``Enter``
on a contract posts :class:`ContractList.Entered` (the Call view then focuses the first field).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from playground.core.untrusted import shown
from playground.tui.formatting import contract_label

if TYPE_CHECKING:
    from playground.core.registry import Registry


def module_of(source: str) -> str:
    """The module file name of a contract ``source`` (``"/x/tools/shop.py:175"`` →
    ``"shop.py"``); ``"(unknown module)"`` when ``source`` is empty."""
    if not source:
        return "(unknown module)"
    from playground.core.contracts import SourceLocation

    return SourceLocation.parse(source).file_name


def source_path(source: str) -> str:
    """The file part of a contract ``source`` (``"/x/tools/shop.py:175"`` → ``"/x/tools/shop.py"``)."""
    head, _, line = source.rpartition(":")
    return head if head and line.isdigit() else source


@lru_cache(maxsize=256)
def _declares_demo(path: str, mtime_ns: int) -> bool:
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return False
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            if "__demo__" in targets:
                return node.value.value is True
    return False


def is_demo_module(source: str) -> bool:
    """Whether the module file of a contract ``source`` says ``__demo__ = True`` at top level
    (a module of tools that fail on purpose, such as ``tools/flaky.py``). Read with ``ast``,
    without importing; ``False`` for a source that is not a readable Python file."""
    path = source_path(source)
    try:
        mtime = Path(path).stat().st_mtime_ns
    except OSError:
        return False
    return _declares_demo(path, mtime)


def first_choice(registry: Registry, prefer: str | None = None) -> str | None:
    """The contract to open on: ``prefer`` when registered, else the first contract (load
    order) whose module is not a demo of faults, else the first contract; ``None`` when empty."""
    if prefer and prefer in registry.contracts:
        return prefer
    names = list(registry.contracts)
    for name in names:
        if not is_demo_module(registry.contracts[name].source):
            return name
    return names[0] if names else None


def group_by_module(registry: Registry) -> dict[str, list[str]]:
    """``{module file name: [contract names]}`` in the registry's load order."""
    groups: dict[str, list[str]] = {}
    for contract in registry.contracts.values():
        groups.setdefault(module_of(contract.source), []).append(contract.name)
    return groups


class ContractList(Tree[str]):
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

    #: Set by the Call view: puts a character typed in the list into the arguments and
    #: returns ``True`` when it took it (see :meth:`on_key`).
    type_ahead: Callable[[str], bool] | None = None

    #: A key went to the first field and the keys queued behind it still arrive here (the
    #: focus moves only once they are handled): they follow it, space and ``?`` included.
    _typing_ahead: bool = False

    #: Characters typed while the tools load (no :attr:`type_ahead` yet), in order: given to
    #: it by :meth:`replay_early_keys` once the first contract is shown.
    _early: list[str]

    def on_key(self, event: events.Key) -> None:
        """A printable key (not space, which toggles a module, nor ``?``, the help) goes to
        the highlighted contract's first text field, which takes the focus: typing an id right
        after the list opens is not lost (a newcomer's ``missing:day`` with the day typed).
        The keys typed behind it that reach the list before the focus moved follow it, a space
        or a ``?`` too: "Alice Kim" typed in one go was "AliceKim", each space toggling the
        module instead."""
        char = event.character
        following = self._typing_ahead
        if not (event.is_printable and char is not None):
            self._typing_ahead = False
            return
        ours = following or char not in (" ", "?")
        if not ours:
            return
        if self.type_ahead is None:  # the tools are loading: kept for the first form
            self._early.append(char)
            taken = True
        else:
            taken = self.type_ahead(char)
        if taken:
            self._typing_ahead = True
            event.stop()
            event.prevent_default()

    def replay_early_keys(self) -> str:
        """Give the characters typed while the tools loaded to :attr:`type_ahead` (the shown
        contract's first field), in order; returns those it did not take (``""``: all)."""
        early, self._early = self._early, []
        if self.type_ahead is None:
            return "".join(early)
        return "".join(char for char in early if not self.type_ahead(char))

    def on_focus(self) -> None:
        """The list has the focus again (the user came back to it): keys are its own."""
        self._typing_ahead = False

    def __init__(self, **kwargs: Any) -> None:
        # a Text, not markup: a str label is parsed as markup with emoji codes, whose table
        # (rich._emoji_codes, ~2 ms) the first screen would import for this hidden root
        super().__init__(Text("contracts"), **kwargs)
        self.show_root = False
        self.guide_depth = 2
        self.auto_expand = False
        self._leaves: dict[str, TreeNode[str]] = {}
        self._early = []

    def show_registry(self, registry: Registry, prefer: str | None = None) -> None:
        """Replace the tree with ``registry``'s contracts grouped by module, all expanded, and
        highlight :func:`first_choice` (``prefer`` when it is registered)."""
        self.clear()
        self._leaves = {}
        for module, names in group_by_module(registry).items():
            count = f"{len(names)} contract" + ("" if len(names) == 1 else "s")
            label = Text.assemble((shown(module), "bold"), "  ", (count, "dim"))
            node = self.root.add(label, expand=True)
            for name in names:
                self._leaves[name] = node.add_leaf(
                    contract_label(registry.contracts[name]), data=name
                )
        self.root.expand()
        choice = first_choice(registry, prefer)
        if choice is not None:
            self.select_name(choice)

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
    def _highlighted(self, event: Tree.NodeHighlighted[str]) -> None:
        event.stop()
        if isinstance(event.node.data, str):
            self._chosen = event.node.data
            self.post_message(self.Chosen(event.node.data))

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected[str]) -> None:
        event.stop()
        if isinstance(event.node.data, str):
            self.post_message(self.Entered(event.node.data))
        else:
            event.node.toggle()
