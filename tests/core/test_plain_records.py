"""A call record is plain data: its ``kind`` is a ``str`` (not the ``OutcomeKind`` enum), so
every view of it — repr, drift lines, check mismatches, JSON — reads ``'ok'``, never
``<OutcomeKind.OK: 'ok'>`` (a breaker saw the enum repr in ``replay`` drift lines)."""

from __future__ import annotations

from playground.batch.drift import compare_calls
from playground.core.gate import Gate
from playground.sources.loading import load_registry

TOOLS = '''
def lookup(item_id: str) -> dict:
    """Look an item up.

    Args:
        item_id: the item, e.g. A-1
    """
    if item_id == "boom":
        raise RuntimeError("boom")
    return {"item_id": item_id}


__tools__ = [lookup]
'''


def test_every_kind_on_a_record_is_plain_text(write_module):
    gate = Gate(load_registry([write_module("plain", TOOLS)]), wire=False)
    records = [
        gate.call("lookup", {"item_id": "A-1"}),
        gate.call("lookup", {"item_id": "boom"}),
        gate.call("lookup", {}),
        gate.call("nothing", {}),
    ]
    assert [(type(r.kind), r.kind) for r in records] == [
        (str, "ok"),
        (str, "raised"),
        (str, "invalid_args"),
        (str, "unknown_tool"),
    ]
    assert "OutcomeKind" not in repr(records)
    drifts = compare_calls(records[0].to_json(), records[1].to_json())
    assert "kind: 'ok' → 'raised'" in [d.text() for d in drifts]
    assert "OutcomeKind" not in repr([d.to_json() for d in drifts])
