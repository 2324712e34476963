"""Bad input to the command line gets one clear line and exit 2, never a traceback, an
``internal error`` or silence (the breaker's findings of wave 4, each tested as its kind)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from tests.zygote import forked_line

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tools" / "shop.py"
HUGE = "99999999999999999999"  # over SQLite's 64-bit INTEGER

runner = CliRunner()


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def one_entry(tmp_path: Path) -> Path:
    """A history file holding one call."""
    db = tmp_path / "h.db"
    called = invoke(
        "call",
        "get_order_status",
        "order_id=HR20260604",
        "--tools",
        SHOP,
        "--history",
        db,
        "--in-process",
    )
    assert called.exit_code == 0, called.stderr
    return db


@pytest.mark.parametrize(
    "command",
    [
        ["history", "show", HUGE],
        ["history", "rerun", HUGE],
        ["history", "save", HUGE, "--to", "cases.jsonl"],
        ["history", "show", "--", "-9223372036854775809"],
        ["history", "show", "0"],
    ],
)
def test_an_entry_id_out_of_sqlite_range_is_not_found(one_entry, command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke(*command[:2], "--history", one_entry, *command[2:])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    entry_id = command[3] if command[2] == "--" else command[2]
    assert (
        result.stderr
        == f"error: no history entry #{entry_id} in {one_entry} (see playground history)\n"
    )
    assert not (tmp_path / "cases.jsonl").exists()


def test_a_limit_over_sqlite_range_lists_every_entry(one_entry):
    result = invoke("history", "--limit", HUGE, "--history", one_entry, "--format", "json")
    assert result.exit_code == 0, result.output
    assert [e["tool"] for e in json.loads(result.stdout)] == ["get_order_status"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"order": []}', "'order' must map to a word or a non-empty list of words"),
        ('{"order": ["", " "]}', "'order' must map to a word or a non-empty list of words"),
        ('{"": ["주문"]}', "the key '' is not a word (blank)"),
        ('{"order": ["주문"], "order": ["x"]}', "the key 'order' appears twice in one object"),
        ('["order", "주문"]', "expected a JSON object of {word: [words]}"),
        ('{"order": {"주문": 1}}', "'order' must map to a word or a non-empty list of words"),
    ],
)
def test_a_wrong_shaped_synonyms_file_is_one_line(tmp_path, text, message):
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "shop.py").write_text(SHOP.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "synonyms.json").write_text(text, encoding="utf-8")
    result = invoke("ask", "주문 HR20260604", "--tools", folder, "--in-process")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {folder / 'synonyms.json'}: {message}")
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_an_unknown_history_kind_is_refused_listing_the_kinds(one_entry):
    result = invoke("history", "--kind", "weird", "--history", one_entry)
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --kind: unknown kind 'weird'; use one of ok, empty, invalid_args, bad_result, "
        "transient, permission, raised, unknown_tool, cancelled, call, episode\n"
    )
    assert result.stdout == ""
    listed = invoke("history", "--kind", "ok", "--history", one_entry, "--format", "json")
    assert [e["tool"] for e in json.loads(listed.stdout)] == ["get_order_status"]


def test_rerun_refuses_an_unknown_router_even_for_a_call(one_entry):
    result = invoke("history", "rerun", "1", "--router", "weird", "--history", one_entry)
    assert result.exit_code == 2
    assert (
        result.stderr
        == "error: unknown router 'weird'; use one of offline, gemini, openai, anthropic, openai-compatible\n"
    )


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n  \n"])
def test_a_check_file_without_a_case_is_an_error(tmp_path, text):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(text, encoding="utf-8")
    result = invoke("check", cases, "--tools", SHOP, "--in-process")
    assert result.exit_code == 2
    assert result.stderr == (
        f'error: {cases}: no case to run (write one JSON object a line: {{"tool": ..., '
        '"args": {...}, "expect": {...}})\n'
    )
    assert result.stdout == ""


@pytest.mark.parametrize("fmt", ["table", "json", "junit"])
def test_an_eval_file_without_a_case_prints_only_the_error(tmp_path, fmt):
    cases = tmp_path / "cases.jsonl"
    cases.write_text("\n# nothing\n", encoding="utf-8")
    result = invoke("eval", cases, "--tools", SHOP, "--format", fmt)
    assert result.exit_code == 2
    assert result.stderr == (
        f'error: {cases}: no case to judge (write one JSON object a line: {{"question": ..., '
        '"expect_tool": ... | null})\n'
    )
    assert result.stdout == ""


EMPTY_MCP_SERVER = """
import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[])


