"""A ``tools/list`` with entries that are no MCP tool (issue 25, item 1): every well-formed
tool of the server is kept and callable, and each malformed entry is one load problem naming
it, saying why and quoting what the server sent — against a real server
(``fixtures/mcp_faulty_server.py malformed``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from playground.sources.mcp_listing import read_tools_page
from playground.sources.mcp_source import McpSource
from tests.mcp.servers import FAULTY_SERVER, source_for, stdio_line

SERVED = [
    "rate_limited", "unauthorized", "broken", "strict", "server_error", "nothing", "bad_shape",
    "kinds", "slow", "hang", "freeze", "crash", "shout", "env", "pid", "add_tool", "wipe",
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
    source = source_for(stdio_line(FAULTY_SERVER, "malformed"))
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
