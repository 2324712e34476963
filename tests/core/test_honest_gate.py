"""Issue 20, items 1–4: the gate tells the truth about the user's own tools.

A clinic booking module, written the way its author writes it (nothing declared), shows that:
a write is never served from the cache nor retried behind the model's back; the body gets what
was sent (an NFD file name byte for byte, a naive datetime as naive); a value the parameter's
own type takes is valid; every violation is listed with its JSON path, and what the model reads
holds no CLI syntax and no placeholder word."""

from __future__ import annotations

import json
import unicodedata

import pytest

from playground.core.effects import from_annotations, infer
from playground.core.gate import RetryPolicy

CLINIC = '''
import datetime as dt
import unicodedata
from pydantic import AwareDatetime

BOOKED = set()
SENT = []
FILES = {unicodedata.normalize("NFD", "보고서.txt"): "내용"}


def book_appointment(patient_id: str, when: dt.datetime) -> dict:
    """Book an appointment for a patient.

    Args:
        patient_id: The patient's id, e.g. P-100
        when: The start, e.g. 2026-12-03T10:00
    """
    if (patient_id, when) in BOOKED:
        raise ValueError(f"double booking: {patient_id} at {when}")
    BOOKED.add((patient_id, when))
    return {"booked": True, "when": when.isoformat(), "aware": when.tzinfo is not None}


def book_online(patient_id: str, when: AwareDatetime) -> dict:
    """Book an appointment in another time zone."""
    return {"when": when.isoformat()}


def send_email(to: str, body: str) -> dict:
    """Send an e-mail."""
    SENT.append(to)
    raise ConnectionError(f"connection dropped after sending ({len(SENT)} sent)")


def resend_receipt(order_id: str) -> dict:
    """Resend a receipt (safe to repeat)."""
    SENT.append(order_id)
    raise ConnectionError("connection dropped")


def list_appointments() -> list:
    """List the booked appointments."""
    return sorted(f"{p}@{w.isoformat()}" for p, w in BOOKED)


def price_list(clinic: str) -> dict:
    """Prices of one clinic."""
    return {"clinic": clinic, "checkup": 30000}


def read_file(name: str) -> dict:
    """Read a file by the name list_files gave."""
    return {"text": FILES[name], "name_bytes": name.encode().hex()}


def triage(actions: list[dict], ticket: str, priority: int) -> dict:
    """Triage a ticket."""
    return {"n": len(actions)}


__tools__ = [book_appointment, book_online, send_email, resend_receipt, list_appointments,
             price_list, read_file, triage]
__contracts__ = {
    "resend_receipt": {"side_effects": True, "idempotent": True},
    "price_list": {"cacheable": True},
}
'''


@pytest.fixture
def gate(make_gate):
    return make_gate(CLINIC, name="clinic", wire=True)


def test_an_undeclared_booking_runs_twice_and_says_why_it_was_not_cached(gate):
    args = {"patient_id": "P-1", "when": "2026-12-03T10:00"}
    first = gate.call("book_appointment", args)
    second = gate.call("book_appointment", args)
    assert (first.ok, first.body_ran, first.cache) == (True, True, "skip")
    # the second call ran its own body and got its own result: the double booking
    assert (second.body_ran, second.cache, second.error) == (True, "skip", "raised:ValueError")
    assert "double booking" in second.message
    assert gate.body_runs["book_appointment"] == 2
    assert second.side_effects["effects"] == "write"
    assert second.side_effects["basis"] == "inferred"
    assert second.side_effects["evidence"] == "the name's verb 'book'"
    assert second.side_effects["cache_skip"].startswith("it writes (inferred")


def test_a_tool_declared_cacheable_still_hits(gate):
    first = gate.call("price_list", {"clinic": "강남"})
    again = gate.call("price_list", {"clinic": "강남"})
    assert (first.cache, again.cache, again.body_ran) == ("stored", "hit", False)
    assert again.side_effects["basis"] == "declared" and again.side_effects["cache_skip"] == ""


def test_an_inferred_read_is_cached_and_labelled_inferred(gate):
    gate.call("book_appointment", {"patient_id": "P-1", "when": "2026-12-03T10:00"})
    first = gate.call("list_appointments", {})
    again = gate.call("list_appointments", {})
    assert (first.cache, again.cache) == ("stored", "hit")
    assert again.side_effects["effects"] == "read" and again.side_effects["basis"] == "inferred"


