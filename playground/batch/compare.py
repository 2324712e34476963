"""Comparing two eval runs of the same cases: the rates side by side and the cases that flipped.

Owns :class:`Flip` (a case that passed in one run and failed in the other, matched by line
number), :class:`Comparison` (``base``: the ``--tools`` run, ``other``: the ``--compare`` run)
and :func:`compare`. Used by ``playground eval --compare`` to judge a schema edit.

Rule source: seed 002 (``002_5dea94806f69c756.txt``): evaluate every schema edit like a prompt
edit, before and after, watching the selection and false-selection rates together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from playground.batch.evalcases import EvalCase

if TYPE_CHECKING:  # EvalReport's module re-exports this one; import it only for annotations
    from playground.batch.evaluate import EvalReport


@dataclass(frozen=True)
class Flip:
    """A case whose outcome differs between two runs: ``direction`` is ``"pass->fail"`` or
    ``"fail->pass"``; ``before`` / ``after`` are the two choices (tool or ``"(none)"``)."""

    case: EvalCase
    direction: str
    before: str
    after: str
    before_reason: str
    after_reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            **self.case.to_json(),
            "direction": self.direction,
            "before": self.before,
            "after": self.after,
            "before_reason": self.before_reason,
            "after_reason": self.after_reason,
        }


@dataclass
class Comparison:
    """Two runs of the same cases (``base``: ``--tools``; ``other``: ``--compare``) and the flips."""

    base: EvalReport
    other: EvalReport
    flips: list[Flip]

    def rates_side_by_side(self) -> list[dict[str, Any]]:
        """``[{"metric", "base", "other", "delta"}]`` for the four rates (delta ``None`` if undefined)."""
        a, b = self.base.metrics.rates(), self.other.metrics.rates()
        return [
            {
                "metric": k,
                "base": a[k],
                "other": b[k],
                "delta": _delta(a[k], b[k]),
            }
            for k in a
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "rates": self.rates_side_by_side(),
            "flips": [f.to_json() for f in self.flips],
            "base": self.base.to_json(),
            "other": self.other.to_json(),
        }


def compare(base: EvalReport, other: EvalReport) -> Comparison:
    """List the cases that passed in one run and failed in the other (matched by line number)."""
    by_line = {r.case.line: r for r in other.results}
    flips = []
    for a in base.results:
        b = by_line.get(a.case.line)
        if b is None or a.passed == b.passed:
            continue
        flips.append(
            Flip(
                a.case,
                "pass->fail" if a.passed else "fail->pass",
                a.choice,
                b.choice,
                a.reason(),
                b.reason(),
            )
        )
    return Comparison(base, other, flips)


def _delta(base: float | None, other: float | None) -> float | None:
    """``other - base``, or ``None`` when either rate is undefined."""
    return other - base if base is not None and other is not None else None
