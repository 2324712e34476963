"""Routing evaluation: run a router on every question of an eval case file and judge its FIRST move.

Seed 002 ("스키마를 고쳤는지 확인하는 법"): treat a schema edit like a prompt edit -- keep ~20
questions that should use a tool and ~20 that should not, and after every edit look at the
selection rate (써야 할 때 골랐는가) and the false-selection rate (안 써도 될 때 골랐는가)
*together*, because "use this tool actively" in a description raises both.

Case file (docs/design.md, "Case files"): JSON Lines, one case a line::

    {"question": "...", "expect_tool": "track_shipping" | null, "expect_args": {...}}

``expect_tool: null`` = no tool should be called (a should-not-use case). ``expect_args`` is a
subset the first call's arguments must contain (only with a tool). Optional keys ``id`` and
``note`` are kept; any other key starting with ``expect`` is a typo and the line is rejected.
The file is read exactly as ``playground check`` reads its case files
(:mod:`playground.batch.caselines`): UTF-8 with or without a BOM, CRLF fine, blank lines and
lines starting with ``#`` skipped, each line parsed strictly (no NaN, no repeated key, at most
100 levels deep, no lone surrogate). A malformed line becomes a :class:`CaseProblem` (line
number + message, JSON type names: ``got a JSON array``), never an exception.

How one case is judged (only the router's first move, for a conversation holding one user
:class:`~playground.routing.base.Turn`; a move with several calls is judged by its first call):

=================  ===============================================  ==========
category           when                                             passed
=================  ===============================================  ==========
``selected``       should-use, the expected tool was called first   args match
``asked``          should-use, no call; the router asked for a      no
                   value of the expected tool (``asks_for``)
``missed``         should-use, no tool was called (no such ask)     no
``wrong_tool``     should-use, another tool was called first        no
``abstained``      should-not-use, no tool was called               yes
``false_selection`` should-not-use, some tool was called            no
``error``          the router raised (RouterError, or a bug)        no
``skipped``        not asked: the run stopped early (see below)     no
=================  ===============================================  ==========

Metrics (:class:`Metrics`; every rate is ``None`` when its denominator is 0; ``error`` and
``skipped`` cases are left out of every rate and counted separately):

* selection rate = should-use cases where the expected tool was called first / should-use cases
* false-selection rate = should-not-use cases where any tool was called / should-not-use cases
* wrong-tool rate = should-use cases where another tool was called first / should-use cases
* asked rate = should-use cases with no call where the router asked for a value of the expected
  tool (a clarify move, issue 12) / should-use cases; selected + wrong tool + asked + missed = 1
* argument accuracy = cases with ``expect_args`` whose first call was the expected tool AND whose
  arguments match / cases with ``expect_args`` whose first call was the expected tool. It is
  conditional on the right tool, so it measures argument filling separately from selection.
* per tool: precision = TP / (TP + FP), recall = TP / (TP + FN), where for tool T a case counts
  TP when T was expected and chosen first, FP when T was chosen first but not expected (a
  should-not-use case included), FN when T was expected but something else (or nothing) was.
* confusion matrix: rows = expected tool or ``"(none)"``, columns = chosen tool or ``"(none)"``.

Argument match (:func:`args_match`): every key of ``expect_args`` is present in the call's
arguments with an equal value; strings are compared after ``strip()`` and case folding (an
order id written ``hr20260604`` is the same id); numbers compare by value (``3 == 3.0``) but a
boolean never equals a number; lists and objects compare element-wise with the same rules.

Rate limit and early stop: with ``rpm`` set (the CLI and the TUI use the router's
``capabilities.default_rpm``: 10 for Gemini)
requests start at least ``60 / rpm`` seconds apart, waiting with the injectable ``sleep`` /
``clock`` (tests never sleep). When ``stop_after`` consecutive cases fail with the same router
error (e.g. no API key) the remaining cases are marked ``skipped`` instead of being sent (seed
004's limit on identical consecutive failures, 3 by default).

This module owns running a router over the cases (:func:`evaluate`, :class:`EvalReport`,
:class:`RateLimiter`) and the pass/fail thresholds (:func:`threshold_failures`). Reading and
judging cases is in :mod:`playground.batch.evalcases`, the metrics in
:mod:`playground.batch.metrics`, comparing two runs in :mod:`playground.batch.compare`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from playground.batch.evalcases import (
    ERROR,
    SKIPPED,
    CaseProblem,
    CaseResult,
    CaseSet,
    EvalCase,
    judge,
)
from playground.batch.evalstream import MetricsTally
from playground.batch.metrics import Metrics
from playground.core.registry import Registry
from playground.errors import RouterError
from playground.routing.base import Move, Router, Turn

if TYPE_CHECKING:
    from playground.workbench import Playground

DEFAULT_STOP_AFTER = 3


# ------------------------------------------------------------------------------------ running


@dataclass
class EvalReport:
    """One evaluation run: the router's name, the tools shown, every case result, the case
    file's problems and the metrics. ``to_json()`` is the ``--format json`` shape."""

    router: str
    tools: list[str]
    results: list[CaseResult]
    problems: list[CaseProblem]
    metrics: Metrics
    source: str = ""
    label: str = ""
    warnings: list[str] = field(default_factory=list)
    duration_ms: float = 0.0
    first_error: str = ""
    interrupted: bool = False
    model: str = ""
    repeat: int = 1
    repeat_note: str = ""

    @property
    def failures(self) -> list[CaseResult]:
        """The cases that did not pass (errors and skipped cases included), in file order."""
        return [r for r in self.results if not r.passed]

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "router": self.router,
            "cases_file": self.source,
            "tools": list(self.tools),
            "metrics": self.metrics.to_json(),
            "results": [r.to_json() for r in self.results],
            "problems": [p.to_json() for p in self.problems],
            "warnings": list(self.warnings),
            "duration_ms": round(self.duration_ms, 3),
            "interrupted": self.interrupted,
            **({"model": self.model} if self.model else {}),
            **({"repeat": self.repeat} if self.repeat > 1 or self.repeat_note else {}),
            **({"repeat_note": self.repeat_note} if self.repeat_note else {}),
        }


