"""A Python tool's ``date`` and ``uuid`` parameters take what the parameter's own type (pydantic,
which converts the argument before the body runs) takes: the gate is never stricter than the
tool, and what pydantic refuses is still refused before the body."""

from __future__ import annotations

import pytest

TICKETS = '''
import datetime as dt
import uuid


def find_ticket(ticket_id: uuid.UUID) -> dict:
    """Look up a support ticket."""
    return {"id": str(ticket_id)}


def day_summary(day: dt.date, also: list[dt.date] | None = None) -> dict:
    """Summarise one day's sales."""
    return {"day": day.isoformat(), "also": [d.isoformat() for d in also or []]}


__tools__ = [find_ticket, day_summary]
'''


@pytest.fixture
def gate(make_gate):
    return make_gate(TICKETS, name="tickets")


def test_a_uuid_without_dashes_is_taken_as_the_type_takes_it(gate):
    record = gate.call("find_ticket", {"ticket_id": "12345678123456781234567812345678"})
    assert (record.verdict, record.body_ran) == ("valid", True)
    assert record.value == {"id": "12345678-1234-5678-1234-567812345678"}
    refused = gate.call("find_ticket", {"ticket_id": "not-a-uuid"})
    assert (refused.verdict, refused.body_ran) == ("format:ticket_id", False)
    assert "with or without dashes" in refused.message


def test_a_date_with_a_zero_time_is_taken_and_a_nonzero_time_refused(gate):
    record = gate.call("day_summary", {"day": "2026-12-03T00:00", "also": ["2026-12-04T00:00"]})
    assert (record.verdict, record.body_ran) == ("valid", True)
    assert record.value == {"day": "2026-12-03", "also": ["2026-12-04"]}
    refused = gate.call("day_summary", {"day": "2026-12-03T10:00"})
    assert (refused.verdict, refused.body_ran) == ("format:day", False)
    nested = gate.call("day_summary", {"day": "2026-12-03", "also": ["2026-13-01"]})
    assert (nested.verdict, nested.body_ran) == ("format:also", False)
    assert [(r["code"], r["path"]) for r in nested.reasons] == [("format:also", "/also/0")]
    # the declaration keeps google-genai's format
    day = gate.registry.get("day_summary").parameters["properties"]["day"]
    assert day["format"] == "date"
