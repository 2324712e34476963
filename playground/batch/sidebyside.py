"""Routers side by side on the same cases: one row per router, consistency over repeats, cost,
and the questions on which the routers disagree (issue 24).

Each :class:`~playground.batch.evaluate.EvalReport` (one per ``--router``) becomes a
:class:`RouterRow`:

* selection, false-selection and asked rates (:class:`~playground.batch.metrics.Metrics`,
  every run of a repeated case counted);
* arguments end-to-end = runs of cases with ``expect_args`` whose first call was the expected
  tool with matching arguments / runs of cases with ``expect_args`` (router errors count as
  misses; skipped runs are left out) — unlike the argument accuracy of ``eval``, it is not
  conditional on the right tool;
* latency p50 / p95 (nearest-rank percentiles of ``duration_ms`` over the runs that asked the
  router), input / output tokens (the provider's counts summed; ``None`` when the router
  counted none: the offline router);
* cost = tokens × the prices of a price file (:func:`load_prices`); ``None`` (a blank cell)
  when the model has no price there — never guessed;
* consistency = for each question, the share of its runs that made the most common first call
  (tool and arguments; no call and a router error count as answers too); the row gives the
  mean, and :attr:`RouterRow.flaky` lists the questions under 1.

Disagreements: the questions whose most common answer (tool and arguments) differs between
routers.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playground.batch.evalcases import ERROR, SELECTED, SKIPPED, CaseResult
from playground.batch.evaluate import EvalReport
from playground.errors import UsageError

#: The keys of one price entry: US dollars per million tokens.
PRICE_KEYS = ("input_usd_per_mtok", "output_usd_per_mtok")


def load_prices(path: str | Path | None) -> dict[str, dict[str, float]]:
    """The price file: JSON ``{"MODEL" or "ROUTER:MODEL": {"input_usd_per_mtok": number,
    "output_usd_per_mtok": number}}`` (keys starting with ``_`` are comments). ``None`` or a
    missing default file: ``{}``. Raises :class:`UsageError` (one line) for a file that cannot
    be read or an entry without both numbers."""
    if path is None:
        return {}
    from playground.core.json_files import read_json_file

    path = Path(path)
    try:  # bounded: a huge or deeply nested file is one line, never a RecursionError
        data = read_json_file(path)
    except ValueError as exc:  # JsonInputError
        raise UsageError(f"{path}: the price file: {exc}") from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: the price file must be a JSON object of models")
    prices: dict[str, dict[str, float]] = {}
    for model, entry in data.items():
        if str(model).startswith("_"):
            continue
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(k), (int, float)) and not isinstance(entry.get(k), bool)
            for k in PRICE_KEYS
        ):
            raise UsageError(f"{path}: {model!r} needs numbers {PRICE_KEYS[0]} and {PRICE_KEYS[1]}")
        prices[str(model)] = {k: float(entry[k]) for k in PRICE_KEYS}
    return prices


def percentile(values: list[float], share: float) -> float | None:
    """The nearest-rank percentile (``share`` 0..1) of ``values``; ``None`` when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def answer_of(result: CaseResult) -> str:
    """What a run answered, as one comparable string: ``tool {args JSON}``, ``(none)`` or
    ``(error)`` / ``(skipped)``."""
    if result.category in (ERROR, SKIPPED):
        return f"({result.category})"
    if result.chosen is None:
        return "(none)"
    args = json.dumps(result.chosen_args, ensure_ascii=False, sort_keys=True, default=repr)
    return f"{result.chosen} {args}"


@dataclass
class Flaky:
    """A question whose runs did not all make the same call: ``line``, ``question``,
    ``same`` of ``runs`` made the most common one; ``answers``: each answer and its count."""

    line: int
    question: str
    same: int
    runs: int
    answers: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "question": self.question,
            "same": self.same,
            "runs": self.runs,
            "answers": dict(self.answers),
        }


@dataclass
class RouterRow:
    """One router's line of the side-by-side table (see the module docstring for each value)."""

    label: str
    router: str
    model: str
    runs: int
    repeat: int
    selection_rate: float | None
    false_selection_rate: float | None
    asked_rate: float | None
    args_end_to_end: tuple[int, int]
    latency_p50_ms: float | None
    latency_p95_ms: float | None
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None
    consistency: float | None
    flaky: list[Flaky] = field(default_factory=list)
    repeat_note: str = ""
    errors: int = 0

    def to_json(self) -> dict[str, Any]:
        num, den = self.args_end_to_end
        return {
            "label": self.label,
            "router": self.router,
            "model": self.model,
            "runs": self.runs,
            "repeat": self.repeat,
            "selection_rate": self.selection_rate,
            "false_selection_rate": self.false_selection_rate,
            "asked_rate": self.asked_rate,
            "args_end_to_end": {"matched": num, "of": den, "rate": num / den if den else None},
            "latency_p50_ms": self.latency_p50_ms,
            "latency_p95_ms": self.latency_p95_ms,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": self.cost_usd,
            "consistency": self.consistency,
            "flaky": [f.to_json() for f in self.flaky],
            "repeat_note": self.repeat_note,
            "errors": self.errors,
        }


