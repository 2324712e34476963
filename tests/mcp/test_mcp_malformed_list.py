"""A ``tools/list`` with entries that are no MCP tool (issue 25, item 1): every well-formed
tool of the server is kept and callable, and each malformed entry is one load problem naming
it, saying why and quoting what the server sent — against a real server
(``fixtures/mcp_faulty_server.py malformed``)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from playground.sources.mcp_config import server_specs
from playground.sources.mcp_listing import read_tools_page
from playground.sources.mcp_source import McpSource
from playground.sources.sdk_log import SDK_CLIENT_LOGGER, keep_sdk_log
from tests.mcp.servers import FAULTY_SERVER, REPO, http_server, source_for, stdio_line
from tests.zygote import forked_line

SERVED = [
    "rate_limited", "unauthorized", "broken", "strict", "server_error", "nothing", "bad_shape",
    "kinds", "slow", "hang", "freeze", "crash", "shout", "env", "pid", "add_tool", "wipe",
    "bad_header",  # its x-mcp-header is invalid, which only a 2026-07-28 client must refuse
    "regional",
]  # fmt: skip
LEFT_OUT = [
    "tools/list tool 4 ('bad_schema') was left out: inputSchema: Input should be a valid "
    'dictionary or instance of InputSchema; the server sent {"name": "bad_schema", '
    '"description": "its inputSchema is no object", "inputSchema": "not an object"}',
    "tools/list tool 5 (no name) was left out: name: Field required; the server sent "
    '{"description": "a tool with no name", "inputSchema": {"type": "object"}}',
    "tools/list tool 6 ('bad_title') was left out: title: Input should be a valid string; "
    'the server sent {"name": "bad_title", "title": 7, "inputSchema": {"type": "object"}}',
]


@pytest.fixture(scope="module")
def malformed() -> Iterator[tuple[McpSource, list[str], list[tuple[str, str]]]]:
    source = source_for(forked_line(FAULTY_SERVER, "malformed"))
    result = source.load()
    yield (
        source,
        [c.name for c in result.contracts],
        [(p.where, p.message) for p in result.problems],
    )
    source.close()


def test_every_well_formed_tool_is_kept(malformed) -> None:
    _, names, _ = malformed
    assert names == SERVED


def test_each_malformed_entry_is_a_problem_quoting_what_was_sent(malformed) -> None:
    _, _, problems = malformed
    assert problems == [("mcp:faulty", text) for text in LEFT_OUT]


def test_a_kept_tool_is_called_and_a_relisting_says_the_same(malformed) -> None:
    source, _, _ = malformed
    contract = next(c for c in source.contracts() if c.name == "broken")
    run = source.call(contract, {}, 10.0)
    assert run.error is not None
    assert run.error.text == "McpToolError: the order database returned garbage"
    again = source.refresh()
    assert [c.name for c in again.contracts] == SERVED
    assert [p.message for p in again.problems] == LEFT_OUT


def test_a_page_whose_tools_is_no_list_keeps_nothing_and_says_what_came() -> None:
    page = read_tools_page({"tools": {"name": "x"}, "nextCursor": 3}, "2025-11-25")
    assert (page.tools, page.next_cursor) == ([], None)
    assert page.problems == ['tools/list sent no list of tools: the server sent {"name": "x"}']


def test_a_long_entry_is_quoted_cut_short() -> None:
    entry = {"name": "big", "inputSchema": "x" * 500}
    (problem,) = read_tools_page({"tools": [entry]}, "2025-11-25").problems
    sent = problem.split("; the server sent ", 1)[1]
    assert len(sent) == 240 and sent.endswith("…") and sent.startswith('{"name": "big"')


BAD_HEADER = (
    "tools/list tool 1 ('bad_header') was left out: property 'region': x-mcp-header 'the "
    "region' is not an RFC 9110 token (a 2026-07-28 client must not use a tool whose "
    'x-mcp-header is invalid); the server sent {"inputSchema": {"type": "object", "properties": '
    '{"region": {"type": "string", "x-mcp-header": "the region"}}}, "name": "bad_header"}'
)


@pytest.mark.parametrize(
    ("protocol", "names", "problems"),
    [
        ("handshake", ["bad_header", "rate_limited", "unauthorized"], []),
        ("auto", ["rate_limited", "unauthorized"], [BAD_HEADER]),
    ],
)
def test_a_tool_the_sdk_drops_for_its_x_mcp_header_is_named(
    monkeypatch: pytest.MonkeyPatch, protocol: str, names: list[str], problems: list[str]
) -> None:
    """In the 2026-07-28 era the SDK drops a tool whose x-mcp-header is invalid with only a log
    line; the 2025 era keeps it (the annotation means nothing there)."""
    monkeypatch.setenv("PLAYGROUND_MCP_PROTOCOL", protocol)
    source = source_for(forked_line(FAULTY_SERVER, "bad-header"))
    try:
        result = source.load()
    finally:
        source.close()
    assert [c.name for c in result.contracts] == names
    assert [p.message for p in result.problems] == problems


def test_a_2026_page_read_entry_by_entry_applies_the_header_rule_and_names_page_faults() -> None:
    """The page the SDK refused, read again in the 2026-07-28 era: a tool with an invalid
    x-mcp-header is left out as the SDK would; the page's own missing fields are one problem."""
    good = {"name": "ok", "inputSchema": {"type": "object"}}
    bad = {
        "name": "bad_header",
        "inputSchema": {
            "type": "object",
            "properties": {"r": {"type": "string", "x-mcp-header": "a b"}},
        },
    }
    page = read_tools_page({"tools": [good, bad]}, "2026-07-28")
    assert [t["name"] for t in page.tools] == ["ok"]
    assert page.problems == [
        "tools/list page refused: cacheScope: Field required; resultType: Field required; "
        "ttlMs: Field required",
        "tools/list tool 2 ('bad_header') was left out: property 'r': x-mcp-header 'a b' is not "
        "an RFC 9110 token (a 2026-07-28 client must not use a tool whose x-mcp-header is "
        'invalid); the server sent {"name": "bad_header", "inputSchema": {"type": "object", '
        '"properties": {"r": {"type": "string", "x-mcp-header": "a b"}}}}',
    ]
    # the same page in the 2025 era: the annotation means nothing, both tools are kept
    assert [t["name"] for t in read_tools_page({"tools": [good, bad]}, "2025-11-25").tools] == [
        "ok",
        "bad_header",
    ]


