"""Task-augmented calls (issue 21, item 6; MCP spec 2025-11-25 "Tasks") against
``fixtures/mcp_task_server.py``, a real stdio server built with the ``mcp`` SDK whose tools
run only as tasks: created with ``tools/call`` + ``task``, polled with ``tasks/get``, fetched
with ``tasks/result``, stopped with ``tasks/cancel``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from playground.core.gate import Gate
from playground.core.registry import Registry
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpSource, add_mcp_servers
from tests.mcp.servers import REPO, read_log
from tests.signals import sigint_as_in_a_terminal
from tests.zygote import forked_line

TASK_SERVER = REPO / "fixtures" / "mcp_task_server.py"


def wait_for(check, limit_s: float = 15.0) -> None:
    deadline = time.monotonic() + limit_s
    while not check():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tasks") / "calls.jsonl"


@pytest.fixture(scope="module")
def tasks(log: Path) -> Iterator[tuple[Gate, McpSource]]:
    """The task server over stdio with a 1 s limit (each new status starts it again)."""
    registry = Registry()
    specs = server_specs(commands=[forked_line(TASK_SERVER, "--log", str(log))], timeout_ms=1000)
    sources, _ = add_mcp_servers(registry, specs)
    assert registry.problems == []
    yield Gate(registry), sources[0]
    sources[0].close()


def test_a_task_only_tool_is_called_as_a_task_polled_and_its_result_recorded(tasks, log) -> None:
    gate, source = tasks
    shown: list[str] = []
    source.on_progress = lambda tool, done, total, message: shown.append(f"{tool}: {message}")
    try:
        record = gate.call("report", {"seconds": 0.3})
    finally:
        source.on_progress = None
    assert record.ok and record.value == "report ready: 42 rows"
    task = record.mcp["task"]
    # each status the polls saw, in the server's order (how many steps a poll sees depends on
    # timing; the first and the last do not)
    steps = [None, "step 1 of 3", "step 2 of 3", "step 3 of 3", "done"]
    messages = [s["statusMessage"] for s in task["statuses"]]
    assert messages[0] is None and messages[-1] == "done"
    assert messages == sorted(messages, key=steps.index)
    assert task["statuses"][-1]["status"] == "completed"
    assert "cancelled" not in task
    assert shown[-1] == "report: task completed: done"
    assert record.mcp["result"]["content"] == [{"type": "text", "text": "report ready: 42 rows"}]
    sent = [e for e in read_log(log) if e.get("params", {}).get("taskId") == task["taskId"]]
    methods = [e["method"] for e in sent]
    assert methods[0] == "tasks/get" and methods[-1] == "tasks/result"
    (call,) = [e for e in read_log(log) if e.get("method") == "tools/call"][:1]
    assert call["params"]["task"] == {"ttl": 600000}


def test_a_failed_task_is_the_tools_own_error_with_its_text(tasks) -> None:
    gate, _ = tasks
    record = gate.call("broken", {})
    assert record.kind == "raised" and "the report source is gone" in record.message
    assert record.mcp["task"]["statuses"][-1] == {
        "status": "failed",
        "statusMessage": "the report source is gone",
    }


def test_a_task_with_no_news_past_its_limit_is_cancelled_with_tasks_cancel(tasks, log) -> None:
    gate, _ = tasks
    record = gate.call("forever", {})
    assert record.kind == "transient"
    task = record.mcp["task"]
    assert task["cancelled"] == "tasks/cancel sent"
    assert "no result or progress within 1 s" in record.mcp["cancelled"]
    wait_for(lambda: {"cancelled": task["taskId"]} in read_log(log))


def test_the_tuis_cancel_sends_tasks_cancel(tasks, log) -> None:
    gate, source = tasks
    working = threading.Event()
    source.on_progress = lambda *args: working.set()
    records: list = []
    thread = threading.Thread(target=lambda: records.append(gate.call("forever", {})))
    thread.start()
    try:
        assert working.wait(10)
        assert source.cancel_current()
        thread.join(10)
    finally:
        source.on_progress = None
    (record,) = records
    assert record.kind == "cancelled"
    task_id = record.mcp["task"]["taskId"]
    assert record.mcp["task"]["cancelled"] == "tasks/cancel sent"
    wait_for(lambda: {"cancelled": task_id} in read_log(log))


def test_the_cli_polls_a_task_and_ctrl_c_cancels_it_with_tasks_cancel(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    line = forked_line(TASK_SERVER, "--log", str(log))
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "playground", "call", "forever", "--mcp", line, "--mcp-timeout",
         "30000", "--format", "json", "--no-history"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=sigint_as_in_a_terminal,
    )  # fmt: skip
    try:
        # polls are sequential: once the server logs a second tasks/get, the client holds the
        # first one's reply (the status with its message)
        wait_for(lambda: sum(e.get("method") == "tasks/get" for e in read_log(log)) >= 2, 30)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    record = json.loads(out)
    assert record["kind"] == "cancelled"
    assert record["mcp"]["task"]["statuses"][-1] == {
        "status": "working",
        "statusMessage": "waiting forever",
    }
    assert record["mcp"]["task"]["cancelled"] == "tasks/cancel sent"
    assert {"cancelled": record["mcp"]["task"]["taskId"]} in read_log(log)
