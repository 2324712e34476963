"""The success-only result cache (seed 003 step 5: "성공만 기억합니다") and its rules in the gate."""

from __future__ import annotations

import pytest

from playground.core.cache import ResultCache

TOOLS = '''
STATE = {"fail": True}

def lookup(sku: str, region: str, limit: int = 5) -> dict:
    """Stock of one SKU."""
    return {"sku": sku, "region": region, "rows": [{"store": "강남점", "count": limit}]}

def sometimes(x: str) -> dict:
    """Fails while STATE says so."""
    if STATE["fail"]:
        raise KeyError(x)
    return {"x": x}

def place_order(item: str) -> dict:
    """Places an order (a side effect)."""
    return {"placed": item}

def now(zone: str) -> dict:
    """Changes every call."""
    return {"zone": zone}

__tools__ = [lookup, sometimes, place_order, now]
__contracts__ = {
    "place_order": {"side_effects": True},
    "now": {"cacheable": False, "side_effects": False},
    "sometimes": {"side_effects": False},
}
'''


@pytest.fixture
def gate(make_gate):
    return make_gate(TOOLS)


def test_key_is_order_insensitive(gate):
    first = gate.call("lookup", {"sku": "KB-101", "region": "seoul", "limit": 2})
    second = gate.call("lookup", {"limit": 2, "region": "seoul", "sku": "KB-101"})
    assert (first.cache, second.cache) == ("stored", "hit")
    assert (
        first.cache_key == second.cache_key == 'lookup:{"limit":2,"region":"seoul","sku":"KB-101"}'
    )
    assert gate.body_runs["lookup"] == 1 == second.body_runs
    assert second.body_ran is False
    assert second.value == first.value
    assert (gate.cache.hits, gate.cache.misses, len(gate.cache)) == (1, 1, 1)


def test_hangul_is_kept_in_the_key(gate):
    record = gate.call("lookup", {"sku": "KB-101", "region": "서울"})
    assert record.cache_key == 'lookup:{"limit":5,"region":"서울","sku":"KB-101"}'


def test_an_integral_float_shares_the_key_of_the_int(gate):
    gate.call("lookup", {"sku": "A", "region": "r", "limit": 3})
    assert gate.call("lookup", {"sku": "A", "region": "r", "limit": 3.0}).cache == "hit"


def test_failures_are_never_stored(gate):
    one = gate.call("sometimes", {"x": "a"})
    two = gate.call("sometimes", {"x": "a"})
    assert (one.kind, two.kind) == ("raised", "raised")
    assert (one.cache, two.cache) == ("miss", "miss")
    assert gate.body_runs["sometimes"] == 2
    assert len(gate.cache) == 0
    # once it works, the success is stored and then served
    gate.registry.get("sometimes").fn.__globals__["STATE"]["fail"] = False
    assert gate.call("sometimes", {"x": "a"}).cache == "stored"
    assert gate.call("sometimes", {"x": "a"}).cache == "hit"
    assert gate.body_runs["sometimes"] == 3


def test_side_effects_are_never_cached(gate):
    records = [gate.call("place_order", {"item": "키보드"}) for _ in range(2)]
    assert [r.cache for r in records] == ["skip", "skip"]
    assert gate.body_runs["place_order"] == 2
    assert gate.registry.get("place_order").caches is False


def test_a_side_effect_that_ran_forgets_the_cached_reads(gate):
    """A booking may change what the next read returns: after a side-effecting body ran, reads
    run again (a newcomer's list after a schedule was served stale from the cache)."""
    reads = [{"sku": "A", "region": "r"}, {"sku": "B", "region": "r"}]
    assert [gate.call("lookup", a).cache for a in reads] == ["stored", "stored"]
    placed = gate.call("place_order", {"item": "키보드"})
    assert placed.body_ran and placed.warnings == [
        "place_order writes and ran: 2 cached results forgotten, so the next reads run again."
    ]
    assert [gate.call("lookup", a).cache for a in reads] == ["stored", "stored"]
    assert gate.body_runs["lookup"] == 4 and (gate.cache.hits, gate.cache.misses) == (0, 4)
    # a side-effecting call the gate refused ran nothing and forgets nothing
    refused = gate.call("place_order", {})
    assert (refused.body_ran, refused.warnings) == (False, [])
    assert gate.call("lookup", reads[0]).cache == "hit"


def test_cacheable_false_is_skipped(gate):
    assert [gate.call("now", {"zone": "KST"}).cache for _ in range(2)] == ["skip", "skip"]
    assert gate.body_runs["now"] == 2


def test_invalid_args_are_skipped(gate):
    record = gate.call("lookup", {"sku": "A"})
    assert (record.kind, record.cache, record.cache_key) == ("invalid_args", "skip", "")
    assert gate.cache.misses == 0 and len(gate.cache) == 0


def test_the_cached_value_cannot_be_mutated_by_the_caller(gate):
    args = {"sku": "A", "region": "r"}
    stored = gate.call("lookup", args)
    stored.value["rows"].append("junk")
    hit = gate.call("lookup", args)
    assert hit.value == {"sku": "A", "region": "r", "rows": [{"store": "강남점", "count": 5}]}
    hit.value["rows"][0]["count"] = -99
    assert gate.call("lookup", args).value["rows"][0]["count"] == 5


def test_result_cache_unit():
    cache = ResultCache()
    key = cache.key("t", {"b": 1, "a": [1.0, True]})
    assert key == 't:{"a":[1,true],"b":1}'
    assert cache.lookup(key) == (False, None)
    value = {"a": [1]}
    cache.store(key, value)
    value["a"].append(2)
    assert cache.lookup(key) == (True, {"a": [1]})
    assert (cache.hits, cache.misses, len(cache)) == (1, 1, 1)
    cache.clear()
    assert (cache.hits, cache.misses, len(cache)) == (0, 0, 0)
