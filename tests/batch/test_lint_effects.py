"""``effects-undeclared``: a Python tool that declares neither ``side_effects`` nor
``cacheable`` is assumed read-only (cached, retried); lint says so, in-process and through the
worker (the flag crosses the process boundary with the contract)."""

from __future__ import annotations

import textwrap

import pytest

from playground.batch.lint import lint_registry
from playground.workbench import open_playground

MODULE = '''
def book_appointment(patient: str) -> dict:
    """Book an appointment for a patient."""
    return {"booking_id": "B-0001"}


def find_slots(day: str) -> list:
    """Find free slots on one day."""
    return []


def cancel_booking(booking_id: str) -> dict:
    """Cancel a booking."""
    return {"cancelled": booking_id}


__tools__ = [book_appointment, find_slots, cancel_booking]
__contracts__ = {"find_slots": {"side_effects": False}, "cancel_booking": {"cacheable": False}}
'''


@pytest.mark.parametrize("in_process", [True, False], ids=["in-process", "worker"])
def test_only_the_tool_without_declared_effects_is_flagged(tmp_path, in_process):
    path = tmp_path / "clinic.py"
    path.write_text(textwrap.dedent(MODULE), encoding="utf-8")
    pg = open_playground([path], in_process=in_process)
    try:
        assert pg.registry.problems == []
        flags = {c.name: c.effects_declared for c in pg.registry.contracts.values()}
        assert flags == {"book_appointment": False, "find_slots": True, "cancel_booking": True}
        found = [f for f in lint_registry(pg.registry) if f.rule == "effects-undeclared"]
        assert [(f.tool, f.severity) for f in found] == [("book_appointment", "warning")]
        assert "served from the cache without running the body" in found[0].message
        assert '"side_effects": True' in found[0].suggestion
    finally:
        pg.close()
