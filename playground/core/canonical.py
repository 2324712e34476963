"""Canonical JSON for cache keys and display, and JSON conversion of tool results.

The cache key rule comes from seed 003 (step 5): ``json.dumps(args, sort_keys=True,
ensure_ascii=False)`` joined to the tool name, so the order in which arguments were written does
not matter. We also normalise numbers (an integral float such as ``1.0`` becomes ``1``) so that
``limit:=1`` and ``limit:=1.0`` share one key, as DESIGN.md asks.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
import math
from decimal import Decimal
from typing import Any


class NotSerializable(ValueError):
    """A tool result holds a value JSON cannot carry; ``path`` says where (``$.rows[0].price``)."""

    def __init__(self, path: str, what: str) -> None:
        super().__init__(f"{what} at {path}")
        self.path = path
        self.what = what


def normalise_numbers(value: Any) -> Any:
    """Return ``value`` with integral floats turned into ints, at every depth.

    ``True``/``False`` stay booleans (JSON ``true`` is never an integer). Non-finite floats are
    left alone (the caller decides what to do with them).
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: normalise_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise_numbers(v) for v in value]
    return value


def canonical_json(value: Any) -> str:
    """Canonical JSON text: keys sorted at every depth, Hangul as is, numbers normalised.

    Args: ``value``: any JSON-compatible value. Returns: a compact ``str``. Values JSON cannot
    carry are rendered with ``repr`` (a cache key must never crash the gate).
    """
    return json.dumps(
        normalise_numbers(value),
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=repr,
    )


def cache_key(tool: str, args: Any) -> str:
    """The cache key of a call: ``"<tool>:<canonical args>"`` (seed 003, step 5)."""
    return f"{tool}:{canonical_json(args)}"


def to_json_value(value: Any, path: str = "$") -> Any:
    """Convert a tool's return value into plain JSON data, or raise :class:`NotSerializable`.

    Converted (JSON can carry them): tuples → lists; ``datetime``/``date``/``time`` (as values
    or dict keys) → ISO 8601 strings; finite ``Decimal`` → int or float; ``Enum`` → its value;
    dataclass instances → dicts; int/float/bool dict keys → strings (as ``json.dumps`` does);
    sets of sortable items → sorted lists.
    Rejected (``NotSerializable``): NaN and ±Infinity (not valid JSON), ``bytes`` (binary
    data is not text: decode or base64 it in the tool), other dict key types, and any other
    object type.
    """
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotSerializable(path, f"{value!r} (NaN/Infinity is not valid JSON)")
        return value
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise NotSerializable(path, f"Decimal {value} (not a finite number)")
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, enum.Enum):
        return to_json_value(value.value, path)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out[_json_key(key, path)] = to_json_value(item, f"{path}.{key}")
        return out
    if isinstance(value, (list, tuple)):
        return [to_json_value(item, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, (set, frozenset)):
        try:
            items = sorted(value)
        except TypeError:
            raise NotSerializable(path, "a set of unorderable items (return a list)") from None
        return [to_json_value(item, f"{path}[{i}]") for i, item in enumerate(items)]
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise NotSerializable(path, "bytes (decode to str or base64-encode in the tool)")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json_value(dataclasses.asdict(value), path)
    raise NotSerializable(path, f"an object of type {type(value).__name__} (JSON has no such type)")


def _json_key(key: Any, path: str) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, (int, float)):
        return str(key)
    if isinstance(key, (dt.datetime, dt.date, dt.time)):
        return key.isoformat()
    raise NotSerializable(f"{path}<key>", f"a dict key of type {type(key).__name__}")


def json_type_name(value: Any) -> str:
    """The JSON type name of a Python value: object, array, string, integer, number, boolean, null."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return type(value).__name__
