"""The MCP server options and the ``mcpServers`` file shape (Claude Desktop, Cursor, VS Code)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from playground.errors import UsageError
from playground.sources.mcp_config import (
    REDACTED,
    parse_header,
    redact,
    safe_server_name,
    server_specs,
)
from playground.sources.mcp_source import prefixed_name


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


def test_a_urls_password_and_key_are_cut_from_its_description_and_messages() -> None:
    """The URL's secrets were redacted only at the two places that quoted the URL when it could
    not be reached; describe() and redact() (every other message about the server: its
    stderr, a problem quoting it) showed them; and the server was named after the user name
    before the ``@`` ("u"), not the host."""
    url = "https://u:SECRETPW2@mcp.example.test/mcp?key=AIzaQ2&n=1"
    (spec,) = server_specs(urls=[url])
    assert spec.describe() == (
        f"mcp_example_test: http https://{REDACTED}@mcp.example.test/mcp?key={REDACTED}&n=1"
    )
    said = f"GET {url} failed; the key AIzaQ2 was refused for u:SECRETPW2"
    assert redact(said, spec) == (
        f"GET https://{REDACTED}@mcp.example.test/mcp?key={REDACTED}&n=1 failed; the key "
        f"{REDACTED} was refused for {REDACTED}"
    )


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
        (
            {"mcpServers": {"a b": {"command": "x"}}},
            "mcpServers.a b: a server name uses letters and digits (of any script), '_' or '-', "
            "e.g. 'a_b'",
        ),
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
    assert str(info.value).startswith("--mcp-header 'Bearer [redacted]' is not 'Name: value'")
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
        ("Bad Name: v4lue", "'Bad Name: [redacted]' is not 'Name: value': the name 'Bad Name' has a space in it"),
        (": v4lue", "': [redacted]' is not 'Name: value': it has no name before the ':'"),
        ("Authorization Basic dXNlcjpwYXNz", "'Authorization [redacted]' is not 'Name: value': it has no ':' between the name and the value"),
        ("api_key=abc123", "'api_key=[redacted]' is not 'Name: value': it has no ':' between the name and the value"),
        ("X-Trace sk-abcdefghijkl", "'X-Trace [redacted]' is not 'Name: value': it has no ':' between the name and the value"),
        ("x" * 100, f"'{'x' * 79}…' is not 'Name: value': it has no ':' between the name and the value"),
    ],
)  # fmt: skip
def test_a_malformed_header_is_quoted_with_its_secrets_redacted(given: str, error: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_header(given)
    assert str(info.value) == f"--mcp-header {error}{WHY}"


# ---- the tester's --mcp-config messages (issue 25) ----------------------------------------------


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (
            {"mcpServers": {"t": {"command": 5}}},
            "mcpServers.t: 'command' must be a string, got a JSON integer",
        ),
        (
            {"mcpServers": {"t": {"command": ["npx", "x"]}}},
            "mcpServers.t: 'command' must be a string, got a JSON array",
        ),
        (
            {"mcpServers": {"t": {"command": " "}}},
            "mcpServers.t: 'command' is empty; give the program that starts the server",
        ),
        (
            {"mcpServers": {"t": {"url": 5}}},
            "mcpServers.t: 'url' must be a string, got a JSON integer",
        ),
        (
            {"mcpServers": {"": {"command": "x"}}},
            "mcpServers.: a server name uses letters and digits (of any script), '_' or '-'",
        ),
        (
            {"mcpServers": {"한글 서버": {"command": "x"}}},
            "mcpServers.한글 서버: a server name uses letters and digits (of any script), '_' or '-', e.g. '한글_서버'",
        ),
    ],
)
def test_an_entry_message_names_what_is_wrong(tmp_path: Path, data: object, line: str) -> None:
    path = write_config(tmp_path, data)
    with pytest.raises(UsageError) as info:
        server_specs(configs=[path])
    assert str(info.value) == f"{path}: {line}"


SHAPE = (
    'expected {"mcpServers": {"NAME": {"command": "...", "args": [...], "env": {...}}}} '
    '(or {"url": "...", "headers": {...}} for a server over HTTP)'
)


@pytest.mark.parametrize(
    ("data", "got"),
    [
        ({"mcpServers": []}, "'mcpServers' is a JSON array"),
        ({"servers": "x"}, "'servers' is a JSON string"),
        ({"nothing": 1}, "no 'mcpServers' key"),
        ([1], "the file holds a JSON array"),
    ],
)
def test_a_file_of_another_shape_names_what_it_holds_and_the_shape(
    tmp_path: Path, data: object, got: str
) -> None:
    path = write_config(tmp_path, data)
    with pytest.raises(UsageError) as info:
        server_specs(configs=[path])
    assert str(info.value) == f"--mcp-config {path}: {got}; {SHAPE}"
    assert SHAPE.count("{") == SHAPE.count("}") and SHAPE.count("[") == SHAPE.count("]")


def test_a_server_named_in_hangul_is_accepted_and_prefixes_tools_in_ascii(tmp_path: Path) -> None:
    path = write_config(
        tmp_path, {"mcpServers": {"한글": {"command": "x"}, "도서-관_2": {"url": "http://h/mcp"}}}
    )
    assert [s.name for s in server_specs(configs=[path])] == ["한글", "도서-관_2"]
    assert prefixed_name("한글", "search") == "xn--bj0bj06e__search"
    assert prefixed_name("shop", "search") == "shop__search"
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", prefixed_name("도서-관_2", "search"))
    # a script named in Hangul names its server after it; unsafe characters still become '_'
    (spec,) = server_specs(commands=["python '도서관 서버.py'"])
    assert spec.name == "도서관_서버"
    assert safe_server_name("a\u202eb\x00c") == "a_b_c"  # no bidi or control character
