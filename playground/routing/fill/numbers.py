"""Numbers for numeric parameters: a written number as the declared type
(:func:`as_number`) and the ``integer`` rule (a count with its counter, "3개", "10 items", or
a number standing alone, within ``minimum``/``maximum``)."""

from __future__ import annotations

import re
from typing import Any

from playground.routing import values
from playground.routing.fill.specs import ParamSpec

_COUNTED_RE = re.compile(
    r"(?<![\w.])(\d+)\s*(?:개|건|가지|명|개만|건만|items?|results?|rows?)(?![A-Za-z])", re.I
)
_BARE_INT_RE = re.compile(r"(?<![\w.])(\d+)(?![\w.])")


def as_number(text: str, types: tuple[str, ...]) -> Any:
    """``text`` as an int (or a float when the schema allows numbers), else unchanged."""
    try:
        return int(text)
    except ValueError:
        pass
    if "number" in types:
        try:
            return float(text)
        except ValueError:
            pass
    return text


def integer_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    for rx in (_COUNTED_RE,):  # bare numbers are given by label in fill_loose
        for m in rx.finditer(text):
            if not values.outside(m.span(1), used):
                continue
            n = int(m.group(1))
            if (spec.minimum is not None and n < spec.minimum) or (
                spec.maximum is not None and n > spec.maximum
            ):
                continue
            return n, {
                "rule": "integer",
                "span": list(m.span(1)),
                "text": m.group(),
                "detail": "number in the question",
            }
    return None