def test_a_failing_undeclared_write_is_sent_once(gate, fake_sleep):
    record = gate.call("send_email", {"to": "kim@example.com", "body": "안녕하세요"})
    assert record.kind == "transient" and record.retries == []
    assert gate.body_runs["send_email"] == 1 and fake_sleep.delays == []
    assert "not retried automatically because it writes" in record.message


def test_a_write_declared_idempotent_is_retried(gate, fake_sleep):
    record = gate.call("resend_receipt", {"order_id": "HR1"})
    assert record.kind == "transient"
    assert gate.body_runs["resend_receipt"] == RetryPolicy().max_attempts == 3
    assert len(record.retries) == 2 and len(fake_sleep.delays) == 2
    assert record.side_effects["idempotent"] is True


def test_a_naive_datetime_parameter_takes_local_time_and_the_body_gets_it_naive(gate):
    record = gate.call("book_appointment", {"patient_id": "P-2", "when": "2026-12-03T10:00"})
    assert (record.verdict, record.ok) == ("valid", True)
    assert record.value == {"booked": True, "when": "2026-12-03T10:00:00", "aware": False}
    # the declaration says so to the model
    when = gate.registry.get("book_appointment").parameters["properties"]["when"]
    assert "an offset (+09:00 or Z) is optional" in when["description"]
    assert when["format"] == "date-time"  # google-genai's format is kept


def test_lint_reports_where_the_declared_format_and_the_type_disagree(gate):
    from playground.batch.lint import lint_registry

    found = [f for f in lint_registry(gate.registry) if f.rule == "format-type-disagree"]
    assert [(f.tool, f.location, f.severity) for f in found] == [
        ("book_appointment", "book_appointment.when", "info")
    ]
    assert "declared format 'date-time'" in found[0].message
    assert "'2026-12-03T10:00'" in found[0].message


def test_an_aware_datetime_refuses_local_time_with_a_hint_the_type_takes(gate):
    record = gate.call("book_online", {"patient_id": "P-3", "when": "2026-12-03T10:00"})
    assert record.verdict == "format:when" and not record.body_ran
    example = json.loads(record.message.split("e.g. ")[1].split("}.")[0] + "}")["when"]
    assert gate.call("book_online", {"patient_id": "P-3", "when": example}).ok
    assert "with an offset" in record.message


def test_an_nfd_name_reaches_the_body_byte_for_byte_and_shares_the_cache_key(gate):
    nfd = unicodedata.normalize("NFD", "보고서.txt")
    nfc = unicodedata.normalize("NFC", nfd)
    assert nfd != nfc
    record = gate.call("read_file", {"name": nfd})
    assert record.ok, record.message
    assert record.value == {"text": "내용", "name_bytes": nfd.encode().hex()}
    assert record.args == {"name": nfd}
    other = gate.call("read_file", {"name": nfc})
    assert other.cache_key == record.cache_key  # one key for both spellings
    assert other.cache == "hit"


def test_a_float_the_schema_does_not_make_an_integer_keeps_its_own_cache_key(make_gate):
    gate = make_gate(
        """
from typing import Any

def describe(payload: dict[str, Any], limit: int = 3) -> dict:
    \"\"\"Describe the types of a payload.\"\"\"
    return {k: type(v).__name__ for k, v in payload.items()}

__contracts__ = {"describe": {"side_effects": False}}
__tools__ = [describe]
""",
        name="stats",
    )
    as_float = gate.call("describe", {"payload": {"n": 1.0}})
    as_int = gate.call("describe", {"payload": {"n": 1}})
    assert (as_float.value, as_int.value) == ({"n": "float"}, {"n": "int"})
    assert as_int.cache == "stored" and as_float.cache_key != as_int.cache_key
    # where the schema says integer, 3.0 and 3 are one call (the body gets 3 either way)
    first = gate.call("describe", {"payload": {}, "limit": 3.0})
    again = gate.call("describe", {"payload": {}, "limit": 3})
    assert again.cache == "hit" and first.cache_key == again.cache_key


