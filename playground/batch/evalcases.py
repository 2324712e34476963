"""Eval cases: reading a case file into :class:`EvalCase` objects and judging one router move.

Owns the case-file line format (``question``, ``expect_tool``, ``expect_args``, ``id``,
``note``; a key starting with ``expect`` that is not one of them is a typo), the outcome
categories (``selected``, ``asked``, ``missed``, ``wrong_tool``, ``abstained``, ``false_selection``,
``error``, ``skipped``), argument matching (:func:`args_match`) and :func:`judge`, which turns
a case and the router's first :class:`~playground.routing.base.Move` into a :class:`CaseResult`.
The full rules (case file, judging table, argument match) are in :mod:`playground.batch.evaluate`'s
docstring, which remains the reference; lines are read by :mod:`playground.batch.caselines`.

Rule sources: seed 002 (``002_5dea94806f69c756.txt``: ~20 should-use and ~20 should-not-use
questions per schema edit) and docs/design.md ("Case files").
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from playground.batch.caselines import case_lines, parse_object, split_lines
from playground.core.canonical import json_type_name, shorten
from playground.routing.base import Move

NONE_LABEL = "(none)"
CASE_KEYS = ("question", "expect_tool", "expect_args", "id", "note")

SELECTED = "selected"
ASKED = "asked"
MISSED = "missed"
WRONG_TOOL = "wrong_tool"
ABSTAINED = "abstained"
FALSE_SELECTION = "false_selection"
ERROR = "error"
SKIPPED = "skipped"


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
        return CaseProblem(
            line, f"unknown key {_cut(typos[0])!r}; the keys are {', '.join(CASE_KEYS)}"
        )
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        got = (
            "an empty string"
            if isinstance(question, str)
            else ("nothing" if "question" not in data else f"a JSON {json_type_name(question)}")
        )
        return CaseProblem(line, f"'question' must be a non-empty string, got {got}")
    if "expect_tool" not in data:
        return CaseProblem(
            line, "'expect_tool' is missing; write null for a question that needs no tool"
        )
    tool = data["expect_tool"]
    if tool is not None and (not isinstance(tool, str) or not tool.strip()):
        got = "an empty string" if isinstance(tool, str) else f"a JSON {json_type_name(tool)}"
        return CaseProblem(line, f"'expect_tool' must be a tool name (a string) or null, got {got}")
    expect_args = data.get("expect_args")
    if expect_args is not None:
        if not isinstance(expect_args, dict):
            return CaseProblem(
                line,
                f"'expect_args' must be a JSON object, got a JSON {json_type_name(expect_args)}",
            )
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
    return shorten(text, limit)


def case_of(number: int, text: str, why: str) -> EvalCase | CaseProblem:
    """One line of a case file as :func:`~playground.batch.caselines.case_file_lines` gives it:
    a :class:`CaseProblem` saying ``why`` when the reader refused the line (not UTF-8, too
    large), else :func:`parse_case_line`'s case or problem."""
    return CaseProblem(number, why) if why else parse_case_line(text, number)


def _case_set(source: str, lines: Iterable[tuple[int, str, str]]) -> CaseSet:
    """The cases and problems of ``(number, text, why)`` lines (:func:`case_of`)."""
    out = CaseSet(source=source)
    for number, text, why in lines:
        parsed = case_of(number, text, why)
        if isinstance(parsed, CaseProblem):
            out.problems.append(parsed)
        else:
            out.cases.append(parsed)
    return out


def parse_cases(text: str, source: str = "<cases>") -> CaseSet:
    """Parse JSON Lines text into a :class:`CaseSet`; never raises for malformed lines.

    Lines as :mod:`playground.batch.caselines` splits them (``\\n`` only, CRLF and a leading
    BOM fine, blank and ``#`` lines skipped; numbers are the file's)."""
    return _case_set(source, ((n, t, "") for n, t in case_lines(split_lines(text))))


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
    return bool(expected == got)


