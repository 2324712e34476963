"""Every fault of issue 10, item 4 (and the result kinds of item 3) against real faulty MCP
servers (``fixtures/mcp_faulty_server.py``): a clear load problem or run naming the server,
never a hang or a traceback, within time bounds."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from playground.core import outcome as oc
from playground.core.validation import check_result
from playground.sources.mcp_source import McpContract, McpSource
from tests.mcp.servers import FAULTY_SERVER, read_log, source_for, stdio_line
from tests.zygote import forked_line

LABEL = "mcp:faulty"  # the serverInfo.name it gives
START_LABEL = "mcp:mcp_faulty_server"  # named after its script until it answers initialize


@pytest.fixture(scope="module")
def faulty_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("faulty") / "calls.jsonl"


@pytest.fixture(scope="module")
def faulty(faulty_log: Path) -> Iterator[McpSource]:
    """One ``serve`` server for the tests that leave it healthy."""
    source = source_for(forked_line(FAULTY_SERVER, "serve", "--log", str(faulty_log)))
    assert source.load().problems == []
    yield source
    source.close()


def tool(source: McpSource, name: str) -> McpContract:
    return next(c for c in source.contracts() if c.name == name)


# ---- start faults: load problems naming the server --------------------------------------------


def load_problem(mode: str, connect_timeout_s: float = 2.0) -> tuple[str, str, float]:
    source = source_for(stdio_line(FAULTY_SERVER, mode), connect_timeout_s=connect_timeout_s)
    started = time.monotonic()
    try:
        result = source.load()
    finally:
        source.close()
    assert result.contracts == []
    (problem,) = result.problems
    return problem.where, problem.message, time.monotonic() - started


def test_server_that_exits_at_start() -> None:
    where, message, _ = load_problem("exit", connect_timeout_s=10.0)
    assert where == START_LABEL
    assert message == (
        "the server closed the connection; stderr: faulty: cannot open config.toml, giving up"
    )


def test_server_that_never_answers_initialize() -> None:
    where, message, took = load_problem("silent", connect_timeout_s=1.0)
    assert (where, message) == (START_LABEL, "no answer to initialize within 1 s")
    assert took < 20.0  # a hang would never end; a loaded machine is slow


def test_server_that_writes_non_protocol_text_instead_of_answering() -> None:
    where, message, _ = load_problem("garbage", connect_timeout_s=2.0)
    assert where == START_LABEL
    assert message == (
        "no answer to initialize within 2 s; it wrote non-protocol text to stdout: "
        "'Welcome to the faulty server! Type help for help.'"
    )


def test_noisy_server_works_and_the_noise_is_a_load_warning() -> None:
    source = source_for(forked_line(FAULTY_SERVER, "noisy"))
    try:
        result = source.load()
        assert len(result.contracts) == 17
        assert result.problems == []
        (warning,) = result.warnings
        assert warning.where == LABEL
        assert warning.message == (
            "wrote non-protocol text to stdout: 'faulty server starting (this line should have "
            "gone to stderr)' (stdout is for JSON-RPC messages only; a server should log to "
            "stderr)"
        )
        assert source.call(tool(source, "shout"), {}, 2.0).value == "ok"
    finally:
        source.close()


def test_command_not_found() -> None:
    source = source_for("no-such-mcp-server-binary --stdio")
    try:
        result = source.load()
    finally:
        source.close()
    (problem,) = result.problems
    assert problem.where == "mcp:no-such-mcp-server-binary"
    assert problem.message == "cannot start 'no-such-mcp-server-binary': command not found"


# ---- result kinds -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("rate_limited", "429 Too Many Requests: rate limited, try again later"),
        ("unauthorized", "401 Unauthorized: this token may not read orders"),
        ("broken", "the order database returned garbage"),
    ],
)
def test_is_error_results_are_the_tools_own_error_whatever_they_say(
    faulty: McpSource, name: str, text: str
) -> None:
    # issue 21 item 3: words in an isError text never decide the kind
    run = faulty.call(tool(faulty, name), {}, 2.0)
    assert run.error is not None
    assert (run.error.kind, run.error.reason) == (oc.RAISED, "isError")
    assert run.error.text == f"McpToolError: {text}"
    assert run.error.details["server"] == "faulty"


def test_jsonrpc_invalid_params_is_invalid_args_with_the_servers_message(
    faulty: McpSource,
) -> None:
    run = faulty.call(tool(faulty, "strict"), {"quantity": 0}, 2.0)
    assert run.error is not None
    assert run.error.kind == oc.INVALID_ARGS
    assert run.error.details["message"] == "quantity must be at least 1"


def test_a_jsonrpc_server_error_minus_32000_is_the_servers_error_not_a_closed_connection(
    faulty: McpSource,
) -> None:
    """-32000 is the SDK's code for a closed connection and JSON-RPC's usual "server error":
    the server's answer was reported as 'closed the connection' (and the server restarted)."""
    pid_before = faulty.call(tool(faulty, "pid"), {}, 2.0).value
    run = faulty.call(tool(faulty, "server_error"), {}, 2.0)
    assert run.error is not None and "closed the connection" not in run.error.text
    assert "boom: the order database is down" in run.error.text
    assert faulty.call(tool(faulty, "pid"), {}, 2.0).value == pid_before  # not restarted


