"""Command help as paragraphs, rewrapped to the terminal (``playground history rerun --help``).

typer's Rich help rewraps the first paragraph of a command's docstring but keeps the single
line breaks of the others, so at a terminal narrower than the source's lines each one broke in
two mid-sentence ("reconnects the MCP servers it / used (the same ..."). :func:`reflow_help`
gives every command a help text whose paragraphs are each one line; Rich then wraps them to
the width. A paragraph starting with ``\\b`` (click's "keep as written") or whose lines are a
list (``- `` / ``* ``) keeps its line breaks.
"""

from __future__ import annotations

import inspect
from typing import Any

import typer


def reflowed(doc: str) -> str:
    """``doc`` (a docstring) with each paragraph's single line breaks joined by spaces."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    out = []
    for paragraph in paragraphs:
        lines = paragraph.splitlines()
        keep = paragraph.startswith("\b") or any(
            line.lstrip().startswith(("- ", "* ")) for line in lines
        )
        out.append(paragraph if keep else " ".join(line.strip() for line in lines))
    return "\n\n".join(out)


def reflow_help(app: typer.Typer) -> None:
    """Give every command of ``app`` (and of its sub-apps, ``history``) its docstring as
    :func:`reflowed` help, unless it was given a help text of its own."""
    for info in app.registered_commands:
        _reflow(info)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            reflow_help(group.typer_instance)


def _reflow(info: Any) -> None:
    doc = inspect.getdoc(info.callback) if info.callback is not None else None
    if info.help is None and doc:
        info.help = reflowed(doc)
