"""``show``'s idempotent flag says how it is known: a tester saw ``idempotent yes`` for a tool
whose effects were only inferred, with no word of why."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from playground.cli.main import app

MODULE = '''
def find_rooms(city: str) -> list:
    """Find hotel rooms in a city.

    Args:
        city: the city
    """
    return []


def cancel_stay(booking: str) -> dict:
    """Cancel a stay.

    Args:
        booking: the booking reference
    """
    return {"cancelled": booking}


def set_note(booking: str, note: str) -> dict:
    """Set the note of a booking.

    Args:
        booking: the booking reference
        note: the note
    """
    return {"booking": booking, "note": note}


__tools__ = [find_rooms, cancel_stay, set_note]
__contracts__ = {"set_note": {"side_effects": True, "idempotent": True}}
'''


def _idempotent_line(module: Path, tool: str) -> str:
    result = CliRunner().invoke(app, ["show", tool, "--tools", str(module)], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    rows = [" ".join(ln.strip("│ ").split()) for ln in result.stdout.splitlines()]
    (line,) = [row for row in rows if row.startswith("idempotent ")]
    return line


def test_the_idempotent_flag_says_how_it_is_known(tmp_path: Path) -> None:
    module = tmp_path / "hotel.py"
    module.write_text(MODULE, encoding="utf-8")
    assert _idempotent_line(module, "find_rooms") == (
        "idempotent yes a read (inferred) repeats harmlessly"
    )
    assert _idempotent_line(module, "cancel_stay") == "idempotent no"
    assert _idempotent_line(module, "set_note") == "idempotent yes declared"
