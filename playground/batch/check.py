"""The headless check runner: a case file of calls with expectations, run through ONE gate.

Case file format (docs/design.md, "Case files"): JSON Lines, one case a line::

    {"tool": "stock_lookup", "args": {...}, "expect": {"kind": "invalid_args", "verdict": "type:limit"}}

* ``tool`` (required, a non-empty string) and ``args`` (any JSON value; default ``{}``; a
  non-object is passed as is, so the gate answers verdict ``shape``).
* ``expect`` (optional object). Every key is optional: ``kind``, ``verdict``, ``body_ran``,
  ``body_runs``, ``cache``, ``ok``, ``error`` compare for equality with the record's field (JSON
  ``true`` never equals ``1``); ``value`` is a subset match (see :func:`subset_mismatches`).
  Any other key makes the case malformed, so a typo cannot pass silently; so does a value no
  record can have (:func:`expect_problem`: a ``kind`` that is no outcome kind, ...).
* A ``tool`` that is not registered fails the case (mismatch ``tool: no tool named 'x'; did
  you mean: ...``) unless its ``expect`` asks for that (:func:`expects_unknown_tool`: a
  ``kind`` or ``verdict`` ``unknown_tool``, an ``error`` ``args:unknown_tool``; a tool that
  must be gone).
* ``id`` and ``note`` are allowed and ignored; any other top-level key is malformed.
* ``declaration_hash`` (optional; written by ``history save``): the sha256 of the contract's
  declaration when the line was written (``Contract.declaration_hash()``). When today's differs,
  the result carries the note "<tool>'s declaration changed since this line was written".
* Blank lines and lines starting with ``#`` are skipped; line numbers are the file's (1-based).

All calls share one gate, so the cache (and ``body_runs``) carry across lines: the second of
two identical calls is a ``hit``. A malformed line is not a crash: it becomes a failed case
whose mismatch reads ``line N: ...`` and the other lines still run.

No typer/rich/textual here (the CLI and the TUI both use this module).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from playground.batch.caselines import CaseFileGuard, case_file_lines, parse_object
from playground.batch.interrupts import case_step
from playground.core.canonical import json_type_name, shorten
from playground.core.outcome import OutcomeKind
from playground.core.record import VALID, CallRecord
from playground.core.registry import unknown_tool_message

EXPECT_KEYS = ("kind", "verdict", "body_ran", "body_runs", "cache", "ok", "error", "value")
#: The outcome kinds an ``expect.kind`` may name (docs/design.md, "Outcome kinds").
KINDS = tuple(kind.value for kind in OutcomeKind)
#: The cache states a record has (``CallRecord.cache``).
CACHE_STATES = ("hit", "miss", "stored", "skip")
CASE_KEYS = ("tool", "args", "expect", "id", "note", "declaration_hash")


@dataclass(frozen=True)
class Case:
    """One line of a case file. ``problem`` is non-empty when the line is malformed (then the
    case fails without a call); ``line`` is the 1-based line number in the file."""

    line: int
    tool: str | None = None
    args: Any = field(default_factory=dict)
    expect: dict[str, Any] = field(default_factory=dict)
    problem: str = ""
    declaration_hash: str | None = None


@dataclass
class CaseResult:
    """A case and what happened: the gate's ``record`` (``None`` for a malformed line) and the
    ``mismatches`` (human-readable, empty when the case passed) and ``notes`` (a changed
    declaration)."""

    case: Case
    record: CallRecord | None
    mismatches: list[str]
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.mismatches

    def to_json(self) -> dict[str, Any]:
        """The record's fields (``CallRecord.to_json()``) plus ``line``, ``passed``,
        ``mismatches``; for a malformed line only ``line``, ``tool``, ``args`` (when readable),
        ``passed`` and ``mismatches``."""
        if self.record is not None:
            data = self.record.to_json()
        else:
            data = {"tool": self.case.tool}
            if self.case.args is not None:
                data["args"] = self.case.args
        data.update(line=self.case.line, passed=self.passed, mismatches=list(self.mismatches))
        if self.notes:
            data["notes"] = list(self.notes)
        return data


@dataclass
class CheckReport:
    """All results of one case file, in file order."""

    results: list[CaseResult] = field(default_factory=list)
    source: str = ""
    #: ctrl+c ended the run early: ``results`` are the cases run before it
    interrupted: bool = False
    #: how many cases the run was given (``len(results)`` unless interrupted)
    planned: int = 0

    @property
    def passed(self) -> int:
        return sum(1 for r in self.results if r.passed)

    @property
    def failed(self) -> int:
        return sum(1 for r in self.results if not r.passed)

    @property
    def ok(self) -> bool:
        """True when every case passed (an empty file passes)."""
        return self.failed == 0

    def to_json(self) -> dict[str, Any]:
        """``{"file", "cases": [CaseResult.to_json(), ...], "passed": n, "failed": n}``, plus
        ``"interrupted": true`` and ``"planned": n`` when ctrl+c ended the run early."""
        data: dict[str, Any] = {
            "file": self.source,
            "cases": [r.to_json() for r in self.results],
            "passed": self.passed,
            "failed": self.failed,
        }
        if self.interrupted:
            data.update(interrupted=True, planned=self.planned)
        return data


def parse_case(text: str, line: int) -> Case | None:
    """Parse one line into a :class:`Case`; ``None`` for a blank or ``#`` comment line.

    Never raises: a malformed line gives a Case whose ``problem`` says what is wrong. The line
    is read by :func:`playground.core.canonical.parse_json` (strict: no NaN/Infinity, no key
    repeated in one object, at most 100 levels deep, no lone surrogates).
    """
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    data, why = parse_object(stripped)
    if data is None:
        return Case(line, args=None, problem=f"line {line}: {why}")
    tool = data.get("tool")
    args = data.get("args", {})
    expect = data.get("expect", {})
    if "tool" not in data:
        return Case(line, None, args, {}, f'line {line}: missing "tool" (the tool name to call)')
    if not isinstance(tool, str) or not tool:
        return Case(
            line,
            None,
            args,
            {},
            f'line {line}: "tool" must be a non-empty string, got {_cut(repr(tool))}',
        )
    extra = sorted(set(data) - set(CASE_KEYS))
    if extra:
        return Case(
            line,
            tool,
            args,
            {},
            f"line {line}: unknown key(s) {', '.join(extra)} (a case has {', '.join(CASE_KEYS)})",
        )
    if not isinstance(expect, dict):
        return Case(
            line,
            tool,
            args,
            {},
            f'line {line}: "expect" must be an object, got {_cut(json.dumps(expect, ensure_ascii=False))}',
        )
    unknown = sorted(set(expect) - set(EXPECT_KEYS))
    if unknown:
        return Case(
            line,
            tool,
            args,
            {},
            f"line {line}: unknown expect key(s) {', '.join(unknown)} "
            f"(known: {', '.join(EXPECT_KEYS)})",
        )
    wrong = expect_problem(expect)
    if wrong:
        return Case(line, tool, args, {}, f"line {line}: {wrong}")
    declared = data.get("declaration_hash")
    if declared is not None and not isinstance(declared, str):
        return Case(line, tool, args, {}, f'line {line}: "declaration_hash" must be a string')
    return Case(line, tool, args, dict(expect), declaration_hash=declared)


def expect_problem(expect: dict[str, Any]) -> str:
    """Why ``expect`` can never match a record (``""`` when it can): a ``kind`` that is no
    outcome kind (``expect.kind 'bogus_kind' is not an outcome kind; use one of ok, empty,
    ...``), a ``cache`` that is no cache state, or a value of the wrong JSON type (``verdict``
    and ``error`` strings — ``error`` may be null —, ``body_ran`` and ``ok`` true/false,
    ``body_runs`` a whole number ≥ 0). A typo here would otherwise fail every run with a
    mismatch that reads as the tool's fault."""
    kind = expect.get("kind")
    if "kind" in expect and kind not in KINDS:
        return f"expect.kind {_short(kind)} is not an outcome kind; use one of {', '.join(KINDS)}"
    if "cache" in expect and expect["cache"] not in CACHE_STATES:
        return (
            f"expect.cache {_short(expect['cache'])} is not a cache state; use one of "
            f"{', '.join(CACHE_STATES)}"
        )
    wanted = {
        "verdict": ((str,), "a string"),
        "error": ((str, type(None)), "a string or null"),
        "body_ran": ((bool,), "true or false"),
        "ok": ((bool,), "true or false"),
    }
    for key, (types, what) in wanted.items():
        if key in expect and not isinstance(expect[key], types):
            return f"expect.{key} must be {what}, got a JSON {json_type_name(expect[key])}"
    runs = expect.get("body_runs", 0)
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 0:
        return f"expect.body_runs must be a whole number ≥ 0, got {_short(runs)}"
    return ""


