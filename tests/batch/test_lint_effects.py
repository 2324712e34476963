"""``effects-undeclared``: a tool whose effects are only inferred (a verb of its name or
description) or unknown is named by lint, in-process and through the worker (the effects cross
the process boundary with the contract). ``cacheable: False`` alone says nothing of effects."""

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
        effects = {c.name: (c.effects, c.effects_basis) for c in pg.registry.contracts.values()}
        assert effects == {
            "book_appointment": ("write", "inferred"),
            "find_slots": ("read", "declared"),
            "cancel_booking": ("write", "inferred"),
        }
        found = [f for f in lint_registry(pg.registry) if f.rule == "effects-undeclared"]
        assert [(f.tool, f.severity) for f in found] == [
            ("book_appointment", "warning"),
            ("cancel_booking", "warning"),
        ]
        assert "only inferred (write, from the name's verb 'book')" in found[0].message
        assert '"side_effects": True' in found[0].suggestion
    finally:
        pg.close()