@dataclass
class RateLimiter:
    """Start requests at least ``60 / rpm`` seconds apart (``rpm`` ``None`` or ≤ 0: no limit).

    ``sleep`` / ``clock`` are injectable; ``waited_s`` sums the seconds slept.
    """

    rpm: float | None
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    waited_s: float = 0.0
    _last: float | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self) -> None:
        """Block until the next request may start, then mark its start (thread-safe: with
        ``--jobs`` the starts stay ``60 / rpm`` apart)."""
        with self._lock:
            if self.rpm and self.rpm > 0 and self._last is not None:
                gap = 60.0 / self.rpm - (self.clock() - self._last)
                if gap > 0:
                    self.sleep(gap)
                    self.waited_s += gap
            self._last = self.clock()


def _registry_of(target: Playground | Registry) -> Registry:
    registry = target if isinstance(target, Registry) else getattr(target, "registry", None)
    if not isinstance(registry, Registry):
        raise TypeError(f"expected a Playground or a Registry, got {type(target).__name__}")
    return registry


def evaluate(
    target: Playground | Registry,
    cases: CaseSet | Iterable[EvalCase | CaseProblem],
    router: Router,
    *,
    progress: Callable[[int, int, CaseResult], None] | None = None,
    rpm: float | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    stop_after: int | None = DEFAULT_STOP_AFTER,
    label: str = "",
    on_result: Callable[[CaseResult], None] | None = None,
    on_problem: Callable[[CaseProblem], None] | None = None,
    keep_results: bool = True,
    jobs: int = 1,
    repeat: int = 1,
    resumed: Iterable[CaseResult] = (),
) -> EvalReport:
    """Run ``router`` on every case and judge each first move.

    ``target``: a Playground or a Registry (its ``declarations()`` are shown to the router).
    ``cases``: a :class:`CaseSet` (its problems are carried into the report) or an iterable of
    cases and :class:`CaseProblem` lines, read lazily
    (:func:`playground.batch.evalstream.iter_case_file`). ``progress(done, total, result)``:
    called after each case (``total`` 0 when unknown). ``rpm``: requests per minute (``None``:
    no limit). ``stop_after``: after this many consecutive identical router errors the rest are
    ``skipped`` (``None``: never). ``on_result(result)`` / ``on_problem(problem)``: called as
    each case is judged / each malformed line is met (streaming output; with ``jobs`` > 1 in
    the order the answers arrive). ``keep_results``: keep every result in the report
    (``False``: ``results`` stays empty so that memory stays flat; the metrics are running
    counts either way). ``jobs``: requests in flight at once (1: one after the other).
    ``repeat``: runs per case (``CaseResult.run`` 1..N); a router whose
    ``capabilities.deterministic`` is true is run once per case whatever ``repeat`` says (the
    report's ``repeat_note`` says so). ``resumed``: results of an earlier, interrupted run of
    the same router (``--resume``): those (line, run) pairs are counted, not asked again.

    Never raises for a router failure: the error text is the case's ``error``. A
    ``KeyboardInterrupt`` (ctrl+c) ends the run early: the report holds every case judged so
    far (requests in flight are abandoned) and ``interrupted`` is true (the CLI exits 130).
    Returns an :class:`EvalReport`.
    """
    registry = _registry_of(target)
    source, items, total = _case_items(cases)
    deterministic = bool(getattr(router.capabilities, "deterministic", False))
    runs = 1 if deterministic else max(1, repeat)
    names = registry.names()
    run = _EvalRun(
        registry=registry,
        router=router,
        declarations=registry.declarations(),
        limiter=RateLimiter(rpm, sleep=sleep, clock=clock),
        tally=MetricsTally(names),
        runs=runs,
        total=total * runs,
        stop_after=stop_after,
        keep_results=keep_results,
        progress=progress,
        on_result=on_result,
        on_problem=on_problem,
        earlier={(r.case.line, r.run): r for r in resumed},
    )
    started = time.perf_counter()
    interrupted = _ask_every_case(run, items, jobs)
    return _report(run, names, source, label, started, interrupted, repeat)


