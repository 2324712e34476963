"""Issue 21 against a real MCP server process (fixtures/mcp_protocol_server.py, written with the
``mcp`` SDK): the server's own time limits and progress, ctrl+c, errors from protocol signals,
content blocks on every provider's wire, pagination faults, list_changed, names, SSE, HTTP 404.
Times are scaled down (a 1.5 s tool under a 1 s limit) to keep the suite fast."""

from __future__ import annotations

import itertools
import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from playground.core.gate import Gate, RetryPolicy
from playground.core.registry import Registry
from playground.errors import UsageError
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpSource, add_mcp_servers
from tests.in_process_cli import run_in_process
from tests.mcp.servers import (
    PROTOCOL_SERVER,
    REPO,
    http_protocol_server,
    read_log,
)
from tests.signals import sigint_as_in_a_terminal
from tests.zygote import forked_entry, forked_line

PICTURE_SIZE = (800, 600)


def served(specs: list, **options: float) -> tuple[Registry, Gate, list[McpSource]]:
    registry = Registry()
    sources, _ = add_mcp_servers(registry, specs, **options)
    return (
        registry,
        Gate(registry, retry=RetryPolicy(max_attempts=3), sleep=lambda s: None),
        sources,
    )


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("protocol") / "calls.jsonl"


@pytest.fixture(scope="module")
def lab(log: Path) -> Iterator[tuple[Registry, Gate, McpSource]]:
    """The protocol server over stdio with a 1 s limit and a 2.5 s maximum in all."""
    specs = server_specs(
        commands=[forked_line(PROTOCOL_SERVER, "--log", str(log))],
        timeout_ms=1000,
        max_total_ms=2500,
    )
    registry, gate, sources = served(specs)
    assert registry.problems == []
    yield registry, gate, sources[0]
    sources[0].close()


# ---- names and versions ---------------------------------------------------------------------


def test_a_server_from_mcp_takes_its_server_info_name_and_records_the_version(lab) -> None:
    _registry, gate, source = lab
    assert source.label == "mcp:protocol-lab"
    record = gate.call("sum", {"a": 2, "b": 3})
    assert record.ok and record.source == "mcp:protocol-lab"
    assert record.mcp["protocolVersion"] == source.protocol_version != ""
    # a text result is its own text on the Anthropic wire, not a JSON-quoted string
    assert record.wire["anthropic"]["content"] == "The sum of 2 and 3 is 5."
    assert record.wire["openai"]["content"] == "The sum of 2 and 3 is 5."


def test_an_mcp_servers_key_names_the_server(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"lab": forked_entry(PROTOCOL_SERVER)}}))
    registry, _gate, sources = served(server_specs(configs=[config]))
    try:
        assert sources[0].label == "mcp:lab"
        assert registry.get("sum").source == "mcp:lab"
    finally:
        sources[0].close()


# ---- time -----------------------------------------------------------------------------------


def test_a_config_timeout_lets_a_slow_tool_finish_and_the_cli_timeout_cuts_it(
    tmp_path: Path,
) -> None:
    entry = {**forked_entry(PROTOCOL_SERVER), "timeout": 3000}
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"lab": entry}}))
    registry, gate, sources = served(server_specs(configs=[config]))
    try:
        assert registry.get("wait").timeout_s == 3.0
        record = gate.call("wait", {"seconds": 1.5})
        assert (record.kind, record.value) == ("ok", "waited 1.5 s")
    finally:
        sources[0].close()
    registry, gate, sources = served(
        server_specs(configs=[config], timeout_ms=500, tool_timeouts=["sum=4000"])
    )
    try:
        assert registry.get("sum").timeout_s == 4.0  # the per-tool override
        record = gate.call("wait", {"seconds": 1.5})
        assert record.kind == "transient" and record.error == "transient:timeout"
        assert record.mcp["cancelled"].startswith("no result or progress within 0.5 s")
        assert record.body_runs == 1  # a timeout is never retried
    finally:
        sources[0].close()


