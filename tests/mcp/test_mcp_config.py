"""The MCP server options and the ``mcpServers`` file shape (Claude Desktop, Cursor, VS Code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playground.errors import UsageError
from playground.sources.mcp_config import REDACTED, parse_header, redact, server_specs


def write_config(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_stdio_command_is_split_and_named_after_the_script() -> None:
    (spec,) = server_specs(commands=['python "fixtures/mcp_shop_server.py" --log "/tmp/a b"'])
    assert spec.transport == "stdio"
    assert spec.command == "python"
    assert spec.args == ("fixtures/mcp_shop_server.py", "--log", "/tmp/a b")
    assert spec.name == "mcp_shop_server"


def test_two_commands_with_one_script_get_distinct_names() -> None:
    specs = server_specs(commands=["python s.py", "python s.py --x"])
    assert [s.name for s in specs] == ["s", "s_2"]


def test_url_with_headers_redacts_values_in_describe() -> None:
    (spec,) = server_specs(
        urls=["http://127.0.0.1:9000/mcp"], headers=["Authorization: Bearer abc123secret"]
    )
    assert spec.transport == "http"
    assert spec.headers == {"Authorization": "Bearer abc123secret"}
    text = spec.describe()
    assert "abc123secret" not in text
    assert f"Authorization: {REDACTED}" in text
    assert redact("server said Bearer abc123secret", spec) == f"server said {REDACTED}"


def test_config_file_reads_stdio_and_http_entries(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        {
            "mcpServers": {
                "shop": {"command": "python", "args": ["shop.py"], "env": {"SHOP_KEY": "k-999"}},
                "remote": {"url": "https://example.test/mcp", "headers": {"X-Api-Key": "zzz1"}},
                "off": {"command": "nope", "disabled": True},
            }
        },
    )
    specs = server_specs(configs=[path])
    assert [(s.name, s.transport) for s in specs] == [("shop", "stdio"), ("remote", "http")]
    assert specs[0].env == {"SHOP_KEY": "k-999"}
    assert specs[0].describe() == f"shop: stdio python shop.py env {{SHOP_KEY={REDACTED}}}"
    assert "zzz1" not in specs[1].describe()


def test_vscode_servers_key_and_server_selection(tmp_path: Path) -> None:
    path = write_config(
        tmp_path, {"servers": {"a": {"command": "x"}, "b": {"command": "y", "args": ["1"]}}}
    )
    (spec,) = server_specs(configs=[path], only=["b"])
    assert (spec.name, spec.command, spec.args) == ("b", "y", ("1",))


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"mcpServers": {"a": {"args": []}}}, "needs a 'command' (stdio) or a 'url'"),
        ({"mcpServers": {"a": {"command": "x", "args": "oops"}}}, "'args' must be a list"),
        ({"mcpServers": {"a": {"command": "x", "env": {"K": ["v"]}}}}, "env.K must be a string"),
        ({"nothing": 1}, 'expected {"mcpServers"'),
        ({"mcpServers": {"a b": {"command": "x"}}}, "server names must be unique"),
        ({"mcpServers": {"a": {"command": "x", "timeout": 1e14}}}, "at most 1,000,000,000"),
    ],
)
def test_malformed_config_is_one_clear_line(tmp_path: Path, data: object, needle: str) -> None:
    path = write_config(tmp_path, data)
    with pytest.raises(UsageError) as info:
        server_specs(configs=[path])
    assert needle in str(info.value)
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)


def test_bad_json_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(UsageError, match=r"not valid JSON \(line 1, column 2\)"):
        server_specs(configs=[bad])
    with pytest.raises(UsageError, match="cannot read"):
        server_specs(configs=[tmp_path / "none.json"])


def test_unknown_server_name_lists_the_names(tmp_path: Path) -> None:
    path = write_config(tmp_path, {"mcpServers": {"shop": {"command": "x"}}})
    with pytest.raises(UsageError, match=r"--mcp-server 'shp'.*there are: shop"):
        server_specs(configs=[path], only=["shp"])


def test_bad_header_never_echoes_its_value() -> None:
    with pytest.raises(UsageError) as info:
        parse_header("Bearer topsecretvalue")
    assert "topsecretvalue" not in str(info.value)
    assert str(info.value).startswith("--mcp-header 'Bearer <redacted>' is not 'Name: value'")
    assert parse_header("X-Key:  v: w ") == ("X-Key", "v: w")
    with pytest.raises(UsageError, match="no --mcp-url"):
        server_specs(headers=["X-Key: v"])


def test_bad_url_and_empty_command() -> None:
    with pytest.raises(UsageError, match="expected an http"):
        server_specs(urls=["ftp://x"])
    with pytest.raises(UsageError, match="--mcp needs a command"):
        server_specs(commands=["  "])


def test_time_limits_past_the_playgrounds_longest_are_refused_in_one_line() -> None:
    """``--mcp-timeout 99999999999999`` was taken, then the server was reported 'not
    running: OverflowError: timestamp out of range'."""
    for kwargs, needle in (
        ({"timeout_ms": 99999999999999}, "--mcp-timeout: 'MS' must be a number of milliseconds"),
        ({"max_total_ms": 1e20}, "--mcp-max-total: 'MS' must be a number of milliseconds"),
        ({"tool_timeouts": ["t=1e20"]}, "--mcp-tool-timeout 't=1e20': expected TOOL=MILLISECONDS"),
    ):
        with pytest.raises(UsageError) as info:
            server_specs(commands=["python3 server.py"], **kwargs)  # type: ignore[arg-type]
        assert needle in str(info.value) and "at most 1,000,000,000" in str(info.value)
    (spec,) = server_specs(commands=["python3 server.py"], timeout_ms=1e9)
    assert spec.timeout_s == 1e6


WHY = " (a header name with no spaces, a colon, then the value)"


@pytest.mark.parametrize(
    ("given", "error"),
    [
        ("garbage", "'garbage' is not 'Name: value': it has no ':' between the name and the value"),
        ("hello world", "'hello world' is not 'Name: value': it has no ':' between the name and the value"),
        ("Bad Name: v4lue", "'Bad Name: <redacted>' is not 'Name: value': the name 'Bad Name' has a space in it"),
        (": v4lue", "': <redacted>' is not 'Name: value': it has no name before the ':'"),
        ("Authorization Basic dXNlcjpwYXNz", "'Authorization <redacted>' is not 'Name: value': it has no ':' between the name and the value"),
        ("api_key=abc123", "'api_key=<redacted>' is not 'Name: value': it has no ':' between the name and the value"),
        ("X-Trace sk-abcdefghijkl", "'X-Trace <redacted>' is not 'Name: value': it has no ':' between the name and the value"),
        ("x" * 100, f"'{'x' * 79}…' is not 'Name: value': it has no ':' between the name and the value"),
    ],
)  # fmt: skip
def test_a_malformed_header_is_quoted_with_its_secrets_redacted(given: str, error: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_header(given)
    assert str(info.value) == f"--mcp-header {error}{WHY}"
