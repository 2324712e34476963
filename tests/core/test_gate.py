"""Every outcome kind through the gate (docs/design.md "Outcome kinds"; seeds 003 and 004).

Retries use the fake sleep of conftest.py: no test sleeps for real except the one timeout test,
which waits for a 0.2 s limit. Timings are not asserted (they belong in bench/)."""

from __future__ import annotations

import sys

import pytest

from playground.core import outcome as oc
from playground.core.gate import Gate, RetryPolicy
from playground.sources.loading import load_registry

BODIES = '''
import time

class HttpError(Exception):
    def __init__(self, status_code, text="boom"):
        super().__init__(text)
        self.status_code = status_code

class Busy(Exception):
    kind = "transient"

SEEN = []
FAILS_LEFT = {"n": 0}

def add(a: int, b: int = 0) -> dict:
    """Add two integers.

    Args:
        a: the first number. e.g. 2
        b: the second number.
    """
    SEEN.append((a, b))
    return {"sum": a + b}

def nothing(keyword: str) -> list:
    """Search that finds nothing."""
    return []

def too_many(n: int) -> dict:
    """Returns n rows."""
    return {"rows": [{"i": i} for i in range(n)]}

def fail(mode: str) -> dict:
    """Fails the way mode says."""
    if mode == "kind":
        raise Busy("queue full")
    if mode == "429":
        raise HttpError(429, "rate limited")
    if mode == "503":
        raise HttpError(503, "unavailable")
    if mode == "403-server":
        raise HttpError(403, "Internal server error at upstream")
    if mode == "403":
        raise HttpError(403, "forbidden")
    if mode == "401":
        raise HttpError(401, "who are you")
    if mode == "timeout":
        raise TimeoutError("read timed out")
    if mode == "connection":
        raise ConnectionError("reset by peer")
    if mode == "permission":
        raise PermissionError("staff only")
    if mode == "key":
        return {}["missing"]
    if mode == "exit":
        raise SystemExit(3)
    return {"mode": mode}

def flaky(times: int) -> dict:
    """Fails `times` times with a 503, then answers."""
    if FAILS_LEFT["n"] < times:
        FAILS_LEFT["n"] += 1
        raise HttpError(503)
    return {"ok_after": FAILS_LEFT["n"]}

def slow(seconds: float) -> dict:
    """Sleeps."""
    time.sleep(seconds)
    return {"slept": seconds}

def chatty(word: str) -> dict:
    """Prints, then answers."""
    print("debug:", word)
    print("to stderr", file=__import__("sys").stderr)
    return {"word": word}

async def later(word: str) -> dict:
    """An async tool."""
    return {"word": word}

__tools__ = [add, nothing, too_many, fail, flaky, slow, chatty, later]
# reads, declared: a read is cached and retried (an undeclared 'add' or 'flaky' has unknown effects)
__contracts__ = {
    "add": {"side_effects": False},
    "nothing": {"side_effects": False},
    "too_many": {"returns": {"type": "object", "max_rows": 3}, "side_effects": False},
    "fail": {"side_effects": False},
    "flaky": {"side_effects": False},
    "slow": {"timeout_s": 0.2, "side_effects": False},
}
'''


@pytest.fixture
def gate(make_gate) -> Gate:
    return make_gate(BODIES)


def module_of(gate: Gate, tool: str):
    return sys.modules[gate.registry.get(tool).fn.__module__]


def test_ok_record(gate):
    record = gate.call("add", {"a": 2, "b": 3})
    assert (record.ok, record.kind, record.error, record.verdict) == (True, "ok", "", "valid")
    assert record.value == {"sum": 5}
    assert record.body_ran is True and record.body_runs == 1
    assert record.cache == "stored"
    assert record.canonical_args == '{"a":2,"b":3}'
    assert record.call_id == "call_1"
    assert record.message == ""
    data = record.to_json()
    for key in (
        "tool",
        "args",
        "canonical_args",
        "verdict",
        "body_ran",
        "body_runs",
        "cache",
        "ok",
        "kind",
        "error",
        "value",
        "duration_ms",
        "wire",
    ):
        assert key in data
    assert data["tool"] == "add"


