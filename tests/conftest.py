"""Suite-wide fixtures: no test writes a history into the repository's working directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _history_in_tmp(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Point ``PLAYGROUND_HISTORY`` (read by every command and the TUI, and inherited by the
    subprocesses a test starts) at a fresh temp file for each test."""
    path = tmp_path_factory.mktemp("history") / "history.db"
    monkeypatch.setenv("PLAYGROUND_HISTORY", str(path))
    return path
