"""Every command's ``--help`` wraps its paragraphs to the terminal (issue 26 item 7): typer kept
the docstring's own line breaks after the first paragraph, so at 80 columns ``history rerun
--help`` broke its lines in two mid-sentence ("reconnects the MCP servers it" / "used (the
same ..."). A line of prose is now only cut where the next word would not fit."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import pytest
import typer

from playground.cli.main import build_app
from tests.in_process_cli import run_in_process

WIDTH = 80


def commands() -> list[list[str]]:
    group = typer.main.get_command(build_app())
    found = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        subs = getattr(command, "commands", None)
        found += [[name, sub] for sub in subs] if subs else [[name]]
    return found


def prose(help_text: str) -> list[list[str]]:
    """The paragraphs of the help's description (between the usage line and the first box),
    each a list of its lines as printed."""
    lines = help_text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("Usage:")) + 1
    body: list[list[str]] = [[]]
    for line in lines[start:]:
        if line.lstrip().startswith("╭"):
            break
        if line.strip():
            body[-1].append(line.rstrip())
        elif body[-1]:
            body.append([])
    return [p for p in body if p]


def assert_wrapped_to_the_width(help_text: str) -> None:
    for paragraph in prose(help_text):
        for line, after in itertools.pairwise(paragraph):
            next_word = after.split()[0]
            # Rich leaves a margin of one column each side
            assert len(line) + 1 + len(next_word) > WIDTH - 2, (line, after)


def test_history_rerun_help_at_80_columns():
    done = subprocess.run(
        [sys.executable, "-m", "playground", "history", "rerun", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": str(WIDTH), "NO_COLOR": "1"},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert_wrapped_to_the_width(done.stdout)
    assert " servers it used (the same command, URL or config entry; header values are" in (
        done.stdout
    )


@pytest.mark.parametrize("argv", commands(), ids=" ".join)
def test_no_help_line_is_cut_before_the_width(argv):
    done = run_in_process(*argv, "--help", env={"COLUMNS": str(WIDTH)})
    assert done.returncode == 0, done.stderr
    assert_wrapped_to_the_width(done.stdout)