def test_three_violations_are_all_listed_with_their_paths(gate):
    record = gate.call("triage", {"actions": '[{"a":1}]', "ticket": 7, "extra": True})
    assert record.verdict == "unknown:extra"  # the first, by the fixed order
    assert [(r["code"], r["path"]) for r in record.reasons] == [
        ("unknown:extra", "/extra"),
        ("missing:priority", "/priority"),
        ("type:actions", "/actions"),
        ("type:ticket", "/ticket"),
    ]
    actions = next(r for r in record.reasons if r["code"] == "type:actions")
    assert "a string holding JSON (an array)" in actions["message"]
    assert "send the array itself, not a string" in actions["message"]
    assert "4 problems (unknown:extra, missing:priority, type:actions, type:ticket)" in (
        record.message
    )


def test_a_lone_array_sent_as_a_string_is_named_as_such(gate):
    record = gate.call("triage", {"actions": '[{"a":1}]', "ticket": "T-1", "priority": 1})
    assert record.verdict == "type:actions"
    assert "'actions' is a string holding JSON (an array): send the array itself" in (
        record.message
    )
    assert [r["path"] for r in record.reasons] == ["/actions"]


def test_what_the_model_reads_holds_no_cli_syntax_and_no_placeholder(gate):
    records = [
        gate.call("triage", {"actions": "x", "ticket": 1}),
        gate.call("triage", {}),
        gate.call("book_appointment", {"patient_id": 5, "when": "soon"}),
        gate.call("read_file", {}),
        gate.call("price_list", {"clinic": None}),
    ]
    for record in records:
        assert record.kind == "invalid_args"
        for provider in ("gemini", "anthropic", "openai"):
            wire = json.dumps(record.wire[provider], ensure_ascii=False)
            assert ":=" not in wire, wire
            assert '\\"text\\"' not in wire and "<" not in wire, wire


@pytest.mark.parametrize(
    ("annotations", "kind", "idempotent"),
    [
        ({"readOnlyHint": True}, "read", True),
        ({"destructiveHint": True}, "write", False),
        ({"readOnlyHint": False, "idempotentHint": True}, "write", True),
        # only meaningful for a tool that is not read-only, and readOnlyHint defaults to false
        ({"destructiveHint": False}, "write", False),
        ({"idempotentHint": True}, "write", True),
    ],
)
def test_mcp_annotations_decide_the_effects(annotations, kind, idempotent):
    effects = from_annotations("get_or_fetch_report", "Returns a report.", annotations)
    assert (effects.kind, effects.basis, effects.idempotent) == (kind, "annotations", idempotent)


@pytest.mark.parametrize(
    ("name", "description", "kind", "basis"),
    [
        ("book_appointment", "", "write", "inferred"),
        ("sendEmail", "", "write", "inferred"),
        ("delete-file", "", "write", "inferred"),
        ("get_order_status", "", "read", "inferred"),
        ("stock_lookup", "Store-by-store stock.", "read", "inferred"),
        ("user_delete", "", "write", "inferred"),
        ("list_files", "", "read", "inferred"),
        ("weather", "Returns the forecast.", "read", "inferred"),
        ("appointment", "Books an appointment.", "write", "inferred"),
        ("예약", "진료 예약을 한다.", "write", "inferred"),
        ("주문상태", "주문 상태를 조회한다.", "read", "inferred"),
        ("주문", "주문을 조회한 뒤 취소한다.", "write", "inferred"),
        ("mutator", "Mutates its argument.", "unknown", "unknown"),
        # found by a tester: compound and noun-first names, dry runs, phrasal verbs
        ("get_or_create_user", "", "write", "inferred"),
        ("fetch_and_assign_ticket", "", "write", "inferred"),
        ("read_and_mark_read", "", "write", "inferred"),
        ("check_out_guest", "", "write", "inferred"),
        ("get_next_id", "Allocate the next id.", "write", "inferred"),
        ("email_lookup", "", "read", "inferred"),
        ("order_status", "", "read", "inferred"),
        ("payment_history", "", "read", "inferred"),
        ("delete_preview", "", "read", "inferred"),
        ("next_run", "Returns the next scheduled run after a time.", "read", "inferred"),
        ("pin", "Pins the note to the top.", "write", "inferred"),
        ("회원_가입", "", "write", "inferred"),
        ("thing", "Is the thing there?", "unknown", "unknown"),
    ],
)
def test_effects_are_inferred_from_the_name_then_the_description(name, description, kind, basis):
    effects = infer(name, description)
    assert (effects.kind, effects.basis) == (kind, basis)
    assert effects.idempotent == (kind == "read")


