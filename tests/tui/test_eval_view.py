"""The Evaluate view: a case file evaluated in a worker, rates, confusion, failing questions, lint."""

from __future__ import annotations

import json

import pytest

from playground.tui.app import PlaygroundApp
from playground.tui.views.eval_view import EvalView
from tests.tui.helpers import ROOT, SIZE, capture_notifications, settle, until

CASES = [
    {
        "question": "HR20260601 택배 어디쯤인가요?",
        "expect_tool": "track_shipping",
        "expect_args": {"order_id": "HR20260601"},
    },
    {"question": "HR20260601 주문한 상품 결제 금액이 얼마였죠?", "expect_tool": "get_order_status"},
    {"question": "안녕하세요 좋은 아침입니다", "expect_tool": None},
    {"question": "오늘 날씨 어때요?", "expect_tool": "track_shipping"},  # fails on purpose
]
#: cases for tools that are not loaded: one warning each, shown in one toast
NOT_LOADED = [
    {"question": "Start the dishwasher at 7", "expect_tool": "schedule_appliance"},
    {"question": "Which runs are scheduled?", "expect_tool": "list_schedules"},
]


async def run_eval(app, pilot, path: str) -> EvalView:
    await settle(app, pilot)
    await pilot.press("f4")
    await pilot.pause()
    view = await app.view("evaluate")
    view.query_one("#eval-path").value = path
    await pilot.press("ctrl+r")
    await settle(app, pilot)
    return view


async def test_evaluate_a_case_file_lint_a_contract_and_open_a_failure_in_ask(tools_dir, tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        "\n".join(json.dumps(c, ensure_ascii=False) for c in CASES + NOT_LOADED) + "\n",
        encoding="utf-8",
    )
    app = PlaygroundApp(tools=[str(tools_dir)])
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        view = await run_eval(app, pilot, str(cases))
        assert view.report is not None and len(view.report.results) == 6
        assert [m for m in seen if "not a loaded tool" in m] == [
            "line 5: expect_tool 'schedule_appliance' is not a loaded tool (the case can only "
            "fail) (and 1 more warning)"
        ]
        assert (
            "selection rate" in view.rates_text and "false-selection rate 0.0%" in view.rates_text
        )
        assert "track_shipping precision" in view.rates_text
        failing = view.query_one("#failing")
        assert failing.row_count == len(view.failing) >= 1
        assert any(r.case.question == "오늘 날씨 어때요?" for r in view.failing)
        confusion = view.query_one("#confusion")
        assert confusion.row_count >= 2
        # the lint panel for a contract (one app with the evaluation; it was a test of its own)
        view.query_one("#lint-contract").value = "legacy_stock"
        await pilot.pause()
        assert "name-version" in view.lint_text  # "legacy" in the name (seed 002)
        # Enter on a failing question opens it in Ask mode and runs it
        index = next(
            i for i, r in enumerate(view.failing) if r.case.question == "오늘 날씨 어때요?"
        )
        failing.focus()
        await pilot.pause()
        failing.move_cursor(row=index)
        await pilot.pause()
        assert app.focused is failing
        await pilot.press("enter")
        await until(pilot, lambda: app.mode_name == "ask", "Ask opened")  # two messages away
        await settle(app, pilot)
        assert app.mode_name == "ask"
        ask = await app.view("ask")
        assert ask.query_one("#question").value == "오늘 날씨 어때요?"
        assert ask.episode is not None and ask.episode.question == "오늘 날씨 어때요?"


async def test_default_case_file_and_missing_file_message(tools_dir, monkeypatch):
    monkeypatch.chdir(ROOT)
    app = PlaygroundApp(tools=[str(tools_dir)])
    seen = capture_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        view = await run_eval(app, pilot, "fixtures/routing_cases.jsonl")
        assert view.report is not None and len(view.report.results) >= 20
        view.query_one("#eval-path").value = "no/such/cases.jsonl"
        view.run_evaluation()
        await settle(app, pilot)
        assert any("no such case file" in m for m in seen)
        assert app.is_running


async def test_the_progress_bar_shows_only_with_an_evaluation_and_every_bad_line_is_counted(
    tools_dir, tmp_path
):
    """An empty bar pulsed at start and after a refused file, as if something ran; the status
    listed 3 of 6 bad lines and said nothing of the others."""
    from textual.widgets import ProgressBar

    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f4")
        await pilot.pause()
        view = await app.view("evaluate")
        bar = view.query_one("#eval-progress", ProgressBar)
        assert not bar.display  # nothing evaluated yet
        view = await run_eval(app, pilot, str(tmp_path / "missing.jsonl"))
        assert not bar.display and "not evaluated" in str(view.query_one("#eval-status").render())
        bad = tmp_path / "bad.jsonl"
        good = json.dumps(CASES[0], ensure_ascii=False)
        bad.write_text(good + "\n" + "\n".join(f"garbage {i}" for i in range(6)) + "\n")
        view = await run_eval(app, pilot, str(bad))
        status = str(view.query_one("#eval-status").render())
        assert bar.display and "6 bad line(s)" in status
        assert "+3 more (playground eval lists them all)" in status


async def test_the_rates_chart_draws_each_run_and_before_after_on_the_same_file(
    tools_dir, tmp_path
):
    """Issue 26 item 3: the rates as a plotext chart (percent per rate); evaluating the same
    case file again (after editing it or the tools) draws the last run as "before"."""
    from textual_plotext import PlotextPlot

    from playground.tui.views.eval_view import RATE_LABELS

    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        "\n".join(json.dumps(c, ensure_ascii=False) for c in CASES[:3]) + "\n", encoding="utf-8"
    )
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f4")
        await pilot.pause()
        view = await app.view("evaluate")
        chart = view.query_one("#eval-chart", PlotextPlot)
        assert not chart.display  # nothing evaluated yet
        view = await run_eval(app, pilot, str(cases))
        first = view.report.metrics.rates()
        expected = [round(100 * (first[k] or 0.0), 1) for k, _l, _b in RATE_LABELS]
        assert view.chart_series == [("rates", expected)] and expected[0] == 100.0
        assert chart.display
        with cases.open("a", encoding="utf-8") as handle:  # one case the router gets wrong
            handle.write(json.dumps(CASES[3], ensure_ascii=False) + "\n")
        view = await run_eval(app, pilot, str(cases))
        second = view.report.metrics.rates()
        after = [round(100 * (second[k] or 0.0), 1) for k, _l, _b in RATE_LABELS]
        assert view.chart_series == [("before", expected), ("after", after)]
        assert after[0] == round(100 * 2 / 3, 1)  # 2 of 3 should-use cases selected
        await pilot.pause()
        drawn = str(chart.render())
        assert "before" in drawn and "after" in drawn and "rates % (before / after)" in drawn


async def test_a_tool_module_given_as_the_case_file_is_refused_as_eval_refuses_it(tools_dir):
    """A tester gave ``clinic.py``: the view showed "0/0 passed · … +87 more" while
    ``playground eval`` said "not a case file" and exited 2. Both read it alike now."""
    from playground.batch.evalstream import load_cases
    from playground.errors import UsageError

    module = tools_dir / "shop.py"
    with pytest.raises(UsageError) as refused:
        load_cases(module)
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        view = await run_eval(app, pilot, str(module))
        status = str(view.query_one("#eval-status").render())
        assert status == f"not evaluated: {refused.value}", status
        assert "not a case file" in status and view.report is None
