"""``playground list / show / call`` and the CLI base (exit codes, one-line errors, the TUI hook),
through typer's CliRunner against the real example tools in ``tools/``."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.cmd_call import build_call_args, parse_item
from playground.cli.common import ExitCode
from playground.cli.main import app
from playground.errors import LoadError, UsageError

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "tools"
SHOP = TOOLS / "shop.py"
INVENTORY = TOOLS / "inventory.py"

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def call_json(*args: str, tools: Path = TOOLS) -> tuple[int, dict, str]:
    result = invoke("call", *args, "--tools", tools, "--format", "json")
    data = json.loads(result.stdout) if result.stdout.strip() else None
    return result.exit_code, data, result.stderr


# --- call: records as data ------------------------------------------------------------------


def test_unknown_order_is_a_fact_not_an_error():
    code, rec, err = call_json("get_order_status", "order_id=HR99999999", tools=SHOP)
    assert code == 0, err
    assert rec["tool"] == "get_order_status"
    assert rec["args"] == {"order_id": "HR99999999"}
    assert rec["ok"] is True and rec["kind"] == "ok" and rec["verdict"] == "valid"
    assert rec["body_ran"] is True and rec["body_runs"] == 1 and rec["cache"] == "stored"
    assert rec["value"]["found"] is False
    assert "HR99999999" in rec["value"]["message"]


def test_true_is_not_an_integer_limit_and_the_body_does_not_run():
    code, rec, err = call_json(
        "stock_lookup", "sku=KB-101", "region=seoul", "limit:=true", tools=INVENTORY
    )
    assert code == 0, err  # a verdict is data
    assert rec["verdict"] == "type:limit"
    assert (
        rec["kind"] == "invalid_args" and rec["error"] == "args:type:limit" and rec["ok"] is False
    )
    assert rec["body_ran"] is False and rec["body_runs"] == 0 and rec["cache"] == "skip"
    assert rec["args"] == {"sku": "KB-101", "region": "seoul", "limit": True}
    assert rec["wire"]["anthropic"]["is_error"] is True


def test_args_json_string_holding_an_object_gets_verdict_shape():
    code, rec, err = call_json(
        "get_order_status", "--args", '"{\\"order_id\\": \\"HR1\\"}"', tools=SHOP
    )
    assert code == 0, err
    assert rec["args"] == '{"order_id": "HR1"}'  # passed as the string it is
    assert rec["verdict"] == "shape" and rec["body_ran"] is False
    assert "JSON string holding an object" in rec["message"]


def test_items_are_merged_into_the_args_object_and_win():
    code, rec, err = call_json(
        "stock_lookup",
        "--args",
        '{"sku": "KB-101", "region": "busan", "limit": 5}',
        "region=seoul",
        "limit:=2",
        tools=INVENTORY,
    )
    assert code == 0, err
    assert rec["args"] == {"sku": "KB-101", "region": "seoul", "limit": 2}
    assert rec["kind"] == "ok"
    assert [row["store"] for row in rec["value"]["rows"]] == ["강남점", "홍대점"]


def test_legacy_stock_breaks_its_row_limit():
    code, rec, err = call_json("legacy_stock", "sku=KB-101", "region=seoul", tools=INVENTORY)
    assert code == 0, err
    assert rec["kind"] == "bad_result" and rec["error"] == "result:too_big" and rec["ok"] is False
    assert rec["body_ran"] is True and rec["cache"] == "miss"
    assert len(rec["value"]["rows"]) == 7


def test_jsonl_is_one_line_and_keeps_hangul():
    result = invoke(
        "call", "search_products", "keyword=텀블러", "--tools", SHOP, "--format", "jsonl"
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    rec = json.loads(lines[0])
    assert rec["args"] == {"keyword": "텀블러"}
    assert "텀블러" in lines[0] and "\\ud14c" not in lines[0]  # ensure_ascii=False
    assert rec["value"]["count"] >= 1


def test_table_shows_verdict_body_cache_and_wire():
    result = invoke(
        "call", "stock_lookup", "sku=KB-101", "region=seoul", "limit:=true", "--tools", INVENTORY
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "type:limit" in out
    assert "did not run" in out and "body_runs 0" in out
    assert "skip" in out and "invalid_args" in out
    assert "function_response" in out  # the gemini wire JSON


def test_table_renders_korean_values():
    result = invoke("call", "get_order_status", "order_id=HR20260604", "--tools", SHOP)
    assert result.exit_code == 0, result.stderr
    assert "배송중" in result.stdout and "stored" in result.stdout


# --- call: bad input --------------------------------------------------------------------------


def test_unknown_tool_is_one_usage_error_line_with_close_names():
    result = invoke("call", "get_order_statu", "order_id=HR1", "--tools", SHOP, "--format", "json")
    assert result.exit_code == ExitCode.USAGE
    assert result.stdout == ""  # no record: nothing was called
    assert (
        result.stderr == "error: no tool named 'get_order_statu'; did you mean: get_order_status\n"
    )


def test_malformed_raw_json_item_is_a_usage_error_naming_the_item():
    result = invoke("call", "stock_lookup", "sku=KB-101", "limit:=tru", "--tools", INVENTORY)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: argument 'limit:=tru'")


def test_args_that_are_not_json_are_a_usage_error():
    result = invoke("call", "stock_lookup", "--args", "{sku: KB-101}", "--tools", INVENTORY)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: --args is not valid JSON")
    assert result.stderr.count("\n") == 1


def test_items_need_an_object_in_args():
    result = invoke("call", "stock_lookup", "--args", "[1]", "limit:=1", "--tools", INVENTORY)
    assert result.exit_code == 2
    assert "--args is a JSON list, not an object" in result.stderr


def test_missing_tools_path_is_reported_and_the_rest_still_loads(tmp_path):
    missing = tmp_path / "nowhere"
    result = invoke(
        "call",
        "get_order_status",
        "order_id=HR99999999",
        "--tools",
        missing,
        "--tools",
        SHOP,
        "--format",
        "json",
    )
    assert result.exit_code == 0  # the call ran and was recorded (docs/cli.md, "Exit codes")
    assert result.stderr.strip() == f"error: {missing}: no such file or folder"
    assert json.loads(result.stdout)["value"]["found"] is False


def test_tool_module_with_a_syntax_error_others_still_load(tmp_path):
    (tmp_path / "good.py").write_text(
        'def echo_text(text: str) -> dict:\n    """Echo text back.\n\n    Args:\n        text: any text. e.g. "hi"\n    """\n'
        '    return {"text": text}\n\n__tools__ = [echo_text]\n',
        encoding="utf-8",
    )
    (tmp_path / "broken.py").write_text("def oops(:\n    pass\n", encoding="utf-8")
    listed = invoke("list", "--tools", tmp_path, "--format", "json")
    assert listed.exit_code == 2
    assert [row["name"] for row in json.loads(listed.stdout)] == ["echo_text"]
    errors = listed.stderr.splitlines()
    assert len(errors) == 1
    assert (
        errors[0].startswith("error: ") and "broken.py" in errors[0] and "SyntaxError" in errors[0]
    )

    called = invoke("call", "echo_text", "text=안녕", "--tools", tmp_path, "--format", "json")
    assert called.exit_code == 0  # the call of a tool that loaded ran: another's error is not its
    assert json.loads(called.stdout)["value"] == {"text": "안녕"}


def test_typer_usage_errors_exit_2():
    assert invoke("call").exit_code == 2
    assert invoke("call", "x", "--bogus").exit_code == 2
    assert invoke("list", "--format", "xml").exit_code == 2


def test_keyboard_interrupt_exits_130_without_traceback(monkeypatch):
    from playground.core.gate import Gate

    def interrupted(self, name, args, call_id=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(Gate, "call", interrupted)
    result = invoke("call", "get_order_status", "order_id=HR1", "--tools", SHOP)
    assert result.exit_code == ExitCode.INTERRUPTED == 130
    assert result.stderr == "error: interrupted\n"
    assert "Traceback" not in result.output


def test_domain_errors_exit_2_with_one_line(monkeypatch):
    import playground.workbench as workbench

    def broken(*args, **kwargs):
        raise LoadError("tools/x.py: cannot be imported\n(second line)")

    monkeypatch.setattr(workbench, "open_playground", broken)
    result = invoke("list")
    assert result.exit_code == 2
    assert result.stderr == "error: tools/x.py: cannot be imported (second line)\n"


# --- call --repair ------------------------------------------------------------------------------


def test_repair_prints_an_episode():
    result = invoke(
        "call",
        "stock_lookup",
        "sku=KB-101",
        "region=jeju",
        "limit:=3",
        "--repair",
        "--tools",
        INVENTORY,
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    episode = json.loads(result.stdout)
    assert {"calls", "steps", "reply", "ok", "attempts", "fixes", "gave_up"} <= set(episode)
    assert episode["calls"][0]["verdict"] == "allowed:region"
    assert episode["steps"][0]["node"] == "pick"


# --- list / show ----------------------------------------------------------------------------------


def test_list_json_rows():
    result = invoke("list", "--tools", INVENTORY, "--tools", SHOP, "--format", "json")
    assert result.exit_code == 0, result.stderr
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert list(rows) == [
        "stock_lookup",
        "legacy_stock",
        "get_order_status",
        "track_shipping",
        "search_products",
        "check_stock",
    ]
    stock = rows["stock_lookup"]
    assert stock["origin"] == "table" and stock["required"] == ["sku", "region", "limit"]
    assert stock["timeout_s"] == 2.0 and stock["side_effects"] is False and stock["caches"] is True
    assert rows["get_order_status"]["origin"] == "function"
    assert (
        rows["get_order_status"]["description"]
        == "하루마켓 주문번호로 주문 내역과 진행 단계를 조회한다."
    )


def test_list_jsonl_and_table():
    lines = invoke("list", "--tools", INVENTORY, "--format", "jsonl").stdout.splitlines()
    assert [json.loads(line)["name"] for line in lines] == ["stock_lookup", "legacy_stock"]
    table = invoke("list", "--tools", INVENTORY)
    assert table.exit_code == 0
    assert (
        "stock_lookup" in table.stdout
        and "read (declared)" in table.stdout
        and "legacy_stock" in table.stdout
    )


def test_show_json_is_the_declaration_the_gemini_request_carries():
    """Not google-genai's ``from_callable`` output (which holds a ``response_json_schema`` no
    request of the router sends): the entry of the Gemini dry run's functionDeclarations."""
    from playground.routing.base import Turn
    from playground.routing.factory import choose_router
    from playground.sources.loading import load_registry

    result = invoke("show", "get_order_status", "--tools", SHOP, "--format", "json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert "하루마켓" in result.stdout  # Hangul as is
    router = choose_router("gemini", environ={}, dry_run=True).router
    declarations = load_registry([SHOP]).declarations()
    body = router.dry_run([Turn(role="user", text="주문 상태")], declarations)["body"]
    (sent,) = [
        d for d in body["tools"][0]["functionDeclarations"] if d["name"] == "get_order_status"
    ]
    assert shown == sent
    assert set(shown) == {"name", "description", "parameters_json_schema"}
    assert "Args:" in shown["description"]


def test_show_table_adds_returns_and_flags():
    result = invoke("show", "stock_lookup", "--tools", INVENTORY)
    assert result.exit_code == 0, result.stderr
    assert "declaration of stock_lookup" in result.stdout
    assert (
        "returns" in result.stdout and "max_rows" in result.stdout and "time limit" in result.stdout
    )


def test_show_unknown_name_lists_close_names():
    result = invoke("show", "stock_lookp", "--tools", INVENTORY)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "error: no tool named 'stock_lookp'; did you mean: stock_lookup\n"


# --- items ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "item, expected",
    [
        ("a=b", ("a", "b")),
        ("a=b=c", ("a", "b=c")),
        ("url=http://x.y/?q=1", ("url", "http://x.y/?q=1")),
        ("n:=42", ("n", 42)),
        ("n:=1.5", ("n", 1.5)),
        ("flag:=true", ("flag", True)),
        ('s:="42"', ("s", "42")),
        ('tags:=["a", 1]', ("tags", ["a", 1])),
        ("empty=", ("empty", "")),
        ("지역=서울", ("지역", "서울")),
    ],
)
def test_parse_item(item, expected):
    assert parse_item(item) == expected