def read_cases(path: str | Path) -> list[Case]:
    """Read and parse a case file (UTF-8, a BOM allowed; see
    :func:`playground.batch.caselines.case_file_lines`).

    Raises :class:`UsageError` when the file does not exist, is a folder or not a regular
    file, cannot be read, or is no case file at all (none of its first lines is a JSON object:
    :class:`~playground.batch.caselines.CaseFileGuard`; the CLI exits 2); other malformed
    lines — a line that is not UTF-8 or is too large included — are not errors (see
    :func:`parse_case`).
    """
    cases: list[Case] = []
    for number, text, why in case_file_lines(path):
        case = Case(number, args=None, problem=f"line {number}: {why}") if why else None
        case = case or parse_case(text, number)
        if case is not None:
            cases.append(case)
    guard = CaseFileGuard(path, CHECK_EXAMPLE)
    for case in cases:
        guard.see(case.line, (case.problem or "").removeprefix(f"line {case.line}: "))
        if guard.done:
            break
    guard.finish()
    return cases


#: What one line of a ``check`` case file looks like (named when a file is not one).
CHECK_EXAMPLE = '{"tool": "get_order_status", "args": {"order_id": "HR20260604"}}'


def same(expected: Any, actual: Any) -> bool:
    """JSON equality: ``true`` is never ``1``, ``1`` equals ``1.0``; dicts and lists compared deeply."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(
            same(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(same(e, a) for e, a in zip(expected, actual))
    if isinstance(expected, (dict, list)) or isinstance(actual, (dict, list)):
        return False
    return bool(expected == actual)


def subset_mismatches(expected: Any, actual: Any, path: str = "value") -> list[str]:
    """Where ``actual`` fails to contain ``expected``, one message per place (``value.rows[0].count:
    expected 3, got 12``).

    Rule: an expected object matches an object that has each of its keys with a matching value
    (extra keys are fine); an expected array matches an array of the same length whose items
    match pairwise (each item by the same subset rule); anything else must be equal
    (:func:`same`).
    """
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {_short(actual)}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing (expected {_short(value)})")
            else:
                out.extend(subset_mismatches(value, actual[key], f"{path}.{key}"))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{path}: expected an array, got {_short(actual)}"]
        if len(expected) != len(actual):
            return [f"{path}: expected {len(expected)} items, got {len(actual)}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out.extend(subset_mismatches(e, a, f"{path}[{i}]"))
        return out
    if not same(expected, actual):
        return [f"{path}: expected {_short(expected)}, got {_short(actual)}"]
    return []


def compare(expect: dict[str, Any], record: CallRecord) -> list[str]:
    """The mismatches between ``expect`` and ``record`` (``kind: expected 'ok', got 'bad_result'``),
    in :data:`EXPECT_KEYS` order; empty when everything expected holds. An expected verdict
    ``""`` (older case files) means ``"valid"``."""
    out: list[str] = []
    for key in EXPECT_KEYS:
        if key not in expect:
            continue
        actual = getattr(record, key)
        if isinstance(actual, Enum):  # OutcomeKind: compared and shown as its JSON value
            actual = actual.value
        expected = expect[key]
        if key == "verdict" and expected == "":
            expected = VALID  # case files written before issue 13 spelled a valid verdict ""
        if key == "value":
            out.extend(subset_mismatches(expect[key], actual))
        elif not same(expected, actual):
            out.append(f"{key}: expected {_short(expected)}, got {_short(actual)}")
    return out


#: What an ``expect`` says of a call of no registered tool, by key (the gate's outcome:
#: ``core.gate.Gate._unknown_tool``; docs/design.md lists ``unknown_tool`` both as an outcome
#: kind and as a verdict).
UNKNOWN_TOOL_EXPECTED = {
    "kind": "unknown_tool",
    "verdict": "unknown_tool",
    "error": "args:unknown_tool",
}


def expects_unknown_tool(expect: dict[str, Any]) -> bool:
    """Whether ``expect`` asks for the tool not to be registered: its ``kind``, ``verdict`` or
    ``error`` says ``unknown_tool`` (a tool that must be gone). A case on an unregistered tool
    that asks none of these fails, naming the close names (a mistyped or renamed tool)."""
    return any(expect.get(key) == value for key, value in UNKNOWN_TOOL_EXPECTED.items())


def run_case(gate: Any, case: Case) -> CaseResult:
    """Run one case through ``gate`` (a :class:`~playground.core.gate.Gate`); a malformed case
    fails without a call."""
    if case.problem:
        return CaseResult(case, None, [case.problem])
    record = gate.call(case.tool, case.args)
    mismatches = compare(case.expect, record)
    if record.kind == OutcomeKind.UNKNOWN_TOOL and not expects_unknown_tool(case.expect):
        # a renamed or mistyped tool is the case's failure, not a passing "unknown_tool" call
        names = gate.registry.names()
        mismatches.insert(0, f"tool: {unknown_tool_message(str(case.tool), names)}")
    notes: list[str] = []
    if case.declaration_hash:
        contract = gate.registry.get(case.tool)
        if contract is not None and contract.declaration_hash() != case.declaration_hash:
            notes.append(f"{case.tool}'s declaration changed since this line was written")
    return CaseResult(case, record, mismatches, notes)


def run_cases(
    gate: Any,
    cases: Iterable[Case],
    source: str = "",
    on_result: Callable[[CaseResult], None] | None = None,
) -> CheckReport:
    """Run ``cases`` in order through ONE ``gate`` (the cache carries across cases).

    ``on_result`` is called after each case (progress for a TUI, a streamed line). A
    ``KeyboardInterrupt`` (ctrl+c) ends the run early: the report holds the cases run before it
    and ``interrupted`` is true (the CLI exits 130); the gate never raises anything else.
    """
    cases = list(cases)
    report = CheckReport(source=source, planned=len(cases))
    try:
        for case in cases:
            result = run_case(gate, case)
            with case_step():  # written and counted together (a ctrl+c waits for both)
                if on_result is not None:
                    on_result(result)
                report.results.append(result)
    except KeyboardInterrupt:
        report.interrupted = True
    return report


def check_file(
    gate: Any, path: str | Path, on_result: Callable[[CaseResult], None] | None = None
) -> CheckReport:
    """Read the case file at ``path`` and run it through ``gate``. Raises :class:`UsageError`
    when the file cannot be read (see :func:`read_cases`)."""
    return run_cases(gate, read_cases(path), source=str(path), on_result=on_result)


def _short(value: Any, limit: int = 80) -> str:
    text = (
        repr(value)
        if isinstance(value, str)
        else json.dumps(value, ensure_ascii=False, default=repr)
    )
    return shorten(text, limit)


def _cut(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters (a huge malformed value must not become a huge message)."""
    return shorten(text, limit)
