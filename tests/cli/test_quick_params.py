"""typer's coercion without pydantic (playground/cli/quick_params.py, docs/performance.md
"typer without pydantic"): every parameter of every command coerces every value as typer's own
adapter does, refusals included, and a ``call`` imports no pydantic."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer._click import Context
from typer._coercion import build_runtime_param

from playground.cli.main import build_app
from playground.cli.quick_params import _NOT_QUICK, QuickRuntimeParam, quick_value

REPO = Path(__file__).resolve().parents[2]

VALUES = [
    "tools",
    "",
    "json",
    "JSON",
    "jsonl",
    "table",
    "nope",
    "3",
    "2.5",
    " 7 ",
    "abc",
    "-",
    "한글",
    str(REPO / "tools"),
    "/nonexistent/x",
    3,
    2.5,
    True,
    False,
    ("tools", "fixtures"),
    ["a=1", "b:=2"],
    (),
    ("",),
]


def _outcome(coerce, value, param, ctx):
    try:
        out = coerce(value, param=param, ctx=ctx)
    except Exception as exc:
        return ("raised", type(exc).__name__, str(exc))
    return (
        "value",
        type(out).__name__,
        out if not isinstance(out, list) else [(type(o).__name__, o) for o in out],
    )


def _parameters():
    command = typer.main.get_command(build_app())
    for sub in command.commands.values():  # type: ignore[attr-defined]
        for param in sub.params:
            if hasattr(param, "type_descriptor"):
                yield sub, param


def test_every_parameter_coerces_every_value_as_typers_adapter_does():
    compared = quick = 0
    for sub, param in _parameters():
        ctx = Context(sub)
        descriptor = param.type_descriptor
        mine = QuickRuntimeParam(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            descriptor=descriptor,
        )
        theirs = build_runtime_param(descriptor)
        for value in VALUES:
            expected = _outcome(theirs.coerce, value, param, ctx)
            assert _outcome(mine.coerce, value, param, ctx) == expected, (sub.name, param.name)
            compared += 1
            quick += quick_value(descriptor, value, ctx) is not _NOT_QUICK
    assert compared > 1000 and quick > 200  # the quick way is taken, and agrees


@pytest.mark.parametrize(
    ("annotation", "value", "expected"),
    [
        (str, "x", "x"),
        (list[str], ("a", "b"), ["a", "b"]),
        (Path, "tools", Path("tools")),
        (list[Path], ["tools"], [Path("tools")]),
    ],
)
def test_the_usual_values_take_the_quick_way(annotation, value, expected):
    from typer._coercion import resolve_type_descriptor
    from typer.models import OptionInfo

    descriptor = resolve_type_descriptor(annotation, OptionInfo())
    assert quick_value(descriptor, value, None) == expected


CALL = r"""
import json, sys
from playground.cli.main import run
try:
    run(["call", "get_order_status", "order_id=HR20260604", "--tools", "tools", "--format", "json"])
except SystemExit as done:
    code = done.code
sys.stderr.write(json.dumps({"code": code, "pydantic": "pydantic" in sys.modules}))
"""


def test_a_call_imports_no_pydantic(tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "PLAYGROUND_CACHE_DIR": str(tmp_path)}
    env["PLAYGROUND_HISTORY"] = str(tmp_path / "history.db")
    for _ in range(2):  # the first run fills the load caches
        out = subprocess.run(
            [sys.executable, "-c", CALL], cwd=REPO, env=env, capture_output=True, text=True
        )
    assert out.returncode == 0, out.stderr[-500:]
    assert json.loads(out.stdout)["ok"] is True
    assert json.loads(out.stderr.strip().splitlines()[-1]) == {"code": 0, "pydantic": False}
