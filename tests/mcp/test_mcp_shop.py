"""The shop tools over real MCP servers (stdio and Streamable HTTP), at the source level."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from playground.core.validation import check_result
from playground.routing.declarations import provider_declaration
from playground.sources.loading import load_registry
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import McpContract, McpSource, load_sources
from tests.mcp.servers import REPO, SHOP_SERVER, read_log, source_for, stdio_line
from tests.zygote import forked_entry, forked_line

SHOP_TOOLS = ["get_order_status", "track_shipping", "search_products", "check_stock"]


def contract(source: McpSource, name: str) -> McpContract:
    found = [c for c in source.contracts() if c.name == name]
    assert found, name
    return found[0]


def test_load_lists_the_shop_tools_with_schemas_and_flags(shop_source: McpSource) -> None:
    python = load_registry([REPO / "tools" / "shop.py"])
    contracts = {c.tool_name: c for c in shop_source.contracts()}
    assert list(contracts) == SHOP_TOOLS
    order = contracts["get_order_status"]
    assert order.origin == "mcp" and order.source == "mcp:haru-shop"
    assert order.title == "주문 상태 조회"
    assert order.description == python.get("get_order_status").description
    assert order.parameters == python.get("get_order_status").parameters
    assert order.returns == python.get("get_order_status").returns
    assert order.annotations["readOnlyHint"] is True
    assert (order.side_effects, order.cacheable, order.caches) == (False, True, True)
    limit = contracts["search_products"].parameters["properties"]["limit"]
    assert limit["type"] == "integer"


def test_call_gives_the_same_value_as_the_python_module(
    shop_source: McpSource, shop_log: Path
) -> None:
    python = load_registry([REPO / "tools" / "shop.py"])
    order = contract(shop_source, "get_order_status")
    run = shop_source.call(order, {"order_id": "HR99999999"}, 2.0)
    assert run.error is None and not run.timed_out
    assert run.value == python.get("get_order_status").fn(order_id="HR99999999")
    assert run.value["found"] is False
    assert check_result(order, run.value).reason == ""
    assert {"tool": "get_order_status", "arguments": {"order_id": "HR99999999"}} in read_log(
        shop_log
    )


def test_korean_search_with_limit(shop_source: McpSource) -> None:
    run = shop_source.call(
        contract(shop_source, "search_products"), {"keyword": "텀블러", "limit": 2}, 2.0
    )
    assert run.value["count"] == 2
    assert run.value["total_matches"] >= 2
    assert all("텀블러" in row["product_name"] for row in run.value["rows"])


def test_gemini_declaration_is_what_the_request_carries(shop_source: McpSource) -> None:
    """The Gemini router's own builder (``show --provider gemini``), not google-genai's MCP
    conversion: the inputSchema as JSON Schema in ``parameters_json_schema``."""
    shown = provider_declaration("gemini", contract(shop_source, "track_shipping").declaration())
    decl = shown.body
    assert decl["name"] == "track_shipping"
    assert decl["description"].startswith("하루마켓 주문번호로 택배 배송 현황을 조회한다.")
    assert decl["parameters_json_schema"] == {
        "type": "object",
        "properties": {"order_id": {"type": "string"}},
        "required": ["order_id"],
    }
    assert shown.notes == []


def test_streamable_http_with_header(http_shop: tuple[str, Path]) -> None:
    url, log = http_shop
    (spec,) = server_specs(urls=[url], headers=["X-Shop-Token: t0ps3cret"])
    source = McpSource(spec)
    try:
        result = source.load()
        assert result.problems == []
        assert [c.name for c in result.contracts] == SHOP_TOOLS
        track = next(c for c in result.contracts if c.name == "track_shipping")
        run = source.call(track, {"order_id": "HR20260604"}, 2.0)
        assert run.value["found"] is True and run.value["order_id"] == "HR20260604"
        assert source.stderr_text() == ""
    finally:
        source.close()
    (entry,) = [e for e in read_log(log) if e["tool"] == "track_shipping"]
    assert "x-shop-token" in entry["headers"]
    assert "t0ps3cret" not in log.read_text(encoding="utf-8")


def test_unreachable_url_is_a_load_problem_naming_it() -> None:
    (spec,) = server_specs(urls=["http://127.0.0.1:9/mcp"])
    source = McpSource(spec, connect_timeout_s=3)
    try:
        result = source.load()
    finally:
        source.close()
    assert result.contracts == []
    (problem,) = result.problems
    assert problem.where == "mcp:127_0_0_1"
    assert problem.message.startswith("cannot reach http://127.0.0.1:9/mcp")


def test_clashing_names_are_prefixed_as_a_visible_choice(tmp_path: Path) -> None:
    python = load_registry([REPO / "tools" / "shop.py"])
    line = forked_line(SHOP_SERVER)
    specs = server_specs(commands=[line, line])
    sources = [McpSource(s) for s in specs]
    try:
        loaded = load_sources(sources[:1], taken=python.names())
        assert [c.name for c in loaded.contracts] == [f"haru-shop__{n}" for n in SHOP_TOOLS]
        assert loaded.choices[0] == (
            "mcp:haru-shop: tool 'get_order_status' is also defined elsewhere; "
            "registered as 'haru-shop__get_order_status'"
        )
        renamed = loaded.contracts[0]
        assert isinstance(renamed, McpContract) and renamed.tool_name == "get_order_status"
        run = sources[0].call(renamed, {"order_id": "HR20260601"}, 2.0)
        assert run.value["found"] is True
        shown = provider_declaration("gemini", renamed.declaration())
        assert shown.body["name"] == "haru-shop__get_order_status"
    finally:
        for source in sources:
            source.close()


def test_two_servers_start_concurrently_and_a_broken_one_does_not_stop_the_other() -> None:
    specs = server_specs(
        commands=[
            forked_line(SHOP_SERVER),
            stdio_line(REPO / "fixtures" / "mcp_faulty_server.py", "exit"),
        ]
    )
    sources = [McpSource(s, connect_timeout_s=5) for s in specs]
    try:
        loaded = load_sources(sources)
    finally:
        for source in sources:
            source.close()
    assert [c.name for c in loaded.contracts] == SHOP_TOOLS
    (problem,) = loaded.problems
    assert problem.where == "mcp:mcp_faulty_server"
    assert "closed the connection" in problem.message
    assert "cannot open config.toml" in problem.message


def test_env_is_the_configured_env_plus_a_minimal_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-not-for-servers")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-for-servers")
    config = tmp_path / "mcp.json"
    faulty = str(REPO / "fixtures" / "mcp_faulty_server.py")
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "f": {
                        **forked_entry(faulty, "serve"),
                        "env": {"SHOP_TOKEN": "tok-12345"},
                    }
                }
            }
        ),
        encoding="utf-8",
    )
    (spec,) = server_specs(configs=[config])
    source = McpSource(spec)
    try:
        result = source.load()
        env_tool = next(c for c in result.contracts if c.name == "env")
        names = source.call(env_tool, {}, 2.0).value["names"]
    finally:
        source.close()
    assert "SHOP_TOKEN" in names and "PATH" in names and "HOME" in names
    assert "GEMINI_API_KEY" not in names and "ANTHROPIC_API_KEY" not in names
    allowed = {"SHOP_TOKEN", "PATH", "HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ"}
    allowed |= {"LOGNAME", "SHELL", "TERM", "USER"}  # the SDK's own safe base
    assert set(names) <= allowed
    assert "tok-12345" not in spec.describe()


def test_source_for_uses_this_python() -> None:
    source = source_for(forked_line(SHOP_SERVER))
    assert source.spec.command == sys.executable
    source.close()
