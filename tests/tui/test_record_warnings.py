"""A record's warnings (a result over the token budget, issue 11 kind 13) are on screen: the
Call view's Message row shows them under the model-facing message."""

from __future__ import annotations

from playground.core.record import CallRecord
from playground.tui.formatting import record_fields

OVER = "result:over_budget: many_rows returned about 919,463 tokens of result JSON, over the budget"


def test_an_ok_record_with_a_warning_shows_it_as_its_message():
    record = CallRecord(tool="many_rows", args={}, ok=True, kind="ok", warnings=[OVER])
    assert record_fields(record)["message"] == OVER


def test_a_warning_follows_the_message_and_no_warning_changes_nothing():
    record = CallRecord(tool="t", args={}, kind="empty", message="nothing found", warnings=[OVER])
    assert record_fields(record)["message"] == f"nothing found\n{OVER}"
    assert record_fields(CallRecord(tool="t", args={}, kind="ok"))["message"] == "-"
