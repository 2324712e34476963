"""Open the tool's source in the user's ``$EDITOR`` at the line a ``raised`` body failed on.

The command is ``$EDITOR +LINE FILE`` (the ``+N`` form vi, vim, nano, emacs and micro accept);
VS Code and its forks take ``-g FILE:LINE`` and Sublime Text and Zed ``FILE:LINE`` (their
command-line docs). ``$EDITOR`` may carry its own arguments (``"code -w"``), split with
:func:`shlex.split`. The app is suspended while the editor runs (``App.suspend``) and resumed
after.

Everything that can fail is checked before the app is suspended (the editor program is found
and is a program, the file is a file), and an editor that fails to start inside the suspension
is caught there: Textual's ``App.suspend`` resumes only when its block ends normally, so an
exception escaping it left the TUI suspended for good (a breaker's find: a nonexistent
``$EDITOR``, ``EDITOR="code -w"`` without ``code``, a folder as ``$EDITOR``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

from textual.app import App, SuspendNotSupported

#: Editors that read ``-g FILE:LINE`` (VS Code's ``--goto``) or ``FILE:LINE`` instead of
#: ``+LINE FILE``, by program name.
GOTO_FLAG_EDITORS = frozenset({"code", "code-insiders", "codium", "cursor", "windsurf"})
FILE_COLON_LINE_EDITORS = frozenset({"subl", "zed"})


def failing_frame(frames: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The frame the tool failed in: the innermost of a record's ``traceback`` (a list of
    ``{file, line, function, code}``, innermost last), or ``None`` when there is none with a
    file and a line."""
    usable = [f for f in frames if f.get("file") and isinstance(f.get("line"), int)]
    return usable[-1] if usable else None


def editor_argv(file: str, line: int, editor: str | None = None) -> list[str] | None:
    """The editor command for ``file`` at ``line``: ``[*shlex.split($EDITOR), "+LINE", FILE]``
    (``-g FILE:LINE`` for VS Code and its forks, ``FILE:LINE`` for Sublime Text and Zed), or
    ``None`` when ``$EDITOR`` is unset or blank. ``editor`` overrides the environment (for
    tests). Raises ``ValueError`` for an ``$EDITOR`` that :func:`shlex.split` cannot read (an
    unclosed quote)."""
    value = os.environ.get("EDITOR", "") if editor is None else editor
    words = shlex.split(value)
    if not words:
        return None
    name = Path(words[0]).name.lower().removesuffix(".exe")
    if name in GOTO_FLAG_EDITORS:
        return [*words, "-g", f"{file}:{line}"]
    if name in FILE_COLON_LINE_EDITORS:
        return [*words, f"{file}:{line}"]
    return [*words, f"+{line}", file]


def editor_problem(argv: list[str], file: str) -> str | None:
    """Why ``argv`` cannot open ``file`` (checked before the app is suspended), else ``None``:
    the program is not found on ``PATH``, is a folder or not executable, or ``file`` is not a
    file."""
    program = argv[0]
    if os.path.isdir(program):
        return f"$EDITOR ({program}) is a folder, not a program"
    if shutil.which(program) is None:
        where = "is not executable" if os.path.exists(program) else "was not found"
        return f"$EDITOR ({program}) {where}; set EDITOR to an editor's command (e.g. vim)"
    if not os.path.isfile(file):
        what = "a folder" if os.path.isdir(file) else "not found"
        return f"cannot open {file} in $EDITOR: it is {what}"
    return None


def open_in_editor(app: App[Any], file: str, line: int) -> str | None:
    """Run the editor command (:func:`editor_argv`) with ``app`` suspended; returns ``None``
    on success, else the one-line reason to show (``$EDITOR`` unset or unreadable, its program
    not found / a folder / not executable, ``file`` not a file, exit status, no suspend). The
    app is always resumed.

    A headless app (tests) cannot suspend, so the editor runs without it there (stdin closed);
    any other driver that cannot suspend (Textual's web driver) gets a reason instead of a
    broken screen.
    """
    try:
        argv = editor_argv(file, line)
    except ValueError as exc:
        return f"$EDITOR could not be read: {exc}"
    if argv is None:
        return f"$EDITOR is not set: set it (e.g. EDITOR=vim) to open {file}:{line}"
    problem = editor_problem(argv, file)
    if problem:
        return problem
    failed: OSError | None = None
    try:
        with app.suspend():
            try:  # never let an exception leave the block: the app would stay suspended
                done = subprocess.run(argv, check=False)
            except OSError as exc:
                failed = exc
    except SuspendNotSupported:
        if not app.is_headless:
            return f"this terminal cannot hand over to $EDITOR; open {file}:{line} by hand"
        try:
            done = subprocess.run(argv, check=False, stdin=subprocess.DEVNULL)
        except OSError as exc:
            failed = exc
    if failed is not None:
        return f"$EDITOR ({argv[0]}) could not start: {failed.strerror or failed}"
    if done.returncode != 0:
        return f"$EDITOR ({argv[0]}) exited with status {done.returncode}"
    return None
