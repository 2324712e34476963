"""The one line a batch command prints when ctrl+c ended it early (issue 28 item 3)."""

from __future__ import annotations


def interrupted_after(done: int, planned: int) -> str:
    """``interrupted after 3 of 120 cases (the cases done are above)``: the ``error:`` line of
    ``check`` and ``probe`` stopped by ctrl+c. ``done``: cases run; ``planned``: cases the run
    was given."""
    return (
        f"interrupted after {done:,} of {planned:,} case{'s' if planned != 1 else ''} "
        "(the cases done are above)"
    )
