"""Generate ``docs/cli-reference.md`` from the Typer app, or check that it is up to date.

``python scripts/cli_reference.py`` rewrites the page from every command's ``--help`` (typer's
own Markdown generator, the one ``typer ... utils docs`` uses); ``python scripts/cli_reference.py
--check`` exits 1 with a one-line message when the page differs from what the app generates now
(``.ci/run`` runs it, and ``tests/test_cli_reference.py`` does the same check).
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from typer.cli import get_docs_for_click

#: The generated page, relative to the repository.
REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "cli-reference.md"

_HEADER = (
    "<!-- Generated from the Typer app by `python scripts/cli_reference.py`; do not edit by hand."
    " `.ci/run` fails when a command's help changes without regenerating it. -->\n\n"
)


def generate() -> str:
    """The Markdown reference of every ``playground`` command, as the app declares it now."""
    from playground.cli.main import build_app

    command = typer.main.get_command(build_app())
    ctx = typer.Context(command, info_name="playground")
    body = get_docs_for_click(obj=command, ctx=ctx, name="playground", title="CLI reference")
    return _HEADER + body.strip() + "\n"


def main(argv: list[str]) -> int:
    """Write the page (no argument) or check it (``--check``); the exit code."""
    text = generate()
    if argv == ["--check"]:
        if REFERENCE.is_file() and REFERENCE.read_text(encoding="utf-8") == text:
            return 0
        print(
            "error: docs/cli-reference.md is out of date with the commands' help; "
            "regenerate it with `python scripts/cli_reference.py`",
            file=sys.stderr,
        )
        return 1
    if argv:
        print("usage: python scripts/cli_reference.py [--check]", file=sys.stderr)
        return 2
    REFERENCE.write_text(text, encoding="utf-8")
    print(f"wrote {REFERENCE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