def test_progress_resets_the_limit_and_is_kept_in_the_record(lab) -> None:
    _, gate, _ = lab
    record = gate.call("ticking", {"seconds": 1.6, "every": 0.2})  # 1.6 s under a 1 s limit
    assert (record.kind, record.value) == ("ok", "done after 8 steps")
    progress = record.mcp["progress"]
    assert [p["progress"] for p in progress] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert {p["total"] for p in progress} == {8}
    assert progress[0]["message"] == "step 1"
    assert all(a["at_ms"] < b["at_ms"] for a, b in itertools.pairwise(progress))


def test_progress_is_bounded_by_the_maximum_total_time(lab, log: Path) -> None:
    _, gate, _ = lab
    started = time.monotonic()
    record = gate.call("ticking", {"seconds": 6, "every": 0.2})
    assert record.kind == "transient"
    assert record.mcp["cancelled"] == "no result within the maximum total time of 2.5 s"
    assert time.monotonic() - started < 6
    deadline = time.monotonic() + 5
    while {"cancelled": "ticking"} not in read_log(log) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert {"cancelled": "ticking"} in read_log(log)  # notifications/cancelled arrived


def test_ctrl_c_cancels_the_call_on_the_server_and_the_record_says_cancelled(lab, log) -> None:
    _, gate, _ = lab
    before = len(read_log(log))
    main = threading.main_thread().ident
    assert main is not None
    # ctrl+c raises KeyboardInterrupt here even when pytest was started with SIGINT ignored (a
    # background job, as CI scripts run it: the disposition is inherited across exec)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    returned = threading.Event()

    def interrupt_when_running() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not returned.is_set():
            if any(e.get("tool") == "ticking" for e in read_log(log)[before:]):
                signal.pthread_kill(main, signal.SIGINT)  # only while the call runs
                return
            time.sleep(0.02)

    threading.Thread(target=interrupt_when_running, daemon=True).start()
    try:
        record = gate.call("ticking", {"seconds": 5, "every": 0.2})
    finally:
        returned.set()
        signal.signal(signal.SIGINT, previous)
    assert record.kind == "cancelled" and record.error == "cancelled:user"
    assert record.mcp["cancelled"] == "cancelled by the user (ctrl+c)"
    assert "cancelled by the user" in record.message
    deadline = time.monotonic() + 5
    while read_log(log)[before:].count({"cancelled": "ticking"}) == 0:
        assert time.monotonic() < deadline, read_log(log)[before:]
        time.sleep(0.02)


@pytest.mark.parametrize("task_started", [False, True])
def test_ctrl_c_while_the_call_is_handed_to_the_loop_is_a_cancelled_record(
    lab, log, monkeypatch, task_started: bool
) -> None:
    """Under load, a ctrl+c landed after the call was handed to the source's loop but before
    the wait for it began: it escaped the source and the CLI printed only "error:
    interrupted", no record. The hand-over is guarded now: before the call's task starts
    nothing is sent (and the record says so); after, the server gets notifications/cancelled."""
    _, gate, source = lab
    before = len(read_log(log))
    submit = source._submit

    held = threading.Event()  # holds the source's loop: the call's task cannot start yet
    if not task_started:
        source._ensure_loop().call_soon_threadsafe(held.wait, 30)

    def submit_then_interrupt(coro):  # the KeyboardInterrupt a SIGINT raises at that moment
        submit(coro)  # the call is on its way to the loop; its future is lost
        if task_started:
            deadline = time.monotonic() + 30
            while not any(e.get("tool") == "ticking" for e in read_log(log)[before:]):
                assert time.monotonic() < deadline
                time.sleep(0.02)
        raise KeyboardInterrupt

    monkeypatch.setattr(source, "_submit", submit_then_interrupt)
    try:
        record = gate.call("ticking", {"seconds": 5, "every": 0.2})
    finally:
        held.set()
    monkeypatch.setattr(source, "_submit", submit)
    assert record.kind == "cancelled" and record.error == "cancelled:user"
    if task_started:
        assert "notifications/cancelled sent to the server" in record.message
        deadline = time.monotonic() + 5
        while read_log(log)[before:].count({"cancelled": "ticking"}) == 0:
            assert time.monotonic() < deadline, read_log(log)[before:]
            time.sleep(0.02)
    else:
        assert "before the request was sent: nothing went to the server" in record.message
    # the source goes on serving (arguments of this case alone: the gate caches a read)
    assert gate.call("sum", {"a": 41, "b": int(task_started)}).ok
    # ... and the held call, once its task ran, sent nothing (the server logs every call)
    deadline = time.monotonic() + 10
    while (sent := [e.get("tool") for e in read_log(log)[before:] if "tool" in e])[-1:] != ["sum"]:
        assert time.monotonic() < deadline, sent  # the server logs a call as it handles it
        time.sleep(0.02)
    assert sent == (["ticking", "sum"] if task_started else ["sum"])


