"""Arguments into the annotated types, where the function lives (issue 11 item 1).

A tool source calls :func:`call_args` just before it runs a body: each validated JSON argument
becomes the type its parameter is annotated with (a pydantic model, a dataclass, a
``TypedDict``, ``date``/``datetime``/``time``, ``UUID``, ``Decimal``, an ``Enum``, a
``Literal``…), converted by pydantic's ``TypeAdapter`` (the conversion google-genai's automatic
function calling applies to the same declarations). Unannotated and ``Any`` parameters get
their JSON value as it is. The body always gets its own copy of the arguments: a body that
mutates them cannot change the record or the cache key (issue 11 item 12).
"""

from __future__ import annotations

import contextlib
import inspect
import typing
import weakref
from collections.abc import Callable
from typing import Any

from playground.core.canonical import copy_json

# annotations whose validated JSON value already is the annotated type
_AS_JSON: frozenset[Any] = frozenset({str, int, bool, dict, list})

# (function) -> {parameter name: TypeAdapter or None (kept as JSON)}
# (weak keys: a reloaded module's old functions are dropped with it)
_adapters: weakref.WeakKeyDictionary[Callable[..., Any], dict[str, Any]] = (
    weakref.WeakKeyDictionary()
)


class ArgConversionError(ValueError):
    """A validated argument that could not become its annotated type: ``path`` names the field
    (``customer.address.zip``), ``str(exc)`` says why in one line."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def _adapters_of(fn: Callable[..., Any]) -> dict[str, Any]:
    try:
        found = _adapters.get(fn)
    except TypeError:  # not weak-referenceable (a builtin): not cached
        found = None
    if found is not None:
        return found
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:  # an annotation that does not resolve: hand over JSON as it is
        hints = {}
    out: dict[str, Any] = {}
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}  # type: ignore[assignment]
    for name in params:
        hint = hints.get(name)
        if hint is None or hint is Any or hint in _AS_JSON:
            out[name] = None
            continue
        from pydantic import TypeAdapter  # only for a type JSON is not already (~100 ms import)

        try:
            out[name] = TypeAdapter(hint)
        except Exception:  # pydantic cannot adapt it: the body gets the JSON value
            out[name] = None
    with contextlib.suppress(TypeError):
        _adapters[fn] = out
    return out


def call_args(fn: Callable[..., Any], args: dict[str, Any]) -> dict[str, Any]:
    """``args`` (validated, normalised JSON) as ``fn``'s annotated types, in a fresh copy.

    Raises :class:`ArgConversionError` naming the first field that validated against the
    JSON Schema but could not be converted (e.g. ``"2024-02-30"`` for a ``date``).
    """
    adapters = _adapters_of(fn)
    out: dict[str, Any] = {}
    for name, value in args.items():
        adapter = adapters.get(name)
        if adapter is None:
            out[name] = copy_json(value)
            continue
        from pydantic import ValidationError

        try:
            out[name] = adapter.validate_python(copy_json(value))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in (name, *first.get("loc", ())))
            raise ArgConversionError(where, str(first.get("msg", exc))) from None
    return out