@pytest.mark.parametrize(
    "item, fragment",
    [
        ("novalue", "is not name=value"),
        ("=v", "has no name"),
        (":=1", "has no name"),
        ("n:=", "not JSON"),
    ],
)
def test_parse_item_errors(item, fragment):
    with pytest.raises(UsageError, match=fragment):
        parse_item(item)


def test_build_call_args():
    assert build_call_args(None, None) == {}
    assert build_call_args(None, "[1, 2]") == [1, 2]
    assert build_call_args(["a=1"], '{"a": 0, "b": 2}') == {"a": "1", "b": 2}
    with pytest.raises(UsageError, match="null, not an object"):
        build_call_args(["a=1"], "null")


# --- the root command, module loading, import hygiene --------------------------------------


def test_no_arguments_opens_the_tui(monkeypatch):
    seen: list = []
    fake = types.ModuleType("playground.tui.app")
    fake.run_tui = lambda tools=None, in_process=None: seen.append(tools)
    monkeypatch.setitem(sys.modules, "playground.tui.app", fake)
    result = invoke()
    assert result.exit_code == 0, result.stderr
    assert invoke("--tools", SHOP).exit_code == 0
    assert seen == [["tools"], [str(SHOP)]]


def test_root_tools_before_a_command_is_refused():
    result = invoke("--tools", SHOP, "list")
    assert result.exit_code == 2
    assert "--tools goes after the command" in result.stderr


