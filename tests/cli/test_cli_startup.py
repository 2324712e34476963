"""The command line builds only the command it runs (cli/main.py ``build_app``): the map of
command names to modules is complete, a narrow app behaves like the full one, ``playground
call`` does not import the other commands' modules, and the TUI's command line (no command)
builds none (``command_named``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import typer

from playground.cli import main

REPO = Path(__file__).resolve().parents[2]


def _names(app: typer.Typer) -> list[str]:
    group = typer.main.get_command(app)
    return list(group.commands)  # type: ignore[attr-defined]


def test_the_map_names_every_command_each_module_registers():
    every = set(main.COMMAND_MODULES)
    assert set(_names(main.build_app())) == every == set(_names(main.app))
    for command, module in main.COMMAND_MODULES.items():
        narrow = set(_names(main.build_app(command)))
        assert narrow == {c for c, m in main.COMMAND_MODULES.items() if m == module}
    assert set(_names(main.build_app("no-such-command"))) == every
    assert _names(main.build_app(main.NO_COMMAND)) == []


def test_the_command_is_read_past_the_roots_own_options():
    named = main.command_named
    assert named([]) == named(["--tools", "tools", "--no-history"]) == main.NO_COMMAND
    assert named(["--tools", "call"]) == main.NO_COMMAND  # a folder named call: the TUI
    assert named(["--mcp", "npx server", "--in-process"]) == main.NO_COMMAND
    assert named(["--tools", "x", "call"]) == "call"  # an error, said by call's app
    assert named(["--history", "h.db", "history"]) == "history"
    assert named(["eval", "cases.jsonl"]) == "eval"
    assert named(["call", "--help"]) == "call"
    # the whole app: help, a misspelt command (the suggestion), a line click cannot read
    assert named(["--help"]) is named(["-h"]) is named(["cal"]) is None
    assert named(["--in-process", "cal"]) is None
    assert named(["--version"]) == main.NO_COMMAND


def test_the_version_is_printed_once(capsys):
    assert main.command_named(["--version"]) == main.NO_COMMAND
    assert capsys.readouterr().out == ""  # reading the line runs no option's callback
    code, modules, output = _probe("--version")
    assert code == 0 and modules == [] and output.count("playground ") == 1, output


PROBE = r"""
import json, sys
from playground.cli.main import run
try:
    run(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "modules": sorted(m for m in sys.modules
                  if m.startswith("playground.cli.cmd_"))}), file=sys.stderr)
"""


def _probe(*args: str) -> tuple[int, list[str], str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=REPO, env=env, capture_output=True, text=True
    )
    report = json.loads(out.stderr.strip().splitlines()[-1])
    return report["code"], report["modules"], out.stdout + out.stderr


def test_call_imports_only_its_own_command_module():
    code, modules, output = _probe(
        "call", "get_order_status", "order_id=HR20260604", "--format", "json", "--in-process"
    )
    assert code == 0 and modules == ["playground.cli.cmd_call"], output
    assert '"order_id": "HR20260604"' in output


def test_options_without_a_command_import_no_command_module():
    """What ``playground --tools DIR`` parses before the TUI opens (here an unknown option
    stops it: the same one-line error as with every command built)."""
    code, modules, output = _probe("--tools", "tools", "--no-such-option")
    assert code == 2 and modules == [], output
    assert "No such option: --no-such-option (see 'playground --help')" in output


def test_a_misspelt_command_still_gets_the_suggestion_from_the_full_app():
    code, modules, output = _probe("cal", "x")
    assert code == 2 and "No such command 'cal'. Did you mean 'call'?" in output
    assert len(modules) == len(set(main.COMMAND_MODULES.values()))
