"""Eval metrics: counts and rates over judged cases.

Owns :class:`Metrics` (selection, false-selection, wrong-tool and asked rates, argument accuracy
conditional on the right tool), :class:`ToolScore` (per-tool TP/FP/FN, precision and recall)
and the confusion matrix (rows: expected tool or ``"(none)"``, columns: chosen tool or
``"(none)"``), computed by :func:`compute_metrics`. Every rate is a fraction in [0, 1] or
``None`` when its denominator is 0; ``error`` and ``skipped`` cases are counted apart and left
out of every rate. Exact definitions: :mod:`playground.batch.evaluate`'s docstring.

Rule source: seed 002 (``002_5dea94806f69c756.txt``, "스키마를 고쳤는지 확인하는 법"): read the
selection rate (써야 할 때 골랐는가) and the false-selection rate (안 써도 될 때 골랐는가)
together.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from playground.batch.evalcases import (
    ASKED,
    ERROR,
    FALSE_SELECTION,
    MISSED,
    NONE_LABEL,
    SELECTED,
    SKIPPED,
    WRONG_TOOL,
    CaseResult,
)


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


@dataclass
class ToolScore:
    """Per-tool counts and rates (:mod:`playground.batch.evaluate`: TP/FP/FN; rates ``None`` when undefined)."""

    tool: str
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float | None:
        return _rate(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float | None:
        return _rate(self.tp, self.tp + self.fn)

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": self.precision,
            "recall": self.recall,
        }


@dataclass
class Metrics:
    """Counts and rates over the judged cases (``error``/``skipped`` cases left out).

    Rates are fractions in [0, 1] or ``None`` when their denominator is 0.
    ``confusion[expected][chosen]`` counts cases; labels are tool names or ``"(none)"``.
    """

    total: int = 0
    judged: int = 0
    passed: int = 0
    errors: int = 0
    skipped: int = 0
    should_use: int = 0
    should_not_use: int = 0
    selected: int = 0
    wrong_tool: int = 0
    asked: int = 0
    missed: int = 0
    false_selected: int = 0
    args_checked: int = 0
    args_matched: int = 0
    per_tool: dict[str, ToolScore] = field(default_factory=dict)
    confusion: dict[str, dict[str, int]] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)

    @property
    def selection_rate(self) -> float | None:
        return _rate(self.selected, self.should_use)

    @property
    def false_selection_rate(self) -> float | None:
        return _rate(self.false_selected, self.should_not_use)

    @property
    def wrong_tool_rate(self) -> float | None:
        return _rate(self.wrong_tool, self.should_use)

    @property
    def asked_rate(self) -> float | None:
        """Should-use cases where no tool was called but the router asked for a value of the
        expected tool (a clarify move) / should-use cases."""
        return _rate(self.asked, self.should_use)

    @property
    def argument_accuracy(self) -> float | None:
        return _rate(self.args_matched, self.args_checked)

    def rates(self) -> dict[str, float | None]:
        """``{"selection_rate", "false_selection_rate", "wrong_tool_rate", "asked_rate",
        "argument_accuracy"}``."""
        return {
            "selection_rate": self.selection_rate,
            "false_selection_rate": self.false_selection_rate,
            "wrong_tool_rate": self.wrong_tool_rate,
            "asked_rate": self.asked_rate,
            "argument_accuracy": self.argument_accuracy,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **self.rates(),
            "counts": {
                "total": self.total,
                "judged": self.judged,
                "passed": self.passed,
                "errors": self.errors,
                "skipped": self.skipped,
                "should_use": self.should_use,
                "should_not_use": self.should_not_use,
                "selected": self.selected,
                "wrong_tool": self.wrong_tool,
                "asked": self.asked,
                "missed": self.missed,
                "false_selected": self.false_selected,
                "args_checked": self.args_checked,
                "args_matched": self.args_matched,
            },
            "per_tool": [s.to_json() for s in self.per_tool.values()],
            "confusion": {"labels": list(self.labels), "matrix": self.confusion},
        }


def compute_metrics(results: Iterable[CaseResult], tools: Iterable[str] = ()) -> Metrics:
    """Compute :class:`Metrics` from case results; ``tools``: names always listed per tool
    (the registry's), in that order, before any other expected or chosen name."""
    m = Metrics()
    names: list[str] = list(dict.fromkeys(tools))
    results = list(results)
    for r in results:
        for name in (r.case.expect_tool, r.chosen):
            if name and name not in names and r.category not in (ERROR, SKIPPED):
                names.append(name)
    m.per_tool = {n: ToolScore(n) for n in names}
    m.labels = names + [NONE_LABEL]
    for r in results:
        m.total += 1
        if r.category == ERROR:
            m.errors += 1
            continue
        if r.category == SKIPPED:
            m.skipped += 1
            continue
        m.judged += 1
        m.passed += r.passed
        expected = r.case.expect_tool
        if expected is not None:
            m.should_use += 1
            m.selected += r.category == SELECTED
            m.wrong_tool += r.category == WRONG_TOOL
            m.asked += r.category == ASKED
            m.missed += r.category == MISSED
            if r.case.expect_args is not None and r.category == SELECTED:
                m.args_checked += 1
                m.args_matched += bool(r.args_ok)
        else:
            m.should_not_use += 1
            m.false_selected += r.category == FALSE_SELECTION
        if expected is not None and r.chosen == expected:
            m.per_tool[expected].tp += 1
        else:
            if r.chosen is not None:
                m.per_tool[r.chosen].fp += 1
            if expected is not None:
                m.per_tool[expected].fn += 1
        row = m.confusion.setdefault(expected or NONE_LABEL, {})
        col = r.chosen or NONE_LABEL
        row[col] = row.get(col, 0) + 1
    return m
