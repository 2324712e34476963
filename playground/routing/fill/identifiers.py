"""Identifiers written with separators, for the parameters whose examples are shaped like them
(rule ``identifier``): ``timezone`` with examples ``'America/New_York', 'Europe/London'`` takes
``Europe/Warsaw`` whole, never ``Europe``.

An identifier's *shape* is its separators and whether it opens with a letter or a digit
(:func:`shape`): ``Europe/Warsaw`` and ``America/Argentina/Buenos_Aires`` share ``('/', 'a')``;
``com.example.app`` is ``('.', 'a')``; ``v1.2.3`` is ``('.', 'a')`` too, ``192.168.0.1`` is
``('.', '9')``. Which strings are identifiers is :data:`playground.routing.values.IDENTIFIER_RE`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from playground.routing import values

Shape = tuple[str, str]


def shape(text: str) -> Shape | None:
    """The shape of identifier ``text`` (separators sorted, ``"a"`` or ``"9"`` for its first
    character), or ``None`` when ``text`` is not one identifier."""
    if not values.IDENTIFIER_RE.fullmatch(text) or values.identifiers(text) != [(0, len(text))]:
        return None
    seps = "".join(sorted(set(re.findall(r"[/.:]", text))))
    return seps, "9" if text[0].isdigit() else "a"


def example_shapes(examples: Iterable[str]) -> set[Shape]:
    """The shapes of the ``examples`` that are identifiers."""
    return {s for s in (shape(e) for e in examples) if s is not None}


def find(
    examples: Iterable[str], text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """The first unused identifier in ``text`` shaped like one of ``examples``, as ``(value,
    evidence)`` (rule ``identifier``), or ``None``."""
    wanted = example_shapes(examples)
    if not wanted:
        return None
    for start, end in values.identifiers(text):
        said = text[start:end]
        if shape(said) in wanted and values.outside((start, end), used):
            return said, {
                "rule": "identifier",
                "span": [start, end],
                "text": said,
                "detail": f"an identifier shaped like its examples ({', '.join(sorted(examples))})",
            }
    return None


def unlike_examples(examples: Iterable[str], value: Any) -> bool:
    """True when every example is an identifier with separators and ``value`` is a string that
    is none of their shapes (``'Tokyo'`` for a parameter whose examples are
    ``'America/New_York', 'Europe/London'``): such a value fits no shape the parameter takes."""
    examples = list(examples)
    wanted = example_shapes(examples)
    if not examples or len(wanted) == 0 or any(shape(e) is None for e in examples):
        return False
    return isinstance(value, str) and shape(value) not in wanted
