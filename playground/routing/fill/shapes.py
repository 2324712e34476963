"""The value rules of the declared shape: ``pattern`` (the schema pattern, anchors removed),
``format`` (``date``, ``email``), ``example`` (shaped like an ID-like example), ``prefix`` (a
code with the stated prefix), tried after ``enum`` (:func:`structural`); and enum items of an
array parameter."""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import replace
from typing import Any

from playground.routing import values
from playground.routing.fill.enums import enum_value
from playground.routing.fill.spans import ALNUM, bounded_search, unanchor, upper_like
from playground.routing.fill.specs import ParamSpec

_DATE_RE = re.compile(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)")
_EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")


def _pattern_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``pattern``: text matching the schema pattern, anchors removed (rule
    ``sibling_pattern`` when the pattern is another tool's, :attr:`ParamSpec.pattern_from`)."""
    if spec.pattern:
        m = bounded_search(unanchor(spec.pattern), text, used)
        if m:
            lent = f" ({spec.pattern_from}'s {spec.name})" if spec.pattern_from else ""
            return m.group(), {
                "rule": "sibling_pattern" if spec.pattern_from else "pattern",
                "span": list(m.span()),
                "text": m.group(),
                "detail": spec.pattern + lent,
            }
    return None


def _format_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``format``: a ``date`` (YYYY-MM-DD) or an ``email``."""
    if spec.format == "date":
        for m in _DATE_RE.finditer(text):
            try:
                _dt.date.fromisoformat(m.group(1))
            except ValueError:
                continue
            if values.outside(m.span(1), used):
                return m.group(1), {
                    "rule": "format",
                    "span": list(m.span(1)),
                    "text": m.group(1),
                    "detail": "date YYYY-MM-DD",
                }
    if spec.format == "email":
        mail = _EMAIL_RE.search(text)
        if mail and values.outside(mail.span(), used):
            return mail.group(), {
                "rule": "format",
                "span": list(mail.span()),
                "text": mail.group(),
                "detail": "email",
            }
    return None


def _example_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``example``: text shaped like an ID-like example (:func:`shape_regex`)."""
    for example, shape in spec.shapes:
        m = bounded_search(shape, text, used, re.I)
        if m:
            value, upped = upper_like(m.group(), example)
            return value, {
                "rule": "example",
                "span": list(m.span()),
                "text": m.group(),
                "detail": f"shape {shape} from example {example!r}"
                + (", upper-cased" if upped else ""),
            }
    return None


def _prefix_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``prefix``: the examples' prefix followed by letters and digits."""
    if spec.prefix:
        rx = re.escape(spec.prefix) + rf"(?=[{ALNUM}-]*\d)[{ALNUM}-]+"
        m = bounded_search(rx, text, used, re.I)
        if m:
            value, upped = upper_like(m.group(), spec.prefix)
            return value, {
                "rule": "prefix",
                "span": list(m.span()),
                "text": m.group(),
                "detail": f"starts with {spec.prefix!r}" + (", upper-cased" if upped else ""),
            }
    return None


def structural(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rules 1-5, the first that finds a value: enum, pattern, format, example, prefix."""
    for find in (enum_value, _pattern_value, _format_value, _example_value, _prefix_value):
        found = find(spec, text, used)
        if found is not None:
            return found
    return None


def enum_items(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """For an array whose items list their values (``items.enum``): every listed value the
    question writes, by value or by its words (rule 1 per item), in the order written (rule
    ``enum_list``; ``spans`` holds each value's span). ``None`` when it writes none."""
    hits: list[tuple[int, int, Any]] = []
    for value in spec.item_enum:
        item = replace(spec, types=spec.item_types or ("string",), enum=(value,), item_enum=())
        found = structural(item, text, used + [(a, b) for a, b, _v in hits])
        if found is not None:
            hits.append((found[1]["span"][0], found[1]["span"][1], value))
    if not hits:
        return None
    hits.sort(key=lambda h: h[0])
    return [v for _a, _b, v in hits], {
        "rule": "enum_list",
        "span": [hits[0][0], hits[-1][1]],
        "spans": [(a, b) for a, b, _v in hits],
        "text": ", ".join(text[a:b] for a, b, _v in hits),
        "detail": f"the listed item values it writes ({len(hits)} of {len(spec.item_enum)})",
    }
