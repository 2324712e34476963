"""Verdicts and fix hints for keywords below the argument itself: an ``Optional`` parameter's
branch (pydantic and google-genai write ``anyOf: [{...}, {type: null}]``), a field of an object
argument, and JSON Schema 2020-12's own formats (RFC 3339 ``time`` needs an offset; draft 3's
``time`` must not shadow it). Found trying a clinic-booking module as its author would."""

from __future__ import annotations

import json
import re

import pytest

from playground.batch.lint import lint_registry
from playground.core.examples import refused_examples

TOOLS = '''
import datetime as dt
from typing import Annotated, Optional

from pydantic import BaseModel, Field


class Patient(BaseModel):
    name: str
    phone: str = Field(pattern=r"^010-\\d{4}-\\d{4}$", description="Mobile number")


def find_slots(day: dt.date, after: Optional[dt.time] = None, limit: Annotated[Optional[int], Field(le=5)] = None
) -> list:
    """Find free slots on one day.

    Args:
        day: The day to look at.
        after: Only slots after this time of day. Omit for all.
        limit: At most this many. Omit for all.
    """
    return []


def book(patient: Patient, start: dt.datetime) -> dict:
    """Book an appointment.

    Args:
        patient: Who the appointment is for.
        start: Start time, e.g. 2026-12-03T11:00:00.
    """
    return {"ok": True}


__tools__ = [find_slots, book]
'''


@pytest.fixture
def gate(make_gate):
    return make_gate(TOOLS, name="clinic")


def hint(message: str, arg: str):
    m = re.search(r"e\.g\. (\{.+?\})\.(?: Example call|$)", message)
    assert m, message
    return json.loads(m.group(1))[arg]


def test_an_optional_time_is_checked_as_its_type_with_an_example_the_type_takes(gate):
    """Issue 20 item 3: a ``dt.time`` parameter takes what pydantic's ``time`` takes ("12:00",
    no offset), not only RFC 3339; a bad value is still ``format:after`` (not ``type:after``),
    and the example the hint offers is one the type takes."""
    record = gate.call("find_slots", {"day": "2026-12-03", "after": "noon"})
    assert record.verdict == "format:after"  # not type:after ("not valid under any of ...")
    assert "RFC 3339" not in record.message and "an offset is optional" in record.message
    example = hint(record.message, "after")
    assert example == "10:00"
    assert gate.call("find_slots", {"day": "2026-12-03", "after": example}).verdict == "valid"


def test_a_time_parameter_takes_naive_and_offset_times_as_its_type_does(gate):
    for after in ("12:00:00+09:00", "12:00:00", "12:00"):
        ok = gate.call("find_slots", {"day": "2026-12-03", "after": after})
        assert (ok.verdict, ok.body_ran) == ("valid", True), after
    # the declaration tells the model so
    after = gate.registry.get("find_slots").parameters["properties"]["after"]
    assert "an offset is optional" in after["description"]


def test_an_optional_integer_over_its_maximum_is_a_range_verdict(gate):
    record = gate.call("find_slots", {"day": "2026-12-03", "limit": 9})
    assert record.verdict == "range:limit"
    assert "Keep 'limit' within <= 5" in record.message


def test_a_nested_pattern_names_the_field_and_its_pattern(gate):
    patient = {"name": "김민지", "phone": "01012345678"}
    record = gate.call("book", {"patient": patient, "start": "2026-12-04T11:00:00+09:00"})
    assert record.verdict == "pattern:patient"
    assert "Make 'patient.phone' match the pattern '^010-\\\\d{4}-\\\\d{4}$'" in record.message
    assert "pattern None" not in record.message


def test_a_docstring_example_the_format_refuses_is_never_the_hint(gate):
    patient = {"name": "김", "phone": "010-1234-5678"}
    # the author's own example (no offset) is what a plain datetime takes: valid, run
    record = gate.call("book", {"patient": patient, "start": "2026-12-05T11:00"})
    assert (record.verdict, record.body_ran) == ("valid", True)
    record = gate.call("book", {"patient": patient, "start": "5 Dec 11am"})
    assert record.verdict == "format:start"
    example = hint(record.message, "start")  # written in the declaration: one the type takes
    assert example in ("2026-12-03T11:00:00", "2026-12-03T10:00")
    assert gate.call("book", {"patient": patient, "start": example}).verdict == "valid"


def test_lint_names_the_refused_example(gate):
    contract = gate.registry.get("book")
    refused = refused_examples(
        "start", contract.parameters["properties"]["start"], contract.description
    )
    # against RFC 3339 (the declared format) the docstring's example is refused ...
    assert ("2026-12-03T11:00:00", "'2026-12-03T11:00:00' is not a 'date-time'") in refused
    # ... but the parameter's own type (a plain datetime) takes it, so lint does not flag it
    findings = [f for f in lint_registry(gate.registry) if f.rule == "example-invalid"]
    assert findings == []
