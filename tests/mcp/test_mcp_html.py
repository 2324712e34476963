"""``ask ... --html`` on a real MCP server whose tool returns an image (issue 26): the picture
is in the page as a data: URI, while the record's value and wire JSON name it by size only."""

from __future__ import annotations

import base64
import json
import shlex
import sys
from html.parser import HTMLParser

from typer.testing import CliRunner

from playground.cli.main import app

PNG_1PX = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c63f8ffff3f0005fe02fea7d6a4f70000000049454e44ae426082"
    )
).decode()

SERVER = """
import os, sys
import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

PNG = sys.argv[1]
TOOL = types.Tool(
    name="draw_sales_chart",
    description="Draws the monthly sales chart as a PNG image.",
    input_schema={"type": "object", "properties": {}},
    annotations=types.ToolAnnotations(read_only_hint=True),
)


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[TOOL])


async def call_tool(ctx, params):
    return types.CallToolResult(
        content=[
            types.TextContent(text="월별 매출 차트"),
            types.ImageContent(data=PNG, mime_type="image/png"),
        ]
    )


server = Server("charts", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve():
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


anyio.run(serve)
sys.stdout.flush()
os._exit(0)
"""


class Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.srcs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.srcs.append(dict(attrs)["src"])


def test_an_mcp_image_result_is_visible_in_the_episode_page(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_HISTORY", "off")
    script = tmp_path / "charts_server.py"
    script.write_text(SERVER, encoding="utf-8")
    out = tmp_path / "ep.html"
    line = shlex.join([sys.executable, str(script), PNG_1PX])
    result = CliRunner().invoke(
        app,
        ["ask", "draw the monthly sales chart", "--mcp", line, "-f", "json", "--html", str(out)],
    )
    assert result.exit_code == 0, result.stderr
    episode = json.loads(result.stdout)
    call = episode["calls"][0]
    assert call["tool"] == "draw_sales_chart"
    size = len(base64.b64decode(PNG_1PX))
    assert call["value"] == [
        "월별 매출 차트",
        {"type": "image", "mimeType": "image/png", "bytes": size},
    ]
    # the record keeps the result as sent, the picture's data included (issue 21) ...
    assert {"type": "image", "mimeType": "image/png", "data": PNG_1PX} in call["mcp"]["result"][
        "content"
    ]
    # ... and the Anthropic wire carries it as an image block (issue 21 item 2)
    assert PNG_1PX in json.dumps(call["wire"]["anthropic"])
    page = Images()
    page.feed(out.read_text(encoding="utf-8"))
    # the picture under its step's record and in the list of calls
    assert page.srcs == [f"data:image/png;base64,{PNG_1PX}"] * 2
