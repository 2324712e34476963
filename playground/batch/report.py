"""The tool report of seed 003, step 8: figures measured by running the inventory tools for real.

Seed 003 ("재어 본 것을 기록한다"): ``tool_report.json`` holds ``tools``, ``blocked_before_call``,
``bad_result_reasons``, ``memo_second_call_runs``, ``repaired``, ``attempts``, ``gave_up``;
``tool_report.md`` has four sections (``## 도구 계약을 어디에 적었나``, ``## 부르기 전에 무엇을
막았나``, ``## 돌려준 결과를 어떻게 믿지 않았나``, ``## 실패를 어떤 경로로 다뤘나``), the last one
stating the attempt limit as a number. "숫자는 손으로 적지 말고 여러분의 모듈을 실제로 돌려 얻으세요":
every figure below comes from calls through a fresh :class:`~playground.core.gate.Gate` (body runs
counted by the gate) or from :func:`~playground.core.validation.check_result`.

Figures (JSON keys):

* ``tools``: the registered names.
* ``blocked_before_call``: body runs caused by calls with invalid arguments (one defect each:
  missing, type — ``True`` for an integer —, allowed, range, unknown argument, pattern, and an
  unknown tool). Must be 0.
* ``bad_result_reasons``: sorted reasons ``check_result`` gives for four crafted bad results
  against the ``stock_lookup`` contract (shape, empty, too_big — one row over ``max_rows`` —,
  range — a ``count`` below its minimum). ``legacy_stock_reason``: the reason of
  ``legacy_stock``'s real result for the big probe (``too_big`` with the shipped data).
* ``memo_second_call_runs``: body runs on the second identical call (0: served from the cache).
* ``repaired`` / ``attempts``: whether the episode for a region that is not allowed ends ok,
  and its calls (2: refused, then the fallback region).
* ``gave_up``: ``not ok`` of the episode for the empty probe (seed 003: "빈 결과가 나오는 주문의
  ok 를 뒤집은 값").
* ``max_attempts``, ``failure_limit``; ``probes``: the inputs used.

The probes default to the shipped data (``KB-101``/``seoul`` has more rows than ``MAX_ROWS``;
``MN-303``/``daejeon`` has none; ``jeju`` is not a region); change the data and the figures change.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from playground.batch.outfiles import write_files
from playground.core.canonical import canonical_json
from playground.core.contracts import Contract
from playground.core.gate import Gate
from playground.core.registry import Registry, load_registry
from playground.core.validation import check_result
from playground.errors import UsageError
from playground.loop.episode import MAX_ATTEMPTS, run_manual_episode
from playground.loop.failures import FAILURE_LIMIT

DEFAULT_TOOLS = ("tools/inventory.py",)
JSON_NAME = "tool_report.json"
MD_NAME = "tool_report.md"
REQUIRED = ("stock_lookup", "legacy_stock")
SECTIONS = (
    "## 도구 계약을 어디에 적었나",
    "## 부르기 전에 무엇을 막았나",
    "## 돌려준 결과를 어떻게 믿지 않았나",
    "## 실패를 어떤 경로로 다뤘나",
)


@dataclass(frozen=True)
class Probes:
    """Inputs of the measured calls. ``sku``: a real SKU; ``region``: an allowed region with a
    few rows; ``bad_region``: a region the contract refuses; ``big``: (sku, region) with more rows
    than ``MAX_ROWS``; ``empty``: (sku, region) with no rows; ``limit``: the limit used."""

    sku: str = "KB-101"
    region: str = "busan"
    bad_region: str = "jeju"
    big: tuple[str, str] = ("KB-101", "seoul")
    empty: tuple[str, str] = ("MN-303", "daejeon")
    limit: int = 2


@dataclass
class _Pg:
    """The minimum a loop episode needs: a registry and a gate (a fresh one per measurement)."""

    registry: Registry
    gate: Gate
    router: Any = None


def _fresh(registry: Registry) -> _Pg:
    return _Pg(registry, Gate(registry, wire=False))


def _module_of(contract: Contract) -> Any:
    return sys.modules.get(getattr(contract.fn, "__module__", "") or "")


def _blocked_before_call(registry: Registry, p: Probes) -> tuple[int, list[dict[str, Any]]]:
    pg = _fresh(registry)
    good = {"sku": p.sku, "region": p.region, "limit": p.limit}
    bad_calls = [
        ("stock_lookup", {"sku": p.sku, "region": p.region}),
        ("stock_lookup", {**good, "limit": True}),
        ("stock_lookup", {**good, "region": p.bad_region}),
        ("stock_lookup", {**good, "limit": 0}),
        ("stock_lookup", {**good, "color": "red"}),
        ("stock_lookup", {**good, "sku": "keyboard"}),
        ("stock_lookupp", good),
    ]
    before = sum(pg.gate.body_runs.values())
    seen = []
    for tool, args in bad_calls:
        record = pg.gate.call(tool, args)
        seen.append(
            {"tool": tool, "args": args, "verdict": record.verdict, "body_ran": record.body_ran}
        )
    return sum(pg.gate.body_runs.values()) - before, seen


def _crafted_results(contract: Contract, p: Probes) -> dict[str, Any]:
    returns = contract.returns or {}
    max_rows = returns.get("max_rows")
    max_rows = max_rows if isinstance(max_rows, int) else 5
    item = ((returns.get("properties") or {}).get("rows") or {}).get("items") or {}
    minimum = ((item.get("properties") or {}).get("count") or {}).get("minimum", 0)
    row = {"store": "probe", "count": 1}
    head = {"sku": p.sku, "region": p.region}
    return {
        "shape": {**head, "rows": "not a list"},
        "empty": {**head, "rows": []},
        "too_big": {**head, "rows": [dict(row) for _ in range(max_rows + 1)]},
        "range": {**head, "rows": [{"store": "probe", "count": minimum - 1}]},
    }


def measure(
    tools: Iterable[str | Path] | None = None, probes: Probes | None = None
) -> dict[str, Any]:
    """Load ``tools`` (default ``tools/inventory.py``) into a fresh registry and measure the figures.

    Returns the JSON-ready report dict (see the module docstring for the keys). Raises
    :class:`UsageError` when the modules do not load or lack ``stock_lookup`` / ``legacy_stock``.
    """
    p = probes or Probes()
    paths = [str(t) for t in (tools or DEFAULT_TOOLS)]
    registry = load_registry(paths)
    if registry.problems:
        raise UsageError("; ".join(str(x) for x in registry.problems))
    missing = [n for n in REQUIRED if n not in registry]
    if missing:
        raise UsageError(
            f"the report needs seed 003's inventory tools; {', '.join(missing)} not found in {', '.join(paths)}"
        )
    stock = registry.get("stock_lookup")
    assert stock is not None
    blocked, blocked_calls = _blocked_before_call(registry, p)

    crafted = _crafted_results(stock, p)
    crafted_reasons = {name: check_result(stock, value).reason for name, value in crafted.items()}
    legacy = _fresh(registry).gate.call("legacy_stock", {"sku": p.big[0], "region": p.big[1]})
    legacy_reason = (
        legacy.error.split(":", 1)[1] if legacy.error.startswith("result:") else legacy.error
    )

    memo = _fresh(registry)
    args = {"sku": p.sku, "region": p.region, "limit": p.limit}
    first = memo.gate.call("stock_lookup", dict(args))
    runs_before = memo.gate.body_runs["stock_lookup"]
    second = memo.gate.call("stock_lookup", dict(reversed(list(args.items()))))
    memo_runs = memo.gate.body_runs["stock_lookup"] - runs_before

    fixed = run_manual_episode(
        _fresh(registry), "stock_lookup", {"sku": p.sku, "region": p.bad_region, "limit": p.limit}
    )
    empty = run_manual_episode(
        _fresh(registry),
        "stock_lookup",
        {"sku": p.empty[0], "region": p.empty[1], "limit": p.limit},
    )
    module = _module_of(stock)
    return {
        "tools": registry.names(),
        "blocked_before_call": blocked,
        "bad_result_reasons": sorted(crafted_reasons.values()),
        "memo_second_call_runs": memo_runs,
        "repaired": fixed.ok,
        "attempts": fixed.attempts,
        "gave_up": not empty.ok,
        "max_attempts": MAX_ATTEMPTS,
        "failure_limit": FAILURE_LIMIT,
        "legacy_stock_reason": legacy_reason,
        "size_warnings": sorted({w for r in (legacy, first, second) for w in r.warnings}),
        "details": {
            "contract_source": stock.source,
            "module_file": getattr(module, "__file__", None),
            "max_rows": (stock.returns or {}).get("max_rows"),
            "blocked_calls": blocked_calls,
            "crafted_results": crafted_reasons,
            "legacy_stock_rows": len((legacy.value or {}).get("rows") or [])
            if isinstance(legacy.value, dict)
            else None,
            "memo": {"first_cache": first.cache, "second_cache": second.cache},
            "repair_fixes": fixed.fixes,
            "repair_reply": fixed.reply,
            "empty_reply": empty.reply,
            "empty_end": empty.end,
        },
        "probes": asdict(p),
    }


def render_markdown(report: dict[str, Any]) -> str:
    """``tool_report.md``: the four sections of seed 003 in order, with the measured figures."""
    d = report["details"]
    tools = ", ".join(f"`{t}`" for t in report["tools"])
    blocked = "\n".join(
        f"- `{c['tool']}` {canonical_json(c['args'])} → `{c['verdict'] or 'valid'}`, body ran: {c['body_ran']}"
        for c in d["blocked_calls"]
    )
    crafted = "\n".join(
        f"- {name}: `{reason or 'valid'}`" for name, reason in d["crafted_results"].items()
    )
    fixes = "; ".join(d["repair_fixes"]) or "none"
    lines = [
        "# Tool report",
        "",
        SECTIONS[0],
        "",
        f"One contract table per tool module (seed 003 `TOOLS`: fn, args, returns), loaded by the registry "
        f"from `{d['module_file']}`. Registered tools ({len(report['tools'])}): {tools}. "
        f"`stock_lookup` is defined at `{d['contract_source']}`; its `returns` allows at most {d['max_rows']} rows.",
        "",
        SECTIONS[1],
        "",
        f"Every call passes one gate that validates the arguments against the contract's JSON Schema before "
        f"the body runs. {len(d['blocked_calls'])} calls with one defect each were sent; "
        f"{sum(1 for c in d['blocked_calls'] if not c['body_ran'])} of them were stopped at the gate. "
        f"The seed's figure counts the body runs they caused, so 0 is the goal: "
        f"**blocked_before_call = {report['blocked_before_call']}** (body runs after invalid calls).",
        "",
        blocked,
        "",
        SECTIONS[2],
        "",
        f"The gate checks every result against the contract's `returns`. Reasons `check_result` gave for four "
        f"crafted bad results: **{report['bad_result_reasons']}**.",
        "",
        crafted,
        "",
        f"`legacy_stock` ignores any limit; its real result for {canonical_json(report['probes']['big'])} "
        f"({d['legacy_stock_rows']} rows) was refused as `{report['legacy_stock_reason'] or 'valid'}`. "
        f"Successes are cached (failures never are): the second identical call ran the body "
        f"**{report['memo_second_call_runs']}** time(s) (cache: {d['memo']['first_cache']} → {d['memo']['second_cache']}).",
        "",
        SECTIONS[3],
        "",
        f"Failures are values that go to `repair` or `giveup`, never exceptions. The attempt limit is "
        f"**MAX_ATTEMPTS = {report['max_attempts']}**; {report['failure_limit']} identical failures in a row "
        f"stop an episode with a message that says so.",
        "",
        f"- A region that is not allowed ({report['probes']['bad_region']!r}): repaired = "
        f"**{report['repaired']}** after **{report['attempts']}** attempts ({fixes}).",
        f"- An empty result ({canonical_json(report['probes']['empty'])}): not repaired, gave_up = "
        f"**{report['gave_up']}** ({d['empty_end']}). Reply: {d['empty_reply']}",
        "",
        *[f"- Warning: {w}" for w in report.get("size_warnings", [])],
    ]
    return "\n".join(lines)


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