def test_integral_float_reaches_the_body_and_the_cache_key_as_an_int(gate):
    record = gate.call("add", {"a": 1.0})
    assert record.ok and record.canonical_args == '{"a":1,"b":0}'  # b's default filled
    assert record.cache_key == 'add:{"a":1,"b":0}'
    seen = module_of(gate, "add").SEEN
    assert seen == [(1, 0)] and type(seen[0][0]) is int
    assert gate.call("add", {"a": 1}).cache == "hit"


def test_empty_is_ok_and_not_an_error(gate):
    record = gate.call("nothing", {"keyword": "zzz"})
    assert (record.ok, record.kind, record.error) == (True, "empty", "")
    assert record.value == []
    assert "Nothing matched" in record.message and "Do not invent" in record.message
    assert oc.POLICIES[record.kind].is_error is False


def test_invalid_args_do_not_run_the_body(gate):
    gate.call("add", {"a": 1})
    before = gate.body_runs["add"]
    record = gate.call("add", {"a": True})
    assert (record.ok, record.kind, record.error, record.verdict) == (
        False,
        "invalid_args",
        "args:type:a",
        "type:a",
    )
    assert record.body_ran is False
    assert gate.body_runs["add"] == before == record.body_runs == 1
    assert record.cache == "skip"
    assert "Invalid arguments for add: type:a" in record.message


def test_bad_result(gate):
    record = gate.call("too_many", {"n": 4})
    assert (record.ok, record.kind, record.error) == (False, "bad_result", "result:too_big")
    assert "returned 4 rows" in record.message and "smaller limit" in record.message
    assert record.body_ran and record.cache == "miss"


@pytest.mark.parametrize(
    ("mode", "error"),
    [
        ("kind", "transient:Busy"),
        ("429", "transient:http_429"),
        ("503", "transient:http_503"),
        ("403-server", "transient:http_403_server"),
        ("timeout", "transient:TimeoutError"),
        ("connection", "transient:ConnectionError"),
    ],
)
def test_transient_is_retried_with_backoff(gate, fake_sleep, mode, error):
    record = gate.call("fail", {"mode": mode})
    assert (record.ok, record.kind, record.error) == (False, "transient", error)
    assert gate.body_runs["fail"] == 3 == record.body_runs
    assert fake_sleep.delays == [0.2, 0.4]
    assert [(r.attempt, r.reason, r.delay_ms) for r in record.retries] == [
        (1, error, 200.0),
        (2, error, 400.0),
    ]
    assert "after 3 attempt(s)" in record.message and "Do not retry now" in record.message
    assert record.cache == "miss"


def test_transient_then_success(gate, fake_sleep):
    record = gate.call("flaky", {"times": 2})
    assert (record.ok, record.kind, record.value) == (True, "ok", {"ok_after": 2})
    assert [r.reason for r in record.retries] == ["transient:http_503", "transient:http_503"]
    assert record.body_runs == 3 and record.cache == "stored"


def test_retries_stop_when_the_total_time_is_spent(make_gate, fake_sleep):
    ticks = iter([0.0, 0.0, 100.0, 100.0, 100.0])
    gate = make_gate(
        BODIES,
        clock=lambda: next(ticks, 100.0),
        retry=RetryPolicy(max_attempts=5, initial_s=0.2, jitter_s=0.0, total_s=8.0),
    )
    record = gate.call("fail", {"mode": "503"})
    assert record.kind == "transient"
    assert gate.body_runs["fail"] < 5


def test_timeout_is_transient_and_not_retried(gate, fake_sleep):
    record = gate.call("slow", {"seconds": 2})
    assert (record.ok, record.kind, record.error) == (False, "transient", "transient:timeout")
    assert record.retries == [] and fake_sleep.delays == []
    assert gate.body_runs["slow"] == 1
    assert record.timeout_s == 0.2
    assert "time limit of 0.2 s" in record.message


@pytest.mark.parametrize(
    ("mode", "error"),
    [
        ("permission", "permission:PermissionError"),
        ("401", "permission:http_401"),
        ("403", "permission:http_403"),
    ],
)
def test_permission_is_not_retried(gate, fake_sleep, mode, error):
    record = gate.call("fail", {"mode": mode})
    assert (record.ok, record.kind, record.error) == (False, "permission", error)
    assert gate.body_runs["fail"] == 1 and fake_sleep.delays == [] and record.retries == []
    assert "do not retry" in record.message


