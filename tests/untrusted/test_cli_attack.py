"""Every CLI command's table output on the escape corpus, read through a pseudo-terminal
(issue 27): no raw control, bidi or invisible character reaches the terminal, the visible marks
are there, and ``--format json`` parses back to the exact values. Bodies run in the worker
process (the default), whose output is captured, never the terminal's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.untrusted.attack import CORPUS_TOOLS, raw_controls, run_in_pty, server_line
from tests.untrusted.corpus import ALL, CORPUS

pytestmark = pytest.mark.worker_process


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("attack")
    cases = home / "cases.jsonl"
    cases.write_text(
        json.dumps({"question": "copy " + ALL, "expect_tool": "corpus_raise"}) + "\n",
        encoding="utf-8",
    )
    checks = home / "checks.jsonl"
    checks.write_text(
        json.dumps({"tool": "corpus_echo", "args": {"entry": "c1_csi"}, "expect": {"kind": ALL}})
        + "\n",
        encoding="utf-8",
    )
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PLAYGROUND_")}
    environ.update(
        TERM="xterm-256color",
        COLUMNS="160",
        PLAYGROUND_HISTORY=str(home / "history.sqlite"),
        PLAYGROUND_CACHE_DIR=str(home / "cache"),
        ATTACK_HOME=str(home),
    )
    environ.pop("NO_COLOR", None)
    return environ


def _check(code: int, stream: str, *marks: str) -> None:
    assert raw_controls(stream) == [], stream[:2000]
    assert "\ufffd" not in stream
    for mark in marks:
        assert mark in stream, f"{mark!r} not shown"
    assert code in (0, 1), stream[-500:]


T = ["--tools", str(CORPUS_TOOLS)]


@pytest.mark.parametrize(
    ("args", "marks"),
    [
        (["list", *T], ["\\x1b]52;c;", "\\x9b31m", "\\x1b[2J"]),
        (["show", "corpus_echo", *T], ["\\u001b]52;c;", "\\u009b31m", "\\u202e"]),
        (["call", "corpus_echo", "entry=bidi_override", *T], ["\\u202e", "\\u009d0;"]),
        (["call", "corpus_raise", *T], ["\\x1b]52;c;", "\\x9b31m"]),
        (
            ["call", "corpus_print", *T],
            ["stdout copy\\x1b]52", "fd2 copy", "child copy", "<U+2066>", "재고 확인 👍🏽"],
        ),
        (["call", "corpus_long", *T], ["\\u001b]52;c;AAAA"]),
        (["lint", *T], []),
    ],
    ids=["list", "show", "call", "call-raise", "call-print", "call-long", "lint"],
)
def test_tool_module_tables(env: dict[str, str], args: list[str], marks: list[str]) -> None:
    code, stream = run_in_pty(args, env)
    _check(code, stream, *marks)


def test_ask_eval_check_and_history_tables(env: dict[str, str]) -> None:
    home = Path(env["ATTACK_HOME"])
    code, stream = run_in_pty(["ask", "copy " + CORPUS["osc52_clipboard"], *T], env)
    _check(code, stream, "\\x1b]52;c;")
    code, stream = run_in_pty(["eval", str(home / "cases.jsonl"), *T], env)
    _check(code, stream, "\\x1b]52;c;")
    code, stream = run_in_pty(["check", str(home / "checks.jsonl"), *T], env)
    _check(code, stream, "\\x1b]52;c;")
    code, stream = run_in_pty(["history", "list"], env)
    _check(code, stream)
    code, stream = run_in_pty(["history", "show", "1"], env)
    _check(code, stream, "]52;c;")  # as \x1b in a text, as \u001b in JSON


def test_mcp_server_tables(env: dict[str, str]) -> None:
    mcp = ["--mcp", server_line()]
    code, stream = run_in_pty(["list", *mcp], env)
    _check(code, stream, "\\x1b]52;c;", "<U+202E>")
    code, stream = run_in_pty(["call", "mcp_corpus_fail", "entry=c1_csi", *mcp], env)
    _check(code, stream, "\\x9b31m", "<U+202E>")


def test_json_output_round_trips_the_exact_values(env: dict[str, str]) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "playground", "call", "corpus_echo", "--format", "json", *T],
        capture_output=True,
        env=env,
        check=True,
    ).stdout.decode("utf-8")
    assert raw_controls(out) == []
    record = json.loads(out)
    assert record["value"]["all"] == ALL
    assert record["value"]["text"] == CORPUS["osc52_clipboard"]
    assert "copy \\u001b]52" not in out and "\\u001b]52;c;cHduZWQ=" in out
    assert "재고 확인 👍🏽" in out
