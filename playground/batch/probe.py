"""Probe one contract with inputs derived from its parameter schema, through ONE gate.

The point (seed 003: "call_tool ... 인자가 틀리면 본문을 실행하지 않는다"): every invalid input must
be refused by the gate with a verdict and the body must not run (its ``body_runs`` count does not
move), and every valid input must be accepted.

Cases generated (:func:`probe_cases`), in this order:

* ``baseline`` -- valid: every required argument, valued from the schema's ``examples`` /
  ``default`` / first ``enum`` value / the example written in its description or docstring Args
  line (:func:`playground.core.validation.example_value`), coerced to the declared type
  (``"3"`` → ``3`` for an integer), else a value of the right type that meets ``minimum``/
  ``minLength``.
* ``missing:<arg>`` -- each required argument left out.
* ``type:<arg>=<json type>`` -- each argument given each wrong JSON type among string, integer,
  number, boolean, null, array, object (the declared types skipped; an integer is a right
  ``number``). For an integer argument the boolean value is ``true`` (JSON ``true`` is never an
  integer, docs/design.md) and the number is ``1.5``; a string is the baseline written as text.
* ``float-integral:<arg>`` -- valid: ``3.0`` for an integer (JSON Schema counts an integral
  number as an integer; a Python body gets ``3``, as its ``int`` parameter converts it, an MCP
  server ``3.0`` as sent).
* ``min:<arg>`` / ``below-min:<arg>`` / ``max:<arg>`` / ``above-max:<arg>`` -- the value just
  inside and just outside ``minimum``/``maximum`` (±1 for integers, ±0.5 for numbers) and
  ``exclusiveMinimum``/``exclusiveMaximum``; for strings ``minLength``/``maxLength`` (built from
  the baseline; the inside cases are left out when the string also has a pattern, enum or
  format, which a padded string would break).
* ``not-in-enum:<arg>``, ``pattern-miss:<arg>``, ``bad-date:<arg>`` (``2026-02-30``, for
  ``format: date``).
* ``unknown-arg`` -- the baseline plus an argument the contract does not declare: invalid for a
  Python tool (its signature refuses it) and for an MCP tool whose ``inputSchema`` says
  ``additionalProperties: false``; valid for another MCP tool (JSON Schema allows other
  properties unless it says not), so it reaches the server.
* ``args-as-json-string`` -- the baseline serialised as a JSON string (verdict ``shape``).

A case passes when an ``invalid`` input got a non-empty verdict and the body did not run
(``body_runs`` delta 0), or a ``valid`` input got an empty verdict. With ``run_valid=False``
(the default for contracts with ``side_effects``) valid inputs are only checked
(:func:`playground.core.validation.check_args`), not run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from playground.batch.interrupts import case_step
from playground.core.canonical import json_type_name
from playground.core.contracts import Contract
from playground.core.ecma import ecma_search
from playground.core.examples import NO_EXAMPLE, valid_example
from playground.core.gate import Gate
from playground.core.record import VALID as VALID_VERDICT
from playground.core.record import verdict_of
from playground.core.validation import check_args, example_value
from playground.core.validators import validator_for
from playground.errors import UsageError

if TYPE_CHECKING:
    from playground.workbench import Playground

VALID = "valid"
INVALID = "invalid"
ALL_TYPES = ("string", "integer", "number", "boolean", "null", "array", "object")
EXTRA_ARG = "unexpected_arg"
BAD_DATE = "2026-02-30"


@dataclass
class ProbeCase:
    """One generated input and what the gate did with it.

    ``name``: the case id (``missing:sku``). ``args``: the arguments sent. ``expected``:
    ``valid`` | ``invalid``. ``expected_verdict``: the reason code the schema implies (a hint;
    the verdict is the gate's first reason, so it may differ). ``reasons``: every violation
    the gate found, ``{code, path, message}``. ``verdict`` / ``kind`` /
    ``body_ran``: from the gate's record. ``body_runs``: how much the contract's body-run count
    moved for this case. ``ran``: ``False`` when the case was only validated (side effects).
    ``note``: why a case was judged a problem, or an explanation.
    """

    name: str
    args: Any
    expected: str
    expected_verdict: str = ""
    verdict: str = VALID_VERDICT
    kind: str = ""
    body_ran: bool = False
    body_runs: int = 0
    ran: bool = True
    note: str = ""
    warnings: list[str] = field(default_factory=list)
    reasons: list[dict[str, str]] = field(default_factory=list)
    server: str = ""

    @property
    def disagrees(self) -> str:
        """With ``--against-server``: ``""`` when the server and the schema agree, else
        ``"schema refuses, server accepts"`` / ``"schema accepts, server refuses"``."""
        if not self.server or self.server == "not sent":
            return ""
        refused_by_schema = self.verdict != VALID_VERDICT
        accepted_by_server = self.server == "accepted"
        if refused_by_schema and accepted_by_server:
            return "schema refuses, server accepts"
        if not refused_by_schema and self.server.startswith("refused"):
            return "schema accepts, server refuses"
        return ""

    @property
    def ok(self) -> bool:
        """Invalid: refused and the body did not run. Valid: accepted (and the baseline, when
        its body ran, also succeeded: :attr:`baseline_failed`)."""
        if self.expected == INVALID:
            return self.verdict != VALID_VERDICT and not self.body_ran and self.body_runs == 0
        return self.verdict == VALID_VERDICT and not self.baseline_failed

    @property
    def baseline_failed(self) -> bool:
        """The baseline was accepted and its body ran, but the call did not succeed (``raised``,
        ``bad_result``, a timeout…): the generated example or the tool is wrong, and the other
        cases, each the baseline with one change, say little about the tool."""
        return (
            self.name == "baseline"
            and self.verdict == VALID_VERDICT
            and self.ran
            and self.body_ran
            and self.kind not in ("", "ok", "empty")
        )

    @property
    def problem(self) -> str:
        """``""`` when ``ok``; else ``"invalid input ran the body"`` / ``"valid input rejected"`` /
        ``"invalid input accepted"`` / ``"the valid baseline failed (KIND)"``."""
        if self.ok:
            return ""
        if self.baseline_failed:
            return f"the valid baseline failed ({self.kind})"
        if self.expected == VALID:
            return "valid input rejected"
        if self.body_ran or self.body_runs:
            return "invalid input ran the body"
        return "invalid input accepted"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "args": self.args,
            "expected": self.expected,
            "expected_verdict": self.expected_verdict,
            "verdict": self.verdict,
            "kind": self.kind,
            "body_ran": self.body_ran,
            "body_runs": self.body_runs,
            "ran": self.ran,
            "ok": self.ok,
            "problem": self.problem,
            "note": self.note,
            "warnings": self.warnings,
            "reasons": self.reasons,
        } | ({"server": self.server, "disagrees": self.disagrees} if self.server else {})


@dataclass
class ProbeReport:
    """All cases for one contract; ``ok`` when every case passed."""

    tool: str
    cases: list[ProbeCase] = field(default_factory=list)
    #: ctrl+c ended the run early: ``cases`` are the ones run before it
    interrupted: bool = False
    #: how many cases were derived (``len(cases)`` unless interrupted)
    planned: int = 0

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.cases)

    @property
    def problems(self) -> list[ProbeCase]:
        return [c for c in self.cases if not c.ok]

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "ok": self.ok,
            "total": len(self.cases),
            "problems": len(self.problems),
            "warnings": sorted({w for c in self.cases for w in c.warnings}),
            "disagreements": len([c for c in self.cases if c.disagrees]),
            "cases": [c.to_json() for c in self.cases],
            **({"interrupted": True, "planned": self.planned} if self.interrupted else {}),
        }


# ------------------------------------------------------------------------------ value helpers


def _types(schema: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    t = schema.get("type")
    if isinstance(t, str):
        out.add(t)
    elif isinstance(t, list):
        out.update(t)
    for key in ("anyOf", "oneOf"):
        for sub in schema.get(key, []) or []:
            if isinstance(sub, dict):
                out |= _types(sub)
    if "enum" in schema and not out:
        out |= {json_type_name(v) for v in schema["enum"]}
    return out


def _accepts_type(types: set[str], t: str) -> bool:
    return t in types or (t == "integer" and "number" in types)


def _valid_for(schema: dict[str, Any], value: Any) -> bool:
    try:
        return bool(validator_for(schema).is_valid(value))
    except Exception:  # a schema jsonschema cannot compile
        return False


def _coerce(value: Any, types: set[str]) -> Any:
    if isinstance(value, str) and not _accepts_type(types, "string"):
        try:
            if "integer" in types:
                return int(value)
            if "number" in types:
                return float(value)
        except ValueError:
            return value
        if "boolean" in types and value.lower() in ("true", "false"):
            return value.lower() == "true"
    return value


def _synth(schema: dict[str, Any], types: set[str]) -> Any:
    if "integer" in types or "number" in types:
        lo = schema.get(
            "minimum", schema.get("exclusiveMinimum", 0) + 1 if "exclusiveMinimum" in schema else 1
        )
        return int(lo) if "integer" in types else float(lo)
    if "boolean" in types:
        return True
    if "array" in types:
        return []
    if "object" in types:
        return {}
    if schema.get("format") == "date":
        return "2026-06-21"
    return "x" * max(int(schema.get("minLength", 1) or 1), 1)


def valid_value(
    name: str,
    schema: dict[str, Any],
    tool_description: str = "",
    root: dict[str, Any] | None = None,
) -> Any:
    """A value for parameter ``name`` that its own schema accepts, when one can be found: an
    example from the contract first; else a synthesized value of the declared type; else one
    built from the schema with ``$ref`` read against ``root`` (the whole parameters schema: a
    pydantic model's fields, each string matching its ``pattern``). The example when none
    is accepted (the baseline then shows the failure)."""
    types = _types(schema)
    example = _coerce(example_value(name, schema, tool_description), types)
    if _valid_for_in(schema, example, root):
        return example
    synth = _synth(schema, types)
    if _valid_for_in(schema, synth, root):
        return synth
    built = valid_example(name, schema, tool_description, root=root)
    return example if built is NO_EXAMPLE else built


def _valid_for_in(schema: dict[str, Any], value: Any, root: dict[str, Any] | None) -> bool:
    """:func:`_valid_for` with ``root``'s ``$defs`` in reach of ``schema``'s ``$ref``."""
    defs: dict[str, Any] = {
        key: root[key] for key in ("$defs", "definitions") if root and key in root
    }
    return _valid_for({**defs, **schema} if defs else schema, value)


def baseline_args(contract: Contract) -> dict[str, Any]:
    """Valid arguments: every required parameter with :func:`valid_value`."""
    props = contract.parameters.get("properties", {}) or {}
    required = contract.parameters.get("required", []) or []
    return {
        n: valid_value(n, props.get(n, {}) or {}, contract.description, contract.parameters)
        for n in required
        if n in props
    }


def _wrong_value(t: str, base: Any) -> Any:
    return {
        "string": json.dumps(base, ensure_ascii=False) if not isinstance(base, str) else "text",
        "integer": 7,
        "number": 1.5,
        "boolean": True,
        "null": None,
        "array": [base],
        "object": {"value": base},
    }[t]


def _pattern_miss(pattern: str, base: Any) -> str | None:
    candidates = []
    if isinstance(base, str):
        candidates += [base.lower(), base.swapcase(), f" {base}", base[1:], base + "!", base + "\n"]
    candidates += ["zz", "!!!", "0", "not matching"]
    for c in candidates:
        try:
            if c and not ecma_search(pattern, c):
                return c
        except re.error:
            return None
    return None


def _enum_miss(enum: list[Any]) -> Any:
    if all(isinstance(v, str) for v in enum):
        miss = "jeju"
        while miss in enum:
            miss += "_x"
        return miss
    nums = [v for v in enum if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if nums:
        return max(nums) + 1
    return "not-in-enum"


# ----------------------------------------------------------------------------- case generation


def probe_cases(contract: Contract) -> list[ProbeCase]:
    """The generated cases for ``contract`` (not yet run); see the module docstring."""
    props = contract.parameters.get("properties", {}) or {}
    required = [n for n in contract.parameters.get("required", []) or [] if n in props]
    base = baseline_args(contract)
    cases = [
        ProbeCase(
            "baseline",
            dict(base),
            VALID,
            note="every required argument from the contract's examples",
        )
    ]

    def with_(arg: str, value: Any) -> dict[str, Any]:
        out = dict(base)
        out[arg] = value
        return out

    for arg in required:
        args = {k: v for k, v in base.items() if k != arg}
        cases.append(ProbeCase(f"missing:{arg}", args, INVALID, f"missing:{arg}"))
    for arg, schema in props.items():
        schema = schema if isinstance(schema, dict) else {}
        base_value = base.get(
            arg, valid_value(arg, schema, contract.description, contract.parameters)
        )
        cases.extend(_argument_cases(arg, schema, base_value, with_, contract.origin == "mcp"))
    cases.append(_unknown_arg_case(contract, props, base))
    cases.append(
        ProbeCase(
            "args-as-json-string",
            json.dumps(base, ensure_ascii=False),
            INVALID,
            "shape",
            note="the arguments object sent as a JSON string",
        )
    )
    return cases


def _argument_cases(
    arg: str,
    schema: dict[str, Any],
    base_value: Any,
    with_: Callable[[str, Any], dict[str, Any]],
    sent_as_is: bool = False,
) -> list[ProbeCase]:
    """The cases of one argument, the baseline with only ``arg`` changed: each wrong JSON type,
    ``3.0`` for an integer, the bounds (:func:`_bound_cases`), then a value outside its enum,
    one its pattern misses and an impossible date (:func:`_keyword_cases`). ``sent_as_is``: the
    contract's arguments reach its body as sent (an MCP server's), so ``3.0`` stays ``3.0``."""
    types = _types(schema)
    cases: list[ProbeCase] = []
    if types:
        for t in ALL_TYPES:
            if _accepts_type(types, t):
                continue
            value = _wrong_value(t, base_value)
            label = f"type:{arg}={t}"
            note = ""
            if t == "boolean" and types & {"integer", "number"}:
                label, note = f"type:{arg}=true", "JSON true is never an integer"
            cases.append(ProbeCase(label, with_(arg, value), INVALID, f"type:{arg}", note=note))
    if "integer" in types and isinstance(base_value, int) and not isinstance(base_value, bool):
        cases.append(
            ProbeCase(
                f"float-integral:{arg}",
                with_(arg, float(base_value)),
                VALID,
                note=(
                    f"{float(base_value)} is sent as is (JSON Schema counts it an integer; the "
                    "server reads it)"
                    if sent_as_is
                    else f"{float(base_value)} reaches the body as {base_value} (its int type)"
                ),
            )
        )
    cases.extend(_bound_cases(arg, schema, types, base_value, with_))
    cases.extend(_keyword_cases(arg, schema, base_value, with_))
    return cases


def _keyword_cases(
    arg: str,
    schema: dict[str, Any],
    base_value: Any,
    with_: Callable[[str, Any], dict[str, Any]],
) -> list[ProbeCase]:
    """``not-in-enum:<arg>`` (``enum``), ``pattern-miss:<arg>`` (``pattern``, when a miss can
    be built from the baseline) and ``bad-date:<arg>`` (``format: date``), all invalid."""
    cases: list[ProbeCase] = []
    if schema.get("enum"):
        cases.append(
            ProbeCase(
                f"not-in-enum:{arg}",
                with_(arg, _enum_miss(schema["enum"])),
                INVALID,
                f"allowed:{arg}",
            )
        )
    if isinstance(schema.get("pattern"), str):
        miss = _pattern_miss(schema["pattern"], base_value)
        if miss is not None:
            cases.append(
                ProbeCase(f"pattern-miss:{arg}", with_(arg, miss), INVALID, f"pattern:{arg}")
            )
    if schema.get("format") == "date":
        cases.append(
            ProbeCase(
                f"bad-date:{arg}",
                with_(arg, BAD_DATE),
                INVALID,
                f"format:{arg}",
                note="February has no 30th",
            )
        )
    return cases


def _unknown_arg_case(contract: Contract, props: dict[str, Any], base: dict[str, Any]) -> ProbeCase:
    """The baseline plus an argument the contract does not declare: invalid for a Python tool
    and for an MCP tool whose ``inputSchema`` says ``additionalProperties: false``, else valid
    (JSON Schema allows other properties unless it says not: the server decides)."""
    extra = EXTRA_ARG
    while extra in props:
        extra += "_x"
    if contract.origin != "mcp" or contract.parameters.get("additionalProperties") is False:
        return ProbeCase("unknown-arg", {**base, extra: 1}, INVALID, f"unknown:{extra}")
    return ProbeCase(
        "unknown-arg",
        {**base, extra: 1},
        VALID,
        note="the inputSchema allows other properties (additionalProperties is not false)",
    )


def _bound_cases(
    arg: str,
    schema: dict[str, Any],
    types: set[str],
    base_value: Any,
    with_: Callable[[str, Any], dict[str, Any]],
) -> list[ProbeCase]:
    out: list[ProbeCase] = []
    numeric = types & {"integer", "number"}
    if numeric:
        step = 1 if "integer" in types or "number" not in types else 0.5
        for key, inside, outside, label_in, label_out in (
            ("minimum", 0, -step, "min", "below-min"),
            ("maximum", 0, step, "max", "above-max"),
            ("exclusiveMinimum", step, 0, "above-exclusive-min", "exclusive-min"),
            ("exclusiveMaximum", -step, 0, "below-exclusive-max", "exclusive-max"),
        ):
            bound = schema.get(key)
            if isinstance(bound, (int, float)) and not isinstance(bound, bool):
                out.append(
                    ProbeCase(
                        f"{label_in}:{arg}",
                        with_(arg, bound + inside),
                        VALID,
                        note=f"{key} {bound}",
                    )
                )
                out.append(
                    ProbeCase(
                        f"{label_out}:{arg}",
                        with_(arg, bound + outside),
                        INVALID,
                        f"range:{arg}",
                        note=f"{key} {bound}",
                    )
                )
    if "string" in types:
        seed = base_value if isinstance(base_value, str) and base_value else "x"
        shaped = any(k in schema for k in ("pattern", "enum", "format", "const"))
        lo, hi = schema.get("minLength"), schema.get("maxLength")
        if isinstance(lo, int) and lo > 0:
            if not shaped:
                out.append(
                    ProbeCase(
                        f"min-length:{arg}",
                        with_(arg, (seed * lo)[:lo]),
                        VALID,
                        note=f"minLength {lo}",
                    )
                )
            out.append(
                ProbeCase(
                    f"below-min-length:{arg}",
                    with_(arg, (seed * lo)[: lo - 1]),
                    INVALID,
                    f"range:{arg}",
                    note=f"minLength {lo}",
                )
            )
        if isinstance(hi, int):
            if not shaped:
                out.append(
                    ProbeCase(
                        f"max-length:{arg}",
                        with_(arg, (seed * (hi + 1))[:hi]),
                        VALID,
                        note=f"maxLength {hi}",
                    )
                )
            out.append(
                ProbeCase(
                    f"above-max-length:{arg}",
                    with_(arg, (seed * (hi + 2))[: hi + 1]),
                    INVALID,
                    f"range:{arg}",
                    note=f"maxLength {hi}",
                )
            )
    return out


# ---------------------------------------------------------------------------------- running


def _gate_of(target: Playground | Gate) -> Gate:
    gate = target if isinstance(target, Gate) else getattr(target, "gate", None)
    if not isinstance(gate, Gate):
        raise TypeError(f"expected a Playground or a Gate, got {type(target).__name__}")
    return gate


def probe_contract(
    target: Playground | Gate,
    name: str,
    *,
    run_valid: bool | None = None,
    on_case: Callable[[ProbeCase], None] | None = None,
) -> ProbeReport:
    """Generate the probe cases for contract ``name`` and run each through ONE gate.

    ``target``: a Playground (its gate is used, so its cache and ``body_runs`` carry) or a Gate.
    ``run_valid``: run the valid cases' bodies (default: yes unless the contract has
    ``side_effects``; then they are only validated). Invalid cases always go through the gate.
    ``on_case``: called with each case once it ran (a streamed line). A ``KeyboardInterrupt``
    (ctrl+c) ends the run early: the report holds the cases run before it and ``interrupted``
    is true. Raises :class:`UsageError` when ``name`` is not registered.
    """
    gate = _gate_of(target)
    contract = gate.registry.get(name) if isinstance(name, str) else None
    if contract is None:
        names = ", ".join(gate.registry.names()) or "(none loaded)"
        raise UsageError(f"no tool named {name!r}; registered: {names}")
    if run_valid is None:
        run_valid = not contract.side_effects
    cases = probe_cases(contract)
    report = ProbeReport(contract.name, planned=len(cases))
    try:
        _run_probe_cases(gate, contract, cases, run_valid, report, on_case)
    except KeyboardInterrupt:
        report.interrupted = True
    return report


def _run_probe_cases(
    gate: Gate,
    contract: Contract,
    cases: list[ProbeCase],
    run_valid: bool,
    report: ProbeReport,
    on_case: Callable[[ProbeCase], None] | None,
) -> None:
    for case in cases:
        if case.expected == VALID and not run_valid:
            verdict = check_args(contract, case.args)
            case.verdict, case.ran = verdict_of(verdict.code), False
            case.reasons = [r.to_json() for r in verdict.reasons]
            case.note = (
                case.note + "; " if case.note else ""
            ) + "validated only (the tool has side effects)"
        else:
            before = gate.body_runs[contract.name]
            record = gate.call(contract.name, case.args)
            case.verdict, case.kind, case.body_ran = record.verdict, record.kind, record.body_ran
            case.warnings = list(record.warnings)
            case.reasons = list(record.reasons)
            case.body_runs = gate.body_runs[contract.name] - before
        with case_step():  # written and counted together (a ctrl+c waits for both)
            if on_case is not None:
                on_case(case)
            report.cases.append(case)


def probe_against_server(target: Playground | Gate, report: ProbeReport) -> ProbeReport:
    """Send each case of ``report`` to the tool's own source as well, past the gate (issue 21,
    item 5: ``probe --against-server``), and note in ``case.server`` what the server did:
    ``accepted``, ``refused (<kind>: <reason>)`` (an ``isError`` result or a JSON-RPC error),
    or ``not sent`` (arguments that are not an object cannot be a ``tools/call``).
    :attr:`ProbeCase.disagrees` then says where the server and the schema disagree.

    Refuses (:class:`UsageError`) a tool with side effects: its invalid cases would run it.
    """
    gate = _gate_of(target)
    contract = gate.registry.get(report.tool)
    if contract is None or contract.tool_source is None:
        raise UsageError(f"--against-server: {report.tool!r} has no tool source to send to")
    if contract.side_effects:
        raise UsageError(
            f"--against-server: {report.tool} has side effects (not annotated readOnlyHint): "
            "sending invalid cases to it could change data; not sent"
        )
    for case in report.cases:
        if not isinstance(case.args, dict):
            case.server = "not sent"
            continue
        run = contract.tool_source.call(contract, case.args, contract.timeout_s)
        if run.error is not None:
            case.server = f"refused ({run.error.kind}: {run.error.text[:160]})"
        elif run.timed_out or run.stopped:
            case.server = f"no answer ({run.stopped or 'timed out'})"
        else:
            case.server = "accepted"
    return report