def test_unknown_effects_never_say_there_is_no_verb():
    """A newcomer's "Lend a book to a member." was said to name no verb: it names one the
    playground does not know as a read or a write."""
    effects = infer("borrow_book", "Lend a book to a member.")
    assert effects.kind == "unknown"
    assert effects.evidence == (
        "neither the name nor the description has a verb known as a read or a write"
    )


CALENDAR = '''
import datetime as dt
from typing import Annotated
from pydantic import AfterValidator, BaseModel


def _upper(value: str) -> str:
    if value != value.upper():
        raise ValueError("must be upper case")
    return value


class Label(BaseModel):
    name: str


class Event(BaseModel):
    title: str
    start: dt.datetime
    labels: list[Label] = []


def find_common_slot(candidates: list[dt.datetime]) -> dict:
    """Find the first slot all can attend."""
    return {"first": min(candidates).isoformat()}


def add_event(event: Event) -> dict:
    """Add an event to the calendar."""
    return {"start": event.start.isoformat(), "aware": event.start.tzinfo is not None}


def quiet_hours(start: dt.time = dt.time(22, 0), end: dt.time = "07:00") -> dict:
    """Returns the quiet hours window."""
    return {"start": start.isoformat(), "end": str(end)}


def assign_ward(patient_id: str, ward: Annotated[str, AfterValidator(_upper)]) -> dict:
    """Assign a patient to a ward."""
    return {"ward": ward}


__tools__ = [find_common_slot, add_event, quiet_hours, assign_ward]
__contracts__ = {name: {"side_effects": False} for name in ("find_common_slot", "quiet_hours")}
'''


@pytest.fixture
def calendar(make_gate):
    return make_gate(CALENDAR, name="calendar", wire=True)


def test_time_defaults_load_and_nested_datetimes_are_read_as_their_type(calendar):
    assert calendar.registry.get("quiet_hours") is not None  # its time defaults loaded
    record = calendar.call(
        "find_common_slot", {"candidates": ["2026-12-03T14:00", "2026-12-03T10:00"]}
    )
    assert (record.verdict, record.value) == ("valid", {"first": "2026-12-03T10:00:00"})
    record = calendar.call(
        "add_event", {"event": {"title": "standup", "start": "2026-12-03T10:00"}}
    )
    assert (record.verdict, record.value) == (
        "valid",
        {"start": "2026-12-03T10:00:00", "aware": False},
    )
    # a default is Python's own: the body gets it as written (pydantic converts only what is sent)
    assert calendar.call("quiet_hours", {}).value == {"start": "22:00:00", "end": "07:00"}


def test_a_bad_nested_datetime_is_named_in_words_with_an_example_the_type_takes(calendar):
    record = calendar.call("find_common_slot", {"candidates": ["soon"]})
    assert record.verdict == "format:candidates" and not record.body_ran
    assert "x-python" not in record.message
    assert "'soon' is not ISO 8601 date and time" in record.message


def test_a_type_conversion_refusal_did_not_run_the_body_and_is_a_reason(calendar):
    record = calendar.call("assign_ward", {"patient_id": "p1", "ward": "a"})
    assert (record.kind, record.verdict, record.body_ran, record.body_runs) == (
        "invalid_args",
        "type:ward",
        False,
        0,
    )
    assert record.reasons == [
        {"code": "type:ward", "path": "/ward", "message": "ward: Value error, must be upper case"}
    ]
    assert calendar.body_runs["assign_ward"] == 0


def test_a_nested_type_error_describes_the_field_that_failed(calendar):
    event = {"title": "standup", "start": "2026-12-03T10:00", "labels": ["urgent"]}
    record = calendar.call("add_event", {"event": event})
    assert record.verdict == "type:event"
    assert "Give 'event.labels.0' as object with name (string)" in record.message
    assert record.reasons[0]["path"] == "/event/labels/0"
