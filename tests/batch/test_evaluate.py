"""The eval engine: case parsing, judging, exact metrics on a scripted router, rate limiting,
early stop, comparison and JUnit XML (parsed back with ElementTree)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from playground.batch.compare import compare
from playground.batch.evalcases import (
    ABSTAINED,
    ERROR,
    FALSE_SELECTION,
    MISSED,
    SELECTED,
    SKIPPED,
    WRONG_TOOL,
    CaseProblem,
    CaseSet,
    EvalCase,
    args_match,
    parse_cases,
)
from playground.batch.evalstream import load_cases
from playground.batch.evaluate import evaluate, threshold_failures
from playground.batch.junit import to_junit
from playground.core.contracts import Contract
from playground.core.registry import Registry
from playground.errors import RouterError, UsageError
from playground.routing.base import FunctionCall, Move, RouterCapabilities


def _contract(name: str, description: str = "") -> Contract:
    return Contract(
        name=name,
        description=description or f"{name} tool",
        parameters={"type": "object", "properties": {"id": {"type": "string"}}},
        fn=lambda **kw: kw,
        source="fake.py:1",
    )


def make_registry(*names: str) -> Registry:
    registry = Registry()
    for name in names:
        registry.add(_contract(name))
    return registry


class ScriptedRouter:
    """Answers each question from a script: a (tool, args) pair, None (no call), or an exception."""

    name = "scripted"
    capabilities = RouterCapabilities()

    def __init__(self, script: dict[str, object]) -> None:
        self.script = script
        self.seen: list[tuple[str, list[str]]] = []

    def next_move(self, conversation, declarations):
        question = conversation[-1].text
        self.seen.append((question, [d["name"] for d in declarations]))
        answer = self.script[question]
        if isinstance(answer, Exception):
            raise answer
        if answer is None:
            return Move(text="no tool needed")
        tool, args = answer
        return Move(calls=[FunctionCall(tool, args, "call_1")])


CASES = """\
{"question": "q1", "expect_tool": "alpha", "expect_args": {"id": "X1"}}
{"question": "q2", "expect_tool": "alpha", "expect_args": {"id": "X2"}}
{"question": "q3", "expect_tool": "beta"}
{"question": "q4", "expect_tool": "beta"}
{"question": "q5", "expect_tool": "beta"}
{"question": "q6", "expect_tool": null}
{"question": "q7", "expect_tool": null}
{"question": "q8", "expect_tool": null}
{"question": "q9", "expect_tool": "alpha"}
"""

SCRIPT = {
    "q1": ("alpha", {"id": " x1 "}),  # right tool, args match (strip + casefold)
    "q2": ("alpha", {"id": "X9"}),  # right tool, wrong args
    "q3": ("alpha", {"id": "B"}),  # wrong tool
    "q4": None,  # missed
    "q5": ("beta", {}),  # selected (no expect_args)
    "q6": None,  # abstained
    "q7": ("alpha", {}),  # false selection
    "q8": None,  # abstained
    "q9": RouterError("HTTP 500 from the provider"),  # error
}


@pytest.fixture
def report():
    cases = parse_cases(CASES, "tiny.jsonl")
    return evaluate(make_registry("alpha", "beta", "gamma"), cases, ScriptedRouter(SCRIPT))


def test_categories_per_case(report):
    cats = [r.category for r in report.results]
    assert cats == [
        SELECTED,
        SELECTED,
        WRONG_TOOL,
        MISSED,
        SELECTED,
        ABSTAINED,
        FALSE_SELECTION,
        ABSTAINED,
        ERROR,
    ]
    assert [r.passed for r in report.results] == [
        True,
        False,
        False,
        False,
        True,
        True,
        False,
        True,
        False,
    ]
    assert report.results[1].arg_diffs == ['id: expected "X2", got "X9"']
    assert report.results[8].error == "HTTP 500 from the provider"
    assert report.results[2].reason() == "expected beta, the router chose alpha first"


def test_exact_rates(report):
    m = report.metrics
    assert (m.should_use, m.should_not_use, m.errors, m.judged, m.passed) == (5, 3, 1, 8, 4)
    assert m.selection_rate == pytest.approx(3 / 5)
    assert m.false_selection_rate == pytest.approx(1 / 3)
    assert m.wrong_tool_rate == pytest.approx(1 / 5)
    assert m.argument_accuracy == pytest.approx(1 / 2)


def test_per_tool_precision_recall_and_confusion(report):
    m = report.metrics
    alpha, beta, gamma = m.per_tool["alpha"], m.per_tool["beta"], m.per_tool["gamma"]
    assert (alpha.tp, alpha.fp, alpha.fn) == (2, 2, 0)
    assert alpha.precision == pytest.approx(0.5) and alpha.recall == pytest.approx(1.0)
    assert (beta.tp, beta.fp, beta.fn) == (1, 0, 2)
    assert beta.precision == pytest.approx(1.0) and beta.recall == pytest.approx(1 / 3)
    assert gamma.precision is None and gamma.recall is None
    assert m.confusion == {
        "alpha": {"alpha": 2},
        "beta": {"alpha": 1, "(none)": 1, "beta": 1},
        "(none)": {"(none)": 2, "alpha": 1},
    }
    assert m.labels == ["alpha", "beta", "gamma", "(none)"]


def test_router_sees_one_user_turn_and_all_declarations():
    router = ScriptedRouter({"q": None})
    evaluate(make_registry("alpha", "beta"), [EvalCase(1, "q", None)], router)
    assert router.seen == [("q", ["alpha", "beta"])]


def test_to_json_is_plain_data(report):
    data = report.to_json()
    assert data["metrics"]["selection_rate"] == pytest.approx(0.6)
    assert data["metrics"]["counts"]["errors"] == 1
    assert data["results"][0]["chosen_args"] == {"id": " x1 "}
    assert data["metrics"]["confusion"]["matrix"]["beta"]["(none)"] == 1


def test_malformed_lines_are_reported_per_line():
    text = "\n".join(
        [
            '{"question": "ok", "expect_tool": null}',
            "not json",
            '["a list"]',
            '{"question": "", "expect_tool": null}',
            '{"question": "no expect"}',
            '{"question": "typo", "expected_tool": "a"}',
            '{"question": "args without tool", "expect_tool": null, "expect_args": {"a": 1}}',
            "# a comment",
            "",
            '{"question": "bad args", "expect_tool": "a", "expect_args": [1]}',
        ]
    )
    cases = parse_cases(text)
    assert [c.question for c in cases.cases] == ["ok"]
    lines = {p.line: p.message for p in cases.problems}
    assert sorted(lines) == [2, 3, 4, 5, 6, 7, 10]
    assert lines[2].startswith("not valid JSON")
    assert "expect_tool' is missing" in lines[5]
    assert "unknown key 'expected_tool'" in lines[6]
    assert "needs an 'expect_tool'" in lines[7]


def test_missing_case_file_is_a_usage_error(tmp_path: Path):
    with pytest.raises(UsageError, match="no such case file"):
        load_cases(tmp_path / "nope.jsonl")


def test_args_match_rules():
    assert args_match({"n": 3}, {"n": 3.0, "extra": 1}) == (True, [])
    assert args_match({"flag": True}, {"flag": 1})[0] is False
    assert args_match({"id": "HR1"}, {"id": "hr1"})[0] is True
    assert args_match({"id": "HR1"}, {})[1] == ['id: expected "HR1", missing']
    assert args_match({"id": "HR1"}, "HR1")[0] is False


def test_rate_limit_uses_injected_clock_and_sleep():
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    cases = [EvalCase(i, f"q{i}", None) for i in range(1, 5)]
    router = ScriptedRouter({c.question: None for c in cases})
    evaluate(make_registry("alpha"), cases, router, rpm=30, sleep=sleep, clock=lambda: now[0])
    assert slept == [2.0, 2.0, 2.0]  # 60 / 30 s between request starts, none before the first


def test_identical_router_errors_stop_the_run():
    cases = [EvalCase(i, f"q{i}", "alpha") for i in range(1, 7)]
    router = ScriptedRouter({c.question: RouterError("no Gemini API key") for c in cases})
    report = evaluate(make_registry("alpha"), cases, router)
    assert [r.category for r in report.results] == [ERROR] * 3 + [SKIPPED] * 3
    assert len(router.seen) == 3
    assert report.metrics.selection_rate is None
    assert "stopped after 3 identical router errors" in report.results[3].reason()


def test_a_router_bug_is_recorded_not_raised():
    router = ScriptedRouter({"q": ZeroDivisionError("oops")})
    report = evaluate(make_registry("alpha"), [EvalCase(1, "q", "alpha")], router)
    assert report.results[0].category == ERROR
    assert report.results[0].error == "ZeroDivisionError: oops"


def test_progress_callback_gets_every_case(report):
    calls = []
    cases = parse_cases(CASES)
    evaluate(
        make_registry("alpha", "beta"),
        cases,
        ScriptedRouter(SCRIPT),
        progress=lambda done, total, result: calls.append((done, total, result.case.question)),
    )
    assert [c[0] for c in calls] == list(range(1, 10))
    assert calls[-1] == (9, 9, "q9")


def test_compare_lists_flips_both_ways(report):
    changed = dict(SCRIPT)
    changed["q1"] = ("beta", {"id": "X1"})  # pass -> fail
    changed["q3"] = ("beta", {})  # fail -> pass
    other = evaluate(
        make_registry("alpha", "beta", "gamma"), parse_cases(CASES), ScriptedRouter(changed)
    )
    comparison = compare(report, other)
    flips = [(f.case.question, f.direction, f.before, f.after) for f in comparison.flips]
    assert flips == [("q1", "pass->fail", "alpha", "beta"), ("q3", "fail->pass", "alpha", "beta")]
    rates = {r["metric"]: r for r in comparison.rates_side_by_side()}
    assert rates["selection_rate"]["base"] == pytest.approx(0.6)
    assert rates["selection_rate"]["other"] == pytest.approx(0.6)
    assert rates["wrong_tool_rate"]["delta"] == pytest.approx(0.0)
    assert comparison.to_json()["flips"][0]["line"] == 1


def test_thresholds(report):
    assert threshold_failures(report) == []
    why = threshold_failures(report, min_selection=0.5, max_false_selection=0.5)
    assert why == ["1 case(s) errored and 0 were skipped; the rates do not cover every case"]
    ok_cases = CaseSet(cases=[c for c in parse_cases(CASES).cases if c.question != "q9"])
    clean = evaluate(make_registry("alpha", "beta"), ok_cases, ScriptedRouter(SCRIPT))
    assert threshold_failures(clean, min_selection=0.6, max_false_selection=0.34) == []
    assert threshold_failures(clean, min_selection=0.61) == [
        "selection rate 60.0% is below --min-selection 61.0%"
    ]
    assert threshold_failures(clean, max_false_selection=0.3) == [
        "false-selection rate 33.3% is above --max-false-selection 30.0%"
    ]


def test_junit_shape_parses_back(report):
    report.problems.append(parse_cases("oops").problems[0])
    root = ET.fromstring(to_junit(report).encode("utf-8"))
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("10", "4", "2")
    suites = root.findall("testsuite")
    assert len(suites) == 1
    suite = suites[0]
    assert suite.get("name") == "eval: tiny.jsonl (scripted)"
    assert (
        suite.get("tests"),
        suite.get("failures"),
        suite.get("errors"),
        suite.get("skipped"),
    ) == ("10", "4", "2", "0")
    cases = suite.findall("testcase")
    assert len(cases) == 10
    assert all(c.get("classname") and c.get("name") for c in cases)
    assert cases[0].get("classname") == "eval.alpha" and cases[0].get("name") == "line 1: q1"
    assert cases[0].find("failure") is None
    failure = cases[2].find("failure")
    assert failure.get("message") == "expected beta, the router chose alpha first"
    assert failure.get("type") == WRONG_TOOL
    assert "question: q3" in failure.text
    assert cases[5].get("classname") == "eval.none"
    assert cases[8].find("error").get("message") == "router error: HTTP 500 from the provider"
    assert cases[9].get("name") == "line 1 (malformed)"
    props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert props["selection_rate"] == "0.6000"


def test_junit_keeps_hangul():
    cases = parse_cases('{"question": "택배 언제 와요?", "expect_tool": "alpha"}')
    report = evaluate(make_registry("alpha"), cases, ScriptedRouter({"택배 언제 와요?": None}))
    text = to_junit(report)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    assert "택배 언제 와요?" in text
    assert ET.fromstring(text.encode()).find("testsuite/testcase/failure") is not None


# --- case lines read as check reads them (playground.batch.caselines) ----------------------------


def test_hostile_lines_fail_only_their_line():
    deep = '{"question": "q", "expect_tool": null, "note": ' + "[" * 5000 + "]" * 5000 + "}"
    text = "\n".join(
        [
            '{"question": "ok", "expect_tool": "a"}',
            deep,
            '{"question": "a", "question": "b", "expect_tool": null}',
            '{"question": "\\ud800", "expect_tool": null}',
            "[1, 2]",
            '{"question": "q", "expect_tool": ["a"]}',
            '{"question": "q", "expect_tool": "a", "expect_args": [1]}',
            '{"question": 3, "expect_tool": null}',
            '{"question": "last", "expect_tool": null}',
        ]
    )
    cases = parse_cases(text)
    assert [(c.line, c.question) for c in cases.cases] == [(1, "ok"), (9, "last")]
    assert {p.line: p.message for p in cases.problems} == {
        2: "nested deeper than 100 levels",
        3: "the key 'question' appears twice in one object (which one is meant?)",
        4: "the string at $.question is not valid Unicode (a lone surrogate such as \\ud800)",
        5: "a case must be a JSON object, got a JSON array",
        6: "'expect_tool' must be a tool name (a string) or null, got a JSON array",
        7: "'expect_args' must be a JSON object, got a JSON array",
        8: "'question' must be a non-empty string, got a JSON integer",
    }


def test_bom_crlf_and_unicode_line_separators(tmp_path: Path):
    path = tmp_path / "bom.jsonl"
    body = (
        '{"question": "택배\u2028언제 와요?", "expect_tool": "a"}\r\n'
        "# comment\r\n"
        '{"question": "안녕", "expect_tool": null}\r\n'
    )
    path.write_bytes("\ufeff".encode() + body.encode("utf-8"))
    cases = load_cases(path)
    assert cases.problems == []
    assert [(c.line, c.question, c.expect_tool) for c in cases.cases] == [
        (1, "택배\u2028언제 와요?", "a"),
        (3, "안녕", None),
    ]
    # the same reader as check: same errors for a folder, the same problem for a line that is
    # not UTF-8 (listed and skipped; the other lines are cases)
    with pytest.raises(UsageError, match="is a folder"):
        load_cases(tmp_path)
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(
        b'{"question": "caf\xe9", "expect_tool": null}\n{"question": "q", "expect_tool": null}\n'
    )
    read = load_cases(latin)
    assert [str(p) for p in read.problems] == [
        "line 1: not UTF-8 text (invalid continuation byte at byte 17 of the file)"
    ]
    assert [(c.line, c.question) for c in read.cases] == [(2, "q")]
    with pytest.raises(UsageError, match="not a regular file"):
        load_cases("/dev/null")


def test_a_line_of_a_streamed_case_file_that_is_not_utf8_is_named_with_its_byte(tmp_path):
    """A line that is not UTF-8 is a malformed line naming its byte in the file; the lines
    after it are still read (it used to end the whole file)."""
    from playground.batch.evalstream import iter_case_file

    path = tmp_path / "cases.jsonl"
    path.write_bytes(
        b'{"question":"a","expect_tool":"x"}\n{"question":"b\xff","expect_tool":"x"}\n'
        b'{"question":"c","expect_tool":null}\n'
    )
    read = list(iter_case_file(path))
    assert [str(x) if isinstance(x, CaseProblem) else (x.line, x.question) for x in read] == [
        (1, "a"),
        "line 2: not UTF-8 text (invalid start byte at byte 49 of the file)",
        (3, "c"),
    ]
