"""``eval`` keeps no per-case data in any output format (issue 25): the table prints each failing
question as it is judged, json and junit spool each case to a temporary file and write the same
document as the whole report dumped at once."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.batch.evalstream import iter_case_file
from playground.batch.evaluate import evaluate
from playground.batch.junit import to_junit
from playground.cli import cmd_eval
from playground.cli.common import dump_json
from playground.cli.main import app
from playground.routing.offline import OfflineRouter
from playground.workbench import open_playground

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tools" / "shop.py"
CASES = REPO / "fixtures" / "routing_cases.jsonl"
runner = CliRunner()


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))


def cases_with_failures(tmp_path: Path) -> Path:
    """The bundled routing cases, every fourth expecting the wrong tool (so it fails)."""
    out = []
    for i, line in enumerate(CASES.read_text(encoding="utf-8").splitlines()):
        if not line.strip() or line.startswith("#"):
            continue
        case = json.loads(line)
        if i % 4 == 1 and case.get("expect_tool"):
            case["expect_tool"] = (
                "check_stock" if case["expect_tool"] != "check_stock" else "track_shipping"
            )
        out.append(json.dumps(case, ensure_ascii=False))
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def whole_report(cases: Path):
    """The report with every result kept, as the output was built before the sinks."""
    pg = open_playground([SHOP], wire=False)
    try:
        return evaluate(pg, iter_case_file(cases), OfflineRouter(), label="base")
    finally:
        pg.close()


def no_timings(text: str) -> str:
    text = re.sub(r'"duration_ms": [0-9.e-]+', '"duration_ms": 0', text)
    return re.sub(r'time="[0-9.]+"', 'time="0"', text)


def test_json_is_the_whole_report_dumped_at_once(tmp_path):
    cases = cases_with_failures(tmp_path)
    result = runner.invoke(app, ["eval", str(cases), "--tools", str(SHOP), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    report = whole_report(cases)
    report.source = str(cases)
    expected = dump_json({**report.to_json(), "thresholds": {"base": []}}) + "\n"
    assert no_timings(result.stdout) == no_timings(expected)
    data = json.loads(result.stdout)
    assert len(data["results"]) == 63
    assert sum(not r["passed"] for r in data["results"]) == 10


def test_junit_is_the_whole_report_at_once(tmp_path):
    cases = cases_with_failures(tmp_path)
    result = runner.invoke(app, ["eval", str(cases), "--tools", str(SHOP), "--format", "junit"])
    assert result.exit_code == 0, result.stderr
    report = whole_report(cases)
    report.source = str(cases)
    assert no_timings(result.stdout) == no_timings(to_junit(report))
    assert '<testsuites name="playground eval" tests="63" failures="10"' in result.stdout


def test_json_after_ctrl_c_and_of_no_result(tmp_path, monkeypatch, capsys):
    """ctrl+c after one case: that case and ``interrupted``; a report of no result: the
    whole-report text with ``"results": []``."""
    real = OfflineRouter()

    class Stops:
        name = "offline"
        capabilities = real.capabilities
        calls = 0

        def next_move(self, conversation, declarations):
            Stops.calls += 1
            if Stops.calls > 1:
                raise KeyboardInterrupt
            return real.next_move(conversation, declarations)

    monkeypatch.setattr(cmd_eval, "_make_router", lambda *a: Stops())
    cases = cases_with_failures(tmp_path)
    result = runner.invoke(app, ["eval", str(cases), "--tools", str(SHOP), "--format", "json"])
    assert result.exit_code == 130
    data = json.loads(result.stdout)
    assert data["interrupted"] is True and len(data["results"]) == 1

    from playground.cli.eval_sinks import JsonSink

    report = whole_report(cases)
    report.results = []
    JsonSink().finish(report, {"base": []})
    expected = dump_json({**report.to_json(), "thresholds": {"base": []}}) + "\n"
    assert capsys.readouterr().out == expected
    assert '"results": [],' in expected


def test_table_prints_each_failing_question_as_it_is_judged(tmp_path, monkeypatch):
    cases = cases_with_failures(tmp_path)
    seen: list[str] = []
    real = OfflineRouter()

    class Watching:
        name = "offline"
        capabilities = real.capabilities

        def next_move(self, conversation, declarations):
            seen.append(printed.getvalue())
            return real.next_move(conversation, declarations)

    import io

    printed = io.StringIO()
    monkeypatch.setattr(cmd_eval, "_make_router", lambda *a: Watching())
    from playground.cli import eval_sinks

    real_add = eval_sinks.TableSink.add

    def add(self, result):
        real_add(self, result)
        printed.write("row\n" if not result.passed else "")

    monkeypatch.setattr(eval_sinks.TableSink, "add", add)
    kept: list[int] = []
    from playground.batch import evaluate as evaluate_module

    original = evaluate_module.evaluate

    def spy(*a, **k):
        report = original(*a, **k)
        kept.append(len(report.results))
        return report

    monkeypatch.setattr(evaluate_module, "evaluate", spy)
    monkeypatch.setenv("COLUMNS", "200")  # no reason folded over two lines
    result = runner.invoke(app, ["eval", str(cases), "--tools", str(SHOP)])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    # the title first, then the failing questions as judged, then the totals' tables
    assert out.splitlines()[0].startswith(f"eval {cases.name} · router offline · 4 tools")
    assert out.index("failing questions, as judged:") < out.index("selection rate")
    assert "63 cases (" in out and "failing questions: 10 (listed above)" in out
    assert out.count("the router chose") >= 10
    # the first failing row was printed before the next question was asked
    first_row = next(i for i, text in enumerate(seen) if text)
    assert first_row < len(seen) - 1
    assert kept == [0]  # no result kept in memory