def test_no_content_is_an_empty_result(faulty: McpSource) -> None:
    nothing = tool(faulty, "nothing")
    run = faulty.call(nothing, {}, 2.0)
    assert (run.value, run.error) == ([], None)
    assert check_result(nothing, run.value).reason == "empty"


def test_invalid_structured_content_fails_the_output_schema(faulty: McpSource) -> None:
    bad = tool(faulty, "bad_shape")
    assert bad.returns is not None and bad.returns["properties"]["count"] == {"type": "integer"}
    run = faulty.call(bad, {}, 2.0)
    assert run.value == {"count": "many"}
    check = check_result(bad, run.value)
    assert check.reason == "shape"
    assert "$['count']" in check.message


def test_content_blocks_are_shown_by_kind(faulty: McpSource) -> None:
    run = faulty.call(tool(faulty, "kinds"), {}, 2.0)
    assert run.value == [
        "주문 영수증",
        {"type": "image", "mimeType": "image/png", "bytes": 69},
        {"type": "audio", "mimeType": "audio/wav", "bytes": 8},
        {"type": "resource_link", "uri": "file:///orders/HR20260601.pdf", "name": "receipt.pdf"},
        {"type": "resource", "uri": "memo://note", "mimeType": "text/plain", "text": "배송 메모"},
    ]


def test_progress_notifications_reach_the_callback(faulty: McpSource) -> None:
    seen: list[tuple[str, float, float | None, str | None]] = []
    faulty.on_progress = lambda *event: seen.append(event)
    try:
        run = faulty.call(tool(faulty, "slow"), {}, 2.0)
    finally:
        faulty.on_progress = None
    assert run.value == "done"
    assert seen == [
        ("slow", 1.0, 3.0, "step 1"),
        ("slow", 2.0, 3.0, "step 2"),
        ("slow", 3.0, 3.0, "step 3"),
    ]


def test_server_stderr_is_the_runs_output_and_kept_per_server(faulty: McpSource) -> None:
    run = faulty.call(tool(faulty, "shout"), {}, 2.0)
    assert run.output == "shouting on stderr\n"
    assert "shouting on stderr" in faulty.stderr_text()
    assert faulty.call(tool(faulty, "pid"), {}, 2.0).output == ""


def test_annotations_give_flags(faulty: McpSource) -> None:
    wipe, pid = tool(faulty, "wipe"), tool(faulty, "pid")
    # destructiveHint: a write (never cached); readOnlyHint: a read (cached)
    assert (wipe.side_effects, wipe.caches, wipe.effects, wipe.effects_basis) == (
        True,
        False,
        "write",
        "annotations",
    )
    assert (pid.side_effects, pid.caches, pid.effects) == (False, True, "read")