def _case_items(
    cases: CaseSet | Iterable[EvalCase | CaseProblem],
) -> tuple[str, Iterable[EvalCase | CaseProblem], int]:
    """``(source, items, total)`` of :func:`evaluate`'s ``cases``: a :class:`CaseSet` gives its
    problems then its cases and their count; an iterable is read lazily (``total`` 0: unknown;
    ``source`` its ``source`` attribute, else empty)."""
    if isinstance(cases, CaseSet):
        return cases.source, [*cases.problems, *cases.cases], len(cases.cases)
    return getattr(cases, "source", ""), cases, 0


def _ask_every_case(run: _EvalRun, items: Iterable[EvalCase | CaseProblem], jobs: int) -> bool:
    """Ask and judge every case of ``items`` (one after the other, or ``jobs`` in flight).
    Returns whether ctrl+c (``KeyboardInterrupt``) ended it early; what was judged is kept."""
    try:
        if jobs <= 1:
            for case, number in run.work(items):
                run.record(run.skipped(case, number) or run.ask(case, number))
        else:
            _run_concurrently(run.work(items), jobs, run.skipped, run.ask, run.record)
    except KeyboardInterrupt:
        return True  # keep what was judged; the caller exits 130
    return False


def _report(
    run: _EvalRun,
    names: list[str],
    source: str,
    label: str,
    started: float,
    interrupted: bool,
    repeat: int,
) -> EvalReport:
    """The :class:`EvalReport` of a finished (or interrupted) ``run`` that started at
    ``started`` (``time.perf_counter()``); its ``repeat_note`` says when a deterministic router
    was run once per case although ``repeat`` asked for more."""
    router = run.router
    report = EvalReport(
        router=str(getattr(router, "name", type(router).__name__)),
        tools=names,
        results=run.results,
        problems=run.problems,
        metrics=run.tally.metrics,
        source=source,
        label=label,
        warnings=run.warnings,
        duration_ms=(time.perf_counter() - started) * 1000,
        first_error=run.first_error,
        interrupted=interrupted,
    )
    report.model = str(getattr(router, "model", "") or "")
    report.repeat = run.runs
    if getattr(router.capabilities, "deterministic", False) and repeat > 1:
        report.repeat_note = (
            f"the {report.router} router is deterministic: run once per case, "
            f"{repeat} of {repeat} by construction"
        )
    return report