def price_of(
    prices: dict[str, dict[str, float]], router: str, model: str
) -> dict[str, float] | None:
    """The price entry for ``router:model``, else ``model``; ``None`` when the file has none."""
    return prices.get(f"{router}:{model}") or prices.get(model) if model else None


def by_question(results: list[CaseResult]) -> dict[int, list[CaseResult]]:
    """The results grouped by case line, in line order."""
    groups: dict[int, list[CaseResult]] = defaultdict(list)
    for result in results:
        groups[result.case.line].append(result)
    return dict(sorted(groups.items()))


def consistency_of(report: EvalReport) -> tuple[float | None, list[Flaky]]:
    """``(mean share of same answers per question, the flaky questions)`` of ``report``;
    ``(None, [])`` when no question ran more than once."""
    shares: list[float] = []
    flaky: list[Flaky] = []
    for line, results in by_question(report.results).items():
        ran = [r for r in results if r.category != SKIPPED]
        if len(ran) < 2:
            continue
        answers = Counter(answer_of(r) for r in ran)
        same = answers.most_common(1)[0][1]
        shares.append(same / len(ran))
        if same < len(ran):
            flaky.append(Flaky(line, ran[0].case.question, same, len(ran), dict(answers)))
    if not shares:
        return (1.0 if report.repeat_note else None), []
    return sum(shares) / len(shares), flaky


def summarize(report: EvalReport, prices: dict[str, dict[str, float]]) -> RouterRow:
    """The side-by-side row of one report (its ``results`` must be kept)."""
    m = report.metrics
    ran = [r for r in report.results if r.category != SKIPPED]
    with_args = [r for r in ran if r.case.should_use and r.case.expect_args is not None]
    matched = sum(1 for r in with_args if r.category == SELECTED and r.args_ok is True)
    latencies = [r.duration_ms for r in ran if r.category != SKIPPED]
    counted = [r.usage for r in ran if r.usage is not None]
    tokens_in = sum(u.get("input_tokens", 0) for u in counted) if counted else None
    tokens_out = sum(u.get("output_tokens", 0) for u in counted) if counted else None
    price = price_of(prices, report.router, report.model)
    cost = None
    if price is not None and tokens_in is not None and tokens_out is not None:
        cost = (
            tokens_in * price["input_usd_per_mtok"] + tokens_out * price["output_usd_per_mtok"]
        ) / 1_000_000
    consistency, flaky = consistency_of(report)
    return RouterRow(
        label=report.label or report.router,
        router=report.router,
        model=report.model,
        runs=len(report.results),
        repeat=report.repeat,
        selection_rate=m.selection_rate,
        false_selection_rate=m.false_selection_rate,
        asked_rate=m.asked_rate,
        args_end_to_end=(matched, len(with_args)),
        latency_p50_ms=percentile(latencies, 0.50),
        latency_p95_ms=percentile(latencies, 0.95),
        input_tokens=tokens_in,
        output_tokens=tokens_out,
        cost_usd=cost,
        consistency=consistency,
        flaky=flaky,
        repeat_note=report.repeat_note,
        errors=m.errors,
    )


@dataclass
class Disagreement:
    """A question the routers answered differently: ``line``, ``question``, ``expected``
    (the expected tool or ``(none)``) and ``answers`` (router label -> its most common answer,
    :func:`answer_of`)."""

    line: int
    question: str
    expected: str
    answers: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "question": self.question,
            "expected": self.expected,
            "answers": dict(self.answers),
        }


def disagreements(reports: list[EvalReport]) -> list[Disagreement]:
    """The questions whose most common answer (tool and arguments) is not the same for every
    router, in line order. Questions a router skipped are compared on the others only."""
    per_router = {
        (r.label or r.router): by_question([x for x in r.results if x.category != SKIPPED])
        for r in reports
    }
    lines = sorted({line for groups in per_router.values() for line in groups})
    out: list[Disagreement] = []
    for line in lines:
        answers: dict[str, str] = {}
        case = None
        for label, groups in per_router.items():
            results = groups.get(line)
            if not results:
                continue
            case = results[0].case
            answers[label] = Counter(answer_of(r) for r in results).most_common(1)[0][0]
        if case is not None and len(set(answers.values())) > 1:
            out.append(Disagreement(line, case.question, case.expect_tool or "(none)", answers))
    return out


def side_by_side_json(
    reports: list[EvalReport], prices: dict[str, dict[str, float]]
) -> dict[str, Any]:
    """``{"routers": [row], "disagreements": [...], "runs": [report JSON]}`` for
    ``--format json`` with several routers or repeats."""
    return {
        "routers": [summarize(r, prices).to_json() for r in reports],
        "disagreements": [d.to_json() for d in disagreements(reports)],
        "runs": [r.to_json() for r in reports],
    }