def test_time_limit_cancels_and_a_responsive_server_is_kept(
    faulty: McpSource, faulty_log: Path
) -> None:
    pid_before = faulty.call(tool(faulty, "pid"), {}, 2.0).value["pid"]
    started = time.monotonic()
    run = faulty.call(tool(faulty, "hang"), {}, 0.5)
    assert run.timed_out and run.error is None
    assert time.monotonic() - started < 10.0
    after = faulty.call(tool(faulty, "pid"), {}, 2.0)
    assert after.value["pid"] == pid_before  # it answered the ping: not restarted
    assert {"cancelled": "hang"} in read_log(faulty_log)  # notifications/cancelled arrived


def test_tools_list_changed_lists_again_at_once_and_the_new_tool_is_callable() -> None:
    source = source_for(forked_line(FAULTY_SERVER, "serve"))
    changed: list[bool] = []
    source.on_tools_changed = lambda: changed.append(True)
    try:
        source.load()
        pid = source.call(tool(source, "pid"), {}, 2.0).value["pid"]
        run = source.call(tool(source, "add_tool"), {}, 2.0)
        assert run.value == "added" and changed == [True]
        assert run.warnings == [
            f"{LABEL} sent notifications/tools/list_changed; its tools were listed again: "
            "added extra"
        ]
        assert [c.name for c in source.contracts()][-1] == "extra"
        assert source.tools_changed is False
        assert source.call(tool(source, "pid"), {}, 2.0).value["pid"] == pid  # same process
        assert source.call(tool(source, "extra"), {}, 2.0).error is not None  # unknown to it
    finally:
        source.close()


# ---- faults that end the server -----------------------------------------------------------------


def test_stdio_server_not_answering_after_cancel_is_killed_and_restarted() -> None:
    source = source_for(stdio_line(FAULTY_SERVER, "serve"), cancel_grace_s=0.5)
    try:
        source.load()
        pid_before = source.call(tool(source, "pid"), {}, 2.0).value["pid"]
        started = time.monotonic()
        run = source.call(tool(source, "freeze"), {}, 0.5)
        assert run.timed_out
        assert time.monotonic() - started < 10.0
        after = source.call(tool(source, "pid"), {}, 2.0)
        assert after.error is None
        assert after.value["pid"] != pid_before
        assert source.restarts == 1
        assert source.notices[-1] == (
            f"{LABEL}: restarted (no answer within 0.5 s after a cancelled call; killed)"
        )
    finally:
        source.close()


def test_crash_mid_call_names_the_server_and_the_next_call_restarts_it() -> None:
    source = source_for(stdio_line(FAULTY_SERVER, "serve"))
    try:
        source.load()
        pid_before = source.call(tool(source, "pid"), {}, 2.0).value["pid"]
        run = source.call(tool(source, "crash"), {}, 2.0)
        assert run.stopped == "the server closed the connection"
        assert run.error is not None and run.error.kind == oc.RAISED
        assert run.error.text == (
            f"McpServerError: {LABEL} closed the connection during the call (it will be "
            "restarted on the next call); stderr: about to crash"
        )
        assert run.output == "about to crash\n"
        after = source.call(tool(source, "pid"), {}, 2.0)
        assert after.value["pid"] != pid_before
    finally:
        source.close()


def test_closed_source_call_is_a_clear_error() -> None:
    source = source_for(forked_line(FAULTY_SERVER, "serve"))
    source.load()
    pid = tool(source, "pid")
    source.close()
    source.close()  # idempotent
    run = source.call(pid, {}, 1.0)
    assert run.error is not None and run.stopped == "closed"
    assert run.error.text.startswith("McpServerError: the source is closed")


def test_a_tool_listed_twice_is_a_load_problem_naming_it() -> None:
    """A server listing get_x twice showed one get_x (the second) and said nothing."""
    from playground.sources.mcp_config import server_specs

    (spec,) = server_specs(commands=["python3 never-started.py"])
    source = McpSource(spec)
    try:
        tool = {"name": "get_x", "description": "Gets x", "inputSchema": {"type": "object"}}
        result = source._contracts_of([tool, {**tool, "description": "Gets x, again"}])
    finally:
        source.close()
    assert [c.description for c in result.contracts] == ["Gets x, again"]
    assert [p.message for p in result.problems] == [
        "tools/list lists 'get_x' more than once; the last listing is used (tool names must "
        "be unique: MCP spec, tools)"
    ]
