"""``playground eval / lint / probe`` through typer's CliRunner: exit codes, parsed JSON and
JUnit output, --compare with the offline router against a changed copy of tools/shop.py."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tools" / "shop.py"
INVENTORY = REPO / "tools" / "inventory.py"
ROUTING_CASES = REPO / "fixtures" / "routing_cases.jsonl"

runner = CliRunner()


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "decl-cache"))
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_commands_are_registered_in_help_order():
    names = [c.name for c in app.registered_commands]
    assert names == [
        "list",
        "show",
        "call",
        "ask",
        "check",
        "eval",
        "lint",
        "probe",
        "report",
        "replay",
        "resources",
        "prompts",
        "serve",
    ]
    assert [g.name for g in app.registered_groups] == ["history"]


def _without_boundaries(tmp_path: Path) -> Path:
    """A copy of shop.py with every boundary sentence ("...사용하지 않는다") removed."""
    lines = [
        line
        for line in SHOP.read_text(encoding="utf-8").splitlines()
        if "사용하지 않는다" not in line
    ]
    folder = tmp_path / "no_boundaries"
    folder.mkdir()
    (folder / "shop.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "shop.py"


# --- eval -----------------------------------------------------------------------------------


def test_eval_json_offline_router():
    result = invoke("eval", ROUTING_CASES, "--tools", SHOP, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    m = data["metrics"]
    counts = m["counts"]
    assert (counts["total"], counts["should_use"], counts["should_not_use"]) == (63, 40, 23)
    assert m["selection_rate"] == pytest.approx(counts["selected"] / 40)
    assert m["false_selection_rate"] == pytest.approx(counts["false_selected"] / 23)
    assert data["router"] == "offline"
    assert len(data["results"]) == 63
    assert data["thresholds"] == {"base": []}


def test_eval_table_lists_rates_and_matrix():
    result = invoke("eval", ROUTING_CASES, "--tools", SHOP)
    assert result.exit_code == 0, result.stderr
    for text in (
        "selection rate",
        "false-selection rate",
        "wrong-tool rate",
        "argument accuracy",
        "per tool",
        "confusion",
        "track_shipping",
    ):
        assert text in result.stdout


def test_eval_thresholds_set_the_exit_code():
    ok = invoke(
        "eval",
        ROUTING_CASES,
        "--tools",
        SHOP,
        "--min-selection",
        "0.5",
        "--max-false-selection",
        "0.5",
        "--format",
        "json",
    )
    assert ok.exit_code == 0, ok.stderr
    high = invoke(
        "eval", ROUTING_CASES, "--tools", SHOP, "--min-selection", "1.0", "--format", "json"
    )
    rate = json.loads(high.stdout)["metrics"]["selection_rate"]
    if rate < 1.0:
        assert high.exit_code == 1
        assert "below --min-selection 100.0%" in high.stderr
    strict = invoke("eval", ROUTING_CASES, "--tools", SHOP, "--max-false-selection", "-0.1")
    assert strict.exit_code == 2  # out of range: a usage error


def test_eval_junit_parses(tmp_path: Path):
    result = invoke("eval", ROUTING_CASES, "--tools", SHOP, "--format", "junit")
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(result.stdout.encode("utf-8"))
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert root.get("tests") == suite.get("tests") == "63" and len(cases) == 63
    failures = [c for c in cases if c.find("failure") is not None]
    assert suite.get("failures") == str(len(failures))
    assert all(f.find("failure").get("message") for f in failures)
    assert {c.get("classname") for c in cases} >= {"eval.track_shipping", "eval.none"}


def test_eval_missing_file_and_malformed_lines(tmp_path: Path):
    missing = invoke("eval", tmp_path / "nope.jsonl", "--tools", SHOP)
    assert missing.exit_code == 2
    assert (
        missing.stderr.strip().startswith("error:")
        and len(missing.stderr.strip().splitlines()) == 1
    )
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        '{"question": "HR20260621 택배 언제 와요?", "expect_tool": "track_shipping"}\n{broken\n',
        encoding="utf-8",
    )
    result = invoke("eval", cases, "--tools", SHOP, "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["problems"][0]["line"] == 2 and data["problems"][0]["message"].startswith(
        "not valid JSON"
    )
    assert len(data["results"]) == 1
    assert "line 2: not valid JSON" in result.stderr


def test_eval_compare_path_that_does_not_load_measures_nothing(tmp_path: Path):
    result = invoke(
        "eval",
        ROUTING_CASES,
        "--tools",
        SHOP,
        "--compare",
        tmp_path / "missing",
        "--format",
        "json",
    )
    assert result.exit_code == 2
    assert result.stdout == ""  # no rates against an empty tool set
    assert "--compare: the tools did not load cleanly" in result.stderr


def test_eval_gemini_without_key_is_a_usage_error():
    result = invoke("eval", ROUTING_CASES, "--tools", SHOP, "--router", "gemini")
    assert result.exit_code == 2
    assert "no Gemini API key" in result.stderr


def test_eval_compare_without_boundary_sentences(tmp_path: Path):
    """Seed 002's before/after check with the offline router: the boundary sentences removed.
    Whatever flips is listed with both choices; every flip agrees with the two runs."""
    copy = _without_boundaries(tmp_path)
    result = invoke("eval", ROUTING_CASES, "--tools", SHOP, "--compare", copy, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [r["metric"] for r in data["rates"]] == [
        "selection_rate",
        "false_selection_rate",
        "wrong_tool_rate",
        "asked_rate",
        "argument_accuracy",
    ]
    base = {r["line"]: r for r in data["base"]["results"]}
    other = {r["line"]: r for r in data["other"]["results"]}
    flipped = {line for line in base if base[line]["passed"] != other[line]["passed"]}
    assert {f["line"] for f in data["flips"]} == flipped
    for f in data["flips"]:
        assert f["direction"] == ("pass->fail" if base[f["line"]]["passed"] else "fail->pass")
        assert f["before"] == (base[f["line"]]["chosen"] or "(none)")
        assert f["after"] == (other[f["line"]]["chosen"] or "(none)")


def test_eval_compare_lists_flipped_cases(tmp_path: Path):
    """A copy whose get_order_status claims shipping questions too ("적극적으로 사용한다", the
    seed's example of an edit that looks like an improvement) flips shipping cases to it."""
    text = "\n".join(
        line
        for line in SHOP.read_text(encoding="utf-8").splitlines()
        if "사용하지 않는다" not in line
    )
    text = text.replace(
        '"""하루마켓 주문번호로 주문 내역과 진행 단계를 조회한다.',
        '"""하루마켓 주문번호로 주문 내역과 진행 단계, 택배 배송 현황, 송장번호, 도착일을 조회한다. '
        "주문·배송·택배에 관한 모든 문의에 적극적으로 사용한다.",
    )
    folder = tmp_path / "eager"
    folder.mkdir()
    (folder / "shop.py").write_text(text + "\n", encoding="utf-8")
    result = invoke("eval", ROUTING_CASES, "--tools", SHOP, "--compare", folder, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    to_order = [f for f in data["flips"] if f["direction"] == "pass->fail"]
    assert to_order, "expected at least one shipping question to flip to get_order_status"
    # every case the eager copy breaks now goes to the eager tool; shipping questions are among them
    assert all(
        f["after"] == "get_order_status" and f["expect_tool"] != "get_order_status"
        for f in to_order
    )
    assert any(f["expect_tool"] == "track_shipping" for f in to_order)
    rates = {r["metric"]: r for r in data["rates"]}
    assert rates["selection_rate"]["other"] < rates["selection_rate"]["base"]
    table = invoke("eval", ROUTING_CASES, "--tools", SHOP, "--compare", folder)
    assert "flipped cases" in table.stdout and "pass->fail" in table.stdout


# --- lint -----------------------------------------------------------------------------------


def test_lint_shop_passes_with_warnings_strict_fails():
    result = invoke("lint", "--tools", SHOP, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    # 4 tools, each with one finding per provider on what strict: true would need (info)
    assert data["summary"] == {"error": 0, "warning": 3, "info": 8}
    assert {f["rule"] for f in data["findings"] if f["severity"] != "info"} == {"prose-constraint"}
    assert invoke("lint", "--tools", SHOP, "--strict").exit_code == 1


def test_lint_errors_exit_1(tmp_path: Path):
    module = tmp_path / "bad.py"
    module.write_text(
        "def do_refund_and_notify(order_id: str) -> dict:\n"
        '    """Refund an order and notify the customer."""\n'
        "    return {}\n\n__tools__ = [do_refund_and_notify]\n",
        encoding="utf-8",
    )
    result = invoke("lint", "--tools", module)
    assert result.exit_code == 1
    assert "name-two-things" in result.stdout
    only = invoke("lint", "--tools", module, "--only", "nope")
    assert only.exit_code == 2 and "no tool named 'nope'" in only.stderr


# --- probe ----------------------------------------------------------------------------------


def test_probe_stock_lookup_json():
    result = invoke("probe", "stock_lookup", "--tools", INVENTORY, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert (
        data["ok"] is True and data["problems"] == 0 and data["total"] == len(data["cases"]) == 31
    )
    invalid = [c for c in data["cases"] if c["expected"] == "invalid"]
    assert len(invalid) == 27
    assert all(c["body_runs"] == 0 and c["body_ran"] is False for c in invalid)


def test_probe_table_shows_body_runs_column():
    result = invoke("probe", "stock_lookup", "--tools", INVENTORY)
    assert result.exit_code == 0
    assert "body runs" in result.stdout and "missing:sku" in result.stdout
    assert "27 invalid (body ran for 0)" in result.stdout


def test_probe_unknown_name_exit_2():
    result = invoke("probe", "stock_lookpu", "--tools", INVENTORY)
    assert result.exit_code == 2
    assert (
        result.stderr.strip() == "error: no tool named 'stock_lookpu'; did you mean: stock_lookup"
    )


def test_probe_rejected_valid_input_exit_1(tmp_path: Path):
    # the schema takes any string; the parameter's own type (a pydantic validator) refuses
    # what the schema takes: a valid input is rejected before the body
    module = tmp_path / "t.py"
    module.write_text(
        "from typing import Annotated\n"
        "from pydantic import AfterValidator\n\n"
        "def _upper(code: str) -> str:\n"
        "    if not code.isupper():\n"
        "        raise ValueError('codes are upper case')\n"
        "    return code\n\n"
        "def find_code(code: Annotated[str, AfterValidator(_upper)]) -> dict:\n"
        '    """Find a code."""\n'
        "    return {}\n\n"
        "__tools__ = [find_code]\n",
        encoding="utf-8",
    )
    result = invoke("probe", "find_code", "--tools", module, "--format", "json")
    assert result.exit_code == 1, result.stdout
    baseline = json.loads(result.stdout)["cases"][0]
    assert (baseline["name"], baseline["problem"]) == ("baseline", "valid input rejected")


def test_eval_a_5000_deep_line_fails_only_that_line(tmp_path: Path):
    cases = tmp_path / "deep.jsonl"
    deep = '{"question": "q", "expect_tool": null, "note": ' + "[" * 5000 + "]" * 5000 + "}"
    cases.write_bytes(
        "\ufeff".encode()
        + (
            '{"question": "HR20260621 택배 언제 와요?", "expect_tool": "track_shipping"}\n'
            + deep
            + "\n"
            + '{"question": "x", "question": "y", "expect_tool": null}\n'
        ).encode("utf-8")
    )
    result = invoke("eval", cases, "--tools", SHOP, "--format", "json")
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.stderr and "RecursionError" not in result.stderr
    data = json.loads(result.stdout)
    assert [r["line"] for r in data["results"]] == [1]  # line 1 read despite the BOM
    assert data["problems"] == [
        {"line": 2, "message": "nested deeper than 100 levels"},
        {
            "line": 3,
            "message": "the key 'question' appears twice in one object (which one is meant?)",
        },
    ]
    assert result.stderr.splitlines() == [
        f"error: {cases}: line 2: nested deeper than 100 levels",
        f"error: {cases}: line 3: the key 'question' appears twice in one object (which one is meant?)",
    ]


def test_list_with_an_empty_tools_folder_says_so(tmp_path: Path):
    empty = tmp_path / "EMPTYDIR"
    empty.mkdir()
    result = invoke("list", "--tools", empty)
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {empty}: no tool modules found (expected .py files declaring __tools__ or TOOLS)\n"
    )
    helper = tmp_path / "helpers"
    helper.mkdir()
    (helper / "consts.py").write_text("RATE = 3\n", encoding="utf-8")
    quiet = invoke("list", "--tools", helper, "--format", "json")
    assert quiet.exit_code == 2 and json.loads(quiet.stdout) == []
    assert (
        quiet.stderr
        == f"error: {helper}: no tools declared (expected .py files declaring __tools__ or TOOLS)\n"
    )


def test_tools_dev_null_is_not_a_python_file_or_folder():
    result = invoke("list", "--tools", "/dev/null")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: /dev/null: not a Python file or folder (expected a .py file or a folder of them)\n"
    )


def test_lint_flags_a_korean_tool_name(tmp_path: Path):
    module = tmp_path / "ko_tools.py"
    module.write_text(
        "def 주문_조회(order_id: str) -> dict:\n"
        '    """주문 상태를 조회한다. 배송 질문에는 사용하지 않는다.\n\n    Args:\n'
        '        order_id: 주문 번호.\n    """\n    return {}\n\n__tools__ = [주문_조회]\n',
        encoding="utf-8",
    )
    result = invoke("lint", "--tools", module, "--format", "json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    findings = data["findings"] if isinstance(data, dict) else data
    [bad] = [f for f in findings if f["rule"] == "gemini-name"]
    assert bad["severity"] == "error" and bad["tool"] == "주문_조회"
    assert "Gemini's API rejects the whole request" in bad["message"]
    assert bad["suggestion"].startswith("rename it to an English verb_object name in ASCII")


def test_lint_of_an_empty_folder_is_not_clean(tmp_path: Path):
    result = invoke("lint", "--tools", tmp_path)
    assert result.exit_code == 2
    assert "clean" not in result.stdout.replace("did not load cleanly", "")
    assert (
        "0 tool(s): 0 error(s), 0 warning(s), 0 info — the tools did not load cleanly"
        in result.stdout
    )
    assert result.stderr == (
        f"error: {tmp_path}: no tool modules found "
        "(expected .py files declaring __tools__ or TOOLS)\n"
    )
