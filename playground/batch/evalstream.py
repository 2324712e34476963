"""Streaming evaluation: cases read one line at a time, metrics kept as running counts.

``playground eval`` must stay flat in memory over 100,000 cases and keep what was judged when
interrupted: :func:`iter_case_file` reads the case file lazily
(:func:`playground.batch.caselines.case_file_lines`, as ``check`` and the TUI read it), and :class:`MetricsTally` adds each judged
case to the :class:`~playground.batch.metrics.Metrics` without keeping the results (it merges
``compute_metrics`` of one case at a time, so every category the metrics know is counted).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import fields
from pathlib import Path

from playground.batch.caselines import CaseFileGuard, case_file_lines
from playground.batch.evalcases import CaseProblem, CaseResult, CaseSet, EvalCase, case_of
from playground.batch.metrics import Metrics, ToolScore, compute_metrics

#: What one line of an ``eval`` case file looks like (named when a file is not one).
EVAL_EXAMPLE = '{"question": "HR20260604 택배 어디쯤인가요?", "expect_tool": "track_shipping"}'


def iter_case_file(path: str | Path) -> Iterator[EvalCase | CaseProblem]:
    """Each case (or malformed line) of an eval case file, read lazily
    (:func:`~playground.batch.caselines.case_file_lines`: a line that is not UTF-8 or is too
    large is a malformed line like the others). Raises :class:`UsageError` when the file cannot
    be opened or read, or is no case file at all
    (:class:`~playground.batch.caselines.CaseFileGuard`)."""
    guard = CaseFileGuard(path, EVAL_EXAMPLE)
    for number, text, why in case_file_lines(path):
        case = case_of(number, text, why)
        guard.see(number, case.message if isinstance(case, CaseProblem) else "")
        yield case
    guard.finish()


def load_cases(path: str | Path) -> CaseSet:
    """A whole eval case file in memory (the TUI's Evaluate view), read by
    :func:`iter_case_file` as ``eval`` reads it: the same :class:`UsageError` for a missing,
    unreadable or no case file at all (a tool module given by mistake), malformed lines kept in
    ``CaseSet.problems``."""
    out = CaseSet(source=str(path))
    for item in iter_case_file(path):
        if isinstance(item, CaseProblem):
            out.problems.append(item)
        else:
            out.cases.append(item)
    return out


class MetricsTally:
    """Running :class:`Metrics` over results added one at a time; nothing per case is kept.

    ``tools``: the registry's names, listed first per tool (as ``compute_metrics`` does)."""

    def __init__(self, tools: Iterable[str] = ()) -> None:
        self.tools = list(tools)
        self.metrics = compute_metrics([], self.tools)

    def add(self, result: CaseResult) -> None:
        """Count one judged (or errored / skipped) case."""
        one = compute_metrics([result], self.tools)
        total = self.metrics
        for f in fields(Metrics):
            value = getattr(one, f.name)
            if isinstance(value, int) and not isinstance(value, bool):
                setattr(total, f.name, getattr(total, f.name) + value)
        for name, score in one.per_tool.items():
            mine = total.per_tool.setdefault(name, ToolScore(name))
            mine.tp, mine.fp, mine.fn = mine.tp + score.tp, mine.fp + score.fp, mine.fn + score.fn
        for row, cols in one.confusion.items():
            target = total.confusion.setdefault(row, {})
            for col, n in cols.items():
                target[col] = target.get(col, 0) + n
        for label in one.labels:
            if label not in total.labels:
                total.labels.insert(len(total.labels) - 1, label)
