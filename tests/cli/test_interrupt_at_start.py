"""A ctrl+c at any moment of a command's start ends as one later does: ``error: interrupted``
on stderr, exit 130, no traceback — while the command-line modules import
(``playground.__main__.main``), while the commands are built, and while the arguments are
parsed (typer turns that one into a silent exit 130; ``run`` adds the line)."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

from playground.cli import main

REPO = Path(__file__).resolve().parents[2]


def _interrupt(*_args: object, **_kwargs: object) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize("where", ["check_settings", "build_app"])
def test_ctrl_c_before_the_command_runs_is_one_line_and_exit_130(where, monkeypatch, capsys):
    monkeypatch.setattr(main, where, _interrupt)
    for _ in range(2):  # a second run in the same process still says it
        with pytest.raises(SystemExit) as done:
            main.run(["list", "--tools", str(REPO / "tools")])
        assert done.value.code == 130
        captured = capsys.readouterr()
        assert captured.err.splitlines() == ["error: interrupted"] and captured.out == ""


# Raises KeyboardInterrupt when typer is imported, as a ctrl+c in the first tenth of a second
# does, then enters as the ``playground`` console script does.
IMPORT_PROBE = r"""
import sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "typer":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
from playground.__main__ import main
main()
"""


def test_ctrl_c_while_the_cli_modules_import_is_one_line_and_exit_130():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE, "list"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (out.returncode, out.stdout, out.stderr) == (130, "", "error: interrupted\n")


def test_the_console_script_enters_through_main():
    (script,) = importlib.metadata.entry_points(group="console_scripts", name="playground")
    assert script.value == "playground.__main__:main"
