"""Canonical JSON for cache keys and display, and JSON conversion of tool results.

The cache key rule comes from seed 003 (step 5): ``json.dumps(args, sort_keys=True,
ensure_ascii=False)`` joined to the tool name, so the order in which arguments were written does
not matter. We also normalise numbers (an integral float such as ``1.0`` becomes ``1``) so that
``limit:=1`` and ``limit:=1.0`` share one key, as docs/design.md asks.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
import math
import numbers
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

# Deepest nesting accepted in JSON the playground reads (arguments, case lines) or a tool
# returns. Real tool arguments and results are a few levels deep; the limit keeps every
# recursive step after parsing (validation, cache key, record, output) far from Python's
# recursion limit (~1000 frames), so deep garbage gets a clear message instead of a crash.
MAX_DEPTH = 100
# Python refuses to convert integers longer than this to text (``sys.get_int_max_str_digits``,
# CVE-2020-10735), so such a number can be neither read from nor written as JSON.
MAX_INT_DIGITS = 4300
# The largest JSON text read as one document (an argument, a case line, a JSON file), in bytes
# of its UTF-8 (a Hangul syllable is 3): docs/cli.md, "Deep or huge JSON".
MAX_JSON_BYTES = 16 * 1024 * 1024


def too_big_text(limit: int | None = None) -> str:
    """``larger than 16 MB (the most the playground reads as one JSON document)`` for ``limit``
    bytes (default :data:`MAX_JSON_BYTES`, read when called)."""
    limit = MAX_JSON_BYTES if limit is None else limit
    return (
        f"larger than {limit / 1048576:g} MB (the most the playground reads as one JSON document)"
    )


def utf8_over(text: str, limit: int) -> bool:
    """Whether ``text`` takes more than ``limit`` bytes as UTF-8 (a lone surrogate counted as
    the 3 bytes ``surrogatepass`` writes), without encoding it when its length decides."""
    if len(text) > limit:
        return True
    if len(text) * 4 <= limit:
        return False
    return len(text.encode("utf-8", "surrogatepass")) > limit


class NotSerializable(ValueError):
    """A tool result holds a value JSON cannot carry; ``path`` says where (``$.rows[0].price``)."""

    def __init__(self, path: str, what: str) -> None:
        super().__init__(f"{what} at {path}")
        self.path = path
        self.what = what


class JsonInputError(ValueError):
    """JSON text given to the playground (``name:=json``, ``--args``, a case-file line) that it
    refuses; ``str(exc)`` says why in one line (``not valid JSON: Expecting value at column 3``)."""


def _reject_constant(name: str) -> Any:
    raise JsonInputError(
        f"{name} is not valid JSON (JSON has no NaN or Infinity; use null or a number)"
    )


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        shown = text if len(text) <= 30 else text[:29] + "…"
        raise JsonInputError(
            f"the number {shown} is out of range (it would be Infinity, which is not valid JSON)"
        )
    return value


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JsonInputError(
                f"the key {key!r} appears twice in one object (which one is meant?)"
            )
        out[key] = value
    return out


def _first_surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text`` (``\\udcff``: undecodable bytes or a bad ``\\ud800``
    escape), or ``None``; such a string cannot be written as UTF-8."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return text[exc.start]
    return None


def check_text(text: str, what: str) -> str:
    """Return ``text`` when it is valid Unicode, else raise :class:`JsonInputError` naming
    ``what`` (a command-line argument holding bytes that are not UTF-8 arrives with lone
    surrogates, which no JSON output or terminal can carry)."""
    bad = _first_surrogate(text)
    if bad is not None:
        raise JsonInputError(
            f"{what} is not valid UTF-8 text (it holds {bad!r}; re-encode it as UTF-8)"
        )
    return text


def json_depth_problem(value: Any, limit: int = MAX_DEPTH) -> str:
    """``""`` when ``value`` (parsed JSON) nests at most ``limit`` levels and its strings (keys
    included) are valid Unicode; else one line saying what is wrong and where. Iterative: safe
    on any depth."""
    stack: list[tuple[Any, int, str]] = [(value, 0, "$")]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, str):
            if _first_surrogate(item) is not None:
                return (
                    f"the string at {path} is not valid Unicode (a lone surrogate such as \\ud800)"
                )
            continue
        if isinstance(item, (dict, list)):
            if depth >= limit:
                return f"nested deeper than {limit} levels"
            if isinstance(item, dict):
                for key, sub in item.items():
                    if isinstance(key, str) and _first_surrogate(key) is not None:
                        return f"a key in {path} is not valid Unicode (a lone surrogate such as \\ud800)"
                    stack.append((sub, depth + 1, f"{path}.{key}"))
            else:
                stack.extend((sub, depth + 1, f"{path}[{i}]") for i, sub in enumerate(item))
    return ""


def _is_plain_leaf(value: Any) -> bool:
    """Whether ``value`` is a scalar JSON carries as is: an ASCII string, a bool, ``None``, a
    small int or a finite float (no walk needed)."""
    kind = type(value)
    if kind is str:
        return bool(value.isascii())
    if kind is int:
        return bool(-(2**62) < value < 2**62)
    if kind is float:
        return math.isfinite(value)
    return kind is bool or value is None


def args_shape_problem(value: Any) -> str:
    """``""`` when ``value`` (arguments handed to the gate, maybe built in Python) can be made
    canonical JSON; else one line saying why not (issue 11 item 12): a key that is not a
    string, a value that contains itself, nesting deeper than :data:`MAX_DEPTH`, an integer
    longer than :data:`MAX_INT_DIGITS` digits, a non-finite number, a string that is not valid
    Unicode. Recursion is bounded by :data:`MAX_DEPTH`."""
    if type(value) is dict and all(
        type(k) is str and k.isascii() and _is_plain_leaf(v) for k, v in value.items()
    ):
        return ""  # the usual arguments: a flat object of ASCII keys and plain scalars

    return _shape_problem(value, 0, "$", frozenset())


def _shape_problem(item: Any, depth: int, path: str, above: frozenset[int]) -> str:
    """:func:`args_shape_problem` of ``item`` found at ``path`` (JSONPath-like, ``$.a[0]``),
    ``depth`` levels down, inside the containers whose ids are ``above``."""
    if isinstance(item, (dict, list, tuple)):
        return _container_problem(item, depth, path, above)
    return _scalar_problem(item, path)


def _scalar_problem(item: Any, path: str) -> str:
    """Why the scalar ``item`` at ``path`` is not JSON data, or ``""``."""
    if isinstance(item, str):
        if _first_surrogate(item) is not None:
            return f"the string at {path} is not valid Unicode (a lone surrogate)"
        return ""
    if isinstance(item, bool) or item is None:
        return ""
    if isinstance(item, int):
        if item.bit_length() > 14_000 and not _fits(item):
            return f"the integer at {path} is longer than {MAX_INT_DIGITS} digits"
        return ""
    if isinstance(item, float):
        return "" if math.isfinite(item) else f"the number at {path} is NaN or Infinity"
    return f"the value at {path} is a {type(item).__name__}, which is not JSON data"


def _container_problem(
    item: dict[Any, Any] | list[Any] | tuple[Any, ...],
    depth: int,
    path: str,
    above: frozenset[int],
) -> str:
    """Why the object or array ``item`` at ``path`` (or something in it) is not JSON data,
    or ``""``: a cycle, too deep, a key that is not a string or not valid Unicode."""
    if id(item) in above:
        return f"the value at {path} contains itself (a reference cycle)"
    if depth >= MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels"
    inner = above | {id(item)}
    if not isinstance(item, dict):
        for i, sub in enumerate(item):
            found = _shape_problem(sub, depth + 1, f"{path}[{i}]", inner)
            if found:
                return found
        return ""
    for key, sub in item.items():
        if not isinstance(key, str):
            return (
                f"the object at {path} has a key of type {type(key).__name__} "
                f"({shorten(repr(key), 40)}); JSON object keys are strings"
            )
        if _first_surrogate(key) is not None:
            return f"a key in {path} is not valid Unicode (a lone surrogate)"
        found = _shape_problem(sub, depth + 1, f"{path}.{key}", inner)
        if found:
            return found
    return ""


def _fits(value: int) -> bool:
    try:
        str(value)
    except ValueError:
        return False
    return True


def parse_json(text: str) -> Any:
    """Parse JSON text strictly, for input the playground reads (``name:=json``, ``--args``,
    one case-file line).

    Stricter than ``json.loads`` (RFC 8259 leaves these to the reader; each would otherwise
    reach the output as invalid or ambiguous JSON): ``NaN``/``Infinity`` are refused (also a
    number such as ``1e400`` that would overflow to Infinity), a key
    repeated in one object is refused, nesting deeper than :data:`MAX_DEPTH` is refused, a
    string with a lone surrogate (``"\\ud800"``) is refused, and integers longer than
    :data:`MAX_INT_DIGITS` digits are refused. Raises :class:`JsonInputError` with a one-line
    reason (the column for syntax errors); never ``RecursionError``. Text larger than
    :data:`MAX_JSON_BYTES` bytes of UTF-8 is refused unread.
    """
    if utf8_over(text, MAX_JSON_BYTES):
        raise JsonInputError(too_big_text())
    try:
        value = json.loads(
            text,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
            object_pairs_hook=_no_duplicate_keys,
        )
    except JsonInputError:
        raise
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise JsonInputError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # an integer with more than 4300 digits (Python refuses to read it)
        if "integer string conversion" in str(exc):
            raise JsonInputError(
                f"a number longer than {MAX_INT_DIGITS} digits (not usable JSON)"
            ) from None
        raise JsonInputError(f"not usable JSON: {' '.join(str(exc).split())[:160]}") from None
    problem = json_depth_problem(value)
    if problem:
        raise JsonInputError(problem)
    return value


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


def canonical_json(value: Any, *, keep_floats: bool = False) -> str:
    """Canonical JSON text: keys sorted at every depth, Hangul as is, numbers normalised.

    Args: ``value``: any JSON-compatible value; ``keep_floats``: write an integral float as
    ``1.0`` rather than ``1`` (the cache key of a call: a Python body receives ``1.0`` and ``1``
    as different values unless its schema says integer, where the gate already made it ``1``).
    Returns: a compact ``str``. Values JSON cannot carry are rendered with ``repr`` (a cache key
    must never crash the gate).
    """
    return json.dumps(
        value if keep_floats else normalise_numbers(value),
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=repr,
    )


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, the last one ``…`` when it was cut (so a
    huge value never becomes a huge message)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cache_key(tool: str, args: Any, canonical: str | None = None) -> str:
    """The cache key of a call: ``"<tool>:<canonical args>"`` (seed 003, step 5).

    ``canonical``: ``canonical_json(args)`` when the caller already has it (the gate does).
    """
    return f"{tool}:{canonical_json(args) if canonical is None else canonical}"


class _NotPlain(Exception):
    """Raised by :func:`_plain_copy` at the first value that needs converting or refusing."""


def _plain_copy(value: Any, depth: int) -> Any:
    """A copy of ``value`` when it is already plain JSON data (exact ``dict`` with ``str`` keys,
    ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``; finite, valid Unicode, at most
    :data:`MAX_DEPTH` deep), else :class:`_NotPlain`. The common case of :func:`to_json_value`,
    without building a path for every item."""
    kind = type(value)
    if kind is str:
        if not value.isascii() and _first_surrogate(value) is not None:
            raise _NotPlain
        return value
    if kind is dict:
        if depth >= MAX_DEPTH:
            raise _NotPlain
        out = {}
        for key, item in value.items():
            if type(key) is not str or (not key.isascii() and _first_surrogate(key) is not None):
                raise _NotPlain
            # ASCII strings and small ints are the usual leaves: kept without a call
            leaf = type(item)
            if (leaf is str and item.isascii()) or (leaf is int and -(2**62) < item < 2**62):
                out[key] = item
            else:
                out[key] = _plain_copy(item, depth + 1)
        return out
    if kind is list:
        if depth >= MAX_DEPTH:
            raise _NotPlain
        return [_plain_copy(item, depth + 1) for item in value]
    if kind is int:
        if value.bit_length() > 14_000:
            raise _NotPlain
        return value
    if kind is float:
        if not math.isfinite(value):
            raise _NotPlain
        return value
    if value is None or kind is bool:
        return value
    raise _NotPlain


def copy_json(value: Any) -> Any:
    """A deep copy of ``value``: plain JSON data is copied directly (several times faster than
    :func:`copy.deepcopy`), anything else with :func:`copy.deepcopy`."""
    try:
        return _plain_copy(value, 0)
    except _NotPlain:
        import copy

        return copy.deepcopy(value)


def to_json_value(
    value: Any, path: str = "$", *, _depth: int = 0, _seen: frozenset[int] = frozenset()
) -> Any:
    """Convert a tool's return value into plain JSON data, or raise :class:`NotSerializable`.

    Converted (JSON can carry them): tuples → lists; ``datetime``/``date``/``time`` (as values
    or dict keys) → ISO 8601 strings; finite ``Decimal`` → its digits as a string (``"1.50"``, as
    pydantic's ``to_jsonable_python`` makes it); ``Enum`` → its value;
    dataclass instances → dicts; int/float/bool dict keys → strings (as ``json.dumps`` does);
    sets of sortable items → sorted lists; ``str``/``int`` subclasses → plain ``str``/``int``;
    anything else pydantic's ``to_jsonable_python`` can represent (pydantic models, ``UUID``,
    ``Path``, …) → what it makes of it.
    Rejected (``NotSerializable``): NaN and ±Infinity (not valid JSON), other numbers
    (``complex``, ``Fraction``: pydantic would make them the strings ``"1j"``, ``"1/3"``), ``bytes`` (binary
    data is not text: decode or base64 it in the tool), other dict key types, two keys that
    become the same string (``{1: .., "1": ..}``: one would be lost), a value that contains
    itself, nesting deeper than :data:`MAX_DEPTH`, a string with a lone surrogate (not valid
    Unicode), an integer longer than :data:`MAX_INT_DIGITS` digits, and any other object type.
    """
    if _depth == 0:
        try:  # plain JSON data (the usual result) is copied without tracking paths
            return _plain_copy(value, 0)
        except _NotPlain:
            pass  # convert or refuse below, naming the path
    scalar = _scalar_json(value, path, _depth, _seen)
    if scalar is not _NOT_SCALAR:
        return scalar
    if isinstance(value, (dict, list, tuple, set, frozenset)):
        return _container_json(value, path, _depth, _seen)
    return _object_json(value, path, _depth, _seen)


#: What :func:`_scalar_json` returns for a value that is not a scalar.
_NOT_SCALAR: Any = object()


def _scalar_json(value: Any, path: str, depth: int, seen: frozenset[int]) -> Any:
    """:func:`to_json_value` of a scalar (``None``, bool, str, a number, an ``Enum``, a date or
    time), or :data:`_NOT_SCALAR` for anything else."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        if _first_surrogate(value) is not None:
            raise NotSerializable(path, "a string that is not valid Unicode (a lone surrogate)")
        return value if type(value) is str else str.__str__(value)
    if isinstance(value, (int, float, Decimal)):
        return _number_json(value, path)
    if isinstance(value, enum.Enum):
        return to_json_value(value.value, path, _depth=depth, _seen=seen)
    if isinstance(value, numbers.Number):  # complex, Fraction: no JSON number says the same
        raise NotSerializable(
            path,
            f"the {type(value).__name__} number {_short_repr(value)} (a JSON number is a real "
            "decimal: return a float, or a string the tool formats)",
        )
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    return _NOT_SCALAR


