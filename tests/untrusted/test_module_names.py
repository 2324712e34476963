"""What a tool folder and the working directory can shadow: a ``selectors.py`` or ``json.py``
in the working directory, tool modules named like standard modules (``calendar.py``,
``email.py``, ``json.py``), and a module that changes the working directory as it is imported
with ``--tools`` given as a relative path. Each once broke the worker ('module 'json' has no
attribute 'loads'', code from the working directory run at start-up, '/tools/m_ok.py: No such
file'); now every module loads and runs for itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TOOL = '''
def {name}(n: int = 1) -> dict:
    """Returns n.

    Args:
        n: any number
    """
    {body}
    return {{"n": n, "from": __name__}}


__tools__ = [{name}]
'''


def _tool(folder: Path, file: str, name: str, body: str = "pass", head: str = "") -> None:
    (folder / file).write_text(head + TOOL.format(name=name, body=body), encoding="utf-8")


def _playground(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLAYGROUND_")}
    env.update(PLAYGROUND_HISTORY="off", XDG_STATE_HOME=str(cwd / "state"))
    return subprocess.run(
        # -P: the entry point's own sys.path, as the installed ``playground`` script has it
        [sys.executable, "-P", "-m", "playground", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )


def test_standard_module_names_and_the_working_directory_shadow_nothing(tmp_path: Path) -> None:
    (tmp_path / "selectors.py").write_text('raise SystemExit("a selectors.py in the cwd ran")\n')
    (tmp_path / "json.py").write_text("x = 1\n")
    tools = tmp_path / "tools"
    tools.mkdir()
    _tool(tools, "calendar.py", "next_holiday", body="import calendar as c; c.timegm")
    _tool(tools, "email.py", "send_note", body="from email.message import EmailMessage")
    _tool(tools, "json.py", "dump_it", body="import json as j; j.loads('1')")
    _tool(tools, "a_chdir.py", "moved", head="import os\nos.chdir('/')\n")
    _tool(tools, "m_ok.py", "ok_tool")
    listed = _playground(tmp_path, "list", "--tools", "tools", "--format", "json")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    names = sorted(c["name"] for c in json.loads(listed.stdout))
    assert names == ["dump_it", "moved", "next_holiday", "ok_tool", "send_note"]
    for name in names:
        called = _playground(tmp_path, "call", name, "n:=2", "--tools", "tools", "-f", "json")
        assert called.returncode == 0, called.stdout + called.stderr
        assert json.loads(called.stdout)["value"]["n"] == 2, name