@dataclass
class _EvalRun:
    """The state of one :func:`evaluate` run: what it asks with, what it has judged so far,
    and the streak of identical router errors that stops it (``stop_after``)."""

    registry: Registry
    router: Router
    declarations: list[dict[str, Any]]
    limiter: RateLimiter
    tally: MetricsTally
    runs: int  # runs per case (1: the single run is numbered 0)
    total: int  # cases x runs (0 when unknown)
    stop_after: int | None
    keep_results: bool
    progress: Callable[[int, int, CaseResult], None] | None
    on_result: Callable[[CaseResult], None] | None
    on_problem: Callable[[CaseProblem], None] | None
    earlier: dict[tuple[int, int], CaseResult]  # (line, run) -> a resumed result
    results: list[CaseResult] = field(default_factory=list)
    problems: list[CaseProblem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    streak: tuple[str, int] = ("", 0)
    done: int = 0
    first_error: str = ""

    def record(self, result: CaseResult) -> None:
        """Count ``result`` (and the error streak), keep it, and report it to the callbacks."""
        self.done += 1
        if result.category != ERROR:
            self.streak = ("", 0) if result.category != SKIPPED else self.streak
        elif result.error == self.streak[0]:
            self.streak = (result.error, self.streak[1] + 1)
        else:
            self.streak = (result.error, 1)
        self.tally.add(result)
        if result.error and not self.first_error:
            self.first_error = result.error
        if self.keep_results:
            self.results.append(result)
        if self.on_result is not None and (result.case.line, result.run) not in self.earlier:
            self.on_result(result)
        if self.progress is not None:
            self.progress(self.done, self.total, result)

    def work(self, items: Iterable[EvalCase | CaseProblem]) -> Iterator[tuple[EvalCase, int]]:
        """Each (case, run number) to judge; malformed lines are kept (and reported) as they
        are met, and a case expecting a tool that is not loaded adds a warning."""
        for case in items:
            if isinstance(case, CaseProblem):
                self.problems.append(case)
                if self.on_problem is not None:
                    self.on_problem(case)
                continue
            if case.expect_tool is not None and case.expect_tool not in self.registry:
                self.warnings.append(
                    f"line {case.line}: expect_tool {case.expect_tool!r} is not a loaded tool "
                    "(the case can only fail)"
                )
            for run in range(1, self.runs + 1) if self.runs > 1 else (0,):
                yield case, run

    def skipped(self, case: EvalCase, run: int) -> CaseResult | None:
        """The result of a run not to ask: resumed from an earlier run, or ``skipped`` after
        ``stop_after`` identical router errors in a row; ``None`` to ask the router."""
        kept = self.earlier.get((case.line, run))
        if kept is not None:
            return kept
        if self.stop_after and self.streak[1] >= self.stop_after:
            return CaseResult(
                case=case,
                category=SKIPPED,
                error=f"stopped after {self.streak[1]} identical router errors: {self.streak[0]}",
                run=run,
            )
        return None

    def ask(self, case: EvalCase, run: int) -> CaseResult:
        """Ask the router about ``case`` (waiting for the rate limit) and judge its move."""
        result = _run_case(case, self.router, self.declarations, self.limiter)
        result.run = run
        return result


def _run_concurrently(
    work: Iterator[tuple[EvalCase, int]],
    jobs: int,
    skipped: Callable[[EvalCase, int], CaseResult | None],
    ask: Callable[[EvalCase, int], CaseResult],
    record: Callable[[CaseResult], None],
) -> None:
    """Keep at most ``jobs`` requests in flight (a thread each); ``record`` each result in the
    order the answers arrive, on this thread. A ``KeyboardInterrupt`` cancels what has not
    started and is raised again (the threads of requests in flight are not waited for)."""
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="eval")
    pending: set[Future[CaseResult]] = set()
    try:
        for case, run in work:
            ready = skipped(case, run)
            if ready is not None:
                record(ready)
                continue
            pending.add(pool.submit(ask, case, run))
            while len(pending) >= jobs:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    record(future.result())
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                record(future.result())
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def no_case_judged(report: EvalReport) -> str:
    """Why no case of ``report`` could be judged, in one line (``""`` when some were): the file
    had no case, or every case errored or was skipped (e.g. Gemini without network), with the
    first error."""
    m = report.metrics
    if m.judged:
        return ""
    if not m.total:
        return f"{report.source or 'the case file'}: no case to judge"
    first = report.first_error
    return f"no case could be judged: {m.errors} router error(s), {m.skipped} skipped" + (
        f"; first error: {first}" if first else ""
    )


