"""The command line builds only the command it runs (cli/main.py ``build_app``): the map of
command names to modules is complete, a narrow app behaves like the full one, and
``playground call`` does not import the other commands' modules."""

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


def test_a_misspelt_command_still_gets_the_suggestion_from_the_full_app():
    code, modules, output = _probe("cal", "x")
    assert code == 2 and "No such command 'cal'. Did you mean 'call'?" in output
    assert len(modules) == len(set(main.COMMAND_MODULES.values()))
