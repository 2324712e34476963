"""The contract last run in the TUI, remembered between sessions so the Call view opens on it.

Kept in ``$XDG_STATE_HOME/tool-playground/tui.json`` (``~/.local/state/...`` when unset), a
small JSON object ``{"contract": name}``. Reading or writing it never fails the app: a missing,
unreadable or malformed file means "no last contract"; a write error is ignored (the state is
a convenience, not data).
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def state_file() -> Path:
    """The state file's path (XDG Base Directory spec: ``$XDG_STATE_HOME``, default
    ``~/.local/state``)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tool-playground" / "tui.json"


def last_contract() -> str | None:
    """The name of the contract last run, or ``None``."""
    try:
        data = json.loads(state_file().read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # a damaged state file: forgotten
        return None
    name = data.get("contract") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name else None


def remember_contract(name: str) -> None:
    """Record ``name`` as the contract last run (errors are ignored)."""
    path = state_file()
    from playground.batch.outfiles import write_text_atomic
    from playground.errors import UsageError

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, json.dumps({"contract": name}, ensure_ascii=False), force=True)
    except (OSError, UsageError):
        pass
