"""lint on a real MCP server process (``fixtures/mcp_triage_server.py``, written with the ``mcp``
SDK): the provider rules fire on the schemas the server lists, and every fix says what to ask
of the server's author -- never what to change in Python code (issue 20 item 6)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from playground.batch.lint import lint_exit_code, lint_registry
from playground.batch.lint_base import Finding
from playground.core.registry import Registry
from playground.sources.mcp_config import server_specs
from playground.sources.mcp_source import add_mcp_servers
from tests.mcp.servers import REPO
from tests.zygote import forked_line

TRIAGE_SERVER = REPO / "fixtures" / "mcp_triage_server.py"
ASK = "ask the author of MCP server 'triage' to "
#: Words of a fix for Python code; none belongs in a fix for a server's tool.
PYTHON_ADVICE = ("annotate", "pydantic", "__contracts__", "docstring", "Field(", "TOOLS", "list[")


@pytest.fixture(scope="module")
def findings() -> Iterator[list[Finding]]:
    registry = Registry()
    sources, choices = add_mcp_servers(
        registry, server_specs(commands=[forked_line(TRIAGE_SERVER)])
    )
    assert choices == [] and registry.problems == []
    assert registry.names() == ["label_issue", "search_issues"]
    yield lint_registry(registry)
    sources[0].close()


def test_an_array_without_items_is_an_openai_error_with_a_request_to_the_author(findings):
    [finding] = [f for f in findings if f.rule == "openai-array-items"]
    assert (finding.severity, finding.tool, finding.location) == (
        "error",
        "label_issue",
        "label_issue.labels",
    )
    assert finding.message.startswith(
        "OpenAI refuses the whole request: properties.labels is an array without items"
    )
    assert finding.suggestion == (
        ASK + 'give the array at properties.labels an "items" schema in the tool\'s inputSchema, '
        'e.g. "items": {"type": "string"}.'
    )
    assert lint_exit_code(findings) == 1


def test_every_fix_for_a_server_tool_is_a_request_to_its_author(findings):
    assert findings
    for f in findings:
        assert f.suggestion.startswith(ASK), f
        assert f.suggestion.count("ask the author") == 1, f
        assert not any(word in f.suggestion for word in PYTHON_ADVICE), f
    [undeclared] = [f for f in findings if f.rule == "returns-undeclared"]
    assert undeclared.suggestion == (
        ASK + "declare an outputSchema for the tool and return structuredContent that fits it "
        "(MCP 2025-06-18, tools: 'Output Schema')."
    )


def test_strict_blockers_are_listed_per_provider_for_the_server_schema(findings):
    strict = {(f.rule, f.tool): f for f in findings if f.severity == "info"}
    assert set(strict) == {
        ("openai-strict", "label_issue"),
        ("anthropic-strict", "label_issue"),
        ("openai-strict", "search_issues"),
        ("anthropic-strict", "search_issues"),
    }
    openai = strict[("openai-strict", "search_issues")].message
    assert "properties.filters: 'filters' is not required" in openai
    assert "properties.limit: 'limit' is not required" in openai
    assert "properties.filters: additionalProperties is absent, not false" in openai
    assert "minimum" not in openai  # OpenAI's strict mode supports minimum/maximum
    anthropic = strict[("anthropic-strict", "search_issues")].message
    assert "properties.limit: keyword 'maximum'; properties.limit: keyword 'minimum'" in anthropic
    assert "not required" not in anthropic  # Anthropic's strict mode keeps optional properties
    assert strict[("openai-strict", "search_issues")].suggestion == (
        ASK + 'set "additionalProperties": false on every object of the inputSchema; list every '
        'property in "required" and make the optional ones nullable (["string", "null"]).'
    )
