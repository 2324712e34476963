"""Every provider's declaration and its rules (issue 11 item 7): ``show --provider`` for every
bundled tool, and lint naming the provider and the rule's source for bad names and parameters."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from playground.core.wire import anthropic_tool, declaration_problems, openai_tool
from playground.sources.loading import load_registry

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "tools"
runner = CliRunner()

BAD = """
def _search(keyword):
    return {"rows": []}

def _lookup(sku):
    return {"sku": sku}

def _long(q):
    return {"q": q}

def _korean(상품ID):
    return {"id": 상품ID}

def _str(k):
    return {"k": k}

TOOLS = {
    "shop.search": {"fn": _search, "description": "상품을 검색한다.",
                    "args": {"keyword": {"type": "str", "required": True}}},
    "shop:lookup": {"fn": _lookup, "description": "SKU로 상품을 조회한다.",
                    "args": {"sku": {"type": "str", "required": True}}},
    "search_" + "x" * 63: {"fn": _long, "description": "긴 이름.",
                           "args": {"q": {"type": "str", "required": True}}},
    "get_product": {"fn": _korean, "description": "상품ID로 상품을 조회한다.",
                    "args": {"상품ID": {"type": "str", "required": True}}},
}
"""


def bundled_names() -> list[str]:
    return load_registry([TOOLS]).names()


@pytest.mark.parametrize("name", bundled_names())
def test_show_provider_for_every_bundled_tool(name):
    contract = load_registry([TOOLS]).get(name)
    anthropic = runner.invoke(app, ["show", name, "--provider", "anthropic", "--format", "json"])
    openai = runner.invoke(app, ["show", name, "--provider", "openai", "--format", "json"])
    assert anthropic.exit_code == 0 and openai.exit_code == 0, anthropic.stderr + openai.stderr
    a, o = json.loads(anthropic.stdout), json.loads(openai.stdout)
    assert set(a) == {"name", "description", "input_schema"}
    assert a["name"] == name and a["description"] == contract.description
    assert a["input_schema"]["type"] == "object"
    assert a["input_schema"] == (contract.parameters or {"type": "object", "properties": {}})
    assert o == {  # the Responses API function tool (the openai router's default request)
        "type": "function",
        "name": name,
        "description": contract.description,
        "parameters": a["input_schema"],
        "strict": False,
    }
    assert declaration_problems("anthropic", contract.declaration()) == []
    assert declaration_problems("openai", contract.declaration()) == []


def test_show_table_names_the_provider():
    result = runner.invoke(app, ["show", "check_stock", "--provider", "openai", "--tools", TOOLS])
    assert result.exit_code == 0
    assert "the OpenAI Responses function tool" in result.stdout


def test_a_tool_without_parameters_gets_an_empty_object_schema():
    decl = {"name": "ping", "description": "Ping.", "parameters": None}
    assert anthropic_tool(decl)["input_schema"] == {"type": "object", "properties": {}}
    assert openai_tool(decl)["function"]["parameters"] == {"type": "object", "properties": {}}


def test_declaration_problems_schema_rules():
    decl = {"name": "f", "parameters": {"anyOf": [{"type": "object"}]}}
    rules = [p[0] for p in declaration_problems("openai", decl)]
    assert rules == ["schema", "schema"]  # not type object, and anyOf at the root


def test_lint_reports_each_bad_name_and_parameter_with_provider_and_source(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    module = tmp_path / "badnames.py"
    module.write_text(textwrap.dedent(BAD), encoding="utf-8")
    result = runner.invoke(app, ["lint", "--tools", module, "--format", "json"])
    assert result.exit_code == 1  # errors
    data = json.loads(result.stdout)
    findings = data["findings"] if isinstance(data, dict) else data
    got = {(f["rule"], f["location"]) for f in findings}
    long_name = "search_" + "x" * 63
    for name in ("shop.search", "shop:lookup", long_name):
        assert ("anthropic-name", name) in got and ("openai-name", name) in got
    assert ("anthropic-param-name", "get_product.상품ID") in got
    # Gemini's own rule accepts '.' and ':' and 70 characters
    assert not any(f["rule"] == "gemini-name" for f in findings)
    by = {(f["rule"], f["location"]): f for f in findings}
    a = by[("anthropic-name", "shop.search")]["message"]
    assert a.startswith("Anthropic refuses") and "Anthropic Messages API" in a
    o = by[("openai-name", "shop:lookup")]["message"]
    assert o.startswith("OpenAI refuses") and "OpenAI Chat Completions API" in o
    assert "70 characters" in by[("openai-name", long_name)]["message"]
    assert "e.g. shop_lookup" in by[("openai-name", "shop:lookup")]["suggestion"]
    p = by[("anthropic-param-name", "get_product.상품ID")]["message"]
    assert "^[a-zA-Z0-9_.-]{1,64}$" in p
