"""The tool report of seed 003, step 8: figures measured by running the registered tools for real.

Seed 003 ("재어 본 것을 기록한다"): ``tool_report.json`` holds ``tools``, ``blocked_before_call``,
``bad_result_reasons``, ``memo_second_call_runs``, ``repaired``, ``attempts``, ``gave_up``;
``tool_report.md`` has four sections (``## 도구 계약을 어디에 적었나``, ``## 부르기 전에 무엇을
막았나``, ``## 돌려준 결과를 어떻게 믿지 않았나``, ``## 실패를 어떤 경로로 다뤘나``), the last one
stating the attempt limit as a number. "숫자는 손으로 적지 말고 여러분의 모듈을 실제로 돌려 얻으세요":
every figure below comes from calls through a fresh :class:`~playground.core.gate.Gate` (body runs
counted by the gate) or from :func:`~playground.core.validation.check_result`.

Nothing here knows the example tools: the report works from what the registry declares. The
*probed* contracts are those whose ``returns`` declares a limit (``max_rows`` or ``max_bytes``);
each is called with *good arguments* built from its parameter schema
(:func:`~playground.core.validation.example_value`: ``examples``, ``default``, the first ``enum``
value, an example written in the description).

Figures (JSON keys):

* ``tools``: the registered names; ``probed``: the probed contracts.
* ``blocked_before_call``: body runs caused by calls with invalid arguments, built from each
  probed contract's schema with one defect each (a required argument missing; a wrong type --
  ``True`` for an integer --; a value outside an ``enum``; a number under its ``minimum``; an
  unknown argument; a string that breaks its ``pattern``) plus an unknown tool. Must be 0.
* ``bad_result_reasons``: the sorted distinct reasons ``check_result`` gives for results crafted
  from each probed contract's real result: rows that are not a list (shape), no rows (empty), one
  row over ``max_rows`` -- or a value over ``max_bytes`` -- (too_big), a row field below its
  ``minimum`` (range).
* ``real_result_reasons``: per probed contract, the reason of its real result for the good
  arguments (``""``: accepted; e.g. ``too_big`` for a tool that ignores the row limit).
* ``memo_second_call_runs``: body runs on the second identical call of each probed contract that
  caches and whose first call succeeded (0: served from the cache; failures are never cached).
* ``repaired`` / ``attempts``: whether the episode for a value outside an ``enum`` ends ok, and
  its calls (2: refused, then the module's ``FALLBACK_<ARG>`` or the first allowed value);
  ``None`` when no probed contract has an ``enum`` parameter.
* ``gave_up``: ``not ok`` of the episode for the empty probe (seed 003: "빈 결과가 나오는 주문의
  ok 를 뒤집은 값"); ``None`` when no empty probe was found.
* ``max_attempts``, ``failure_limit``; ``probes``: the inputs used.

The empty probe is the ``"empty"`` entry of a tool module's ``REPORT_PROBES``
(``{"empty": {"tool": name, "args": {...}}}``; domain data belongs to the module, as its
``FALLBACK_<ARG>`` constants do), else the first call with an empty result among the good
arguments with each ``enum`` parameter set to each allowed value. Change the data and the figures
change.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playground.batch.outfiles import write_files
from playground.core.canonical import canonical_json
from playground.core.contracts import Contract
from playground.core.gate import Gate
from playground.core.record import verdict_of
from playground.core.registry import Registry
from playground.core.validation import check_result, example_value
from playground.errors import UsageError
from playground.loop.episode import MAX_ATTEMPTS, run_manual_episode
from playground.loop.failures import FAILURE_LIMIT
from playground.sources.loading import load_registry
from playground.workbench import Playground

if TYPE_CHECKING:
    from playground.sources.mcp_config import McpServerSpec

DEFAULT_TOOLS = ("tools/inventory.py",)
JSON_NAME = "tool_report.json"
MD_NAME = "tool_report.md"
PROBES_ATTR = "REPORT_PROBES"
LIMIT_KEYS = ("max_rows", "max_bytes")
UNKNOWN_ARG = "unexpected_argument"
# At most this many calls are spent looking for an empty result.
MAX_EMPTY_SEARCH = 30
SECTIONS = (
    "## 도구 계약을 어디에 적었나",
    "## 부르기 전에 무엇을 막았나",
    "## 돌려준 결과를 어떻게 믿지 않았나",
    "## 실패를 어떤 경로로 다뤘나",
)


def _fresh(registry: Registry) -> Playground:
    """A playground over ``registry`` with a fresh gate (no cache, no counts) per measurement."""
    return Playground(registry, Gate(registry, wire=False))


def _props(contract: Contract) -> dict[str, Any]:
    props = contract.parameters.get("properties") or {}
    return props if isinstance(props, dict) else {}


def probed_contracts(registry: Registry) -> list[Contract]:
    """The contracts whose ``returns`` declares ``max_rows`` or ``max_bytes``, in load order."""
    return [
        c
        for c in registry.contracts.values()
        if isinstance(c.returns, dict) and any(k in c.returns for k in LIMIT_KEYS)
    ]


def good_args(contract: Contract) -> dict[str, Any]:
    """Arguments for every parameter of ``contract``, from its schema (``example_value``)."""
    return {
        name: example_value(name, schema if isinstance(schema, dict) else {}, contract.description)
        for name, schema in _props(contract).items()
    }


def _outside_enum(enum: list[Any]) -> Any:
    """A value of the enum's kind that the enum does not allow."""
    if all(isinstance(v, str) for v in enum):
        return next(
            f"unlisted{i or ''}" for i in itertools.count() if f"unlisted{i or ''}" not in enum
        )
    numbers = [v for v in enum if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return (max(numbers) + 1) if numbers else "unlisted"


def _breaks_pattern(pattern: str) -> str | None:
    for candidate in ("", "?", "not matching", "0", "x" * 40):
        try:
            if re.search(pattern, candidate) is None:
                return candidate
        except re.error:
            return None
    return None


def _defect_calls(contract: Contract, good: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """One call per defect the schema allows (see the module docstring), then an unknown tool."""
    props = _props(contract)
    required = [r for r in contract.parameters.get("required") or [] if r in good]
    calls: list[tuple[str, dict[str, Any]]] = []
    if required:
        calls.append((contract.name, {k: v for k, v in good.items() if k != required[-1]}))
    typed = [(n, s) for n, s in props.items() if isinstance(s, dict)]
    numeric = [n for n, s in typed if s.get("type") in ("integer", "number")]
    strings = [n for n, s in typed if s.get("type") == "string" and "enum" not in s]
    if numeric:  # JSON true is never a number (seed 003)
        calls.append((contract.name, {**good, numeric[0]: True}))
    elif strings:
        calls.append((contract.name, {**good, strings[0]: 1}))
    for name, schema in typed:
        if schema.get("enum"):
            calls.append((contract.name, {**good, name: _outside_enum(schema["enum"])}))
            break
    for name, schema in typed:
        low = schema.get("minimum")
        if isinstance(low, (int, float)) and not isinstance(low, bool):
            calls.append((contract.name, {**good, name: low - 1}))
            break
    calls.append((contract.name, {**good, UNKNOWN_ARG: "x"}))
    for name, schema in typed:
        bad = _breaks_pattern(schema["pattern"]) if isinstance(schema.get("pattern"), str) else None
        if bad is not None:
            calls.append((contract.name, {**good, name: bad}))
            break
    calls.append((f"{contract.name}_unknown", good))
    return calls


def _blocked_before_call(
    registry: Registry, probed: list[Contract], goods: dict[str, dict[str, Any]]
) -> tuple[int, list[dict[str, Any]]]:
    pg = _fresh(registry)
    before = sum(pg.gate.body_runs.values())
    seen = []
    for contract in probed:
        for tool, args in _defect_calls(contract, goods[contract.name]):
            record = pg.gate.call(tool, args)
            seen.append(
                {"tool": tool, "args": args, "verdict": record.verdict, "body_ran": record.body_ran}
            )
    return sum(pg.gate.body_runs.values()) - before, seen


def _rows_of(value: Any, rows_key: str) -> list[Any] | None:
    if isinstance(value, list):
        return value
    rows = value.get(rows_key) if isinstance(value, dict) else None
    return rows if isinstance(rows, list) else None


def _with_rows(value: Any, rows_key: str, rows: Any) -> Any:
    return rows if isinstance(value, list) else {**value, rows_key: rows}


def _below_minimum(contract: Contract, row: Any, rows_key: str) -> Any | None:
    """``row`` with a field set below the ``minimum`` its item schema declares, or ``None``."""
    returns = contract.returns or {}
    rows_schema = (
        returns
        if returns.get("type") == "array"
        else ((returns.get("properties") or {}).get(rows_key) or {})
    )
    item = rows_schema.get("items") if isinstance(rows_schema, dict) else None
    props = (item or {}).get("properties") if isinstance(item, dict) else None
    if not isinstance(row, dict) or not isinstance(props, dict):
        return None
    for name, schema in props.items():
        low = schema.get("minimum") if isinstance(schema, dict) else None
        if isinstance(low, (int, float)) and not isinstance(low, bool):
            return {**row, name: low - 1}
    return None


def _crafted_results(contract: Contract, real: Any) -> dict[str, Any]:
    """Bad results crafted from ``real`` (the contract's real result for good arguments)."""
    returns = contract.returns or {}
    rows_key = returns.get("rows_key", "rows")
    rows = _rows_of(real, rows_key)
    if rows is None or not isinstance(real, (dict, list)):
        return {}
    row = rows[0] if rows else {}
    crafted: dict[str, Any] = {
        "shape": _with_rows(real, rows_key, "not a list") if isinstance(real, dict) else {},
        "empty": _with_rows(real, rows_key, []),
    }
    max_rows, max_bytes = returns.get("max_rows"), returns.get("max_bytes")
    if isinstance(max_rows, int):
        crafted["too_big"] = _with_rows(real, rows_key, [row] * (max_rows + 1))
    elif isinstance(max_bytes, int):
        size = max(len(canonical_json(row).encode()), 1)
        crafted["too_big"] = _with_rows(real, rows_key, [row] * (max_bytes // size + 2))
    low = _below_minimum(contract, row, rows_key)
    if low is not None:
        crafted["range"] = _with_rows(real, rows_key, [low])
    return crafted


def _declared_empty_probe(registry: Registry) -> dict[str, Any] | None:
    for contract in registry.contracts.values():
        probes = contract.module_constants.get(PROBES_ATTR)
        empty = probes.get("empty") if isinstance(probes, dict) else None
        if (
            isinstance(empty, dict)
            and empty.get("tool") in registry
            and isinstance(empty.get("args"), dict)
        ):
            return {"tool": empty["tool"], "args": dict(empty["args"])}
    return None


def _search_empty_probe(
    registry: Registry, probed: list[Contract], goods: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    pg = _fresh(registry)
    spent = 0
    for contract in probed:
        enums = [
            (n, s["enum"])
            for n, s in _props(contract).items()
            if isinstance(s, dict) and s.get("enum")
        ]
        names = [n for n, _ in enums]
        for values in itertools.product(*(e for _, e in enums)):
            if spent >= MAX_EMPTY_SEARCH:
                return None
            args = {**goods[contract.name], **dict(zip(names, values))}
            spent += 1
            if pg.gate.call(contract.name, args).kind == "empty":
                return {"tool": contract.name, "args": args}
    return None


def measure(
    tools: Iterable[str | Path] | None = None,
    *,
    in_process: bool = True,
    mcp: Sequence[McpServerSpec] = (),
) -> dict[str, Any]:
    """Load ``tools`` (default ``tools/inventory.py``) into a fresh registry and measure the figures.

    ``mcp``: MCP servers whose tools are measured too (each a tool source of the registry);
    with servers and no ``tools``, only the servers' tools. Returns the JSON-ready report dict
    (see the module docstring for the keys). Raises :class:`UsageError` when the modules or
    servers do not load or no contract's ``returns`` declares a limit (``max_rows`` /
    ``max_bytes``).
    """
    pending = None
    if mcp:  # the servers boot while the tool modules load
        from playground.sources.mcp_source import start_mcp_servers

        pending = start_mcp_servers(mcp)
    if tools or not mcp:
        paths = [str(t) for t in (tools or DEFAULT_TOOLS)]
        registry = load_registry(paths, in_process=in_process)
    else:
        paths, registry = [], Registry()
    if pending is not None:
        from playground.sources.mcp_source import add_mcp_servers

        add_mcp_servers(registry, pending)
        paths += [source.label for source in pending.sources]
    try:
        return _measure(registry, paths)
    finally:
        registry.close()


def _measure(registry: Registry, paths: list[str]) -> dict[str, Any]:
    """The report dict of :func:`measure` for a loaded ``registry`` (``paths`` name its tools in
    the error). Raises :class:`UsageError` when it has load problems or no probed contract."""
    probed = _probed(registry, paths)
    goods = {c.name: good_args(c) for c in probed}
    blocked, blocked_calls = _blocked_before_call(registry, probed, goods)
    real, size_warnings, crafted_reasons = _result_reasons(registry, probed, goods)
    memo_runs, memo = _memo_runs(registry, probed, goods)
    repair_probe = _repair_probe(probed, goods)
    fixed = (
        run_manual_episode(_fresh(registry), repair_probe["tool"], repair_probe["args"])
        if repair_probe
        else None
    )
    empty_probe = _declared_empty_probe(registry) or _search_empty_probe(registry, probed, goods)
    empty = (
        run_manual_episode(_fresh(registry), empty_probe["tool"], empty_probe["args"])
        if empty_probe
        else None
    )
    first_probed = probed[0]
    return {
        "tools": registry.names(),
        "probed": [c.name for c in probed],
        "blocked_before_call": blocked,
        "bad_result_reasons": sorted({r for rs in crafted_reasons.values() for r in rs.values()}),
        "real_result_reasons": {name: r["reason"] for name, r in real.items()},
        "memo_second_call_runs": memo_runs,
        "repaired": fixed.ok if fixed else None,
        "attempts": fixed.attempts if fixed else None,
        "gave_up": (not empty.ok) if empty else None,
        "max_attempts": MAX_ATTEMPTS,
        "failure_limit": FAILURE_LIMIT,
        "size_warnings": sorted(size_warnings),
        "details": {
            "contract_sources": {c.name: c.source for c in probed},
            "module_file": first_probed.module_file or None,
            "limits": {c.name: {k: (c.returns or {}).get(k) for k in LIMIT_KEYS} for c in probed},
            "blocked_calls": blocked_calls,
            "crafted_results": crafted_reasons,
            "real_result_rows": {name: r["rows"] for name, r in real.items()},
            "memo": memo,
            "repair_fixes": fixed.fixes if fixed else [],
            "repair_reply": fixed.reply if fixed else None,
            "empty_reply": empty.reply if empty else None,
            "empty_end": empty.end if empty else None,
        },
        "probes": {"good": goods, "repair": repair_probe, "empty": empty_probe},
    }


def _probed(registry: Registry, paths: list[str]) -> list[Contract]:
    """The contracts the report probes (:func:`probed_contracts`: ``returns`` declares a
    limit). Raises :class:`UsageError` for the registry's load problems or when there is none."""
    if registry.problems:
        raise UsageError("; ".join(str(x) for x in registry.problems))
    probed = probed_contracts(registry)
    if not probed:
        raise UsageError(
            "the report probes tools whose 'returns' declares max_rows or max_bytes; "
            f"none found in {', '.join(paths)}"
        )
    return probed


def _result_reasons(
    registry: Registry, probed: list[Contract], goods: dict[str, dict[str, Any]]
) -> tuple[dict[str, Any], set[str], dict[str, dict[str, str]]]:
    """``(real, size_warnings, crafted_reasons)``: each probed tool called once with its good
    arguments on a fresh gate — ``real[tool]`` is ``{"reason", "rows"}`` of that result (the
    reason without its ``result:`` prefix; ``rows`` the row count or ``None``), the gate's size
    warnings, and per tool the reason :func:`check_result` gives each bad result crafted from
    the real one (:func:`_crafted_results`)."""
    real: dict[str, Any] = {}
    size_warnings: set[str] = set()
    crafted_reasons: dict[str, dict[str, str]] = {}
    for contract in probed:
        record = _fresh(registry).gate.call(contract.name, dict(goods[contract.name]))
        size_warnings.update(record.warnings)
        reason = (
            record.error.split(":", 1)[1] if record.error.startswith("result:") else record.error
        )
        rows = _rows_of(record.value, (contract.returns or {}).get("rows_key", "rows"))
        real[contract.name] = {"reason": reason, "rows": None if rows is None else len(rows)}
        crafted = _crafted_results(contract, record.value)
        crafted_reasons[contract.name] = {
            name: check_result(contract, value).reason for name, value in crafted.items()
        }
    return real, size_warnings, crafted_reasons


def _memo_runs(
    registry: Registry, probed: list[Contract], goods: dict[str, dict[str, Any]]
) -> tuple[int, dict[str, Any]]:
    """``(runs, memo)``: each caching probed tool called twice on a fresh gate (the second time
    with its arguments in reverse order); ``runs`` sums the body runs of the second calls after
    a stored first one (0 is the goal), ``memo[tool]`` is ``{"first_cache", "second_cache"}``."""
    memo_runs = 0
    memo: dict[str, Any] = {}
    for contract in (c for c in probed if c.caches):
        pg = _fresh(registry)
        args = goods[contract.name]
        first = pg.gate.call(contract.name, dict(args))
        runs_before = pg.gate.body_runs[contract.name]
        second = pg.gate.call(contract.name, dict(reversed(list(args.items()))))
        if first.cache == "stored":  # only a success is cached; a failure says nothing here
            memo_runs += pg.gate.body_runs[contract.name] - runs_before
        memo[contract.name] = {"first_cache": first.cache, "second_cache": second.cache}
    return memo_runs, memo


def _repair_probe(
    probed: list[Contract], goods: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    """``{"tool", "args"}``: the first probed tool with an ``enum`` parameter, its good
    arguments with that parameter set outside the enum; ``None`` when no tool has one."""
    for contract in probed:
        enum_arg = next(
            (n for n, s in _props(contract).items() if isinstance(s, dict) and s.get("enum")), None
        )
        if enum_arg is not None:
            bad = _outside_enum(_props(contract)[enum_arg]["enum"])
            return {"tool": contract.name, "args": {**goods[contract.name], enum_arg: bad}}
    return None


def _code(value: Any) -> str:
    return f"`{value}`"


def render_markdown(report: dict[str, Any]) -> str:
    """``tool_report.md``: the four sections of seed 003 in order, with the measured figures
    (:func:`_contracts_section`, :func:`_gate_section`, :func:`_results_section`,
    :func:`_failures_section`)."""
    lines = [
        "# Tool report",
        "",
        *_contracts_section(report),
        "",
        *_gate_section(report),
        "",
        *_results_section(report),
        "",
        *_failures_section(report),
    ]
    return "\n".join(lines)


def _contracts_section(report: dict[str, Any]) -> list[str]:
    """Section 1: where the contracts are declared, the registered and probed tools, and each
    probed tool's declared limits."""
    d = report["details"]
    tools = ", ".join(_code(t) for t in report["tools"])
    probed = ", ".join(_code(t) for t in report["probed"])
    limits = "; ".join(
        f"`{name}` at `{d['contract_sources'][name]}`: "
        + ", ".join(f"{k} = {v}" for k, v in lim.items() if v is not None)
        for name, lim in d["limits"].items()
    )
    return [
        SECTIONS[0],
        "",
        f"Contracts are declared in the tool modules and loaded by the registry "
        f"(first probed module: `{d['module_file']}`). Registered tools ({len(report['tools'])}): {tools}. "
        f"Probed (their `returns` declares a limit): {probed} — {limits}.",
    ]


def _gate_section(report: dict[str, Any]) -> list[str]:
    """Section 2: the calls with one defect each, and ``blocked_before_call`` (body runs they
    caused)."""
    d = report["details"]
    blocked = "\n".join(
        f"- `{c['tool']}` {canonical_json(c['args'])} → `{verdict_of(c['verdict'])}`, body ran: {c['body_ran']}"
        for c in d["blocked_calls"]
    )
    return [
        SECTIONS[1],
        "",
        f"Every call passes one gate that validates the arguments against the contract's JSON Schema before "
        f"the body runs. {len(d['blocked_calls'])} calls with one defect each were sent; "
        f"{sum(1 for c in d['blocked_calls'] if not c['body_ran'])} of them were stopped at the gate. "
        f"The seed's figure counts the body runs they caused, so 0 is the goal: "
        f"**blocked_before_call = {report['blocked_before_call']}** (body runs after invalid calls).",
        "",
        blocked,
    ]


def _results_section(report: dict[str, Any]) -> list[str]:
    """Section 3: the reasons ``check_result`` gave the crafted bad results and the real ones,
    and the body runs of a second identical call to a caching tool."""
    d = report["details"]
    crafted = "\n".join(
        f"- `{tool}` {name}: `{reason or 'valid'}`"
        for tool, reasons in d["crafted_results"].items()
        for name, reason in reasons.items()
    )
    real = "\n".join(
        f"- `{tool}` {canonical_json(report['probes']['good'][tool])} "
        f"({d['real_result_rows'][tool]} rows) → `{reason or 'valid'}`"
        for tool, reason in report["real_result_reasons"].items()
    )
    memo = "; ".join(
        f"`{tool}`: {m['first_cache']} → {m['second_cache']}" for tool, m in d["memo"].items()
    )
    return [
        SECTIONS[2],
        "",
        f"The gate checks every result against the contract's `returns`. Reasons `check_result` gave for "
        f"bad results crafted from each probed tool's real result: **{report['bad_result_reasons']}**.",
        "",
        crafted,
        "",
        "Real results for the good arguments:",
        "",
        real,
        "",
        f"Successes are cached (failures never are): the second identical call ran the body "
        f"**{report['memo_second_call_runs']}** time(s) ({memo or 'no probed tool caches'}).",
    ]


def _failures_section(report: dict[str, Any]) -> list[str]:
    """Section 4: failures as values — the attempt limit, the repair probe's outcome, the empty
    probe's give-up, then the size warnings."""
    d = report["details"]
    probes = report["probes"]
    if probes["repair"]:
        repair = (
            f"- A value that is not allowed (`{probes['repair']['tool']}` "
            f"{canonical_json(probes['repair']['args'])}): repaired = **{report['repaired']}** "
            f"after **{report['attempts']}** attempts ({'; '.join(d['repair_fixes']) or 'none'})."
        )
    else:
        repair = "- No probed tool has a parameter with allowed values: no repair was measured."
    if probes["empty"]:
        empty = (
            f"- An empty result (`{probes['empty']['tool']}` {canonical_json(probes['empty']['args'])}): "
            f"not repaired, gave_up = **{report['gave_up']}** ({d['empty_end']}). Reply: {d['empty_reply']}"
        )
    else:
        empty = (
            f"- No call with an empty result was found (declare one in the module's "
            f"`{PROBES_ATTR}`): gave_up was not measured."
        )
    return [
        SECTIONS[3],
        "",
        f"Failures are values that go to `repair` or `giveup`, never exceptions. The attempt limit is "
        f"**MAX_ATTEMPTS = {report['max_attempts']}**; {report['failure_limit']} identical failures in a row "
        f"stop an episode with a message that says so.",
        "",
        repair,
        empty,
        "",
        *[f"- Warning: {w}" for w in report.get("size_warnings", [])],
    ]


def write_report(
    report: dict[str, Any], out_dir: str | Path = ".", *, force: bool = False
) -> tuple[Path, Path]:
    """Write ``tool_report.json`` (indent 2, Hangul as is) and ``tool_report.md`` into ``out_dir``
    (created if missing). Returns both paths. Raises :class:`UsageError` when it cannot write,
    when a file exists and ``force`` is false, or when a name is a link out of ``out_dir``
    (:func:`playground.batch.outfiles.write_files`)."""
    json_path, md_path = write_files(
        out_dir,
        {
            JSON_NAME: json.dumps(report, ensure_ascii=False, indent=2) + "\n",
            MD_NAME: render_markdown(report),
        },
        force=force,
    )
    return json_path, md_path