def _number_json(value: int | float | Decimal, path: str) -> Any:
    """:func:`to_json_value` of an int, a float or a ``Decimal`` (subclasses included)."""
    if isinstance(value, int):
        if value.bit_length() > 14_000:  # about 4,200 digits: only then can str() refuse it
            _int_text(value, path)
        return value if type(value) is int else int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotSerializable(path, f"{value!r} (NaN/Infinity is not valid JSON)")
        return float(value)
    if not value.is_finite():
        raise NotSerializable(path, f"Decimal {value} (not a finite number)")
    from pydantic_core import to_jsonable_python

    # as pydantic makes it (issue 11 item 2): a string that keeps every digit ("1.50"),
    # the same inside a pydantic model and at the top level
    return to_jsonable_python(value)


def _container_json(
    value: dict[Any, Any] | list[Any] | tuple[Any, ...] | set[Any] | frozenset[Any],
    path: str,
    depth: int,
    seen: frozenset[int],
) -> Any:
    """:func:`to_json_value` of a dict, list, tuple or set: refuses a cycle and nesting deeper
    than :data:`MAX_DEPTH`, then converts each item."""
    if id(value) in seen:
        raise NotSerializable(path, "a value that contains itself (a reference cycle)")
    if depth >= MAX_DEPTH:
        shown = path if len(path) <= 60 else f"{path[:30]}…{path[-20:]}"
        raise NotSerializable(shown, f"a value nested deeper than {MAX_DEPTH} levels")
    seen = seen | {id(value)}
    deeper = depth + 1
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            text = _json_key(key, path)
            if text in out:
                raise NotSerializable(
                    f"{path}<key>",
                    f"two keys that both become {text!r} in JSON (one would be lost)",
                )
            out[text] = to_json_value(item, f"{path}.{text}", _depth=deeper, _seen=seen)
        return out
    if isinstance(value, (list, tuple)):
        return [
            to_json_value(item, f"{path}[{i}]", _depth=deeper, _seen=seen)
            for i, item in enumerate(value)
        ]
    return _set_json(value, path, deeper, seen)


