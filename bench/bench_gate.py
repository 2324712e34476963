"""Benchmark: what the gate costs per call, compared like with like (issue 8, "Speed").

One small plain-function tool with a ``returns`` schema, the same arguments and the same result
in every case:

* ``body``: the bare Python call ``fn(**args)``;
* ``raw validation``: ``jsonschema`` alone -- ``Draft202012Validator`` with ``FormatChecker``
  (the class and format checker the gate uses), built once -- on the arguments and the result;
* ``gate validation``: the gate's own validation of the same values
  (:func:`~playground.core.validation.check_args` + :func:`~playground.core.validation.check_result`);
* ``body + raw validation``: the body, then raw validation of its arguments and its result;
* ``gate miss``: ``Gate.call`` that misses the cache (emptied before each call), ``wire=False``:
  validation, cache key and lookup, the body run by ``core/runner.py`` (a thread per call today),
  result check, cache store, record;
* ``gate miss, body stub``: the same with the gate's ``run_body`` replaced by a direct call (no
  thread, no output capture) -- what a miss costs once bodies no longer start a thread;
* ``gate hit``: ``Gate.call`` served from the cache, ``wire=False``.

Method: every round measures every case once, in an order that alternates (forward, then
reversed) round by round, after one warm-up round; each measurement runs ``--number`` calls with
the garbage collector collected before and disabled during it. Per case it prints the medians
over ``--rounds`` rounds of CPU time (``time.process_time``, all threads) and of wall time
(``time.perf_counter``), in microseconds per call, then every ratio beside its goal (from
issue 8) and whether it is met. Goals are measured here, never asserted in tests.

Run: ``python bench/bench_gate.py [--number N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import shutil
import statistics
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TOOL = '''
def stock_lookup(sku: str, region: str, limit: int = 3) -> dict:
    """Store-by-store stock of one SKU in one region.

    Args:
        sku: product SKU. e.g. KB-101
        region: city, lower case. e.g. seoul
        limit: how many stores, 1..5
    """
    rows = [{"store": "강남점", "count": 12}, {"store": "홍대점", "count": 4},
            {"store": "잠실점", "count": 7}]
    return {"sku": sku, "region": region, "rows": rows[:limit]}

__tools__ = [stock_lookup]
__contracts__ = {"stock_lookup": {"returns": {
    "type": "object", "required": ["sku", "region", "rows"], "max_rows": 5,
    "properties": {"sku": {"type": "string"}, "region": {"type": "string"},
        "rows": {"type": "array", "items": {"type": "object", "required": ["store", "count"],
        "properties": {"store": {"type": "string"},
                       "count": {"type": "integer", "minimum": 0}}}}}}}}
'''

ARGS = {"sku": "KB-101", "region": "seoul", "limit": 2}

# (numerator, denominator, goal or None, what the ratio means)
RATIOS = [
    ("gate validation", "raw validation", 1.2, "gate's args+result validation vs raw jsonschema"),
    ("gate miss", "body + raw validation", 2.0, "full cache-miss call vs body + raw validation"),
    (
        "gate miss, body stub",
        "body + raw validation",
        2.0,
        "the same without the per-call thread (runner.py stubbed)",
    ),
    ("gate hit", "raw validation", None, "cache hit vs raw validation (information)"),
]


def _measure(fn: Callable[[], None], number: int) -> tuple[float, float]:
    """(CPU µs per call, wall µs per call) of ``number`` calls of ``fn``, GC off."""
    gc.collect()
    gc.disable()
    try:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for _ in range(number):
            fn()
        cpu1, wall1 = time.process_time(), time.perf_counter()
    finally:
        gc.enable()
    return (cpu1 - cpu0) * 1e6 / number, (wall1 - wall0) * 1e6 / number


def _cases() -> dict[str, Callable[[], None]]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-gate-"))
    atexit.register(shutil.rmtree, tmp, True)
    os.environ.setdefault("PLAYGROUND_CACHE_DIR", str(tmp / "cache"))
    (tmp / "inv.py").write_text(textwrap.dedent(TOOL), encoding="utf-8")

    from jsonschema import Draft202012Validator, FormatChecker

    from playground.core.gate import Gate
    from playground.core.toolsource import BodyRun
    from playground.core.validation import check_args, check_result
    from playground.sources.loading import load_registry

    registry = load_registry([tmp / "inv.py"])
    assert not registry.problems, registry.problems
    contract = registry.get("stock_lookup")
    assert contract is not None and contract.returns is not None
    fn = contract.fn
    result = fn(**ARGS)
    # Raw jsonschema, built once, on copies (nothing shared with the gate's own cache).
    raw_args = Draft202012Validator(dict(contract.parameters), format_checker=FormatChecker())
    raw_result = Draft202012Validator(dict(contract.returns), format_checker=FormatChecker())

    def raw_validation() -> None:
        for _ in raw_args.iter_errors(ARGS):
            pass
        for _ in raw_result.iter_errors(result):
            pass

    def body_and_raw() -> None:
        value = fn(**ARGS)
        for _ in raw_args.iter_errors(ARGS):
            pass
        for _ in raw_result.iter_errors(value):
            pass

    def gate_validation() -> None:
        check_args(contract, ARGS)
        check_result(contract, result)

    miss_gate = Gate(registry, wire=False)
    stub_gate = Gate(registry, wire=False)
    hit_gate = Gate(registry, wire=False)
    record = hit_gate.call("stock_lookup", dict(ARGS))
    assert record.ok and record.cache == "stored", record
    real_source = contract.tool_source

    class StubSource:
        """Runs the body directly in this thread: what a miss costs without the source."""

        label = "stub"

        def call(self, contract: Any, args: dict[str, Any], timeout_s: float) -> BodyRun:
            return BodyRun(value=fn(**args))

    stub_source = StubSource()

    def miss() -> None:
        miss_gate.cache.entries.clear()
        miss_gate.call("stock_lookup", ARGS)

    def miss_stub() -> None:
        stub_gate.cache.entries.clear()
        contract.tool_source = stub_source
        try:
            stub_gate.call("stock_lookup", ARGS)
        finally:
            contract.tool_source = real_source

    for g in (miss_gate, stub_gate):
        g.cache.entries.clear()
        rec = g.call("stock_lookup", ARGS)
        assert rec.ok and rec.cache == "stored" and rec.body_ran, rec
    return {
        "body": lambda: fn(**ARGS),
        "raw validation": raw_validation,
        "gate validation": gate_validation,
        "body + raw validation": body_and_raw,
        "gate miss": miss,
        "gate miss, body stub": miss_stub,
        "gate hit": lambda: hit_gate.call("stock_lookup", ARGS),
    }


def measure(number: int = 2000, rounds: int = 15) -> tuple[dict[str, float], dict[str, float]]:
    """(median CPU µs per call, median wall µs per call) per case, ``rounds`` alternated
    rounds of ``number`` calls each."""
    cases = _cases()
    names = list(cases)
    cpu: dict[str, list[float]] = {n: [] for n in names}
    wall: dict[str, list[float]] = {n: [] for n in names}
    for n in names:  # warm-up round, not recorded
        _measure(cases[n], max(1, number // 4))
    for r in range(rounds):
        for n in names if r % 2 == 0 else reversed(names):
            c, w = _measure(cases[n], number)
            cpu[n].append(c)
            wall[n].append(w)
    med_cpu = {n: statistics.median(v) for n, v in cpu.items()}
    med_wall = {n: statistics.median(v) for n, v in wall.items()}
    return med_cpu, med_wall


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--number", type=int, default=2000, help="calls per measurement")
    parser.add_argument("--rounds", type=int, default=15, help="alternated rounds (medians)")
    opts = parser.parse_args()
    med_cpu, med_wall = measure(opts.number, opts.rounds)
    names = list(med_cpu)

    print(
        f"python {sys.version.split()[0]}; {opts.rounds} alternated rounds x {opts.number} calls;"
        " medians, µs per call"
    )
    print(f"{'case':<26}{'CPU µs':>10}{'wall µs':>10}")
    for n in names:
        print(f"{n:<26}{med_cpu[n]:>10.2f}{med_wall[n]:>10.2f}")
    print()
    print(f"{'ratio':<48}{'CPU':>7}{'wall':>7}{'goal':>8}  met")
    for num, den, goal, what in RATIOS:
        rc, rw = med_cpu[num] / med_cpu[den], med_wall[num] / med_wall[den]
        goal_text = f"≤ {goal:g}" if goal is not None else "-"
        met = "-" if goal is None else ("yes" if rc <= goal else "NO")
        print(f"{num + ' / ' + den:<48}{rc:>7.2f}{rw:>7.2f}{goal_text:>8}  {met}   ({what})")


if __name__ == "__main__":
    main()
