"""Benchmark: the gate's overhead per call.

Compares, for the same arguments of a small plain-function tool:

* a bare Python call of the function;
* a raw ``jsonschema`` validation (Draft 2020-12 + FormatChecker, validator built once);
* ``Gate.call`` on a cache hit and on a cache miss (a different argument each call), each with
  ``wire=False`` and ``wire=True`` (provider views built for every record).

A miss runs the body in a worker thread with a time limit (core/runner.py), which is most of
its cost. Prints a table: microseconds per call (best of ``--repeat`` rounds) and the ratio to
the bare call. Run: ``python bench/bench_gate.py [--number N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import textwrap
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TOOL = '''
def stock_lookup(sku: str, region: str, limit: int = 3) -> dict:
    """Store-by-store stock of one SKU in one region.

    Args:
        sku: product SKU. e.g. KB-101
        region: city, lower case. e.g. seoul
        limit: how many stores, 1..5
    """
    return {"sku": sku, "region": region, "rows": [{"store": "강남점", "count": 12}][:limit]}

__tools__ = [stock_lookup]
__contracts__ = {"stock_lookup": {"returns": {
    "type": "object", "required": ["sku", "region", "rows"], "max_rows": 5,
    "properties": {"rows": {"type": "array", "items": {"type": "object",
        "properties": {"store": {"type": "string"}, "count": {"type": "integer", "minimum": 0}}}}}}}}
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=2000, help="calls per round (default 2000)")
    parser.add_argument(
        "--repeat", type=int, default=5, help="rounds; the best is kept (default 5)"
    )
    opts = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-gate-"))
    os.environ.setdefault("PLAYGROUND_CACHE_DIR", str(tmp / "cache"))
    (tmp / "inv.py").write_text(textwrap.dedent(TOOL), encoding="utf-8")

    from playground.core.gate import Gate
    from playground.core.registry import load_registry
    from playground.core.validation import validator_for

    registry = load_registry([tmp / "inv.py"])
    assert not registry.problems, registry.problems
    contract = registry.get("stock_lookup")
    fn = contract.fn
    args = {"sku": "KB-101", "region": "seoul", "limit": 2}
    validator = validator_for(contract.parameters)

    gates = {wire: Gate(registry, wire=wire) for wire in (False, True)}
    for gate in gates.values():
        gate.call("stock_lookup", args)  # store it: later calls with `args` hit

    def miss_caller(gate: Gate):
        counter = iter(range(10**9))
        return lambda: gate.call(
            "stock_lookup", {"sku": "KB-101", "region": f"r{next(counter)}", "limit": 2}
        )

    cases = [
        ("bare function call", lambda: fn(**args)),
        ("jsonschema validate (raw)", lambda: validator.is_valid(args)),
        ("gate, cache hit, wire=False", lambda: gates[False].call("stock_lookup", args)),
        ("gate, cache hit, wire=True", lambda: gates[True].call("stock_lookup", args)),
        ("gate, cache miss, wire=False", miss_caller(gates[False])),
        ("gate, cache miss, wire=True", miss_caller(gates[True])),
    ]
    results = []
    for label, stmt in cases:
        best = min(timeit.repeat(stmt, number=opts.number, repeat=opts.repeat)) / opts.number
        results.append((label, best * 1e6))
    base = results[0][1]
    print(f"python {sys.version.split()[0]}, {opts.number} calls x best of {opts.repeat}")
    print(f"{'case':<32}{'us/call':>12}{'x bare':>10}{'x jsonschema':>14}")
    for label, us in results:
        print(f"{label:<32}{us:>12.2f}{us / base:>10.1f}{us / results[1][1]:>14.1f}")


if __name__ == "__main__":
    main()
