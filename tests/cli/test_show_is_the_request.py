"""One declaration path (issue 20 item 5): ``show TOOL --provider P`` prints exactly what a
request to P carries for that tool, for every tool in ``tools/``, the
odd-schema module (``fixtures/odd_schemas.py``) and the odd-schema MCP server
(``fixtures/mcp_odd_schema_server.py``, a real server process).

Gemini: the entry of ``tools[0].functionDeclarations`` in the body of the Gemini router's dry
run (the request the SDK really builds, captured unsent). Anthropic and OpenAI have no router
yet: their request carries the tool's own schema unchanged, written out here by hand from the
contract (not with the playground's builders). What a provider cannot carry is said, never
dropped silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from playground.routing.base import Turn
from playground.routing.declarations import provider_declaration
from playground.routing.factory import choose_router
from playground.sources.loading import load_registry
from playground.sources.mcp_source import load_sources
from tests.mcp.servers import SHOP_SERVER, source_for
from tests.zygote import forked_line

REPO = Path(__file__).resolve().parents[2]
ODD = REPO / "fixtures" / "odd_schemas.py"
ODD_SERVER = REPO / "fixtures" / "mcp_odd_schema_server.py"
PATHS = [REPO / "tools", ODD]
PROVIDERS = ("gemini", "anthropic", "openai", "openai-compatible")
EMPTY = {"type": "object", "properties": {}}

runner = CliRunner()


def gemini_request_declarations(declarations: list[dict]) -> dict[str, dict]:
    """The declarations in the body of the Gemini router's dry run, by name (what ``ask
    --router gemini --dry-run`` shows)."""
    router = choose_router("gemini", environ={}, dry_run=True).router
    body = router.dry_run([Turn(role="user", text="재고 있어요?")], declarations)["body"]
    (tool,) = body["tools"]
    return {d["name"]: d for d in tool["functionDeclarations"]}


def expected(provider: str, declaration: dict, gemini: dict[str, dict]) -> dict:
    """What a request to ``provider`` carries for ``declaration``."""
    if provider == "gemini":
        return gemini[declaration["name"]]
    schema = declaration["parameters"] or EMPTY
    if provider == "anthropic":
        return {
            "name": declaration["name"],
            "description": declaration["description"],
            "input_schema": schema,
        }
    if provider == "openai":  # the Responses API function tool (the openai router's default)
        return {
            "type": "function",
            "name": declaration["name"],
            "description": declaration["description"],
            "parameters": schema,
            "strict": False,
        }
    return {  # Chat Completions: openai-compatible, openai --api chat
        "type": "function",
        "function": {
            "name": declaration["name"],
            "description": declaration["description"],
            "parameters": schema,
        },
    }


@pytest.fixture(scope="module")
def python_tools() -> tuple[list[dict], dict[str, dict]]:
    registry = load_registry(PATHS)
    assert registry.problems == []
    declarations = registry.declarations()
    return declarations, gemini_request_declarations(declarations)


def test_every_python_tool_is_covered(python_tools):
    declarations, gemini = python_tools
    names = [d["name"] for d in declarations]
    assert set(gemini) == set(names) and len(names) == len(set(names)) == 13 + 10
    for odd in ("place_marker", "tally_votes", "set_mode", "adopt_pet", "lock_door"):
        assert odd in names


def show_json(name: str, provider: str, paths: list[Path]) -> dict:
    tools = [str(p) for path in paths for p in ("--tools", path)]
    result = runner.invoke(app, ["show", name, "--provider", provider, "-f", "json", *tools])
    assert result.exit_code == 0, f"{name}: {result.stderr}"
    return json.loads(result.stdout)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_show_equals_the_request_for_every_odd_schema(provider, python_tools):
    declarations, gemini = python_tools
    odd = load_registry([ODD]).names()
    assert len(odd) == 10
    for declaration in (d for d in declarations if d["name"] in odd):
        shown = show_json(declaration["name"], provider, [ODD])
        assert shown == expected(provider, declaration, gemini), declaration["name"]


def test_show_equals_the_request_for_every_bundled_tool(python_tools):
    """Every tool of ``tools/`` through ``show`` itself (each provider in turn, to keep the
    test quick) and for every provider through the function ``show`` calls."""
    declarations, gemini = python_tools
    registry = load_registry([REPO / "tools"])
    bundled = [d for d in declarations if d["name"] in registry.contracts]
    assert len(bundled) == 13
    for i, declaration in enumerate(bundled):
        provider = PROVIDERS[i % len(PROVIDERS)]
        module = REPO / registry.contracts[declaration["name"]].module_file  # its own module
        assert show_json(declaration["name"], provider, [module]) == expected(
            provider, declaration, gemini
        ), declaration["name"]
        for provider in PROVIDERS:
            shown = provider_declaration(provider, declaration).body
            assert shown == expected(provider, declaration, gemini), declaration["name"]


def test_the_odd_schemas_reach_anthropic_and_openai_unchanged(python_tools):
    declarations, _ = python_tools
    by_name = {d["name"]: d for d in declarations}
    adopt = provider_declaration("anthropic", by_name["adopt_pet"]).body["input_schema"]
    pet = adopt["properties"]["pet"]
    assert [b["$ref"] for b in pet["oneOf"]] == ["#/$defs/Cat", "#/$defs/Dog"]
    assert adopt["$defs"]["Cat"]["properties"]["kind"]["const"] == "cat"
    marker = provider_declaration("openai", by_name["place_marker"]).body
    assert marker["parameters"]["properties"]["at"]["additionalProperties"] is False
    assert provider_declaration("openai", by_name["place_marker"]).notes == []


def test_gemini_says_what_it_cannot_carry(python_tools):
    declarations, gemini = python_tools
    by_name = {d["name"]: d for d in declarations}
    fan = provider_declaration("gemini", by_name["set_fan_speed"])
    assert fan.body == gemini["set_fan_speed"]
    assert fan.body["parameters_json_schema"]["properties"]["speed"]["enum"] == ["0", "2", "4"]
    assert (
        'properties.speed: enum [0, 2, 4] -> strings ["0", "2", "4"] (type "integer" -> "string")'
        in fan.notes
    )
    clock = provider_declaration("gemini", by_name["server_time"])
    assert "parameters_json_schema" not in clock.body
    assert clock.notes == ["(root): no parameters; parameters left unset"]
    assert provider_declaration("anthropic", by_name["server_time"]).body["input_schema"] == EMPTY
    mode = provider_declaration("gemini", by_name["set_mode"])
    assert mode.body["parameters_json_schema"]["properties"]["mode"]["enum"] == ["maintenance"]
    assert 'properties.mode: const "maintenance" -> enum ["maintenance"]' in mode.notes
    result = runner.invoke(app, ["show", "set_mode", "--tools", str(ODD), "-f", "json"])
    assert result.exit_code == 0
    assert (
        'note: set_mode: properties.mode: const "maintenance" -> enum ["maintenance"]'
        in result.stderr.splitlines()
    )
    table = runner.invoke(app, ["show", "set_mode", "--tools", str(ODD)])
    assert "what this provider cannot carry as declared" in table.stdout
    assert "const" in table.stdout


# -- MCP servers: the schemas exactly as a server wrote them -------------------------------------


@pytest.fixture(scope="module")
def mcp_tools() -> tuple[list[dict], dict[str, dict]]:
    sources = [source_for(forked_line(ODD_SERVER)), source_for(forked_line(SHOP_SERVER))]
    try:
        loaded = load_sources(sources)  # both servers start at once
    finally:
        for source in sources:
            source.close()
    assert loaded.problems == []
    declarations = [c.declaration() for c in loaded.contracts]
    return declarations, gemini_request_declarations(declarations)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_mcp_tool_is_declared_as_the_request_carries_it(provider, mcp_tools):
    declarations, gemini = mcp_tools
    assert len(declarations) == 9 + 4  # the odd-schema server's and the shop server's
    for declaration in declarations:
        shown = provider_declaration(provider, declaration)
        assert shown.body == expected(provider, declaration, gemini), declaration["name"]


def test_show_on_a_closed_mcp_schema_prints_the_request(mcp_tools):
    """Was: "internal error: AttributeError: 'bool' object has no attribute 'items'" (``show``
    used google-genai's MCP conversion, which no request ever used). One real ``show`` on the
    server (Gemini, the default provider); the other providers as in the test above."""
    declarations, gemini = mcp_tools
    (closed,) = [d for d in declarations if d["name"] == "closed_form"]
    result = runner.invoke(
        app, ["show", "closed_form", "--mcp", forked_line(ODD_SERVER), "-f", "json"]
    )
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown == expected("gemini", closed, gemini)
    schema = shown["parameters_json_schema"]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["contact"]["additionalProperties"] is False
    assert result.stderr == ""  # Gemini carries it as declared
    for provider in ("anthropic", "openai"):
        other = provider_declaration(provider, closed)
        assert other.notes == [] and other.body == expected(provider, closed, gemini)


def test_mcp_keywords_gemini_cannot_carry_are_named(mcp_tools):
    declarations, _ = mcp_tools
    by_name = {d["name"]: d for d in declarations}
    notes = provider_declaration("gemini", by_name["strict_numbers"]).notes
    assert notes == [
        "properties.quantity: multipleOf dropped (not supported by the Gemini API)",
        "properties.price: exclusiveMinimum dropped (not supported by the Gemini API)",
        "properties.code: not dropped (not supported by the Gemini API)",
        "properties.extras: patternProperties dropped (not supported by the Gemini API)",
        "properties.size: allOf dropped (not supported by the Gemini API)",
    ]
    fixed = provider_declaration("gemini", by_name["fixed_value"])
    props = fixed.body["parameters_json_schema"]["properties"]
    assert props["action"] == {"enum": ["confirm"], "type": "string"}
    assert props["version"] == {"type": "string", "enum": ["2"]}
    shape = provider_declaration("gemini", by_name["pick_shape"]).body
    assert len(shape["parameters_json_schema"]["properties"]["shape"]["oneOf"]) == 2
    parts = provider_declaration("gemini", by_name["shared_parts"])
    assert "$defs" not in parts.body["parameters_json_schema"]
    assert any(
        n.startswith("properties.box.properties.inside.items: recursive $ref") for n in parts.notes
    )
    assert provider_declaration("anthropic", by_name["strict_numbers"]).notes == []
