"""A file that is no case file at all (a tool module, a CSV passed by mistake) is one error
line and exit 2 for ``eval`` and ``check``, not one error per line; a case file with a few
bad lines still names each of them."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.batch.caselines import NOT_A_CASE_FILE_LINES
from playground.batch.check import read_cases
from playground.batch.evalstream import iter_case_file
from playground.cli.main import app
from playground.errors import UsageError

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "tools" / "shop.py"
runner = CliRunner()


@pytest.mark.parametrize("command", ["eval", "check"])
def test_a_tool_module_given_as_cases_is_one_error_line(command: str) -> None:
    result = runner.invoke(app, [command, str(TOOLS), "--tools", str(TOOLS)])
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.output
    assert (
        f"not a case file: none of its first {NOT_A_CASE_FILE_LINES} lines is a JSON object"
        in (errors[0])
    )
    assert "(line 1: not valid JSON" in errors[0]
    example = '{"question": ' if command == "eval" else '{"tool": '
    assert example in errors[0]


def test_nine_bad_lines_then_a_case_are_nine_problems_and_a_case(tmp_path: Path) -> None:
    lines = ["not json"] * (NOT_A_CASE_FILE_LINES - 1) + ['{"question": "hi", "expect_tool": null}']
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    items = list(iter_case_file(path))
    assert [type(i).__name__ for i in items] == ["CaseProblem"] * 9 + ["EvalCase"]
    check_path = tmp_path / "check.jsonl"
    check_path.write_text("\n".join(lines[:-1] + ['{"tool": "x"}']) + "\n", encoding="utf-8")
    assert [c.line for c in read_cases(check_path)] == list(range(1, 11))


def test_ten_lines_of_csv_are_no_case_file(tmp_path: Path) -> None:
    path = tmp_path / "orders.csv"
    path.write_text("\n".join(f"HR2026060{k},shipped" for k in range(12)) + "\n", encoding="utf-8")
    with pytest.raises(UsageError, match=r"orders\.csv: not a case file"):
        list(iter_case_file(path))
    with pytest.raises(UsageError, match=r"orders\.csv: not a case file"):
        read_cases(path)


@pytest.mark.parametrize("command", ["eval", "check"])
@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("a,b\n1,2\n3,4\n", "none of its 3 lines is a JSON object"),
        ('[{"question": "hi", "expect_tool": null}]\n', "its one line is not a JSON object"),
    ],
)
def test_a_short_file_without_one_json_object_is_no_case_file(
    tmp_path: Path, command: str, text: str, what: str
) -> None:
    path = tmp_path / "cases.txt"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, [command, str(path), "--tools", str(TOOLS)])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and f"not a case file: {what}" in errors[0], result.output