async def serve():
    server = Server("empty", version="1.0", on_list_tools=list_tools)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


anyio.run(serve)
"""


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl"])
def test_list_with_every_module_refused_prints_no_table_and_exits_2(tmp_path, fmt):
    bad = tmp_path / "bad.py"
    bad.write_text('raise ImportError("no such thing")\n', encoding="utf-8")
    result = invoke("list", "--tools", bad, "--format", fmt, "--in-process")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {bad}: import failed: ImportError: no such thing",
    ]
    assert result.stdout == ("[]\n" if fmt == "json" else "")


def test_list_of_an_mcp_server_without_tools_says_so(tmp_path):
    server = tmp_path / "empty_server.py"
    server.write_text(EMPTY_MCP_SERVER, encoding="utf-8")
    result = invoke("list", "--mcp", forked_line(server))
    assert result.exit_code == 2, result.output
    assert result.stderr == "error: no tool loaded: mcp:empty declared none\n"
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("command", "what"),
    [
        (["call", "get_order_status", "order_id=HR1"], "the call was not run"),
        (["ask", "where is my order HR1"], "the question was not routed"),
        (["check", REPO / "fixtures" / "shop_checks.jsonl"], "no case was run"),
    ],
)
def test_a_command_that_runs_tools_stops_when_no_tool_loaded(tmp_path, monkeypatch, command, what):
    """With no tool loaded the command runs nothing: no unknown_tool record, no history entry."""
    monkeypatch.chdir(tmp_path)  # no ./tools here
    db = tmp_path / "h.db"
    history = ["--history", db] if command[0] in ("call", "ask") else []  # check keeps none
    result = invoke(*command, *history)
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [
        "error: tools: no such file or folder",
        f"error: no tool loaded (see the errors above); {what}",
    ]
    assert result.stdout == ""
    assert not db.exists()


def test_a_call_on_a_server_that_declares_no_tool_says_so_once(tmp_path):
    server = tmp_path / "empty_server.py"
    server.write_text(EMPTY_MCP_SERVER, encoding="utf-8")
    result = invoke("call", "anything", "--mcp", forked_line(server), "--no-history")
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        "error: no tool loaded: mcp:empty declared none; the call was not run\n"
    )
    assert result.stdout == ""


def test_an_argument_given_twice_is_refused():
    result = invoke(
        "call",
        "stock_lookup",
        "sku=KB-101",
        "region=seoul",
        'sku:="KB-102"',
        "--tools",
        REPO / "tools" / "inventory.py",
        "--in-process",
    )
    assert result.exit_code == 2
    assert result.stderr == (
        "error: argument 'sku' is given twice ('sku=KB-101' and 'sku:=\"KB-102\"'); give it once\n"
    )
    assert result.stdout == ""


def test_an_item_replaces_the_same_key_of_args_json():
    result = invoke(
        "call",
        "get_order_status",
        "--args",
        '{"order_id": "HR1"}',
        "order_id=HR20260604",
        "--tools",
        SHOP,
        "--in-process",
        "--format",
        "json",
        "--no-history",
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["args"] == {"order_id": "HR20260604"}


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        (
            "PLAYGROUND_IMPORT_TIMEOUT_S",
            "abc",
            "expected a number above 0 (seconds one tool module may take to import; default 10)",
        ),
        (  # a larger limit overflowed the clocks below ("timestamp too large")
            "PLAYGROUND_IMPORT_TIMEOUT_S",
            "1e10",
            "expected at most 1,000,000 seconds (seconds one tool module may take to import; "
            "default 10)",
        ),
        (
            "PLAYGROUND_RESULT_CAP_MB",
            "-3",
            "expected a number above 0 (the largest result a worker sends back, in MB; default 16)",
        ),
        (
            "PLAYGROUND_TOKEN_BUDGET",
            "1.5",
            "expected a whole number above 0 (approximate tokens of result JSON before a result "
            "gets a warning; default 25000)",
        ),
        (
            "PLAYGROUND_IN_PROCESS",
            "maybe",
            "expected one of 1, true, yes, on or 0, false, no, off (run tool bodies in this "
            "process)",
        ),
    ],
)
@pytest.mark.parametrize("command", [["list"], ["call", "get_order_status", "order_id=HR1"]])
def test_a_bad_setting_is_an_error_naming_the_variable(monkeypatch, name, value, expected, command):
    monkeypatch.setenv(name, value)
    result = invoke(*command, "--tools", SHOP)
    assert result.exit_code == 2
    assert result.stderr == f"error: {name}={value!r}: {expected}\n"
    assert result.stdout == ""


def test_a_playground_variable_that_is_no_setting_gets_a_note(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_TIMEOUT", "abc")
    result = invoke("list", "--tools", SHOP, "--in-process", "--format", "json")
    assert result.exit_code == 0
    assert result.stderr == (
        "note: PLAYGROUND_TIMEOUT is not a playground setting (did you mean "
        "PLAYGROUND_ROUTER_TIMEOUT_S?); it changes nothing\n"
    )
    assert len(json.loads(result.stdout)) == 4


def test_unusable_entries_of_a_tools_folder_are_named(tmp_path):
    import os

    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "shop.py").write_text(SHOP.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "loop.py").symlink_to("loop.py")
    (folder / "a.py").symlink_to("b.py")
    (folder / "b.py").symlink_to("a.py")
    (folder / "gone.py").symlink_to("nothere.py")
    os.mkfifo(folder / "pipe.py")
    result = invoke("list", "--tools", folder, "--format", "json")  # the worker loads them
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {folder / 'a.py'}: a symbolic link loop; the module was not loaded",
        f"error: {folder / 'b.py'}: a symbolic link loop; the module was not loaded",
        f"error: {folder / 'gone.py'}: a symbolic link to a missing file (nothere.py); the "
        "module was not loaded",
        f"error: {folder / 'loop.py'}: a symbolic link loop; the module was not loaded",
        f"error: {folder / 'pipe.py'}: not a regular file (a FIFO, a device?); the module was "
        "not loaded",
    ]
    assert len(json.loads(result.stdout)) == 4  # shop.py's tools still load
    alone = invoke("list", "--tools", folder / "loop.py", "--in-process")
    assert alone.stderr.splitlines()[0] == (
        f"error: {folder / 'loop.py'}: a symbolic link loop; the module was not loaded"
    )


ODD_NUMBERS = '''
import fractions


def odd_number(which: str) -> dict:
    """Return a number JSON cannot carry.

    Args:
        which: complex, nested or fraction
    """
    values = {"complex": 1j, "nested": {"rows": [1, 2j]}, "fraction": fractions.Fraction(1, 3)}
    return {"v": values[which]}


__tools__ = [odd_number]
'''


@pytest.mark.worker_process  # its "worker" case is the worker's own JSON check
@pytest.mark.parametrize("where", ["worker", "in-process"])
@pytest.mark.parametrize(
    ("which", "what", "path"),
    [
        ("complex", "the complex number 1j", "$.v"),
        ("nested", "the complex number 2j", "$.v.rows[1]"),
        ("fraction", "the Fraction number Fraction(1, 3)", "$.v"),
    ],
)
def test_a_number_json_cannot_carry_is_not_serializable_with_its_path(
    tmp_path, where, which, what, path
):
    module = tmp_path / "odd.py"
    module.write_text(ODD_NUMBERS, encoding="utf-8")
    extra = ["--in-process"] if where == "in-process" else []
    result = invoke(
        "call", "odd_number", f"which={which}", "--tools", module, "--format", "json", *extra
    )
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert (record["kind"], record["error"], record["value"]) == (
        "bad_result",
        "result:not_serializable",
        None,
    )
    assert record["message"].startswith(
        f"odd_number returned {what} (a JSON number is a real decimal: return a float, or a "
        f"string the tool formats) at {path}; a tool result must be JSON data."
    )


def test_a_command_that_is_not_an_mcp_server_is_named_as_such():
    result = invoke("list", "--mcp", "cat")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: mcp:cat: initialize failed with the JSON-RPC error -32601 'Method not found'; "
        "the command does not answer as an MCP server does (a stdio server replies to "
        "initialize with its capabilities; a program that echoes its input, such as cat, "
        "gives this error)",
    ]


def test_an_mcp_config_without_a_server_is_an_error_not_the_default_tools(tmp_path):
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": {}}', encoding="utf-8")
    result = invoke("list", "--mcp-config", config, "--format", "json")
    assert result.exit_code == 2
    assert result.stderr == f"error: --mcp-config {config}: no server in its mcpServers\n"
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        (
            "--rpm",
            "1e-300",
            "1e-300 is not 0 (no limit) or a number of requests per minute "
            "from 0.000694 (one a day) up",
        ),
        (
            "--rpm",
            "nan",
            "nan is not 0 (no limit) or a number of requests per minute from "
            "0.000694 (one a day) up",
        ),
        ("--min-selection", "nan", "nan is not a rate from 0 to 1"),
        ("--max-false-selection", "1.5", "1.5 is not a rate from 0 to 1"),
    ],
)
def test_a_number_option_out_of_its_domain_is_a_usage_error(
    capsys, tmp_path, option, value, message
):
    from playground.cli.main import run

    cases = tmp_path / "cases.jsonl"
    cases.write_text('{"question": "키보드", "expect_tool": "search_products"}\n', "utf-8")
    with pytest.raises(SystemExit) as ended:
        run(["eval", str(cases), "--tools", str(SHOP), option, value])
    assert ended.value.code == 2
    assert capsys.readouterr().err == (
        f"error: Invalid value for '{option}': {message} (see 'playground eval --help')\n"
    )


def test_an_mcp_config_that_is_not_text_is_one_line(tmp_path):
    config = tmp_path / "mcp.json"
    config.write_bytes(b'{"mcpServers": \xfd}')
    result = invoke("list", "--mcp-config", config)
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: --mcp-config {config}: not UTF-8 text (invalid start byte at byte 15)\n"
    )


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_listing_a_history_that_cannot_be_read_is_an_error_not_an_empty_list(tmp_path, fmt):
    folder = tmp_path / "a-folder"
    folder.mkdir()
    result = invoke("history", "--history", folder, "--format", fmt)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: history is off for this run: cannot read {folder}: Is a directory "
        "(choose another file with --history PATH, or --no-history)"
    ]
    assert result.stdout == ""  # refused before any output


@pytest.mark.parametrize("command", [["replay"], ["history", "rerun"]])
def test_every_command_that_runs_tools_takes_in_process(command):
    import typer

    from playground.cli.main import build_app

    click_command = typer.main.get_command(build_app(command[0]))
    for name in command:
        click_command = (
            click_command.commands[name] if hasattr(click_command, "commands") else click_command
        )
    assert "--in-process" in [o for p in click_command.params for o in p.opts]