def _run_case(
    case: EvalCase, router: Router, declarations: list[dict[str, Any]], limiter: RateLimiter
) -> CaseResult:
    limiter.wait()
    t0 = time.perf_counter()
    try:
        move = router.next_move([Turn(role="user", text=case.question)], declarations)
    except RouterError as exc:
        return CaseResult(
            case=case,
            category=ERROR,
            error=str(exc) or type(exc).__name__,
            duration_ms=(time.perf_counter() - t0) * 1000,
        )
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # a router bug must not end the whole run
        return CaseResult(
            case=case,
            category=ERROR,
            error=f"{type(exc).__name__}: {exc}",
            duration_ms=(time.perf_counter() - t0) * 1000,
        )
    if not isinstance(move, Move):
        return CaseResult(
            case=case,
            category=ERROR,
            error=f"the router returned {type(move).__name__}, not a Move",
        )
    result = judge(case, move)
    result.duration_ms = (time.perf_counter() - t0) * 1000
    return result


# --------------------------------------------------------------------------------- thresholds


def threshold_failures(
    report: EvalReport, min_selection: float | None = None, max_false_selection: float | None = None
) -> list[str]:
    """Why ``report`` misses the thresholds (``[]`` when it meets them or none is set).

    A threshold fails when its rate is undefined (no case of that kind), when any case errored
    or was skipped (the rates would not cover the whole file), or when the case file had
    malformed lines.
    """
    if min_selection is None and max_false_selection is None:
        return []
    m = report.metrics
    out = []
    if min_selection is not None:
        rate = m.selection_rate
        if rate is None:
            out.append("selection rate is undefined: the file has no should-use case")
        elif rate < min_selection:
            out.append(f"selection rate {rate:.1%} is below --min-selection {min_selection:.1%}")
    if max_false_selection is not None:
        rate = m.false_selection_rate
        if rate is None:
            out.append("false-selection rate is undefined: the file has no should-not-use case")
        elif rate > max_false_selection:
            out.append(
                f"false-selection rate {rate:.1%} is above --max-false-selection {max_false_selection:.1%}"
            )
    if m.errors or m.skipped:
        out.append(
            f"{m.errors} case(s) errored and {m.skipped} were skipped; the rates do not cover every case"
        )
    if report.problems:
        out.append(f"{len(report.problems)} malformed line(s) in the case file")
    return out
