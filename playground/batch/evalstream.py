"""Streaming evaluation: cases read one line at a time, metrics kept as running counts.

``playground eval`` must stay flat in memory over 100,000 cases and keep what was judged when
interrupted: :func:`iter_case_file` reads the case file lazily (the same line rules as
:func:`playground.batch.caselines.split_lines` / ``case_lines``: ``\\n`` only, a trailing ``\\r``
and a BOM dropped, blank and ``#`` lines skipped), and :class:`MetricsTally` adds each judged
case to the :class:`~playground.batch.metrics.Metrics` without keeping the results (it merges
``compute_metrics`` of one case at a time, so every category the metrics know is counted).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import fields
from pathlib import Path

from playground.batch.caselines import CaseFileGuard, case_lines
from playground.batch.evalcases import CaseProblem, CaseResult, EvalCase, parse_case_line
from playground.batch.metrics import Metrics, ToolScore, compute_metrics
from playground.errors import UsageError

#: What one line of an ``eval`` case file looks like (named when a file is not one).
EVAL_EXAMPLE = '{"question": "HR20260604 택배 어디쯤인가요?", "expect_tool": "track_shipping"}'


def check_case_path(path: str | Path) -> Path:
    """``path`` when it is a readable regular file; else :class:`UsageError` (exit 2) with the
    messages of :func:`playground.batch.caselines.read_text`."""
    path = Path(path)
    if not path.exists():
        raise UsageError(f"{path}: no such case file")
    if path.is_dir():
        raise UsageError(f"{path}: is a folder, not a case file (.jsonl)")
    if not path.is_file():
        raise UsageError(f"{path}: not a regular file (a case file is a .jsonl text file)")
    return path


def iter_case_file(path: str | Path) -> Iterator[EvalCase | CaseProblem]:
    """Each case (or malformed line) of an eval case file, read lazily. Raises
    :class:`UsageError` when the file cannot be opened, stops being UTF-8 text, or is no case
    file at all (:class:`~playground.batch.caselines.CaseFileGuard`)."""
    path = check_case_path(path)

    def raw_lines() -> Iterator[str]:
        offset = 0  # of the line being read, in bytes from the file's start
        try:
            with path.open("rb") as handle:
                for number, raw in enumerate(handle, start=1):
                    try:
                        text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                    except UnicodeDecodeError as exc:
                        raise UsageError(
                            f"{path}: line {number} is not UTF-8 text ({exc.reason} at byte "
                            f"{offset + exc.start})"
                        ) from None
                    offset += len(raw)
                    yield text.removesuffix("\n").removesuffix("\r")
        except OSError as exc:
            raise UsageError(f"{path}: cannot be read ({exc.strerror or exc})") from None

    guard = CaseFileGuard(path, EVAL_EXAMPLE)
    for number, text in case_lines(raw_lines()):
        case = parse_case_line(text, number)
        guard.see(number, case.message if isinstance(case, CaseProblem) else "")
        yield case
    guard.finish()


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
