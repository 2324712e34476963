"""docs/cli-reference.md is generated from the Typer app; it must match every command's help
as the app declares it now (regenerate with ``python scripts/cli_reference.py``)."""

from __future__ import annotations

from scripts.cli_reference import REFERENCE, generate


def test_the_cli_reference_matches_the_commands_help() -> None:
    assert REFERENCE.read_text(encoding="utf-8") == generate(), (
        "docs/cli-reference.md is out of date with the commands' help; "
        "regenerate it with `python scripts/cli_reference.py`"
    )


def test_the_cli_reference_covers_every_command() -> None:
    from playground.cli.main import COMMAND_MODULES

    text = generate()
    for name in COMMAND_MODULES:
        assert f"## `playground {name}`" in text
