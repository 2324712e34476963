"""The sentences the loop writes itself: an answer from a result, "nothing found", giving up.

Seed 003, step 6: the reply node builds the answer from the first row of ``rows``; the giveup
node writes the last reason into the answer. Seed 003/004: an empty result gets "nothing found"
and nothing invented — no row, count or store appears that the tool did not return. Values are
words or JSON, never Python reprs (``yes``/``no``, ``none``; see
:func:`playground.routing.replies.say`). A repair that changed what the user asked for is said in
the reply (:func:`repair_note`): the answer is never silently about another question.
"""

from __future__ import annotations

from typing import Any

from playground.core.canonical import canonical_json, shorten
from playground.core.record import CallRecord
from playground.routing.korean import particle
from playground.routing.replies import say


def _rows(record: CallRecord, rows_key: str = "rows") -> list[Any] | None:
    value = record.value
    if isinstance(value, list):
        return value
    rows = value.get(rows_key) if isinstance(value, dict) else None
    if isinstance(rows, list):
        return rows
    return None


def _short(value: Any, limit: int = 200) -> str:
    return shorten(canonical_json(value), limit)


def _row_text(row: Any) -> str:
    if isinstance(row, dict):
        return ", ".join(f"{k}={say(v, False, 80)}" for k, v in row.items())
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


def _change_text(change: dict[str, Any], ko: bool, answered: bool) -> str | None:
    kind, arg = change.get("kind"), change.get("arg")
    old, new = say(change.get("old"), ko, 60), say(change.get("new"), ko, 60)
    if kind == "substituted":
        if ko:
            done = "안내해 드립니다" if answered else "찾아봤습니다"
            return f"{old}{particle(old, '은', '는')} 허용되지 않는 {arg} 값이라 {new} 기준으로 대신 {done}"
        return (
            f"{old} is not an allowed {arg}; {'showed' if answered else 'looked up'} {new} instead"
        )
    if kind == "clamped":
        high = change.get("bound") == "maximum"
        if ko:
            return (
                f"{arg} {old}{particle(old, '은', '는')} {'최댓값을 넘어' if high else '최솟값보다 작아'} "
                f"{new}{particle(new, '으로', '로')} 바꿔 조회했습니다"
            )
        return f"{arg} {old} is {'above the maximum' if high else 'below the minimum'}; used {new} instead"
    if kind == "fewer_rows":
        if ko:
            return f"전체 결과가 너무 많아 최대 {new}건만 조회했습니다"
        return f"the full result was too big; {'showed' if answered else 'looked up'} at most {new} rows"
    return None  # a misspelt tool name does not change the question


def repair_note(changes: list[dict[str, Any]], ko: bool, answered: bool = True) -> str:
    """``" (jeju is not an allowed region; showed seoul instead)"`` for the ``changes`` of the
    repairs (:attr:`playground.loop.repair.Fix.changes`), to append to a reply; ``""`` when
    nothing the user asked for changed (no repair, or only a misspelt tool name). ``ko``:
    Korean ("(jeju는 허용되지 않는 region 값이라 seoul 기준으로 대신 안내해 드립니다)").
    ``answered``: the reply answers from the result (else: nothing was found)."""
    parts = list(dict.fromkeys(t for t in (_change_text(c, ko, answered) for c in changes) if t))
    return f" ({'; '.join(parts)})" if parts else ""
