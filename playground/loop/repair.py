"""The repair table: what the loop may change after a failed call, by reason (seed 003, step 7).

Seed 003 ("사유를 보고 고쳐 다시 시도한다"): ``REPAIRS`` maps a reason to a fix, ``can_repair(reason)``
says whether the table knows the reason, and the repair node reads the last reason, changes the
arguments or the tool, and records what it changed in ``fixes``. The rules here, keyed by the
reason without its argument name (``args:allowed:region`` → ``args:allowed``):

============================  ===============================================================
reason                        fix
============================  ===============================================================
``args:allowed:<arg>``        ``<arg>`` → the tool module's ``FALLBACK_<ARG>`` (seed 003's
                              ``FALLBACK_REGION``) when it is one of the allowed values, else
                              the first allowed value of the schema's ``enum``
``args:range:<arg>``          a number clamped to the schema's ``minimum`` / ``maximum``
                              (``exclusiveMinimum`` / ``exclusiveMaximum`` step 1 inside for
                              integers)
``result:too_big``            a tool with a limit-like integer parameter (:data:`LIMIT_NAMES`):
                              a smaller limit (the contract's ``max_rows``, else half).
                              A tool without one (seed 003's ``legacy_stock``): another
                              registered contract whose parameters include all of this tool's
                              parameters and which has a limit-like integer parameter with a
                              ``maximum``, called with the same arguments plus that maximum
                              (``legacy_stock`` → ``stock_lookup`` with ``limit=5``)
``args:unknown_tool``         the closest registered name (``difflib.get_close_matches``,
                              cutoff 0.6), same arguments
============================  ===============================================================

Never repaired (docs/design.md, "Outcome kinds"; seed 003: "빈 결과는 다시 물어도 빈 결과"): an
empty result, ``transient`` (the gate already retried), ``permission``, ``raised``, and every
other argument reason (``missing``, ``type``, ``unknown``, ``pattern``, ``format``, ``shape``):
guessing a missing value would be inventing it. The same holds for ``args:tool[:<arg>]`` (the
tool refused its input: an exception class with ``kind = "invalid_args"``) and
``args:type:<path>`` (a value that did not convert to its annotated type): the outcome message
carries the tool's own words and asks the model to fix that argument and call again.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.core.canonical import canonical_json
from playground.core.contracts import Contract
from playground.core.outcome import Reason
from playground.core.registry import Registry

#: Parameter names that mean "how many rows to return" (the too_big rule looks for one).
LIMIT_NAMES = re.compile(r"^(limit|max_results|max_rows|max_items|page_size|top_k|top_n)$")


@dataclass(frozen=True)
class Fix:
    """One repair: call ``tool`` with ``args`` next. ``fixes``: readable lines of what changed
    (``"region: 'jeju' → 'seoul' (FALLBACK_REGION)"``). ``rule``: the REPAIRS key used."""

    tool: str
    args: Any
    fixes: list[str] = field(default_factory=list)
    rule: str = ""
    changes: list[dict[str, Any]] = field(default_factory=list)
    """What the fix changed in the user's request, for the reply (:func:`playground.loop.reply.
    repair_note`): ``{"kind": "substituted" | "clamped" | "fewer_rows" | "tool_name", "arg",
    "old", "new", ...}``."""


def reason_key(error: str) -> str:
    """The REPAIRS key of an outcome error: ``args:allowed:region`` → ``args:allowed``,
    ``result:too_big`` → ``result:too_big``, ``args:unknown_tool`` → ``args:unknown_tool``
    (:attr:`playground.core.outcome.Reason.key`)."""
    return Reason.parse(error).key


def _show(value: Any) -> str:
    return repr(value) if isinstance(value, str) else canonical_json(value)


def _module_fallback(contract: Contract, arg: str) -> tuple[Any, bool]:
    """``(FALLBACK_<ARG> of the contract's module, True)`` if the module defines it, else
    ``(None, False)``; read from the constants sent at load time (``contract.module_constants``),
    so it works whether the module lives in this process or in a worker."""
    attr = f"FALLBACK_{arg.upper()}"
    if attr in contract.module_constants:
        return contract.module_constants[attr], True
    return None, False


def _fix_allowed(
    registry: Registry, contract: Contract | None, tool: str, args: Any, reason: Reason
) -> Fix | None:
    arg = reason.arg
    if contract is None or not isinstance(args, dict) or not arg:
        return None
    schema = (contract.parameters.get("properties") or {}).get(arg) or {}
    enum = schema.get("enum")
    if not enum:
        return None
    fallback, named = _module_fallback(contract, arg)
    if named and fallback in enum:
        new, why = fallback, f"FALLBACK_{arg.upper()}"
    else:
        new, why = enum[0], "first allowed value"
    if args.get(arg) == new:
        return None
    fixed = {**args, arg: new}
    return Fix(
        tool,
        fixed,
        [f"{arg}: {_show(args.get(arg))} → {_show(new)} ({why})"],
        "args:allowed",
        [{"kind": "substituted", "arg": arg, "old": args.get(arg), "new": new}],
    )


def _fix_range(
    registry: Registry, contract: Contract | None, tool: str, args: Any, reason: Reason
) -> Fix | None:
    arg = reason.arg
    if contract is None or not isinstance(args, dict) or arg not in args:
        return None
    schema = (contract.parameters.get("properties") or {}).get(arg) or {}
    value = args[arg]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    integer = schema.get("type") == "integer"
    step = 1 if integer else 0
    lo = schema.get("minimum")
    hi = schema.get("maximum")
    if lo is None and isinstance(schema.get("exclusiveMinimum"), (int, float)) and integer:
        lo = schema["exclusiveMinimum"] + step
    if hi is None and isinstance(schema.get("exclusiveMaximum"), (int, float)) and integer:
        hi = schema["exclusiveMaximum"] - step
    new = value
    if lo is not None and new < lo:
        new, bound = lo, f"minimum {lo}"
    elif hi is not None and new > hi:
        new, bound = hi, f"maximum {hi}"
    else:
        return None
    fixed = {**args, arg: new}
    return Fix(
        tool,
        fixed,
        [f"{arg}: {_show(value)} → {_show(new)} (clamped to the {bound})"],
        "args:range",
        [{"kind": "clamped", "arg": arg, "old": value, "new": new, "bound": bound.split()[0]}],
    )


def limit_parameter(contract: Contract) -> tuple[str, dict[str, Any]] | None:
    """``(name, schema)`` of the contract's limit-like integer parameter (:data:`LIMIT_NAMES`), or ``None``."""
    for name, schema in (contract.parameters.get("properties") or {}).items():
        if LIMIT_NAMES.match(name) and isinstance(schema, dict) and schema.get("type") == "integer":
            return name, schema
    return None


def _fix_too_big(
    registry: Registry, contract: Contract | None, tool: str, args: Any, reason: Reason
) -> Fix | None:
    if contract is None or not isinstance(args, dict):
        return None
    own = limit_parameter(contract)
    if own is not None:  # a smaller limit on the same tool
        name, schema = own
        current = args.get(name, schema.get("default"))  # left out: the default was used
        if isinstance(current, int) and not isinstance(current, bool):
            max_rows = (contract.returns or {}).get("max_rows")
            target = max_rows if isinstance(max_rows, int) and max_rows < current else current // 2
            lo = schema.get("minimum", 1)
            target = max(target, lo if isinstance(lo, int) else 1)
            if target < current:
                return Fix(
                    tool,
                    {**args, name: target},
                    [f"{name}: {current} → {target} (result too big; smaller limit)"],
                    "result:too_big",
                    [{"kind": "fewer_rows", "arg": name, "old": current, "new": target}],
                )
        return None
    params = set(contract.parameters.get("properties") or {})
    for other in registry.contracts.values():
        if other.name == contract.name:
            continue
        other_props = other.parameters.get("properties") or {}
        if not params <= set(other_props):
            continue
        found = limit_parameter(other)
        if found is None:
            continue
        name, schema = found
        maximum = schema.get("maximum")
        if not isinstance(maximum, int) or isinstance(maximum, bool):
            continue
        required = set(other.parameters.get("required") or [])
        if not required <= set(args) | {name}:
            continue  # the other tool needs an argument we cannot supply
        fixed = {**args, name: maximum}
        line = (
            f"tool: {tool!r} → {other.name!r} with {name}={maximum} "
            f"({tool} has no {name}; {other.name}'s {name} maximum)"
        )
        return Fix(
            other.name,
            fixed,
            [line],
            "result:too_big",
            [
                {
                    "kind": "fewer_rows",
                    "arg": name,
                    "old": None,
                    "new": maximum,
                    "tool": other.name,
                    "from_tool": tool,
                }
            ],
        )
    return None


def _fix_unknown_tool(
    registry: Registry, contract: Contract | None, tool: str, args: Any, reason: Reason
) -> Fix | None:
    close = difflib.get_close_matches(str(tool), registry.names(), n=1, cutoff=0.6)
    if not close:
        return None
    return Fix(
        close[0],
        args,
        [f"tool: {tool!r} → {close[0]!r} (closest registered name)"],
        "args:unknown_tool",
        [{"kind": "tool_name", "arg": None, "old": tool, "new": close[0]}],
    )


RepairRule = Callable[[Registry, "Contract | None", str, Any, Reason], "Fix | None"]

#: Seed 003's REPAIRS table: reason key → rule (see the module docstring for each rule).
REPAIRS: dict[str, RepairRule] = {
    "args:allowed": _fix_allowed,
    "args:range": _fix_range,
    "result:too_big": _fix_too_big,
    "args:unknown_tool": _fix_unknown_tool,
}


def can_repair(reason: str) -> bool:
    """Whether the REPAIRS table has a rule for ``reason`` (an outcome error such as
    ``args:allowed:region``). Seed 003 ``can_repair``; an empty result is never repairable."""
    return reason_key(reason) in REPAIRS


def repair(registry: Registry, tool: str, args: Any, error: str) -> Fix | None:
    """The fix for a call of ``tool`` with ``args`` that failed with ``error``, or ``None``.

    ``None`` when the reason has no rule, or the rule cannot help here (no enum, the value is
    already the fallback, no other tool with a limit, no close name). Never raises.
    """
    reason = Reason.parse(error)
    rule = REPAIRS.get(reason.key)
    if rule is None:
        return None
    try:
        return rule(
            registry, registry.get(tool) if isinstance(tool, str) else None, tool, args, reason
        )
    except Exception:  # a strange schema must not break the loop
        return None
