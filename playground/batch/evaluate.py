"""Routing evaluation: run a router on every question of an eval case file and judge its FIRST move.

Seed 002 ("스키마를 고쳤는지 확인하는 법"): treat a schema edit like a prompt edit -- keep ~20
questions that should use a tool and ~20 that should not, and after every edit look at the
selection rate (써야 할 때 골랐는가) and the false-selection rate (안 써도 될 때 골랐는가)
*together*, because "use this tool actively" in a description raises both.

Case file (DESIGN.md, "Case files"): JSON Lines, one case a line::

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
``missed``         should-use, no tool was called                   no
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

Rate limit and early stop: with ``rpm`` set (the CLI sets it for network routers, default 10)
requests start at least ``60 / rpm`` seconds apart, waiting with the injectable ``sleep`` /
``clock`` (tests never sleep). When ``stop_after`` consecutive cases fail with the same router
error (e.g. no API key) the remaining cases are marked ``skipped`` instead of being sent (seed
004's limit on identical consecutive failures, 3 by default).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from playground.batch.caselines import case_lines, parse_object, read_text, split_lines
from playground.core.canonical import json_type_name
from playground.core.registry import Registry
from playground.errors import RouterError
from playground.routing.base import Move, Router, Turn

NONE_LABEL = "(none)"
CASE_KEYS = ("question", "expect_tool", "expect_args", "id", "note")
DEFAULT_RPM = 10
DEFAULT_STOP_AFTER = 3

SELECTED = "selected"
MISSED = "missed"
WRONG_TOOL = "wrong_tool"
ABSTAINED = "abstained"
FALSE_SELECTION = "false_selection"
ERROR = "error"
SKIPPED = "skipped"


# --------------------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class EvalCase:
    """One question of an eval case file.

    ``line``: 1-based line number in the file. ``expect_tool``: the tool that should be called
    first, or ``None`` when no tool should be called. ``expect_args``: a subset of arguments the
    first call must contain, or ``None``.
    """

    line: int
    question: str
    expect_tool: str | None
    expect_args: dict[str, Any] | None = None
    id: str | None = None
    note: str | None = None

    @property
    def should_use(self) -> bool:
        return self.expect_tool is not None

    @property
    def label(self) -> str:
        """``id`` when given, else ``line N``."""
        return self.id or f"line {self.line}"

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "id": self.id,
            "question": self.question,
            "expect_tool": self.expect_tool,
            "expect_args": self.expect_args,
        }


@dataclass(frozen=True)
class CaseProblem:
    """A line of the case file that could not be read: ``line`` (1-based) and ``message``."""

    line: int
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "message": self.message}

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class CaseSet:
    """The cases of one file plus the problems met reading it (``source``: the file's path)."""

    cases: list[EvalCase] = field(default_factory=list)
    problems: list[CaseProblem] = field(default_factory=list)
    source: str = ""


def parse_case_line(text: str, line: int) -> EvalCase | CaseProblem:
    """Parse one JSON line into an :class:`EvalCase`, or a :class:`CaseProblem` saying why not.

    The line is read as ``check`` reads its lines (:func:`playground.batch.caselines.parse_object`:
    strict JSON, no repeated key, at most 100 levels, no lone surrogate such as ``"\\ud800"``);
    type names in messages are JSON's (``got a JSON array``). Never raises.
    """
    data, why = parse_object(text)
    if data is None:
        return CaseProblem(line, why)
    typos = [k for k in data if k not in CASE_KEYS and k.lower().startswith("expect")]
    if typos:
        return CaseProblem(line, f"unknown key {_cut(typos[0])!r}; the keys are {', '.join(CASE_KEYS)}")
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        got = "an empty string" if isinstance(question, str) else (
            "nothing" if "question" not in data else f"a JSON {json_type_name(question)}")
        return CaseProblem(line, f"'question' must be a non-empty string, got {got}")
    if "expect_tool" not in data:
        return CaseProblem(line, "'expect_tool' is missing; write null for a question that needs no tool")
    tool = data["expect_tool"]
    if tool is not None and (not isinstance(tool, str) or not tool.strip()):
        got = "an empty string" if isinstance(tool, str) else f"a JSON {json_type_name(tool)}"
        return CaseProblem(line, f"'expect_tool' must be a tool name (a string) or null, got {got}")
    expect_args = data.get("expect_args")
    if expect_args is not None:
        if not isinstance(expect_args, dict):
            return CaseProblem(line, f"'expect_args' must be a JSON object, got a JSON {json_type_name(expect_args)}")
        if tool is None:
            return CaseProblem(line, "'expect_args' needs an 'expect_tool' (it is null here)")
    case_id = data.get("id")
    note = data.get("note")
    return EvalCase(
        line=line,
        question=question,
        expect_tool=tool.strip() if isinstance(tool, str) else None,
        expect_args=expect_args,
        id=_label_text(case_id),
        note=_label_text(note),
    )


def _label_text(value: Any) -> str | None:
    """``id``/``note`` as text: a string as is, any other JSON value as compact JSON."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _cut(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_cases(text: str, source: str = "<cases>") -> CaseSet:
    """Parse JSON Lines text into a :class:`CaseSet`; never raises for malformed lines.

    Lines as :mod:`playground.batch.caselines` splits them (``\\n`` only, CRLF and a leading
    BOM fine, blank and ``#`` lines skipped; numbers are the file's)."""
    out = CaseSet(source=source)
    for number, stripped in case_lines(split_lines(text)):
        parsed = parse_case_line(stripped, number)
        (out.problems if isinstance(parsed, CaseProblem) else out.cases).append(parsed)
    return out


def load_cases(path: str | Path) -> CaseSet:
    """Read an eval case file (UTF-8, a BOM allowed) with the reader ``check`` uses
    (:func:`playground.batch.caselines.read_text`). Raises :class:`UsageError` when it is
    missing, a folder, not a regular file, unreadable or not UTF-8 (the CLI exits 2);
    malformed lines are kept in ``CaseSet.problems``."""
    return parse_cases(read_text(path), str(path))


# ------------------------------------------------------------------------------------ judging


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(expected, bool) and isinstance(got, bool) and expected == got
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        return expected == got
    if isinstance(expected, str) and isinstance(got, str):
        return expected.strip().casefold() == got.strip().casefold()
    if isinstance(expected, list) and isinstance(got, list):
        return len(expected) == len(got) and all(_same(a, b) for a, b in zip(expected, got))
    if isinstance(expected, dict) and isinstance(got, dict):
        return set(expected) == set(got) and all(_same(v, got[k]) for k, v in expected.items())
    return expected == got


def args_match(expected: dict[str, Any], got: Any) -> tuple[bool, list[str]]:
    """Whether ``got`` contains every key of ``expected`` with an equal value (module docstring).

    Returns ``(matched, differences)``; each difference reads ``order_id: expected "A", got "B"``.
    """
    if not isinstance(got, dict):
        return False, [f"arguments are not an object: {json.dumps(got, ensure_ascii=False)}"]
    diffs = []
    for key, value in expected.items():
        want = json.dumps(value, ensure_ascii=False)
        if key not in got:
            diffs.append(f"{key}: expected {want}, missing")
        elif not _same(value, got[key]):
            diffs.append(f"{key}: expected {want}, got {json.dumps(got[key], ensure_ascii=False, default=repr)}")
    return not diffs, diffs


@dataclass
class CaseResult:
    """How the router answered one case.

    ``chosen``: the first call's tool name, or ``None`` (no call). ``chosen_args``: its
    arguments. ``calls``: every tool name of the first move, in order. ``text``: the move's text.
    ``category``: see the module docstring. ``args_ok``: ``None`` when not judged (no
    ``expect_args`` or a different tool). ``error``: the router's error text for ``error``.
    ``duration_ms``: the router's time for this case.
    """

    case: EvalCase
    category: str
    chosen: str | None = None
    chosen_args: Any = None
    calls: list[str] = field(default_factory=list)
    text: str | None = None
    args_ok: bool | None = None
    arg_diffs: list[str] = field(default_factory=list)
    error: str = ""
    duration_ms: float = 0.0
    explanation: dict[str, Any] | None = None

    @property
    def passed(self) -> bool:
        """Right tool first with matching arguments, or no tool for a should-not-use case."""
        if self.category == SELECTED:
            return self.args_ok is not False
        return self.category == ABSTAINED

    @property
    def choice(self) -> str:
        """The first call's tool, ``"(none)"``, ``"(error)"`` or ``"(skipped)"``: for tables."""
        if self.category in (ERROR, SKIPPED):
            return f"({self.category})"
        return self.chosen or NONE_LABEL

    def reason(self) -> str:
        """One line saying why the case failed (``""`` when it passed)."""
        expected = self.case.expect_tool or NONE_LABEL
        if self.category == SELECTED and self.args_ok is False:
            return f"{self.chosen} chosen, but arguments differ: " + "; ".join(self.arg_diffs)
        if self.category == MISSED:
            return f"expected {expected}, no tool was called"
        if self.category == WRONG_TOOL:
            return f"expected {expected}, {self.chosen} was called first"
        if self.category == FALSE_SELECTION:
            return f"expected no tool, {self.chosen} was called"
        if self.category == ERROR:
            return f"router error: {self.error}"
        if self.category == SKIPPED:
            return f"not run: {self.error}"
        return ""

    def to_json(self) -> dict[str, Any]:
        return {
            **self.case.to_json(),
            "category": self.category,
            "passed": self.passed,
            "chosen": self.chosen,
            "chosen_args": self.chosen_args,
            "calls": list(self.calls),
            "text": self.text,
            "args_ok": self.args_ok,
            "arg_diffs": list(self.arg_diffs),
            "error": self.error,
            "reason": self.reason(),
            "duration_ms": round(self.duration_ms, 3),
        }


def judge(case: EvalCase, move: Move) -> CaseResult:
    """Judge the router's first ``move`` for ``case`` (see the module docstring)."""
    calls = [c.name for c in move.calls]
    first = move.calls[0] if move.calls else None
    result = CaseResult(case=case, category="", calls=calls, text=move.text, explanation=move.explanation)
    if first is not None:
        result.chosen, result.chosen_args = first.name, first.args
    if case.should_use:
        if first is None:
            result.category = MISSED
        elif first.name == case.expect_tool:
            result.category = SELECTED
            if case.expect_args is not None:
                result.args_ok, result.arg_diffs = args_match(case.expect_args, first.args)
        else:
            result.category = WRONG_TOOL
    else:
        result.category = FALSE_SELECTION if first is not None else ABSTAINED
    return result


# ------------------------------------------------------------------------------------ metrics


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


@dataclass
class ToolScore:
    """Per-tool counts and rates (module docstring: TP/FP/FN; rates ``None`` when undefined)."""

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
        return {"tool": self.tool, "tp": self.tp, "fp": self.fp, "fn": self.fn,
                "precision": self.precision, "recall": self.recall}


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
    def argument_accuracy(self) -> float | None:
        return _rate(self.args_matched, self.args_checked)

    def rates(self) -> dict[str, float | None]:
        """``{"selection_rate", "false_selection_rate", "wrong_tool_rate", "argument_accuracy"}``."""
        return {
            "selection_rate": self.selection_rate,
            "false_selection_rate": self.false_selection_rate,
            "wrong_tool_rate": self.wrong_tool_rate,
            "argument_accuracy": self.argument_accuracy,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **self.rates(),
            "counts": {
                "total": self.total, "judged": self.judged, "passed": self.passed,
                "errors": self.errors, "skipped": self.skipped,
                "should_use": self.should_use, "should_not_use": self.should_not_use,
                "selected": self.selected, "wrong_tool": self.wrong_tool, "missed": self.missed,
                "false_selected": self.false_selected,
                "args_checked": self.args_checked, "args_matched": self.args_matched,
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

    def wait(self) -> None:
        """Block until the next request may start, then mark its start."""
        if self.rpm and self.rpm > 0 and self._last is not None:
            gap = 60.0 / self.rpm - (self.clock() - self._last)
            if gap > 0:
                self.sleep(gap)
                self.waited_s += gap
        self._last = self.clock()


def _registry_of(target: Any) -> Registry:
    registry = getattr(target, "registry", target)
    if not isinstance(registry, Registry):
        raise TypeError(f"expected a Playground or a Registry, got {type(target).__name__}")
    return registry


def evaluate(
    target: Any,
    cases: CaseSet | Iterable[EvalCase],
    router: Router,
    *,
    progress: Callable[[int, int, CaseResult], None] | None = None,
    rpm: float | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    stop_after: int | None = DEFAULT_STOP_AFTER,
    label: str = "",
) -> EvalReport:
    """Run ``router`` on every case, sequentially, and judge each first move.

    ``target``: a Playground or a Registry (its ``declarations()`` are shown to the router).
    ``cases``: a :class:`CaseSet` (its problems are carried into the report) or cases.
    ``progress(done, total, result)``: called after each case. ``rpm``: requests per minute
    (``None``: no limit). ``stop_after``: after this many consecutive identical router errors
    the rest are ``skipped`` (``None``: never). Never raises for a router failure: the error
    text is the case's ``error``. Returns an :class:`EvalReport`.
    """
    registry = _registry_of(target)
    case_set = cases if isinstance(cases, CaseSet) else CaseSet(cases=list(cases))
    declarations = registry.declarations()
    names = registry.names()
    limiter = RateLimiter(rpm, sleep=sleep, clock=clock)
    started = time.perf_counter()
    results: list[CaseResult] = []
    streak: tuple[str, int] = ("", 0)
    total = len(case_set.cases)
    for done, case in enumerate(case_set.cases, start=1):
        if stop_after and streak[1] >= stop_after:
            result = CaseResult(case=case, category=SKIPPED,
                                error=f"stopped after {streak[1]} identical router errors: {streak[0]}")
        else:
            result = _run_case(case, router, declarations, limiter)
            if result.category != ERROR:
                streak = ("", 0)
            elif result.error == streak[0]:
                streak = (result.error, streak[1] + 1)
            else:
                streak = (result.error, 1)
        results.append(result)
        if progress is not None:
            progress(done, total, result)
    warnings = [
        f"line {c.line}: expect_tool {c.expect_tool!r} is not a loaded tool (the case can only fail)"
        for c in case_set.cases if c.expect_tool is not None and c.expect_tool not in registry
    ]
    return EvalReport(
        router=str(getattr(router, "name", type(router).__name__)),
        tools=names,
        results=results,
        problems=list(case_set.problems),
        metrics=compute_metrics(results, names),
        source=case_set.source,
        label=label,
        warnings=warnings,
        duration_ms=(time.perf_counter() - started) * 1000,
    )


def _run_case(case: EvalCase, router: Router, declarations: list[dict[str, Any]], limiter: RateLimiter) -> CaseResult:
    limiter.wait()
    t0 = time.perf_counter()
    try:
        move = router.next_move([Turn(role="user", text=case.question)], declarations)
    except RouterError as exc:
        return CaseResult(case=case, category=ERROR, error=str(exc) or type(exc).__name__,
                          duration_ms=(time.perf_counter() - t0) * 1000)
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # a router bug must not end the whole run
        return CaseResult(case=case, category=ERROR, error=f"{type(exc).__name__}: {exc}",
                          duration_ms=(time.perf_counter() - t0) * 1000)
    if not isinstance(move, Move):
        return CaseResult(case=case, category=ERROR,
                          error=f"the router returned {type(move).__name__}, not a Move")
    result = judge(case, move)
    result.duration_ms = (time.perf_counter() - t0) * 1000
    return result


# ----------------------------------------------------------------------------------- compare


@dataclass(frozen=True)
class Flip:
    """A case whose outcome differs between two runs: ``direction`` is ``"pass->fail"`` or
    ``"fail->pass"``; ``before`` / ``after`` are the two choices (tool or ``"(none)"``)."""

    case: EvalCase
    direction: str
    before: str
    after: str
    before_reason: str
    after_reason: str

    def to_json(self) -> dict[str, Any]:
        return {**self.case.to_json(), "direction": self.direction, "before": self.before,
                "after": self.after, "before_reason": self.before_reason, "after_reason": self.after_reason}


@dataclass
class Comparison:
    """Two runs of the same cases (``base``: ``--tools``; ``other``: ``--compare``) and the flips."""

    base: EvalReport
    other: EvalReport
    flips: list[Flip]

    def rates_side_by_side(self) -> list[dict[str, Any]]:
        """``[{"metric", "base", "other", "delta"}]`` for the four rates (delta ``None`` if undefined)."""
        a, b = self.base.metrics.rates(), self.other.metrics.rates()
        return [
            {"metric": k, "base": a[k], "other": b[k],
             "delta": (b[k] - a[k]) if a[k] is not None and b[k] is not None else None}
            for k in a
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "rates": self.rates_side_by_side(),
            "flips": [f.to_json() for f in self.flips],
            "base": self.base.to_json(),
            "other": self.other.to_json(),
        }


def compare(base: EvalReport, other: EvalReport) -> Comparison:
    """List the cases that passed in one run and failed in the other (matched by line number)."""
    by_line = {r.case.line: r for r in other.results}
    flips = []
    for a in base.results:
        b = by_line.get(a.case.line)
        if b is None or a.passed == b.passed:
            continue
        flips.append(Flip(a.case, "pass->fail" if a.passed else "fail->pass", a.choice, b.choice,
                          a.reason(), b.reason()))
    return Comparison(base, other, flips)


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
            out.append(f"false-selection rate {rate:.1%} is above --max-false-selection {max_false_selection:.1%}")
    if m.errors or m.skipped:
        out.append(f"{m.errors} case(s) errored and {m.skipped} were skipped; the rates do not cover every case")
    if report.problems:
        out.append(f"{len(report.problems)} malformed line(s) in the case file")
    return out
