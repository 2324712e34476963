"""A string parameter whose description names its format gets an example in that format
(issue 25, item 8): ``probe``'s baseline sent ``"text"`` for "HH:MM" and "YYYY-MM-DD", which
the tool's body refused, so the probe's valid baseline failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.batch.probe import probe_contract
from playground.core.described_formats import described_example
from playground.core.examples import NO_EXAMPLE, valid_example
from playground.workbench import open_playground

BOOKING = '''
from datetime import datetime


def book_table(date: str, time: str, party_size: int) -> dict:
    """Book a table at the restaurant.

    Args:
        date: the day of the booking, YYYY-MM-DD.
        time: the time of the booking, HH:MM (24-hour).
        party_size: how many people.
    """
    datetime.strptime(f"{date} {time}", "%Y-%m-%d %H:%M")  # the body reads the formats
    return {"date": date, "time": time, "party_size": party_size}


__tools__ = [book_table]
__contracts__ = {"book_table": {"side_effects": False}}
'''


def test_the_probe_baseline_uses_the_described_formats(tmp_path: Path) -> None:
    (tmp_path / "booking.py").write_text(BOOKING, encoding="utf-8")
    pg = open_playground([tmp_path / "booking.py"], wire=False)
    try:
        report = probe_contract(pg, "book_table")
    finally:
        pg.close()
    baseline = report.cases[0]
    assert baseline.name == "baseline"
    assert baseline.args == {"date": "2026-06-21", "time": "14:30", "party_size": 1}
    assert baseline.kind == "ok"
    assert report.ok, [c.to_json() for c in report.problems]


@pytest.mark.parametrize(
    ("text", "example"),
    [
        ("the time of the booking, HH:MM (24-hour).", "14:30"),
        ("날짜, YYYY-MM-DD 형식", "2026-06-21"),
        ("when it left, YYYY-MM-DD HH:MM", "2026-06-21 14:30"),
        ("YYYYMMDD, no dashes", "20260621"),
        ("European style: DD.MM.YYYY", "21.06.2026"),
        ("local time YYYY-MM-DDTHH:MM:SS", "2026-06-21T14:30:00"),
        ("HH:mm:ss", "14:30:00"),
        ("US style MM/DD/YYYY", "06/21/2026"),
        ("a free text, no format", None),
        ("the DD of the HHS", None),  # one code alone, or inside a word, names no format
    ],
)
def test_a_described_template_gives_its_example(text: str, example: str | None) -> None:
    assert described_example(text) == example


def test_the_schema_still_decides() -> None:
    # a pattern the described example misses: the example built from the pattern instead
    schema = {"type": "string", "pattern": "^[0-9]{2}h[0-9]{2}$", "description": "HH:MM"}
    assert valid_example("time", schema) == "00h00"
    # the description's example written whole comes first
    written = {"type": "string", "description": "HH:MM, e.g. 09:15"}
    assert valid_example("time", written) == "09:15"
    # a fix hint (no placeholder words) now has a value to offer
    assert (
        valid_example("time", {"type": "string", "description": "HH:MM"}, placeholders=False)
        == "14:30"
    )
    assert valid_example("note", {"type": "string"}, placeholders=False) is NO_EXAMPLE
