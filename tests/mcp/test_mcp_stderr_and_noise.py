"""What an MCP server writes beside its answers (issue 26 item 5), on a real ``mcp`` SDK server
(``stderr_server.py``): a stderr flood in ``printed`` is cut with the count of what was written
(as a body's stdout flood is) and its rest never shows in the next call; text that is not
JSON-RPC on stdout mid-call is a record warning and a ``warning:`` line on stderr; a ``print``
the SDK diverted to stderr is printed output, not noise."""

from __future__ import annotations

import json
from pathlib import Path

from playground.core.toolsource import PRINTED_LIMIT
from tests.in_process_cli import run_in_process
from tests.mcp.servers import source_for, stdio_line

SERVER = stdio_line(Path(__file__).with_name("stderr_server.py"))
N = 50_000
WRITTEN = sum(len(f"log line {i}\n") for i in range(N))  # 1,338,890 bytes


def test_a_stderr_flood_is_cut_with_its_count_and_its_rest_stays_out_of_the_next_call():
    source = source_for(SERVER)
    try:
        loaded = source.load()
        contracts = {c.name: c for c in loaded.contracts}
        flood = source.call(contracts["flood"], {"n": N}, 60.0)
        quiet = source.call(contracts["quiet"], {}, 60.0)
    finally:
        source.close()
    assert flood.output.startswith("log line 0\nlog line 1\n")
    kept, _, tail = flood.output.rpartition("\n")
    assert tail == f"… [{WRITTEN:,} bytes printed in all]"
    assert len(kept) == PRINTED_LIMIT
    assert quiet.output == ""


def test_non_protocol_text_mid_call_is_a_warning_and_a_print_is_output():
    result = run_in_process(
        "call", "wire_noise", "--mcp", SERVER, "--no-history", "--format", "json"
    )
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["value"] == {"result": "after noise"}
    said = (
        "wrote non-protocol text to stdout: 'this is not json \\x1b]52;c;Z2FyYmFnZQ==\\x07' "
        "(stdout is for JSON-RPC messages only; a server should log to stderr)"
    )
    assert record["warnings"] == [said]
    assert result.stderr == f"warning: mcp:stderr-lab: {said}\n"
    printed = run_in_process("call", "printed", "--mcp", SERVER, "--no-history", "-f", "json")
    assert (printed.returncode, printed.stderr) == (0, "")
    record = json.loads(printed.stdout)
    assert (record["printed"], record["warnings"]) == ("this is not json either\n", [])