def args_match(expected: dict[str, Any], got: Any) -> tuple[bool, list[str]]:
    """Whether ``got`` contains every key of ``expected`` with an equal value (:mod:`playground.batch.evaluate`).

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
            diffs.append(
                f"{key}: expected {want}, got {json.dumps(got[key], ensure_ascii=False, default=repr)}"
            )
    return not diffs, diffs


@dataclass
class CaseResult:
    """How the router answered one case.

    ``chosen``: the first call's tool name, or ``None`` (no call). ``chosen_args``: its
    arguments. ``calls``: every tool name of the first move, in order. ``text``: the move's text.
    ``category``: see :mod:`playground.batch.evaluate`. ``args_ok``: ``None`` when not judged (no
    ``expect_args`` or a different tool). ``error``: the router's error text for ``error``.
    ``duration_ms``: the router's time for this case. ``run``: which of ``--repeat N`` runs
    this is (1..N; 0 for a single run). ``usage``: the provider's token counts for the request
    (``{"input_tokens", "output_tokens"}``; ``None``: none counted). ``notes``: the router's
    notes on the move (retries, server quirks).
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
    run: int = 0
    usage: dict[str, int] | None = None
    notes: list[str] = field(default_factory=list)

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
            return f"expected {expected}, the router chose no tool"
        if self.category == ASKED:
            missing = ", ".join((self.explanation or {}).get("asks_for", {}).get("missing", []))
            return f"expected {expected}; the router asked for {missing} instead"
        if self.category == WRONG_TOOL:
            return f"expected {expected}, the router chose {self.chosen} first"
        if self.category == FALSE_SELECTION:
            return f"expected no tool, the router chose {self.chosen}"
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
            **({"repetition": self.run} if self.run else {}),
            **({"usage": dict(self.usage)} if self.usage is not None else {}),
            **({"notes": list(self.notes)} if self.notes else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CaseResult:
        """A result back from its :meth:`to_json` line (``--resume``). Raises ``KeyError`` /
        ``TypeError`` / ``ValueError`` for a line that is not one."""
        case = EvalCase(
            line=int(data["line"]),
            question=str(data["question"]),
            expect_tool=data.get("expect_tool"),
            expect_args=data.get("expect_args"),
            id=data.get("id"),
        )
        usage = data.get("usage")
        return cls(
            case=case,
            category=str(data["category"]),
            chosen=data.get("chosen"),
            chosen_args=data.get("chosen_args"),
            calls=list(data.get("calls") or []),
            text=data.get("text"),
            args_ok=data.get("args_ok"),
            arg_diffs=list(data.get("arg_diffs") or []),
            error=str(data.get("error") or ""),
            duration_ms=float(data.get("duration_ms") or 0.0),
            run=int(data.get("repetition") or 0),
            usage=dict(usage) if isinstance(usage, dict) else None,
            notes=list(data.get("notes") or []),
        )


def judge(case: EvalCase, move: Move) -> CaseResult:
    """Judge the router's first ``move`` for ``case`` (see :mod:`playground.batch.evaluate`)."""
    calls = [c.name for c in move.calls]
    first = move.calls[0] if move.calls else None
    result = CaseResult(
        case=case,
        category="",
        calls=calls,
        text=move.text,
        explanation=move.explanation,
        usage=dict(move.usage) if move.usage is not None else None,
        notes=list(move.notes),
    )
    if first is not None:
        result.chosen, result.chosen_args = first.name, first.args
    if case.should_use:
        if first is None:
            asks = (move.explanation or {}).get("asks_for") or {}
            # a clarify move: the right tool, short of a value the router asks the user for
            result.category = ASKED if asks.get("tool") == case.expect_tool else MISSED
        elif first.name == case.expect_tool:
            result.category = SELECTED
            if case.expect_args is not None:
                result.args_ok, result.arg_diffs = args_match(case.expect_args, first.args)
        else:
            result.category = WRONG_TOOL
    else:
        result.category = FALSE_SELECTION if first is not None else ABSTAINED
    return result
