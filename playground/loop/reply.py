"""The sentences the loop writes itself: an answer from a result, "nothing found", giving up.

Seed 003, step 6: the reply node builds the answer from the first row of ``rows``; the giveup
node writes the last reason into the answer. Seed 003/004: an empty result gets "nothing found"
and nothing invented — no row, count or store appears that the tool did not return.
"""

from __future__ import annotations

from typing import Any

from playground.core.canonical import canonical_json
from playground.core.record import CallRecord


def _rows(record: CallRecord, rows_key: str = "rows") -> list[Any] | None:
    value = record.value
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and isinstance(value.get(rows_key), list):
        return value[rows_key]
    return None


def _short(value: Any, limit: int = 200) -> str:
    text = canonical_json(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _row_text(row: Any) -> str:
    if isinstance(row, dict):
        return ", ".join(f"{k}={v}" for k, v in row.items())
    return _short(row)


def answer_from(record: CallRecord, rows_key: str = "rows") -> str:
    """The reply for a successful call: how many rows and the first one (seed 003's reply node),
    or the value itself (compact JSON, cut to 200 characters) when it has no rows."""
    rows = _rows(record, rows_key)
    if rows:
        return f"{record.tool} returned {len(rows)} row(s); first: {_row_text(rows[0])}."
    return f"{record.tool} returned: {_short(record.value)}."


def nothing_found(record: CallRecord) -> str:
    """The reply for an empty result: nothing found, nothing invented, no repair tried."""
    return (
        f"Nothing was found: {record.tool} matched nothing for {_short(record.args, 120)}. "
        "No answer was invented, and no repair was tried (asking again gives the same empty result)."
    )


def gave_up(record: CallRecord | None, message: str, attempts: int) -> str:
    """The reply of the giveup node: the last reason and what the model was told."""
    if record is None:
        return message
    return f"Gave up after {attempts} call(s): {record.tool} failed with {record.error}. {message}"
