"""The result schema a tool's return annotation declares (when ``__contracts__`` gives no
``returns``): derived with pydantic's ``TypeAdapter`` as google-genai derives a declaration's
``response_json_schema``, in serialization mode, and made to accept what pydantic writes.

:func:`annotated_returns` gives the schema; :func:`annotation_sources` the files it depends on
(part of its on-disk cache key in :mod:`playground.core.declcache`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: The keys a schema may carry that say nothing about a value's shape.
_ANNOTATION_ONLY = frozenset({"title", "description", "$schema"})


def _says_no_shape(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` accepts any value of its type: ``{}`` (``Any``), an object with no
    keys or value schema (``dict``, ``dict[str, Any]``), an array with no item schema
    (``list``, ``list[Any]``)."""
    rest = {k: v for k, v in schema.items() if k not in _ANNOTATION_ONLY}
    rest = {
        k: v
        for k, v in rest.items()
        if not (k in ("items", "additionalProperties") and v in ({}, True))
    }
    return rest in ({}, {"type": "object"}, {"type": "array"})


def _as_pydantic_writes(schema: Any) -> None:
    """Make a derived result schema accept what pydantic writes, in place, at any depth:

    * ``format: date-time`` and ``format: time`` are removed: pydantic writes a naive
      ``datetime``/``time`` without an offset, which RFC 3339 (JSON Schema's formats) refuses;
      a tool returning ``datetime.now()`` under ``-> datetime`` keeps its own contract;
    * a fixed-length tuple says ``items: false`` instead of ``maxItems`` (an extra item is a
      ``shape`` fault, not ``too_big``, which asks for fewer rows);
    * a field whose default is ``None`` also accepts ``null`` (``limit: int = None``):
      pydantic does not validate defaults, so the model holds and writes that ``None``.
    """
    if isinstance(schema, dict):
        if schema.get("format") in ("date-time", "time"):
            del schema["format"]
        prefix = schema.get("prefixItems")
        if (
            isinstance(prefix, list)
            and schema.get("maxItems") == len(prefix)
            and "items" not in schema
        ):
            del schema["maxItems"]  # a tuple: one item too many is its shape, not "too many rows"
            schema["items"] = False
        for value in schema.values():
            _as_pydantic_writes(value)
        properties = schema.get("properties")
        if isinstance(properties, dict):
            for name, sub in properties.items():
                if (
                    isinstance(sub, dict)
                    and sub.get("default", ...) is None
                    and not _allows_null(sub)
                ):
                    properties[name] = {"anyOf": [sub, {"type": "null"}]}
    elif isinstance(schema, list):
        for value in schema:
            _as_pydantic_writes(value)


def _allows_null(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(isinstance(b, dict) and _allows_null(b) for b in schema.get("anyOf", []) or [])


def _return_hint(fn: Callable[..., Any]) -> Any:
    """``fn``'s resolved return annotation with its ``Annotated`` constraints, or
    ``inspect.Signature.empty`` (none, or a forward reference that does not resolve)."""
    import typing

    try:
        return typing.get_type_hints(fn, include_extras=True).get("return", inspect.Signature.empty)
    except Exception:  # an unresolvable forward reference: the SDK reports it for parameters
        return inspect.Signature.empty


def annotation_sources(fn: Callable[..., Any]) -> list[str]:
    """The files that define the classes ``fn``'s return annotation reaches (the classes of
    its type arguments, and of their fields: dataclasses, TypedDicts, pydantic models), each
    as ``"path:mtime_ns:size"``, sorted. A model kept in a sibling ``models.py`` changes the
    result's schema without changing the tool's file: this text is part of the cache key of
    :func:`annotated_returns`'s answer. No import; a few ``stat`` calls."""
    import sys
    import typing

    files: set[str] = set()
    seen: set[int] = set()

    def visit(tp: Any, depth: int) -> None:
        if id(tp) in seen or depth > 20:
            return
        seen.add(id(tp))
        for arg in typing.get_args(tp):
            visit(arg, depth + 1)
        origin = typing.get_origin(tp)
        if origin is not None:
            visit(origin, depth + 1)
        if not isinstance(tp, type) or tp.__module__ in ("builtins", "typing"):
            return
        module = sys.modules.get(tp.__module__)
        path = getattr(module, "__file__", None)
        if isinstance(path, str):
            files.add(path)
        try:
            fields = typing.get_type_hints(tp, include_extras=True)
        except Exception:
            return
        for field_hint in fields.values():
            visit(field_hint, depth + 1)

    visit(_return_hint(fn), 0)
    out = []
    for path in sorted(files):
        try:
            st = Path(path).stat()
        except OSError:
            continue
        out.append(f"{path}:{st.st_mtime_ns}:{st.st_size}")
    return out


def annotated_returns(fn: Callable[..., Any]) -> dict[str, Any] | None:
    """The JSON Schema of ``fn``'s return annotation, or ``None`` when it has none or it says
    no shape (``Any``, ``dict``, ``list[Any]``: see :func:`_says_no_shape`).

    Derived as google-genai derives a declaration's ``response_json_schema``
    (``_automatic_function_calling_util.parse_function_declaration_json_schema``: pydantic's
    ``TypeAdapter(annotation)``, arbitrary types allowed) — which the SDK does only for
    functions that take parameters; here for every function, so that ``def count() -> int``
    returning ``"three"`` is the ``shape`` fault it is — but in pydantic's *serialization*
    mode (``json_schema(mode="serialization")``), the mode the result is made in
    (:func:`playground.core.canonical.to_json_value` uses ``to_jsonable_python``): aliases,
    excluded fields, field and model serializers, computed fields are as the tool's result
    has them. ``Annotated`` constraints (``conint(ge=0)``, ``Field(max_length=2)``) are kept;
    what pydantic writes without validating is accepted (:func:`_as_pydantic_writes`). An annotation
    pydantic cannot describe (or cannot resolve) gives ``None``: the result goes unchecked,
    as before. Imports pydantic; :func:`playground.core.contracts.contract_from_function` checks the schema
    and caches the answer on disk.
    """
    hint = _return_hint(fn)
    if hint is inspect.Signature.empty:
        return None
    import pydantic

    try:
        adapter = pydantic.TypeAdapter(
            hint, config=pydantic.ConfigDict(arbitrary_types_allowed=True)
        )
        schema = adapter.json_schema(mode="serialization")
    except Exception:  # a class pydantic cannot describe, a config on a model class
        try:
            schema = pydantic.TypeAdapter(hint).json_schema(mode="serialization")
        except Exception:
            return None
    if not isinstance(schema, dict) or _says_no_shape(schema):
        return None
    _as_pydantic_writes(schema)
    return schema
