"""Records kept beside a busy history: written when another process holds the history's write
lock past the store's bounded wait, added to the history by the next write that gets the lock.

A record waiting here is one small JSON file next to the history, ``history.db.pending-<time>-
<pid>-<n>.json`` (mode 0600, written under a temporary name and renamed, so a reader never sees
half a file), holding the row the store would have written: the ``entries`` and ``bodies``
columns, already redacted (a secret is never written here either). The store adds every such
file inside the transaction of its next write (:meth:`HistoryStore.add`), in the order they were
kept, and deletes them after the commit; a row already in the history (same ``created`` and
``what``: a process that stopped between the commit and the delete) is not added twice.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import time
from pathlib import Path
from typing import Any

#: The columns a kept row holds (``entries`` then ``bodies``), as :meth:`HistoryStore.add`
#: writes them.
ROW_KEYS = (
    "created",
    "type",
    "tool",
    "tools",
    "kinds",
    "outcome",
    "question",
    "router",
    "origin",
    "rerun_of",
    "what",
    "source",
    "hashes",
    "data",
    "mcp",
)
_COUNTER = itertools.count(1)


def pending_glob(history: Path) -> str:
    """The glob pattern of the records kept beside ``history``."""
    return f"{history.name}.pending-*.json"


def keep(history: Path, row: dict[str, Any]) -> Path:
    """Write ``row`` (keys :data:`ROW_KEYS`) beside ``history``; returns the file written.
    Raises :class:`OSError` when the folder cannot be written."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    name = f"{history.name}.pending-{stamp}-{os.getpid()}-{next(_COUNTER)}"
    target = history.with_name(name + ".json")
    temporary = history.with_name(name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump({k: row.get(k) for k in ROW_KEYS}, fh, ensure_ascii=False)
    os.replace(temporary, target)
    return target


def kept(history: Path) -> list[Path]:
    """The records kept beside ``history``, oldest first (by name: time, then pid and count)."""
    try:
        return sorted(history.parent.glob(pending_glob(history)))
    except OSError:
        return []


def read_kept(path: Path) -> dict[str, Any] | None:
    """The row kept in ``path``; ``None`` when it is gone (another process added it) or is not
    such a row."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(value, dict) or not isinstance(value.get("created"), (int, float)):
        return None
    return {k: value.get(k) for k in ROW_KEYS}


def forget(paths: list[Path]) -> None:
    """Delete kept records once they are in the history."""
    for path in paths:
        with contextlib.suppress(OSError):
            path.unlink()