def _set_json(value: set[Any] | frozenset[Any], path: str, depth: int, seen: frozenset[int]) -> Any:
    """A set as a sorted list (sorted by its items, else by their JSON values); refuses a set
    whose items do not order either way. ``depth`` and ``seen`` are those of the items."""
    try:
        items = sorted(value)
    except TypeError:  # Enum members, say: their JSON values may still order
        converted = [to_json_value(item, f"{path}[]", _depth=depth, _seen=seen) for item in value]
        try:
            return sorted(converted)
        except TypeError:
            raise NotSerializable(path, "a set of unorderable items (return a list)") from None
    return [
        to_json_value(item, f"{path}[{i}]", _depth=depth, _seen=seen)
        for i, item in enumerate(items)
    ]


def _object_json(value: Any, path: str, depth: int, seen: frozenset[int]) -> Any:
    """:func:`to_json_value` of any other object: bytes are refused, a dataclass becomes a
    dict, anything else is what pydantic's ``to_jsonable_python`` makes of it (else refused)."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise NotSerializable(path, "bytes (decode to str or base64-encode in the tool)")
    if (
        dataclasses.is_dataclass(value)
        and not isinstance(value, type)
        # a pydantic dataclass is made JSON the way a pydantic model is (aliases, serializers)
        and not hasattr(type(value), "__pydantic_serializer__")
    ):
        try:
            as_dict = dataclasses.asdict(value)
        except RecursionError:
            raise NotSerializable(
                path, "a dataclass that contains itself (a reference cycle)"
            ) from None
        return to_json_value(as_dict, path, _depth=depth, _seen=seen)
    # everything else the documented way: pydantic's ``to_jsonable_python`` (pydantic models,
    # UUID, Path, IP addresses, …); only what it cannot represent is refused
    from pydantic_core import PydanticSerializationError, to_jsonable_python

    converted = value
    if not isinstance(value, Iterator):  # a generator may never end: never drained here
        try:
            converted = to_jsonable_python(value)
        except (PydanticSerializationError, ValueError, TypeError, RecursionError):
            converted = value
    if converted is value:
        raise NotSerializable(
            path, f"an object of type {type(value).__name__} (JSON has no such type)"
        )
    return to_json_value(converted, path, _depth=depth, _seen=seen | {id(value)})


def _short_repr(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _int_text(value: int, path: str) -> str:
    try:
        return str(value)
    except ValueError:  # longer than sys.get_int_max_str_digits()
        raise NotSerializable(path, f"an integer longer than {MAX_INT_DIGITS} digits") from None


def _json_key(key: Any, path: str) -> str:
    if isinstance(key, str):
        if _first_surrogate(key) is not None:
            raise NotSerializable(
                f"{path}<key>", "a dict key that is not valid Unicode (a lone surrogate)"
            )
        return str.__str__(key)
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int):
        return _int_text(key, path)
    if isinstance(key, float):
        return str(key)
    if isinstance(key, (dt.datetime, dt.date, dt.time)):
        return key.isoformat()
    if isinstance(key, enum.Enum):  # as pydantic writes a dict[Status, int]: the value
        return _json_key(key.value, path)
    from pydantic_core import to_jsonable_python

    try:  # a UUID, a Path, a Decimal key: the string pydantic makes of it
        converted = to_jsonable_python(key)
    except (ValueError, TypeError):
        converted = None
    if isinstance(converted, str):
        return _json_key(converted, path)
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
