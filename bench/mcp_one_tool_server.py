"""A one-tool stdio MCP server for the benchmarks: ``get_order_status`` only.

The same server as ``fixtures/mcp_shop_server.py`` (the SDK's low-level server API, the body of
``tools/shop.py``, its output schema and annotations) with the other shop tools left out, so
that MCP Inspector's CLI can be timed on "an equivalent one-tool MCP server" (issue 9,
performance) beside ``playground call get_order_status`` on ``tools/``.

Run: ``python bench/mcp_one_tool_server.py`` (stdio).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
import mcp_shop_server as shop_server

TOOL = "get_order_status"

if __name__ == "__main__":
    shop_server.TOOLS[:] = [t for t in shop_server.TOOLS if t.name == TOOL]
    shop_server.BODIES = {TOOL: shop_server.BODIES[TOOL]}
    shop_server.main()
