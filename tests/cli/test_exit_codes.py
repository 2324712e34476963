"""Every command follows docs/cli.md's exit codes (issue 26 item 6), in real ``playground``
subprocesses: ``ask`` whose router could not answer is 2, not 0; ``call`` of a tool that loaded
and ran is 0 though another module did not load; a closed stdout (``| head -1``) ends any
command quietly with 0, whether the command was still writing its table (Rich), its JSON or
its last line (docs/cli.md). (``serve`` stopped by ctrl+c / SIGTERM: tests/cli/test_serve.py.)"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.playground_cli import run_playground

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tools" / "shop.py"


def playground(*args: object, **env: str) -> subprocess.CompletedProcess[str]:
    return run_playground(*args, env={"PLAYGROUND_IN_PROCESS": "1", **env})


def stdout_already_closed(*args: object) -> tuple[int, str]:
    """``playground ARGS | true``: stdout is a pipe whose reader has gone before the command
    writes (every write meets EPIPE, as the rest of ``| head -1`` does, without the race);
    the exit code and stderr."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "playground", *map(str, args)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "PLAYGROUND_IN_PROCESS": "1"},
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    return done.returncode, done.stderr


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once closed


def test_ask_whose_router_could_not_answer_exits_2_with_the_episode(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    done = playground(
        "ask", "HR20260604 배송", "--router", "openai-compatible", "--base-url", url,
        "--model", "m", "--tools", SHOP, "--history", tmp_path / "h.db", "--format", "json",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    episode = json.loads(done.stdout)
    assert (episode["end"], episode["gave_up"]) == ("router_error", True)
    assert done.stderr.splitlines()[-1] == (
        "note: The router could not answer: cannot reach OpenAI-compatible server: connection "
        "refused (is it running?)"
    )
    listed = json.loads(playground("history", "--history", tmp_path / "h.db", "-f", "json").stdout)
    assert len(listed) == 1  # still recorded


def test_a_call_that_ran_exits_0_though_another_module_did_not_load(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('broken at import')\n", encoding="utf-8")
    done = playground(
        "call", "get_order_status", "order_id=HR20260604", "--tools", SHOP, "--tools", broken,
        "--history", tmp_path / "h.db", "--format", "json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["kind"] == "ok"
    assert done.stderr.splitlines() == [
        f"error: {broken}: import failed: RuntimeError: broken at import"
    ]
    listed = playground("list", "--tools", SHOP, "--tools", broken)
    assert listed.returncode == 2  # a listing is about every module: the failed one counts


@pytest.mark.parametrize(
    "args",
    [
        ("probe", "get_order_status"),  # a Rich table still being written
        ("lint",),
        ("list", "--format", "json"),
        ("eval", REPO / "fixtures" / "routing_cases.jsonl", "--format", "jsonl"),
    ],
    ids=["probe", "lint", "list-json", "eval-jsonl"],
)
def test_a_closed_stdout_ends_every_command_quietly_with_0(args):
    assert stdout_already_closed(*args, "--tools", SHOP) == (0, "")
