"""Open the tool's source in the user's ``$EDITOR`` at the line a ``raised`` body failed on.

The command is ``$EDITOR +LINE FILE`` (the ``+N`` form vi, vim, nano, emacs and micro accept);
``$EDITOR`` may carry its own arguments (``"code -w"``), split with :func:`shlex.split`. The
app is suspended while the editor runs (``App.suspend``, Textual 0.48+) and resumed after.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from typing import Any

from textual.app import App, SuspendNotSupported


def failing_frame(frames: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The frame the tool failed in: the innermost of a record's ``traceback`` (a list of
    ``{file, line, function, code}``, innermost last), or ``None`` when there is none with a
    file and a line."""
    usable = [f for f in frames if f.get("file") and isinstance(f.get("line"), int)]
    return usable[-1] if usable else None


def editor_argv(file: str, line: int, editor: str | None = None) -> list[str] | None:
    """``[*shlex.split($EDITOR), "+LINE", FILE]``, or ``None`` when ``$EDITOR`` is unset or
    blank. ``editor`` overrides the environment (for tests). Raises ``ValueError`` for an
    ``$EDITOR`` that :func:`shlex.split` cannot read (an unclosed quote)."""
    value = os.environ.get("EDITOR", "") if editor is None else editor
    words = shlex.split(value)
    if not words:
        return None
    return [*words, f"+{line}", file]


def open_in_editor(app: App[Any], file: str, line: int) -> str | None:
    """Run ``$EDITOR +line file`` with ``app`` suspended; returns ``None`` on success, else
    the one-line reason to show (``$EDITOR`` unset, not found, exit status, no suspend).

    A headless app (tests) cannot suspend, so the editor runs without it there; any other
    driver that cannot suspend (Textual's web driver) gets a reason instead of a broken screen.
    """
    try:
        argv = editor_argv(file, line)
    except ValueError as exc:
        return f"$EDITOR could not be read: {exc}"
    if argv is None:
        return f"$EDITOR is not set: set it (e.g. EDITOR=vim) to open {file}:{line}"
    try:
        with app.suspend():
            done = subprocess.run(argv, check=False)
    except SuspendNotSupported:
        if not app.is_headless:
            return f"this terminal cannot hand over to $EDITOR; open {file}:{line} by hand"
        try:
            done = subprocess.run(argv, check=False, stdin=subprocess.DEVNULL)
        except OSError as exc:
            return f"$EDITOR ({argv[0]}) could not start: {exc.strerror or exc}"
    except OSError as exc:
        return f"$EDITOR ({argv[0]}) could not start: {exc.strerror or exc}"
    if done.returncode != 0:
        return f"$EDITOR ({argv[0]}) exited with status {done.returncode}"
    return None
