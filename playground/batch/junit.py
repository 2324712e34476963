"""JUnit XML for eval runs, built with :mod:`xml.etree.ElementTree`.

The shape CI systems read (the de-facto JUnit schema used by Jenkins, GitLab and GitHub
reporters)::

    <testsuites name="playground eval" tests="N" failures="F" errors="E" skipped="S" time="s">
      <testsuite name="eval: routing_cases.jsonl (offline)" tests=".." failures=".." errors=".."
                 skipped=".." time="..">
        <properties><property name="selection_rate" value="0.96"/>...</properties>
        <testcase classname="eval.track_shipping" name="line 3: HR20260625 송장번호 ..." time="0.001">
          <failure message="expected track_shipping, the router chose get_order_status first"
                   type="wrong_tool">question / expected / chosen / arguments</failure>
        </testcase>
        ...
      </testsuite>
    </testsuites>

One ``<testcase>`` per question; ``classname`` is ``eval.<expected tool>`` or ``eval.none`` so
CI groups the cases by tool. A failed judgement is ``<failure>``; a router error is ``<error>``;
a case not run (the run stopped early) is ``<skipped>``; a malformed case-file line is a
``<testcase>`` named ``line N (malformed)`` with an ``<error>``. With ``--compare`` the second
run is a second ``<testsuite>``.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from playground.batch.evalcases import ERROR, SKIPPED, CaseResult
from playground.batch.evaluate import EvalReport

MAX_NAME = 80


def _fmt_rate(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def _case_name(label: str, question: str) -> str:
    q = " ".join(question.split())
    if len(q) > MAX_NAME:
        q = q[: MAX_NAME - 1] + "…"
    return f"{label}: {q}"


def testcase_element(r: CaseResult) -> tuple[ET.Element, str]:
    """The ``<testcase>`` element of one judged case and its kind: ``"passed"``,
    ``"failure"``, ``"error"`` (router error) or ``"skipped"``."""
    seconds = r.duration_ms / 1000
    case = ET.Element(
        "testcase",
        classname=f"eval.{r.case.expect_tool or 'none'}",
        name=_case_name(r.case.label, r.case.question),
        time=f"{seconds:.3f}",
    )
    if r.passed:
        return case, "passed"
    detail = "\n".join(
        [
            f"question: {r.case.question}",
            f"expected: {r.case.expect_tool or '(none)'}"
            + (
                f" {json.dumps(r.case.expect_args, ensure_ascii=False)}"
                if r.case.expect_args
                else ""
            ),
            f"chosen: {r.choice}"
            + (
                f" {json.dumps(r.chosen_args, ensure_ascii=False, default=repr)}"
                if r.chosen
                else ""
            ),
        ]
    )
    if r.category == ERROR:
        kind = "error"
        el = ET.SubElement(case, "error", message=r.reason(), type="router_error")
    elif r.category == SKIPPED:
        kind = "skipped"
        el = ET.SubElement(case, "skipped", message=r.reason())
    else:
        kind = "failure"
        el = ET.SubElement(case, "failure", message=r.reason(), type=r.category)
    el.text = detail
    return case, kind


def suite_element(report: EvalReport, name: str | None = None) -> ET.Element:
    """The ``<testsuite>`` element for one :class:`EvalReport`."""
    source = Path(report.source).name if report.source else "cases"
    suite = ET.Element(
        "testsuite",
        name=name
        or f"eval: {source} ({report.router}){' ' + report.label if report.label else ''}",
    )
    props = ET.SubElement(suite, "properties")
    for key, value in report.metrics.rates().items():
        ET.SubElement(props, "property", name=key, value=_fmt_rate(value))
    ET.SubElement(props, "property", name="router", value=report.router)
    ET.SubElement(props, "property", name="tools", value=",".join(report.tools))
    failures = errors = skipped = 0
    total_s = 0.0
    for r in report.results:
        case, kind = testcase_element(r)
        suite.append(case)
        total_s += r.duration_ms / 1000
        failures += kind == "failure"
        errors += kind == "error"
        skipped += kind == "skipped"
    for problem in report.problems:
        errors += 1
        case = ET.SubElement(
            suite,
            "testcase",
            classname="eval.case_file",
            name=f"line {problem.line} (malformed)",
            time="0.000",
        )
        ET.SubElement(case, "error", message=problem.message, type="malformed_case").text = str(
            problem
        )
    tests = len(report.results) + len(report.problems)
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", str(skipped))
    suite.set("time", f"{total_s:.3f}")
    return suite


def to_junit(*reports: EvalReport, name: str = "playground eval") -> str:
    """JUnit XML text (with an XML declaration, UTF-8, Hangul as is) for one or more reports."""
    root = ET.Element("testsuites", name=name)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    seconds = 0.0
    for report in reports:
        suite = suite_element(report)
        root.append(suite)
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
        seconds += float(suite.get("time", "0"))
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{seconds:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
