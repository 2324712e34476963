"""Example values a model can follow: every example in a fix hint passes the schema.

An ``invalid_args`` message ends with "..., e.g. name=<example>" and an example call. A wrong
example teaches the model the wrong thing ("Give 'name' as string, e.g. name=null"), so each
candidate is checked with the same validator the gate uses, and the value just refused is never
offered. Candidates, in order: the schema's ``examples``, a non-null ``default``, ``enum`` /
``const`` values, an example written in the parameter's prose ("예: 무선 키보드", "e.g.
'blue denim'", taken whole up to the end of its clause, not cut at the first space), a
string in the date/time format the prose names ("HH:MM" → ``14:30``:
:mod:`playground.core.described_formats`), then a value built from the schema (:func:`build_example`: an object with its required keys, an array
of one built item, the lower bound of a range, a value of a ``format``). When no candidate
passes, there is no example (:data:`NO_EXAMPLE`) rather than a wrong one.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from playground.core.canonical import canonical_json
from playground.core.described_formats import described_example
from playground.core.docstrings import arg_text
from playground.core.optional_schema import followed
from playground.core.type_formats import FORMAT_KIND, KINDS

#: Returned by :func:`valid_example` when nothing built or written passes the schema.
NO_EXAMPLE: Any = object()

_WRITTEN = re.compile(
    r"(?:예:|예시:|예\)|e\.g\.,?|eg\.|example:|for example,?|such as)\s*"
    # the unquoted clause ends at a line end, ``;``, a bracket, or a ``.``/``,`` that ends a
    # sentence or a clause (followed by a space or the end); a dot or comma inside a value
    # (``2.5``, ``report.pdf``, ``kim@example.com``, ``1,000``) does not end it
    r"(?:['\"“‘`]([^'\"”’`]+)['\"”’`]|((?:[^\n.,;)(]|[.,](?=[^\s.,;)(]))+))",
    re.I,
)
#: What a ``format`` asks for, in words, for the fix hint (JSON Schema 2020-12 §7.3, which
#: takes ``date``, ``time`` and ``date-time`` from RFC 3339 §5.6: a time needs seconds and an
#: offset, ``Z`` or ``+09:00``).
FORMAT_WORDS = {
    "date": "RFC 3339 full-date, YYYY-MM-DD",
    "date-time": "RFC 3339 date-time with seconds and an offset, YYYY-MM-DDTHH:MM:SS+09:00 or ...Z",
    "time": "RFC 3339 time with seconds and an offset, HH:MM:SS+09:00 or HH:MM:SSZ",
    "email": "an e-mail address",
    "uri": "an absolute URI with a scheme",
    "uuid": "a UUID, 8-4-4-4-12 hex digits",
    "ipv4": "a dotted IPv4 address",
    "ipv6": "an IPv6 address",
    "duration": "ISO 8601 duration, e.g. P1D",
}
_FORMATS = {
    "date": "2026-06-21",
    "date-time": "2026-06-21T09:00:00+09:00",
    "time": "09:00:00+09:00",
    "email": "user@example.com",
    "uri": "https://example.com",
    "url": "https://example.com",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "hostname": "example.com",
    "duration": "P1D",
}


_JSON = json.JSONDecoder()


def _json_written(text: str, m: re.Match[str]) -> str | None:
    """The JSON array or object written right after an example marker (``e.g. ["Acme"]``,
    ``예: {"a": 1, "b": 2}``), whole -- commas and brackets inside it included -- or ``None``
    when what follows the marker is no JSON array or object."""
    start = m.start(2) if m.group(2) is not None else m.start(1) - 1
    if start < 0 or start >= len(text) or text[start] not in "[{":
        return None
    try:
        _, end = _JSON.raw_decode(text, start)
    except ValueError:
        return None
    return text[start:end]


def written_examples(text: str) -> list[str]:
    """Examples written in prose: a JSON array or object whole (``e.g. ["Acme", "Beta"]``),
    the quoted text whole, or the unquoted clause up to the next ``;``, bracket, line end, or
    ``.``/``,`` followed by a space or the end -- a dot inside ``2.5`` or ``kim@example.com``
    is part of the value (then its first word as a shorter candidate)."""
    out: list[str] = []
    for m in _WRITTEN.finditer(text or ""):
        quoted, bare = m.group(1), m.group(2)
        as_json = _json_written(text, m)
        if as_json is not None:
            out.append(as_json)
        elif quoted:
            out.append(quoted.strip())
        elif bare and bare.strip():
            clause = bare.strip()
            out.append(clause)
            first = clause.split()[0]
            if first != clause:
                out.append(first)
    return list(dict.fromkeys(out))


def refused_examples(
    name: str,
    schema: dict[str, Any],
    tool_description: str = "",
    *,
    root: dict[str, Any] | None = None,
) -> list[tuple[Any, str]]:
    """The examples an author gave for parameter ``name`` that its own ``schema`` refuses (the
    gate's validator, formats included): the schema's ``examples`` and each example written in
    the parameter's description or its docstring line (``e.g.``, ``예:``, ``such as`` ...).
    Returns ``[(example, the validator's message)]`` in the order written; a JSON array or
    object written after the marker (``e.g. ["Acme"]``, ``e.g. {"a": 1}``) is read as JSON and
    reported as that value; any other written example counts as refused only when neither its
    whole clause nor its first word, read as a string, number or boolean, passes. A model copies examples, so each one here teaches it a value
    the gate will refuse (seed 001 §3: the model puts the example's form straight into the argument)."""
    root = root or {}
    full = dict(schema)
    for key in ("$defs", "definitions"):
        if key in root and key not in full:
            full[key] = root[key]
    try:
        from playground.core.ecma import EcmaValidator

        validator = EcmaValidator(full, format_checker=EcmaValidator.FORMAT_CHECKER)
        validator.is_valid(None)
    except Exception:  # a schema the validator cannot read is another rule's finding
        return []
    out: list[tuple[Any, str]] = []
    for value in schema.get("examples") or []:
        error = next(iter(validator.iter_errors(value)), None)
        if error is not None:
            out.append((value, error.message))
    prose = " ".join(
        x for x in (schema.get("description") or "", arg_text(tool_description, name)) if x
    )
    for m in _WRITTEN.finditer(prose):
        as_json = _json_written(prose, m)
        if as_json is not None:
            value = json.loads(as_json)
            error = next(iter(validator.iter_errors(value)), None)
            if error is not None:
                out.append((value, error.message))
            continue
        quoted, bare = m.group(1), (m.group(2) or "").strip()
        texts = [quoted.strip()] if quoted else [bare, bare.split()[0]] if bare else []
        readings = [v for text in texts for v in _typed(text, schema)]
        if not readings or any(validator.is_valid(v) for v in readings):
            continue
        error = next(iter(validator.iter_errors(readings[-1 if quoted else 0])), None)
        out.append((texts[0], error.message if error is not None else "refused"))
    return out


def _typed(text: str, schema: dict[str, Any]) -> list[Any]:
    """``text`` as the values it could mean for ``schema`` (a JSON array or object, a string,
    an int, a float, a boolean): the validator picks the one that fits."""
    out: list[Any] = [text]
    if text[:1] in ("[", "{"):
        try:
            out.insert(0, json.loads(text))
        except ValueError:
            pass
    try:
        number = float(text)
        out.insert(0, int(number) if number.is_integer() else number)
    except ValueError:
        pass
    if text.lower() in ("true", "false"):
        out.insert(0, text.lower() == "true")
    return out


def build_example(
    schema: Any, root: dict[str, Any] | None = None, depth: int = 0, *, placeholder: bool = True
) -> Any:
    """A value built from ``schema`` alone (no validation here; :func:`valid_example` checks
    it): non-null branches and types first; an object with each required key built; an array
    of one built item (``minItems`` of them when larger); a number at its lower bound (or 1,
    kept within ``maximum``); a string of its ``format``, else ``"text"`` padded to
    ``minLength`` — unless ``placeholder`` is false: then a free string has no example (what a
    model reads never holds a placeholder word). ``NO_EXAMPLE`` when nothing can be built (too
    deep, ``false``)."""
    root = root or {}
    if depth > 12 or schema is False:
        return NO_EXAMPLE
    schema = followed(schema, root)
    if "const" in schema:
        return schema["const"]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        non_null = [v for v in enum if v is not None]
        return (non_null or enum)[0]
    value = _branch_example(schema, root, depth, placeholder)
    if value is not NO_EXAMPLE:
        return value
    for sub in schema.get("allOf") or []:
        schema = {**schema, **followed(sub, root)}
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t == "object" or (t is None and "properties" in schema):
        return _object_example(schema, root, depth, placeholder)
    if t == "array":
        return _array_example(schema, root, depth, placeholder)
    if t in ("integer", "number"):
        return _number_example(schema, integer=t == "integer")
    if t == "boolean":
        return True
    if t == "null":
        return None
    if t == "string" or t is None:
        return _string_example(schema, placeholder)
    return NO_EXAMPLE


def _branch_example(
    schema: dict[str, Any], root: dict[str, Any], depth: int, placeholder: bool
) -> Any:
    """The first ``anyOf``/``oneOf`` branch (non-null ones first, each merged with the rest of
    ``schema``) that :func:`build_example` can build, or :data:`NO_EXAMPLE`."""
    for key in ("anyOf", "oneOf"):
        branches = [b for b in schema.get(key) or [] if isinstance(b, dict)]
        branches.sort(key=lambda b: followed(b, root).get("type") == "null")
        for branch in branches:
            merged = {**{k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}, **branch}
            value = build_example(merged, root, depth + 1, placeholder=placeholder)
            if value is not NO_EXAMPLE:
                return value
    return NO_EXAMPLE


def _object_example(
    schema: dict[str, Any], root: dict[str, Any], depth: int, placeholder: bool
) -> Any:
    """An object with each required key built (:data:`NO_EXAMPLE` if one cannot be)."""
    props = schema.get("properties") or {}
    out = {}
    for name in schema.get("required") or []:
        value = build_example(props.get(name, {}), root, depth + 1, placeholder=placeholder)
        if value is NO_EXAMPLE:
            return NO_EXAMPLE
        out[name] = value
    return out


def _array_example(
    schema: dict[str, Any], root: dict[str, Any], depth: int, placeholder: bool
) -> Any:
    """Each ``prefixItems`` entry built, else one built item (``minItems`` of them when
    larger), cut at ``maxItems``; :data:`NO_EXAMPLE` if an item cannot be built."""
    items = schema.get("items")
    prefix = schema.get("prefixItems")
    built = []
    if isinstance(prefix, list):
        built = [build_example(p, root, depth + 1, placeholder=placeholder) for p in prefix]
    elif isinstance(items, dict):
        one = build_example(items, root, depth + 1, placeholder=placeholder)
        if one is not NO_EXAMPLE:
            built = [one] * max(1, int(schema.get("minItems", 1) or 1))
    if any(b is NO_EXAMPLE for b in built):
        return NO_EXAMPLE
    top = schema.get("maxItems")
    return built[:top] if isinstance(top, int) else built


def _number_example(schema: dict[str, Any], *, integer: bool) -> Any:
    """A number at the lower bound (``minimum``, or ``exclusiveMinimum`` + 1), else 1; kept
    within ``maximum``, rounded up to a ``multipleOf``; an int when ``integer``."""
    lo = schema.get("minimum")
    if lo is None and isinstance(schema.get("exclusiveMinimum"), (int, float)):
        lo = schema["exclusiveMinimum"] + 1
    value = lo if isinstance(lo, (int, float)) and not isinstance(lo, bool) else 1
    hi = schema.get("maximum")
    if isinstance(hi, (int, float)) and value > hi:
        value = hi
    step = schema.get("multipleOf")
    if isinstance(step, (int, float)) and step > 0 and value % step:
        value = (value // step + 1) * step
    return int(value) if integer else value


def _string_example(schema: dict[str, Any], placeholder: bool) -> Any:
    """A string of the schema's ``format``; else the first string its ``pattern`` matches
    (``^HR\\d{6}$`` → ``HR000000``); else ``"text"`` padded to ``minLength``. With
    ``placeholder`` false, only a format's string (a made-up value is never offered to a
    model), else :data:`NO_EXAMPLE`."""
    fmt = schema.get("format")
    if fmt in _FORMATS:
        return _FORMATS[fmt]
    if fmt in FORMAT_KIND:  # a date/time format read as the parameter's own type reads it
        return KINDS[FORMAT_KIND[fmt]][3]
    if not placeholder:
        return NO_EXAMPLE
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        matching = _pattern_example(pattern)
        if matching is not NO_EXAMPLE:
            return matching
    size = schema.get("minLength")
    text = "text"
    if isinstance(size, int) and size > len(text):
        text = text + "x" * (size - len(text))
    return text


def valid_example(
    name: str,
    schema: dict[str, Any],
    tool_description: str = "",
    *,
    root: dict[str, Any] | None = None,
    avoid: Any = NO_EXAMPLE,
    placeholders: bool = True,
) -> Any:
    """The first candidate (module docstring) that passes ``schema`` and is not ``avoid`` (the
    value just refused), or :data:`NO_EXAMPLE`. ``name``: the parameter, for its docstring line
    in ``tool_description``; ``root``: the whole parameters schema (for ``$ref``/``$defs``);
    ``placeholders=False``: no built placeholder string (``"text"``) is offered."""
    root = root or {}
    full = dict(schema)
    for key in ("$defs", "definitions"):
        if key in root and key not in full:
            full[key] = root[key]
    from playground.core.ecma import EcmaValidator

    # formats are checked as the gate checks them: an example the gate refuses is no example
    validator = EcmaValidator(full, format_checker=EcmaValidator.FORMAT_CHECKER)
    for value in _candidates(name, followed(schema, root), tool_description, root, placeholders):
        if value is NO_EXAMPLE:
            continue
        if avoid is not NO_EXAMPLE and canonical_json(value) == canonical_json(avoid):
            continue
        try:
            if validator.is_valid(value):
                return value
        except Exception:  # a schema the validator cannot read: no example
            return NO_EXAMPLE
    return NO_EXAMPLE


def _candidates(
    name: str,
    schema: dict[str, Any],
    description: str,
    root: dict[str, Any],
    placeholders: bool = True,
) -> Any:
    yield from schema.get("examples") or []
    if schema.get("default") is not None:
        yield schema["default"]
    if "const" in schema:
        yield schema["const"]
    yield from [v for v in schema.get("enum") or [] if v is not None]
    prose = " ".join(x for x in (schema.get("description") or "", arg_text(description, name)) if x)
    for text in written_examples(prose):
        yield from _typed(text, schema)
    described = described_example(prose)  # "HH:MM" → "14:30" (core/described_formats)
    if described is not None:
        yield described
    yield build_example(schema, root, placeholder=placeholders)
    if schema.get("default") is None and "default" in schema:
        yield None


def cli_hint(name: str, value: Any) -> str:
    """How to type ``name`` = ``value`` on the command line (HTTPie style, as ``playground
    call`` reads it): ``name=value`` for a string, ``name:=7`` (raw JSON) for anything else."""
    if isinstance(value, str):
        return f"{name}={canonical_json(value)}"
    return f"{name}:={canonical_json(value)}"


@cache
def _pattern_example(pattern: str) -> Any:
    """The first string (in exrex's order: shortest repeats, first characters of each class)
    that the regular expression ``pattern`` generates, or :data:`NO_EXAMPLE` when exrex cannot
    read it (an ECMA-262 ``\\p{L}``, a look-around it cannot honour yields a string the caller's
    validation then refuses)."""
    import exrex

    try:
        return next(iter(exrex.generate(pattern, limit=4)))
    except Exception:  # a syntax exrex does not know, or a pattern matching nothing
        return NO_EXAMPLE
