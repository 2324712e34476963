"""Deep or huge JSON at every entry that reads JSON from the user (issue 28 item 7): the MCP
config, the ``--elicit`` file, a case file's lines (``check``; ``eval``'s are in
``test_cli_batch.py``), ``--args`` and ``name:=json``, a golden file, an ``eval --resume``
file, a ``--prices`` file, a ``synonyms.json`` beside the tools, and the TUI's JSON editor —
each refuses it with one line (exit 2 for a file the command cannot use), never an internal
``RecursionError``, a hang or a read of the whole of ``/dev/zero``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from playground.tui.form_values import parse_json_text

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tools" / "shop.py"
runner = CliRunner()

DEEP = "[" * 100_000 + "]" * 100_000  # past Python's recursion limit while parsing
DEEPISH = '{"a": ' + "[" * 500 + "]" * 500 + "}"  # parses, then over the depth limit
HUGE_LINE = "larger than 16 MB (the most the playground reads as one JSON document)"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "decl-cache"))
    monkeypatch.setenv("PLAYGROUND_HISTORY", "off")
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def one_error(result, line: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [f"error: {line}"]
    assert "RecursionError" not in result.output and "internal error" not in result.output


@pytest.mark.parametrize(
    ("text", "why"),
    [(DEEP, "nested deeper than 100 levels"), (DEEPISH, "nested deeper than 100 levels")],
    ids=["100000-deep", "500-deep"],
)
def test_mcp_config(tmp_path: Path, text: str, why: str) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(text, encoding="utf-8")
    one_error(invoke("list", "--mcp-config", config), f"--mcp-config {config}: {why}")


def test_an_endless_mcp_config_is_refused_after_16_mb() -> None:
    one_error(invoke("list", "--mcp-config", "/dev/zero"), f"--mcp-config /dev/zero: {HUGE_LINE}")


def test_elicit_file(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(DEEP, encoding="utf-8")
    one_error(
        invoke("list", "--mcp", "python server.py", "--elicit", answers),
        f"--elicit {answers}: nested deeper than 100 levels",
    )


def test_args_and_raw_items() -> None:
    for args in (["--args", DEEPISH], [f"order_id:={DEEP}"]):
        result = invoke("call", "get_order_status", *args, "--tools", SHOP, "--in-process")
        assert result.exit_code == 2, result.output
        (line,) = result.stderr.splitlines()
        assert line.startswith("error: ") and "nested deeper than 100 levels" in line


def test_a_check_case_line(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    good = '{"tool": "get_order_status", "args": {"order_id": "HR20260604"}}'
    cases.write_text(
        f'{good}\n{{"tool": "x", "args": {DEEP}}}\n{{"tool": "x", "args": "{"y" * (17 << 20)}"}}\n',
        encoding="utf-8",
    )
    result = invoke("check", cases, "--tools", SHOP, "--in-process", "--format", "jsonl")
    assert "RecursionError" not in result.output and "internal error" not in result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["mismatches"]) for r in rows] == [
        (1, []),
        (2, ["line 2: nested deeper than 100 levels"]),
        (3, [f"line 3: {HUGE_LINE}"]),
    ]


def test_a_golden_file_that_never_ends() -> None:
    one_error(invoke("replay", "/dev/zero"), f"/dev/zero: {HUGE_LINE}")


def test_an_eval_resume_file(tmp_path: Path) -> None:
    resume = tmp_path / "earlier.jsonl"
    resume.write_text(DEEP + "\n", encoding="utf-8")
    one_error(
        invoke("eval", REPO / "fixtures" / "routing_cases.jsonl", "--tools", SHOP, "--resume",
               resume, "--format", "jsonl"),
        f"{resume}: line 1 is not an eval result line (nested deeper than 110 levels)",
    )  # fmt: skip


def test_a_prices_file(tmp_path: Path) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text(DEEP, encoding="utf-8")
    one_error(
        invoke("eval", REPO / "fixtures" / "routing_cases.jsonl", "--tools", SHOP, "--prices",
               prices),
        f"{prices}: the price file: nested deeper than 100 levels",
    )  # fmt: skip


def test_a_synonyms_file_beside_the_tools(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    shutil.copy(SHOP, tools / "shop.py")
    (tools / "synonyms.json").write_text(DEEP, encoding="utf-8")
    one_error(
        invoke("ask", "텀블러 어디쯤이에요?", "--tools", tools, "--in-process"),
        f"{tools / 'synonyms.json'}: nested deeper than 100 levels",
    )


def test_the_tuis_json_editor() -> None:
    assert parse_json_text(DEEP) == (None, "nested deeper than 100 levels")
    assert parse_json_text(DEEPISH) == (None, "nested deeper than 100 levels")
    assert parse_json_text('{"a": [1]}') == ({"a": [1]}, "")
