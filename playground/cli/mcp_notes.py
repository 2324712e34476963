"""The ``note:`` lines ``check`` and ``eval`` print about their MCP servers (issue 21, item 4):
one per ``notifications/tools/list_changed`` the playground acted on, naming the server and the
tools added and removed, so a run whose tool list moved under it says so."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from playground.cli.common import note_line


def note_list_changes(sources: Iterable[Any]) -> list[str]:
    """Print (stderr, ``note: …``) and return the list-change lines of every MCP source among
    ``sources`` (those with ``relist_if_changed``); a change not yet acted on is listed now."""
    lines: list[str] = []
    for source in sources:
        relist = getattr(source, "relist_if_changed", None)
        if relist is not None:
            lines += relist()
    for line in lines:
        note_line(line)
    return lines