def test_raised_key_error(gate, fake_sleep):
    record = gate.call("fail", {"mode": "key"})
    assert (record.ok, record.kind, record.error) == (False, "raised", "raised:KeyError")
    assert "KeyError: 'missing'" in record.message
    assert "Traceback" not in record.message
    assert gate.body_runs["fail"] == 1 and fake_sleep.delays == []


def test_raised_system_exit_does_not_stop_the_process(gate):
    record = gate.call("fail", {"mode": "exit"})
    assert (record.kind, record.error) == ("raised", "raised:SystemExit")
    assert gate.call("add", {"a": 1}).ok  # still alive


def test_body_output_is_captured_not_printed(gate, capsys):
    record = gate.call("chatty", {"word": "안녕"})
    assert record.ok and record.value == {"word": "안녕"}
    assert record.printed == "debug: 안녕\nto stderr\n"
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    print("after")  # stdout is restored
    assert capsys.readouterr().out == "after\n"


def test_async_body_is_awaited(gate):
    record = gate.call("later", {"word": "x"})
    assert (record.kind, record.value) == ("ok", {"word": "x"})


def test_unknown_tool_lists_the_registered_names(gate):
    record = gate.call("ad", {"a": 1})
    assert (record.ok, record.kind, record.error, record.verdict) == (
        False,
        "unknown_tool",
        "args:unknown_tool",
        "unknown_tool",
    )
    assert "Did you mean 'add'?" in record.message
    assert "add, nothing, too_many, fail, flaky, slow, chatty, later" in record.message
    assert record.body_ran is False and record.cache == "skip"
    odd = gate.call(["not", "a", "name"], {})
    assert odd.kind == "unknown_tool" and odd.tool == '["not","a","name"]'


def test_shape_verdict_through_the_gate(gate):
    record = gate.call("add", '{"a": 1}')
    assert (record.kind, record.error, record.verdict) == ("invalid_args", "args:shape", "shape")
    assert "a JSON string holding an object" in record.message
    assert gate.body_runs["add"] == 0


def test_call_ids_are_given_or_numbered(gate):
    assert gate.call("add", {"a": 1}, call_id="abc").call_id == "abc"
    assert gate.call("add", {"a": 2}).call_id == "call_1"
    assert gate.next_call_id() == "call_2"


def test_wire_views_are_attached_when_asked(make_gate):
    gate = make_gate(BODIES, wire=True)
    record = gate.call("add", {"a": 1}, call_id="c1")
    assert record.wire["gemini"] == {
        "function_response": {"id": "c1", "name": "add", "response": {"result": {"sum": 1}}}
    }
    assert record.wire["anthropic"]["tool_use_id"] == "c1"
    assert record.wire["openai"]["role"] == "tool"
    assert set(record.wire["tokens"]) == {"gemini", "anthropic", "openai"}
    assert make_gate(BODIES, name="mod2").call("add", {"a": 1}).wire == {}


def test_seed_003_table_through_the_gate(inventory_gate):
    ok = inventory_gate.call("stock_lookup", {"sku": "KB-101", "region": "seoul", "limit": 2})
    assert ok.kind == "ok" and len(ok.value["rows"]) == 2
    too_big = inventory_gate.call("legacy_stock", {"sku": "KB-101", "region": "seoul"})
    assert too_big.error == "result:too_big"
    empty = inventory_gate.call("legacy_stock", {"sku": "MN-303", "region": "daejeon"})
    assert (empty.kind, empty.ok) == ("empty", True)
    bad = inventory_gate.call("legacy_stock", {"sku": "HD-404", "region": "busan"})
    assert bad.error == "result:range"
    assert (
        inventory_gate.call("stock_lookup", {"sku": "KB-101", "region": "jeju", "limit": 1}).verdict
        == "allowed:region"
    )


def test_the_gate_survives_a_contract_whose_body_is_not_callable_with_the_args(tmp_path):
    path = tmp_path / "odd.py"
    path.write_text(
        "def f(x):\n    return x\nTOOLS = {'f': {'fn': f, 'args': {'y': {'type': 'str'}}}}\n",
        encoding="utf-8",
    )
    gate = Gate(load_registry([path]), wire=False, sleep=lambda s: None)
    record = gate.call("f", {"y": "a"})
    assert (record.kind, record.error) == ("raised", "raised:TypeError")
