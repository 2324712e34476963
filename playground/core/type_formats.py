"""Date and time formats as the parameter's own Python type reads them (issue 20, item 3).

google-genai declares ``datetime``, pydantic's ``NaiveDatetime`` and ``AwareDatetime`` alike as
``{"type": "string", "format": "date-time"}``, and ``time`` as ``format: "time"``. JSON Schema
2020-12 takes those formats from RFC 3339 (§7.3.1), which requires seconds and an offset; the
parameter's type (pydantic, which converts the argument before the body runs) accepts more:
a plain ``datetime`` takes ``"2026-12-03T10:00"`` (local time, no offset). A gate that enforced
RFC 3339 there would be stricter than the tool, and its hint would send the model to values
that a naive-time body then compares with local times (``TypeError``).

So for a Python tool, each top-level parameter with such a format is probed once at load with
its own annotation (pydantic ``TypeAdapter``): does it take a naive value, an aware one, both?
The answer (:data:`KINDS`) is kept on the contract (``type_formats``); the validator then checks
that parameter with a format of the playground's own (``x-python-…``, registered on the gate's
format checker, checked by pydantic's ``TypeAdapter`` of the matching standard type), and the
declaration's parameter description says what is expected ("an offset is optional: without
one it is local time"). An aware type keeps RFC 3339's words. The declaration's ``format`` is
left as google-genai wrote it.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import typing
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

#: kind → (the format it replaces, the format name used by the gate's validator, the words
#: added to the parameter's description, an example value the type accepts)
KINDS: dict[str, tuple[str, str, str, str]] = {
    "datetime": (
        "date-time",
        "x-python-datetime",
        "ISO 8601 date and time; an offset (+09:00 or Z) is optional, without one it is "
        "local time, e.g. 2026-12-03T10:00.",
        "2026-12-03T10:00",
    ),
    "naive-datetime": (
        "date-time",
        "x-python-naive-datetime",
        "ISO 8601 local date and time, no offset, e.g. 2026-12-03T10:00.",
        "2026-12-03T10:00",
    ),
    "aware-datetime": (
        "date-time",
        "x-python-aware-datetime",
        "ISO 8601 date and time with an offset (+09:00 or Z), e.g. 2026-12-03T10:00:00+09:00.",
        "2026-12-03T10:00:00+09:00",
    ),
    "time": (
        "time",
        "x-python-time",
        "ISO 8601 time, HH:MM or HH:MM:SS; an offset is optional, e.g. 10:00.",
        "10:00",
    ),
    # below: not probed (one Python type per format); the format pydantic's own type takes
    "date": (
        "date",
        "x-python-date",
        "ISO 8601 date, YYYY-MM-DD (a date and a zero time also do), e.g. 2026-12-03.",
        "2026-12-03",
    ),
    "uuid": (
        "uuid",
        "x-python-uuid",
        "a UUID, 32 hex digits with or without dashes, e.g. 123e4567-e89b-12d3-a456-426614174000.",
        "123e4567-e89b-12d3-a456-426614174000",
    ),
}
#: the validator's format name → the kind (for the fix hint's words and example)
FORMAT_KIND = {fmt: kind for kind, (_, fmt, _, _) in KINDS.items()}

# probe values: what each kind takes and refuses
_PROBES = {
    "date-time": ("2026-12-03T10:00", "2026-12-03T10:00:00+09:00"),
    "time": ("10:00", "10:00:00+09:00"),
}


def _formats_in(schema: Any) -> Iterator[str]:
    """The ``format`` of ``schema`` and of its ``anyOf``/``oneOf`` branches (an Optional)."""
    if not isinstance(schema, dict):
        return
    if isinstance(schema.get("format"), str):
        yield schema["format"]
    for key in ("anyOf", "oneOf"):
        for branch in schema.get(key) or []:
            yield from _formats_in(branch)


def has_probed_formats(parameters: dict[str, Any]) -> bool:
    """Whether any top-level parameter has a ``date-time`` or ``time`` format (no import)."""
    props = parameters.get("properties") or {}
    return any(fmt in _PROBES for schema in props.values() for fmt in _formats_in(schema))


def probe_kinds(fn: Callable[..., Any], parameters: dict[str, Any]) -> dict[str, str]:
    """``{parameter: kind}`` for ``fn``'s top-level parameters whose schema has a ``date-time``
    or ``time`` format, read from their annotations with pydantic (imported only when one
    exists). A parameter whose type takes exactly what RFC 3339 takes, or that cannot be
    probed, is left out (the format is then checked as RFC 3339). Never raises."""
    props = parameters.get("properties") or {}
    wanted = {
        name: fmt for name, schema in props.items() for fmt in _formats_in(schema) if fmt in _PROBES
    }
    if not wanted:
        return {}
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
        names = set(inspect.signature(fn).parameters)
    except Exception:
        return {}
    from pydantic import TypeAdapter

    out: dict[str, str] = {}
    for name, fmt in wanted.items():
        hint = hints.get(name)
        if hint is None or name not in names:
            continue
        try:
            adapter = TypeAdapter(hint)
        except Exception:
            continue
        naive_value, aware_value = _PROBES[fmt]
        naive, aware = _accepts(adapter, naive_value), _accepts(adapter, aware_value)
        if fmt == "time":
            kind = "time" if naive else ""
        elif naive and aware:
            kind = "datetime"
        elif naive:
            kind = "naive-datetime"
        elif aware:
            kind = "aware-datetime"
        else:
            kind = ""
        if kind:
            out[name] = kind
    return out


def _accepts(adapter: Any, value: str) -> bool:
    try:
        adapter.validate_json(json.dumps(value))
    except Exception:
        return False
    return True


def declared(parameters: dict[str, Any], kinds: dict[str, str]) -> dict[str, Any]:
    """``parameters`` with each probed parameter's description saying what its type takes
    (:data:`KINDS`); ``parameters`` itself when ``kinds`` is empty."""
    if not kinds:
        return parameters
    props = dict(parameters.get("properties") or {})
    for name, kind in kinds.items():
        schema = props.get(name)
        if not isinstance(schema, dict):
            continue
        words = KINDS[kind][2]
        said = schema.get("description") or ""
        if words not in said:
            props[name] = {**schema, "description": f"{said} ({words})" if said else words}
    return {**parameters, "properties": props}


#: the format pydantic's ``datetime`` / ``time`` / ``date`` / ``UUID`` takes, for every value not
#: probed (a model's field, an item of ``list[datetime]``, any ``date`` or ``uuid``): the
#: conversion before the body (pydantic, :mod:`playground.core.convert`) still refuses what a
#: stricter type refuses, and the gate refuses nothing that conversion takes (a UUID without
#: dashes, a date written with a zero time)
_NESTED = {
    "date-time": "x-python-datetime",
    "time": "x-python-time",
    "date": "x-python-date",
    "uuid": "x-python-uuid",
}
# keys whose values are data, not schemas: never rewritten
_DATA_KEYS = frozenset({"enum", "const", "default", "examples", "example"})


def for_validation(
    parameters: dict[str, Any], kinds: dict[str, str], *, python: bool = False
) -> dict[str, Any]:
    """``parameters`` with each probed parameter's ``format`` (and its branches') replaced by
    the gate's own format of that kind. With ``python=True`` (a Python function's schema, built
    by google-genai from pydantic types) every other ``date-time`` / ``time`` / ``date`` /
    ``uuid`` format, at any depth (``items``, model fields in ``$defs``), becomes the one
    pydantic's ``datetime`` / ``time`` / ``date`` / ``UUID`` takes; a stricter type's refusal then comes from the conversion before the body.
    ``parameters`` itself when nothing changes."""
    swapped = _swap_deep(parameters) if python else parameters
    if not kinds and swapped is parameters:
        return parameters
    props = dict(swapped.get("properties") or {})
    for name, kind in kinds.items():
        if name in props:
            declared, fmt = KINDS[kind][0], KINDS[kind][1]
            props[name] = _swap(_swap(props[name], _NESTED[declared], declared), declared, fmt)
    return {**swapped, "properties": props}


def words_for(fmt: str) -> str:
    """What the gate's format ``fmt`` (``x-python-datetime``) takes, in words without the
    example; ``fmt`` itself for another format."""
    kind = FORMAT_KIND.get(fmt)
    return KINDS[kind][2].split(", e.g.")[0] if kind else fmt


def readable(message: str) -> str:
    """A jsonschema message with the gate's own format names (``'x-python-time'``) said in
    words, for people and models who never saw those names."""
    for fmt in FORMAT_KIND:
        message = message.replace(f"is not a {fmt!r}", f"is not {words_for(fmt)}")
    return message


def _swap_deep(node: Any) -> Any:
    """``node`` with every format of :data:`_NESTED` below it made pydantic's (the same object
    when there is none)."""
    if isinstance(node, list):
        items = [_swap_deep(item) for item in node]
        return node if all(a is b for a, b in zip(items, node)) else items
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] | None = None
    for key, value in node.items():
        if key in _DATA_KEYS:
            continue
        new = _NESTED[value] if key == "format" and value in _NESTED else _swap_deep(value)
        if new is not value:
            out = out if out is not None else dict(node)
            out[key] = new
    return node if out is None else out


def _swap(schema: Any, old: str, new: str) -> Any:
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    if out.get("format") == old:
        out["format"] = new
    for key in ("anyOf", "oneOf"):
        if isinstance(out.get(key), list):
            out[key] = [_swap(b, old, new) for b in out[key]]
    return out


@cache
def _adapter(kind: str) -> Any:
    import datetime as dt
    import uuid

    from pydantic import AwareDatetime, NaiveDatetime, TypeAdapter

    types: dict[str, Any] = {
        "datetime": dt.datetime,
        "naive-datetime": NaiveDatetime,
        "aware-datetime": AwareDatetime,
        "time": dt.time,
        "date": dt.date,
        "uuid": uuid.UUID,
    }
    return TypeAdapter(types[kind])


def register(checker: Any) -> None:
    """Add the ``x-python-…`` formats to jsonschema's ``FormatChecker`` ``checker``: a string
    passes when pydantic's ``TypeAdapter`` of the kind's standard type takes it (JSON mode);
    another JSON type passes (``type`` is checked by its own keyword)."""
    for fmt, kind in FORMAT_KIND.items():

        def check(value: Any, kind: str = kind) -> bool:
            if not isinstance(value, str):
                return True
            with contextlib.suppress(Exception):
                _adapter(kind).validate_json(json.dumps(value))
                return True
            return False

        checker.checks(fmt)(check)  # idempotent: the same name is replaced
