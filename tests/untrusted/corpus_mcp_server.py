"""A hostile MCP server (stdio, the official ``mcp`` SDK's low-level server) for issue 27: its
tool description, parameter description, enum values, results, error results, log messages and
stderr hold the escape corpus of :mod:`corpus`. Usage: ``python corpus_mcp_server.py``."""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import anyio
import mcp.types as types
from corpus import ALL, CORPUS
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "entry": {"type": "string", "description": "which entry " + ALL},
        "style": {"type": "string", "enum": ["plain", CORPUS["c1_csi"], CORPUS["osc52_clipboard"]]},
    },
}
READ_ONLY = types.ToolAnnotations(read_only_hint=True)
TOOLS = [
    types.Tool(
        name="mcp_corpus_echo",
        description="Returns a corpus entry. " + ALL,
        input_schema=SCHEMA,
        annotations=READ_ONLY,
    ),
    types.Tool(
        name="mcp_corpus_fail",
        description="Fails with a corpus message. " + ALL,
        input_schema=SCHEMA,
        annotations=READ_ONLY,
    ),
]


def build_server() -> Server[Any]:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=TOOLS)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        print("stderr " + ALL, file=sys.stderr, flush=True)
        try:
            await ctx.session.send_log_message(level="warning", data="log " + ALL)
        except Exception as exc:  # an SDK without this call: say so on stderr
            print(f"no log message: {exc!r}", file=sys.stderr, flush=True)
        entry = (params.arguments or {}).get("entry", "osc52_clipboard")
        text = CORPUS.get(entry, entry) + " " + ALL
        failed = params.name == "mcp_corpus_fail"
        return types.CallToolResult(content=[types.TextContent(text=text)], is_error=failed)

    return Server("corpus", on_list_tools=list_tools, on_call_tool=call_tool)


def main() -> None:
    print("starting " + ALL, file=sys.stderr, flush=True)
    server = build_server()

    async def serve() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(serve)
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