def test_ctrl_c_in_the_cli_prints_a_cancelled_record(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    env = {"PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    import os

    proc = subprocess.Popen(
        [sys.executable, "-m", "playground", "call", "ticking", "seconds:=5", "every:=0.2",
         "--mcp", forked_line(PROTOCOL_SERVER, "--log", str(log)), "--format", "json",
         "--no-history"],
        cwd=REPO, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, preexec_fn=sigint_as_in_a_terminal,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not any(e.get("tool") == "ticking" for e in read_log(log)):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    record = json.loads(out)
    assert record["kind"] == "cancelled" and record["mcp"]["cancelled"].startswith("cancelled")
    assert record["body_ran"] is True and record["body_runs"] == 1  # the server was running it
    # the server logs the cancellation when it reads it, which may be after the CLI has exited
    deadline = time.monotonic() + 15
    while {"cancelled": "ticking"} not in read_log(log) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert {"cancelled": "ticking"} in read_log(log)


# ---- errors ---------------------------------------------------------------------------------


def test_an_is_error_text_is_kept_verbatim_and_never_permission(lab) -> None:
    _, gate, _ = lab
    record = gate.call("negative", {"value": -1})
    text = "Input validation error: -1 is invalid: negative values are not allowed"
    assert record.kind == "raised" and record.kind != "permission"
    assert text in record.message
    assert text in record.wire["anthropic"]["content"]
    assert text in record.wire["gemini"]["function_response"]["response"]["error"]
    assert text in record.wire["openai"]["content"]
    assert record.mcp["result"] == {
        "content": [{"type": "text", "text": text}],
        "isError": True,
    }


def test_an_is_error_saying_unavailable_is_sent_once(lab, log: Path) -> None:
    _, gate, _ = lab
    before = len(read_log(log))
    record = gate.call("unavailable", {})
    assert record.kind == "raised" and record.body_runs >= 1 and record.retries == []
    assert [e for e in read_log(log)[before:] if e.get("tool") == "unavailable"] == [
        {"tool": "unavailable", "arguments": {}}
    ]
    assert "the pricing service is unavailable right now" in record.message


# ---- content --------------------------------------------------------------------------------


def test_an_image_result_reaches_every_providers_wire_and_counts_its_tokens(lab) -> None:
    _, gate, _ = lab
    from fixtures.mcp_protocol_server import PICTURE

    record = gate.call("picture", {})
    assert record.ok
    sent = record.mcp["result"]["content"]
    assert sent[1] == {
        "type": "image",
        "data": PICTURE,
        "mimeType": "image/png",
        "annotations": {"audience": ["user"], "priority": 0.5},
    }
    anthropic = record.wire["anthropic"]["content"]
    assert anthropic[0] == {"type": "text", "text": "an 800×600 chart"}
    assert anthropic[1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": PICTURE},
    }
    assert "not carried" in anthropic[2]["text"] and "audio/wav" in anthropic[2]["text"]
    gemini = record.wire["gemini"]["function_response"]
    import base64

    (part,) = gemini["parts"]
    assert part["inline_data"]["mime_type"] == "image/png"
    assert base64.urlsafe_b64decode(part["inline_data"]["data"]) == base64.b64decode(PICTURE)
    assert "not carried" in gemini["response"]["not_carried"][0]
    openai = record.wire["openai"]
    assert openai["type"] == "function_call_output"
    assert openai["output"][1] == {
        "type": "input_image",
        "image_url": f"data:image/png;base64,{PICTURE}",
    }
    tokens = record.wire["tokens"]
    # the published rules for 800 x 600: Anthropic w*h/750, Gemini 258 per 768 px tile,
    # OpenAI 85 + 170 per 512 px tile
    assert tokens["anthropic"] >= 640 and tokens["anthropic"] < 640 + 100
    assert tokens["gemini"] >= 516 and tokens["gemini"] < 516 + 100
    assert tokens["openai"] >= 765 and tokens["openai"] < 765 + 100
    assert any("audio/wav" in w and "not carried" in w for w in record.warnings)


def test_structured_content_with_empty_content_is_a_warning(lab) -> None:
    _, gate, _ = lab
    record = gate.call("structured_only", {})
    assert record.ok and record.value == {"count": 3}
    assert any("empty content list" in w for w in record.warnings)


# ---- listing --------------------------------------------------------------------------------


def test_a_repeating_cursor_keeps_the_tools_and_names_the_fault() -> None:
    started = time.monotonic()
    registry, _, sources = served(
        server_specs(commands=[forked_line(PROTOCOL_SERVER, "cursor-loop")])
    )
    try:
        took = time.monotonic() - started
        assert registry.names() == ["wait", "ticking", "negative"]
        (problem,) = registry.problems
        assert problem.where == "mcp:protocol-lab"
        assert problem.message == (
            "tools/list page 2 sent the nextCursor 'page-2' again: the server's pagination "
            "loops; listing stopped with the 6 tool(s) listed so far"
        )
        assert took < 10  # a loop would never end; under 2 s on an idle machine
    finally:
        sources[0].close()


def test_a_tool_added_with_list_changed_is_callable() -> None:
    registry, gate, sources = served(server_specs(commands=[forked_line(PROTOCOL_SERVER)]))
    try:
        assert "extra" not in registry
        record = gate.call("add_tool", {})
        assert record.ok and any("added extra" in w for w in record.warnings)
        assert gate.call("extra", {}).value == "extra ran"
    finally:
        sources[0].close()


# ---- transports ---------------------------------------------------------------------------


def test_the_legacy_sse_transport_from_an_sse_url() -> None:
    with http_protocol_server("--sse") as port:
        specs = server_specs(urls=[f"http://127.0.0.1:{port}/sse"])
        assert specs[0].transport == "sse"
        registry, gate, sources = served(specs)
        try:
            assert registry.problems == []
            record = gate.call("sum", {"a": 1, "b": 2})
            assert record.value == "The sum of 1 and 2 is 3."
            assert record.mcp["transport"] == "sse"
        finally:
            sources[0].close()


def test_a_wrong_http_path_names_the_404() -> None:
    with http_protocol_server("--http") as port:
        url = f"http://127.0.0.1:{port}/wrong"
        registry, _, sources = served(server_specs(urls=[url]), connect_timeout_s=5)
        try:
            (problem,) = registry.problems
            assert problem.message.startswith(f"initialize failed: {url} answered HTTP 404")
            assert "no MCP endpoint at this path" in problem.message
            assert "cat" not in problem.message
        finally:
            sources[0].close()


# ---- probe --against-server -------------------------------------------------------------------


def test_probe_against_the_server_reports_where_server_and_schema_disagree(lab, log) -> None:
    from playground.batch.probe import probe_against_server, probe_contract

    _, gate, _ = lab
    report = probe_against_server(gate, probe_contract(gate, "sum"))
    cases = {c.name: c for c in report.cases}
    # the fixture does no validation of its own: it adds True as 1
    assert cases["type:a=true"].verdict != "valid"
    assert cases["type:a=true"].server == "accepted"
    assert cases["type:a=true"].disagrees == "schema refuses, server accepts"
    assert cases["args-as-json-string"].server == "not sent"
    assert report.to_json()["disagreements"] == len([c for c in report.cases if c.disagrees])
    sent = [e for e in read_log(log) if e.get("tool") == "sum"]
    assert {"tool": "sum", "arguments": {"a": True, "b": 1}} in sent


# ---- client features ------------------------------------------------------------------------


def test_roots_elicitation_and_sampling(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"name": "하루"}), encoding="utf-8")
    specs = server_specs(
        commands=[forked_line(PROTOCOL_SERVER)], roots=[tmp_path], elicit_file=answers
    )
    _, gate, sources = served(specs)
    try:
        assert gate.call("roots", {}).value == tmp_path.resolve().as_uri()
        record = gate.call("ask_name", {})
        assert json.loads(record.value) == {"action": "accept", "content": {"name": "하루"}}
        assert any("accepted with" in w for w in record.warnings)
        sampled = gate.call("sample", {})
        assert sampled.kind == "raised" and "sampling/createMessage refused" in sampled.message
        assert any("asked for a model completion" in w for w in sampled.warnings)
    finally:
        sources[0].close()
    _registry, gate, sources = served(server_specs(commands=[forked_line(PROTOCOL_SERVER)]))
    try:
        record = gate.call("ask_name", {})  # no --elicit: declined, and the record says so
        assert json.loads(record.value) == {"action": "decline", "content": None}
        assert any("declined: no --elicit FILE" in w for w in record.warnings)
        # no --root: no roots capability, so a server keeps its own folders (a tester's
        # filesystem server lost the folder it was started with to the working directory)
        rootless = gate.call("roots", {})
        assert rootless.kind != "ok", rootless.value
        assert "List roots not supported" in (rootless.message or ""), rootless.message
    finally:
        sources[0].close()


@pytest.mark.slow
def test_a_resource_link_can_be_opened_and_prompts_got_from_the_cli(tmp_path: Path) -> None:
    line = forked_line(PROTOCOL_SERVER)

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        # the command in this process; each one starts the server as a real process
        return run_in_process(*args, "--mcp", line, "--format", "json")

    linked = json.loads(cli("call", "link", "--no-history").stdout)
    uri = linked["mcp"]["result"]["content"][0]["uri"]
    listed = cli("resources")
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)["mcp:protocol-lab"]["resources"][0]["uri"] == uri
    read = json.loads(cli("resources", uri).stdout)
    assert read["mcp:protocol-lab"]["contents"][0]["text"] == "영수증 HR20260604"
    got = json.loads(cli("prompts", "summarise", "topic=배송").stdout)
    assert got["mcp:protocol-lab"]["messages"][0]["content"]["text"] == "Summarise 배송."
    missing = cli("prompts", "nope")
    assert missing.returncode == 2
    assert missing.stderr.strip() == "error: no prompt named 'nope'; the servers list: summarise"


