"""A transient failure of a tool with side effects is not retried by the gate: its first attempt
may already have acted (a payment, an e-mail), so running it again behind the model's back is
exactly the bug to avoid. Tools without side effects keep their bounded retries."""

from __future__ import annotations

SOURCE = '''
class Busy(Exception):
    status_code = 429

def send_notice(to: str) -> dict:
    """Send a notice."""
    raise Busy("rate limited")

def read_notice(to: str) -> dict:
    """Read a notice."""
    raise Busy("rate limited")

__tools__ = [send_notice, read_notice]
__contracts__ = {"send_notice": {"side_effects": True}}
'''


def test_side_effecting_tool_runs_once_on_a_transient_error(make_gate, fake_sleep):
    gate = make_gate(SOURCE)
    record = gate.call("send_notice", {"to": "민수"})
    assert record.kind == "transient"
    assert record.error == "transient:http_429"
    assert gate.body_runs["send_notice"] == 1
    assert record.retries == []
    assert fake_sleep.delays == []
    assert "not retried automatically because it writes" in record.message


def test_tool_without_side_effects_is_still_retried(make_gate, fake_sleep):
    gate = make_gate(SOURCE)
    record = gate.call("read_notice", {"to": "민수"})
    assert record.kind == "transient"
    assert gate.body_runs["read_notice"] == 3
    assert len(record.retries) == 2
    assert "side effects" not in record.message