def run_module(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "playground", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_python_dash_m_usage_errors_are_one_plain_line():
    done = run_module("call", "x", "--bogus")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: No such option: --bogus")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_python_dash_m_runs_a_command():
    done = run_module(
        "call",
        "stock_lookup",
        "sku=KB-101",
        "region=seoul",
        "limit:=1",
        "--tools",
        str(INVENTORY),
        "--format",
        "json",
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"]["rows"] == [{"store": "강남점", "count": 12}]


def test_help_does_not_import_heavy_modules():
    code = (
        "import sys\n"
        "from playground.cli.main import app\n"
        "heavy = [m for m in ('textual', 'google.genai', 'playground.core.gate', 'jsonschema') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
    helped = run_module("--help")
    assert helped.returncode == 0 and "call" in helped.stdout and "check" in helped.stdout


def test_table_prints_brackets_literally_not_as_rich_markup():
    result = invoke("call", "search_products", "keyword=[red]텀블러[/red]", "--tools", SHOP)
    assert result.exit_code == 0, result.stderr
    assert "[red]텀블러[/red]" in result.stdout


def test_a_key_error_carries_its_traceback_in_json_but_never_in_the_wire_json():
    """Issue 13 item 4: the tool's own frame (file, line, code) in ``--format json``; the
    Gemini / Anthropic / OpenAI views the model reads hold only the one-line error."""
    flaky = TOOLS / "flaky.py"
    code, rec, err = call_json("broken_lookup", "item_id=A-100", tools=flaky)
    assert code == 0, err
    assert (rec["kind"], rec["error"], rec["verdict"]) == ("raised", "raised:KeyError", "valid")
    frame = rec["traceback"][-1]
    line = (
        flaky.read_text(encoding="utf-8")
        .splitlines()
        .index(
            '    return {"item_id": item_id, "price": record["price"]}  # the bug: no "price" key'
        )
    )
    assert frame == {
        "file": str(flaky),
        "line": line + 1,
        "function": "broken_lookup",
        "code": 'return {"item_id": item_id, "price": record["price"]}  # the bug: no "price" key',
    }
    for provider in ("gemini", "anthropic", "openai"):
        wire = json.dumps(rec["wire"][provider], ensure_ascii=False)
        # the model reads the exception and where it came from (issue 11: "flaky.py:LINE"),
        # never the traceback: no full path, no code line (issue 13)
        assert "KeyError" in wire and f"flaky.py:{line + 1}" in wire
        assert str(flaky) not in wire and "the bug: no" not in wire and "traceback" not in wire


DEFAULTED = '''
def find_open_slots(date: str, dentist: str = "kim") -> dict:
    """Open slots on a day.

    Args:
        date: YYYY-MM-DD.
        dentist: which dentist.
    """
    return {"date": date, "dentist": dentist, "slots": []}


__tools__ = [find_open_slots]
'''


def test_the_table_shows_the_args_as_sent_and_the_canonical_form_apart(tmp_path):
    module = tmp_path / "clinic.py"
    module.write_text(DEFAULTED, encoding="utf-8")
    result = invoke(
        "call", "find_open_slots", "date=2026-12-03", "--tools", module, "--no-history",
        "--format", "table",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = {
        line.strip("│ ").split(None, 1)[0]: line.strip("│ ").split(None, 1)[1].strip(" │")
        for line in result.stdout.splitlines()
        if line.startswith("│ args") or line.startswith("│ canonical")
    }
    # what was sent, not the cache key's form: the default is the body's, never sent
    assert rows == {
        "args": '{"date": "2026-12-03"}',
        "canonical": '{"date":"2026-12-03","dentist":"kim"}',
    }