def test_http_status_decides_the_kind_and_retry_after_is_honoured(tmp_path: Path) -> None:
    log = tmp_path / "http.jsonl"
    with http_protocol_server("--http", log) as port:
        registry = Registry()
        add_mcp_servers(registry, server_specs(urls=[f"http://127.0.0.1:{port}/mcp"]))
        slept: list[float] = []
        gate = Gate(registry, retry=RetryPolicy(max_attempts=3), sleep=slept.append)
        try:
            record = gate.call("throttled", {})
            assert record.kind == "transient" and record.error == "transient:http_429"
            assert record.body_runs == 3 and [r.reason for r in record.retries] == [
                "transient:http_429",
                "transient:http_429",
            ]
            assert slept == [0.0, 0.0]  # Retry-After: 0 replaces the backoff
            assert read_log(log).count({"http": 429}) == 3
            forbidden = gate.call("forbidden", {})
            assert forbidden.kind == "permission" and forbidden.body_runs == 1
        finally:
            registry.close()


def test_the_log_level_is_sent_and_the_servers_messages_reach_the_log(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    specs = server_specs(
        commands=[forked_line(PROTOCOL_SERVER, "--log", str(log))], log_level="warning"
    )
    _, gate, sources = served(specs)
    try:
        assert {"setLevel": "warning"} in read_log(log)
        assert gate.call("chatty", {}).value == "logged"
        deadline = time.monotonic() + 5
        while not any("warning line" in n for n in sources[0].notices):
            assert time.monotonic() < deadline, sources[0].notices
            time.sleep(0.02)
        assert "mcp:protocol-lab: log warning: warning line" in sources[0].notices
        assert not any("info line" in n for n in sources[0].notices)
    finally:
        sources[0].close()
    with pytest.raises(UsageError, match="--mcp-log-level 'loud'"):
        server_specs(commands=[forked_line(PROTOCOL_SERVER)], log_level="loud")