@pytest.fixture
def malformed_over_http() -> Iterator[str]:
    """The faulty server's malformed listing over Streamable HTTP; yields its URL."""
    with http_server(FAULTY_SERVER, "malformed", "--http", "{port}") as port:
        yield f"http://127.0.0.1:{port}/mcp"


def test_a_tool_kept_from_a_refused_2026_page_sends_its_mcp_param_header(
    monkeypatch: pytest.MonkeyPatch, malformed_over_http: str
) -> None:
    """In the 2026-07-28 era the SDK sends an ``x-mcp-header`` argument as an ``Mcp-Param-*``
    header only for the tools of a listing it took; a tool kept from a page it refused was
    called without it, and a server that checks the header (as the SDK's does) refused the
    call: "Mcp-Param-Region header is missing but the request body's 'region' argument is
    present"."""
    monkeypatch.setenv("PLAYGROUND_MCP_PROTOCOL", "auto")
    source = McpSource(server_specs(urls=[malformed_over_http])[0])
    try:
        result = source.load()
        assert source.protocol_version == "2026-07-28"
        assert any("tools/list page refused" in p.message for p in result.problems)
        regional = next(c for c in result.contracts if c.name == "regional")
        run = source.call(regional, {"region": "서울"}, 10.0)
    finally:
        source.close()
    assert run.error is None, run.error
    assert run.value == "region 서울; Mcp-Param-Region: =?base64?7ISc7Jq4?="


def test_the_sdk_drop_line_goes_to_no_stderr_and_the_tool_is_a_problem(tmp_path: Path) -> None:
    """The SDK logs "dropping tool 'bad_header': invalid x-mcp-header (…)" on its ``client``
    logger, which printed it raw on stderr beside the playground's own line for that tool."""
    done = subprocess.run(
        [sys.executable, "-m", "playground", "list", "--format", "json"]
        + ["--mcp", stdio_line(FAULTY_SERVER, "bad-header"), "--mcp-protocol", "auto"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert [line for line in done.stderr.splitlines() if "bad_header" in line] == [
        f"error: mcp:faulty: {BAD_HEADER}"
    ]
    assert "dropping tool" not in done.stderr


def test_the_sdk_client_log_of_a_source_thread_becomes_its_notes(
    capfd: pytest.CaptureFixture[str],
) -> None:
    notes: list[str] = []
    stop = keep_sdk_log(threading.get_ident(), notes.append)
    logger = logging.getLogger(SDK_CLIENT_LOGGER)
    try:
        logger.warning("notification queue for %r is full; dropped the oldest event", "x")
        logger.warning("dropping tool %r: invalid x-mcp-header (%s)", "t", "why")
        other = threading.Thread(target=logger.warning, args=("from another thread",))
        other.start()
        other.join()
    finally:
        stop()
    assert notes == ["SDK WARNING: notification queue for 'x' is full; dropped the oldest event"]
    assert capfd.readouterr().err == ""
