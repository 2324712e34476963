"""Argument and result validation with jsonschema, mapped to the reason codes of docs/design.md.

Arguments (seed 003 ``validate_args``; codes in ``docs/design.md``): ``missing:<arg>``,
``unknown:<arg>``, ``type:<arg>``, ``allowed:<arg>``, ``range:<arg>``, ``pattern:<arg>``,
``format:<arg>``, ``shape``. Validation uses ``Draft202012Validator`` with its ``FormatChecker``
(JSON Schema 2020-12). JSON ``true`` is never an integer (jsonschema's type checker already says
so); an integral float such as ``1.0`` for an integer parameter is normalised to ``1`` first.

Results (seed 003 ``validate_result``): ``not_serializable``, ``shape``, ``empty``, ``too_big``,
``range``, checked against the contract's ``returns`` schema and its ``max_rows`` / ``max_bytes``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from playground.core.canonical import (
    NotSerializable,
    args_shape_problem,
    canonical_json,
    copy_json,
    json_type_name,
    shorten,
    to_json_value,
)
from playground.core.contracts import Contract
from playground.core.docstrings import arg_text, parse_docstring
from playground.core.examples import (
    FORMAT_WORDS,
    NO_EXAMPLE,
    build_example,
    valid_example,
)
from playground.core.quick_valid import surely_valid
from playground.core.type_formats import FORMAT_KIND, KINDS, readable, words_for
from playground.core.validators import validator_for

if TYPE_CHECKING:  # jsonschema is imported only when a value is not quickly found valid
    from jsonschema.exceptions import ValidationError

# When several defects are present, the first in this order is reported (deterministic).
_ORDER = ("shape", "unknown", "missing", "type", "allowed", "range", "pattern", "format")
_RANGE_KEYWORDS = {
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "multipleOf",
    "uniqueItems",
}
# Non-standard keys the playground adds to a ``returns`` schema; jsonschema ignores them.
RESULT_LIMIT_KEYS = ("max_rows", "rows_key", "max_bytes")


#: how many characters of a refused value a model-facing message (and a reason) quotes
QUOTE_CHARS = 200


@dataclass(frozen=True)
class Reason:
    """One violation: ``code`` (``"type:actions"``), ``path`` (a JSON Pointer into the
    arguments, RFC 6901: ``"/actions/0/a"``; ``""`` for the whole object) and ``message`` (one
    sentence naming the mistake and the fix)."""

    code: str
    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        """``{"code", "path", "message"}`` (the record's ``reasons`` items)."""
        return {"code": self.code, "path": self.path, "message": self.message}


@dataclass(frozen=True)
class Verdict:
    """The result of validating arguments.

    ``code``: ``""`` when valid, else the first reason code (``"type:limit"``). ``message``:
    for the model and the developer — what was wrong, why, how to fix it, with an example
    (every reason when there are several). ``args``: the arguments the body receives (as sent;
    a Python tool's integral floats for integers made ints); the original when invalid.
    ``key_args``: the arguments the cache key and ``canonical_args`` are made of (strings in
    Unicode NFC, integral floats as ints, omitted defaults filled; ``None`` when invalid).
    ``reasons``: every violation found, ``verdict`` first.
    """

    code: str
    message: str
    args: Any
    key_args: Any = None
    reasons: tuple[Reason, ...] = ()

    @property
    def ok(self) -> bool:
        return self.code == ""


@dataclass(frozen=True)
class ResultCheck:
    """The result of validating a return value: ``reason`` (``""`` when valid), ``message``, and
    ``value`` (the JSON form of the result when it could be converted, else ``None``)."""

    reason: str
    message: str
    value: Any


def _is_integer_schema(schema: dict[str, Any]) -> bool:
    t = schema.get("type")
    if t == "integer" or (isinstance(t, list) and "integer" in t and "number" not in t):
        return True
    return any(
        _is_integer_schema(s)
        for key in ("anyOf", "oneOf")
        for s in schema.get(key, [])
        if isinstance(s, dict)
    )


def _resolve(schema: Any, root: dict[str, Any]) -> Any:
    """``schema`` with a local ``$ref`` (``#/$defs/Address``) followed (a few hops at most)."""
    for _ in range(8):
        if not isinstance(schema, dict):
            return schema
        ref = schema.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return schema
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part) if isinstance(target, dict) else None
        schema = target
    return schema


def _nfc_text(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _normalise(
    value: Any, schema: Any, root: dict[str, Any], nfc: Callable[[str], str] = _nfc_text
) -> Any:
    if isinstance(value, str):
        return nfc(value)
    schema = _resolve(schema, root)
    if not isinstance(schema, dict):
        schema = {}
    if isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer() and _is_integer_schema(schema):
        return int(value)
    if isinstance(value, list):
        items = schema.get("items")
        new = [_normalise(item, items, root, nfc) for item in value]
        return value if all(a is b for a, b in zip(new, value)) else new
    if isinstance(value, dict):
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        extra = schema.get("additionalProperties")  # dict[str, int]: every value's schema
        return {
            (nfc(k) if isinstance(k, str) else k): _normalise(v, props.get(k, extra), root, nfc)
            for k, v in value.items()
        }
    return value


# Argument types :func:`normalise_args` never changes (no float to turn into an int, no nesting).
_UNCHANGED = frozenset({int, bool, type(None)})


def normalise_args(
    args: dict[str, Any], parameters: dict[str, Any], *, unicode: bool = True
) -> dict[str, Any]:
    """Return a normalised copy of ``args`` (issue 11 item 5; docs/design.md): strings (keys
    included) in Unicode NFC (unless ``unicode=False``), ``1.0`` → ``1`` wherever the schema
    says integer, at every depth of ``properties`` / ``items`` (local ``$ref`` followed);
    ``True`` stays a boolean. With NFC, these values make the cache key (NFC and NFD spellings
    share one); without, they are what a Python body receives (issue 20 item 2: the body gets
    the strings as sent)."""
    if all(type(v) in _UNCHANGED or (type(v) is str and v.isascii()) for v in args.values()):
        return dict(args)  # nothing to normalise: a plain copy
    props = parameters.get("properties", {}) or {}
    nfc = _nfc_text if unicode else _same
    return {nfc(k): _normalise(value, props.get(k), parameters, nfc) for k, value in args.items()}


def _same(text: str) -> str:
    return text


def fill_defaults(args: dict[str, Any], parameters: dict[str, Any]) -> dict[str, Any]:
    """``args`` with every omitted parameter that declares a ``default`` filled in, so omitting
    a default and passing it explicitly give one cache key (issue 11 item 5)."""
    props = parameters.get("properties", {}) or {}
    missing = [
        name
        for name, schema in props.items()
        if name not in args and isinstance(schema, dict) and "default" in schema
    ]
    if not missing:
        return args
    out = dict(args)
    for name in missing:
        out[name] = copy_json(props[name]["default"])
    return out


def describe_arrival(value: Any) -> str:
    """Say what arrived, for a ``shape`` message: ``a JSON string holding an object ('{...}'),
    not the object itself``, ``an array of 2 item(s)``, ``null``, ``an integer (3)``."""
    if value is None:
        return "null"
    if isinstance(value, str):
        try:
            inner = json.loads(value)
        except (ValueError, TypeError):
            inner = None
        shown = value if len(value) <= 60 else value[:57] + "..."
        if isinstance(inner, dict):
            return f"a JSON string holding an object ({shown!r}), not the object itself"
        return f"a string ({shown!r})"
    if isinstance(value, (list, tuple)):
        return f"an array of {len(value)} item(s)"
    kind = json_type_name(value)
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} ({canonical_json(value)[:60]})"


def arg_doc(description: str, arg: str) -> str:
    """The text a docstring gives for ``arg`` (seed 001: the whole docstring, Args included, is
    the tool description), or ``""``: read in any common style (Google, NumPy, reST/Sphinx,
    Epydoc) by :func:`playground.core.docstrings.arg_text`; a docstring without any section
    falls back to an ``arg: text`` line."""
    found = arg_text(description, arg)
    if found or parse_docstring(description or "").args:
        return found
    m = re.search(rf"^\s*{re.escape(arg)}\s*(?:\([^)]*\))?:\s*(.+)$", description or "", re.M)
    return m.group(1).strip() if m else ""


def example_value(name: str, schema: dict[str, Any], tool_description: str = "") -> Any:
    """An example for a parameter that passes its schema (:func:`playground.core.examples.
    valid_example`: ``examples``, a non-null ``default``, ``enum``, an example written in its
    description or docstring line taken whole, or a value built from the schema); when none
    passes, the value built from the schema as is, or ``None``."""
    found = valid_example(name, schema, tool_description)
    if found is NO_EXAMPLE:
        found = build_example(schema)
    return None if found is NO_EXAMPLE else found


def _example_args(parameters: dict[str, Any], tool_description: str = "") -> Any:
    """An arguments object with every required parameter's example that passes the whole
    ``parameters`` schema, or :data:`NO_EXAMPLE`."""
    props = parameters.get("properties", {}) or {}
    required = parameters.get("required", []) or list(props)[:1]
    example: dict[str, Any] = {}
    for n in required:
        if n not in props:
            continue
        value = valid_example(n, props[n], tool_description, root=parameters, placeholders=False)
        if value is NO_EXAMPLE:
            return NO_EXAMPLE
        example[n] = value
    try:
        ok = validator_for(parameters).is_valid(example)
    except Exception:
        return NO_EXAMPLE
    return example if ok else NO_EXAMPLE


def _example_call(parameters: dict[str, Any], tool_description: str = "") -> str:
    example = _example_args(parameters, tool_description)
    return canonical_json(example) if example is not NO_EXAMPLE else "{...}"


def _arg_of(error: ValidationError) -> str:
    """The argument a reason code names. A missing or unknown key below the top level is named
    by its path (``missing:person.age``, ``unknown:items.0.colour``): the bare key would name an
    argument the tool does not have, and a model told "Add 'age'" adds it at the top level."""
    if error.validator in ("required", "additionalProperties"):
        if error.validator == "required":
            m = re.match(r"'([^']+)' is a required property", error.message)
        else:
            m = re.search(r"\('([^']+)'", error.message)
        key = m.group(1) if m else "?"
        return ".".join([*(str(p) for p in error.absolute_path), key])
    return str(error.absolute_path[0]) if error.absolute_path else "?"


def _code_of(error: ValidationError) -> str:
    arg = _arg_of(error)
    v = error.validator
    if v == "required":
        return f"missing:{arg}"
    if v == "additionalProperties":
        return f"unknown:{arg}"
    if v in ("enum", "const"):
        return f"allowed:{arg}"
    if v in _RANGE_KEYWORDS:
        return f"range:{arg}"
    if v == "pattern":
        return f"pattern:{arg}"
    if v == "format":
        return f"format:{arg}"
    return f"type:{arg}"  # type, anyOf/oneOf of types, items, ...


def _rank(code: str) -> int:
    head = code.split(":", 1)[0]
    return _ORDER.index(head) if head in _ORDER else len(_ORDER)


def check_args(contract: Contract, args: Any) -> Verdict:
    """Validate ``args`` against ``contract.parameters``; never raises.

    Returns a :class:`Verdict`; ``code`` is empty when valid, else the first of ``reasons``
    (every violation, by :data:`_ORDER`, each with its JSON Pointer). The arguments are checked
    as sent (no Unicode normalisation: a body compares what it receives), with date and time
    formats read as the parameter's own type reads them (:mod:`playground.core.type_formats`).
    An argument the schema does not list is ``unknown`` for a Python tool (its signature would
    refuse it), and for an MCP tool only where its ``inputSchema`` refuses it (JSON Schema allows
    other properties unless ``additionalProperties`` says otherwise).
    """
    params = contract.parameters
    props = params.get("properties", {}) or {}
    if not isinstance(args, dict):
        message = (
            f"The arguments must be a JSON object like {_example_call(params, contract.description)}, but "
            f"{describe_arrival(args)} arrived. Send the object itself"
            + (" (parse the string first)." if isinstance(args, str) else ".")
        )
        return Verdict("shape", message, args, reasons=(Reason("shape", "", message),))
    problem = args_shape_problem(args)
    if problem:
        message = (
            f"The arguments of {contract.name} cannot be read as JSON: {problem}. Send a plain"
            " JSON object (string keys, no cycles, at most 100 levels deep)."
        )
        return Verdict("shape", message, args, reasons=(Reason("shape", "", message),))
    found: dict[tuple[str, str], tuple[str, ValidationError | None]] = {}
    if contract.origin != "mcp":  # a Python body's signature takes only its parameters
        for name in args:
            if name not in props:
                allowed = ", ".join(props) or "(none)"
                found[(f"unknown:{name}", json_pointer([name]))] = (
                    f"{name!r} is not an argument of {contract.name}. Allowed: {allowed}.",
                    None,
                )
    try:
        schema = validation_schema(contract)
        # jsonschema (every error, its messages) only when the quick check does not say valid
        errors = () if surely_valid(schema, args) else validator_for(schema).iter_errors(args)
        for error in errors:
            error = _informative(error)
            code = _code_of(error)
            found.setdefault((code, _error_pointer(error)), (error.message, error))
    except Exception as exc:  # a broken schema must not crash the gate
        return Verdict("shape", f"The contract's parameter schema is invalid: {exc}", args)
    if not found:
        if all(type(v) in _UNCHANGED or (type(v) is str and v.isascii()) for v in args.values()):
            # nothing to normalise (the usual case): the body and the key get the same copy
            return Verdict("", "", dict(args), fill_defaults(dict(args), params))
        return Verdict(
            "", "", _body_args(contract, args), fill_defaults(normalise_args(args, params), params)
        )
    ordered = sorted(found.items(), key=lambda item: (_rank(item[0][0]), item[0][0], item[0][1]))
    reasons = tuple(
        Reason(code, path, _reason_text(contract, code, detail, args, error))
        for (code, path), (detail, error) in ordered
    )
    (code, _), (detail, first) = ordered[0]
    if len(reasons) == 1:
        message = _args_message(contract, code, detail, args, first)
    else:
        message = _many_message(contract, reasons)
    return Verdict(code, message, args, reasons=reasons)


def _body_args(contract: Contract, args: dict[str, Any]) -> dict[str, Any]:
    """What the body receives: the arguments as sent (a copy). A Python tool's integral float
    for an integer parameter (``1.0``) becomes ``1``, as its declared type converts it; strings
    are never normalised. An MCP server gets the JSON value as sent."""
    if contract.origin == "mcp":
        copied: dict[str, Any] = copy_json(args)
        return copied
    return normalise_args(args, contract.parameters, unicode=False)


def validation_schema(contract: Contract) -> dict[str, Any]:
    """The schema the gate validates ``contract``'s arguments with: its ``parameters``, with the
    date/time formats read as its own types read them (a Python function's:
    :func:`playground.core.type_formats.for_validation`; ``parameters`` itself otherwise). Kept
    on the contract beside the parameters object it was built from (rebuilt when that object is
    replaced), so its validator is cached like the parameters' own."""
    params = contract.parameters
    kept = contract.__dict__.get("_validation_schema")
    if kept is not None and kept[0] is params:
        schema: dict[str, Any] = kept[1]
        return schema
    if contract.origin == "function" or contract.type_formats:
        from playground.core.type_formats import for_validation

        schema = for_validation(params, contract.type_formats, python=contract.origin == "function")
    else:
        schema = params
    contract.__dict__["_validation_schema"] = (params, schema)
    return schema


def json_pointer(parts: list[Any]) -> str:
    """A JSON Pointer (RFC 6901) into the arguments: ``["items", 0, "a/b"]`` → ``/items/0/a~1b``
    (``""`` for the whole object). The paths of a record's ``reasons``."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _error_pointer(error: ValidationError) -> str:
    """Where ``error`` is: the failing value's path, plus the key for a missing or unknown one."""
    parts: list[Any] = list(error.absolute_path)
    if error.validator in ("required", "additionalProperties"):
        parts.append(_arg_of(error).rsplit(".", 1)[-1])
    return json_pointer(parts)


def _string_holding_json(value: Any, schema: Any) -> str:
    """``"array"`` or ``"object"`` when ``value`` is a string whose text is JSON of that type
    and ``schema`` expects it (a model that serialised the value twice), else ``""``."""
    if not isinstance(value, str) or not isinstance(schema, dict):
        return ""
    try:
        inner = json.loads(value)
    except (ValueError, TypeError, RecursionError):
        return ""
    kind = "array" if isinstance(inner, list) else "object" if isinstance(inner, dict) else ""
    words = _type_words(schema)
    return kind if kind and kind in words and "string" not in words.split(" or ") else ""


def _reason_text(
    contract: Contract,
    code: str,
    detail: str,
    args: dict[str, Any],
    error: ValidationError | None,
) -> str:
    """One reason in one sentence, for ``reasons`` and the many-reasons message."""
    head, _, arg = code.partition(":")
    schema = (contract.parameters.get("properties", {}) or {}).get(arg, {})
    if head == "type" and error is not None:
        kind = _string_holding_json(error.instance, error.schema)
        if kind:
            where = ".".join(str(p) for p in error.absolute_path) or arg
            return (
                f"{where!r} is a string holding JSON (an {kind}), not the {kind} itself: "
                f"send the {kind} itself, not a string."
            )
    if head == "unknown" and "." in arg:
        parent, _, key = arg.rpartition(".")
        allowed = ""
        if error is not None and isinstance(error.schema, dict):
            allowed = ", ".join((error.schema.get("properties") or {}).keys()) or "(none)"
        return (
            f"{key!r} is not a field of {parent!r}; the fields allowed there are "
            f"{allowed or '(see the schema)'}."
        )
    if head == "unknown":
        allowed = ", ".join(contract.parameters.get("properties", {}) or {}) or "(none)"
        return f"{arg!r} is not an argument of {contract.name}; the arguments are {allowed}."
    if head == "missing":
        return f"{arg!r} is required: add it."
    where = ".".join(str(p) for p in error.absolute_path) if error is not None else arg
    value = error.instance if error is not None else args.get(arg)
    got = f" (got {shorten(canonical_json(value), QUOTE_CHARS)})"
    detail = shorten(detail, 2 * QUOTE_CHARS)
    if head == "type":
        # the schema that failed may sit below the argument (an item, a model's field)
        failed = error.schema if error is not None and where != arg else schema
        words = _type_words(_resolve(failed, contract.parameters), contract.parameters)
        return f"{where or arg!r} must be {words}{got}."
    return f"{_detail(contract, code, detail, error).rstrip('.')}{got}."


def _detail(contract: Contract, code: str, detail: str, error: ValidationError | None) -> str:
    """jsonschema's message, except for a format the gate reads as the parameter's own type
    (its ``x-python-…`` name means nothing to a model): what that type takes, in words."""
    if error is None or error.validator != "format":
        return detail
    return readable(detail)


def _many_message(contract: Contract, reasons: tuple[Reason, ...]) -> str:
    """What the model reads when several arguments are wrong: every reason, numbered, then an
    example call. Provider-neutral: examples are JSON values."""
    parts = [
        f"Invalid arguments for {contract.name}: {len(reasons)} problems "
        f"({', '.join(r.code for r in reasons)})."
    ]
    parts += [f"{n}) {r.code}: {r.message}" for n, r in enumerate(reasons, 1)]
    call = _example_args(validation_schema(contract), contract.description)
    if call is not NO_EXAMPLE:
        parts.append(f"Example call: {contract.name}({canonical_json(call)}).")
    return " ".join(parts)


def _informative(error: ValidationError) -> ValidationError:
    """The error that says what is wrong. For ``anyOf``/``oneOf`` (pydantic and google-genai
    write ``Optional[int]`` as ``anyOf: [{type: integer, ...}, {type: null}]``), jsonschema
    reports "not valid under any of the given schemas"; the branch whose type the value has
    holds the real reason (a ``maximum``, a ``format``, a nested ``pattern``). Returns that
    branch's error (the first by :data:`_ORDER`), or ``error`` itself when every branch failed
    on its type (then ``type:<arg>`` is the right code)."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return error
    inner = [_informative(e) for e in _chosen_branches(error.context) if e.validator != "type"]
    inner = [e for e in inner if e.validator not in ("anyOf", "oneOf")]
    if not inner:
        return error
    return min(inner, key=lambda e: _rank(_code_of(e)))


def _chosen_branches(context: list[ValidationError]) -> list[ValidationError]:
    """The errors of the ``anyOf``/``oneOf`` branches the value chose. A branch whose field
    ``const``/``enum`` refuses the value's field (a discriminated union: ``{"kind": "transfer"}``
    against the ``kind: "card"`` branch) is not the one the value meant, so its other errors
    ("number is required") would point the fix at the wrong shape. When every branch is refused
    that way, the refusals of the discriminating field are what is wrong; ``context`` itself when
    no branch is."""
    by_branch: dict[Any, list[ValidationError]] = {}
    for error in context:
        branch = error.relative_schema_path[0] if error.relative_schema_path else None
        by_branch.setdefault(branch, []).append(error)
    chosen = [
        error
        for errors in by_branch.values()
        if not any(e.validator in ("const", "enum") and len(e.relative_path) == 1 for e in errors)
        for error in errors
    ]
    if chosen:
        return chosen
    refusals = [e for e in context if e.validator in ("const", "enum")]
    return [_one_refusal(refusals)] if refusals else context


def _one_refusal(refusals: list[ValidationError]) -> ValidationError:
    """One ``enum`` error whose allowed values are every branch's (``["card", "transfer"]``),
    at the place of the first refusal, so the fix names every shape the union takes."""
    values: list[Any] = []
    for error in refusals:
        taken: Any = error.validator_value
        for value in taken if error.validator == "enum" else [taken]:
            if value not in values:
                values.append(value)
    from jsonschema.exceptions import ValidationError

    first = refusals[0]
    return ValidationError(
        f"{first.instance!r} is not one of {values!r}",
        validator="enum",
        validator_value=values,
        instance=first.instance,
        schema={"enum": values},
        path=first.relative_path,
        schema_path=first.relative_schema_path,
        parent=first.parent,
    )


def _args_message(
    contract: Contract,
    code: str,
    detail: str,
    args: dict[str, Any],
    error: ValidationError | None = None,
) -> str:
    head, _, arg = code.partition(":")
    schema = (contract.parameters.get("properties", {}) or {}).get(arg, {})
    # the keyword that failed may sit deeper than the argument (an Optional's branch, an object's
    # field, an array's item): its own schema says what to fix, and its path names the field
    where, failed = arg, schema
    if error is not None and head in ("allowed", "range", "pattern", "format"):
        path = [str(p) for p in error.absolute_path]
        if path and path[0] == arg and isinstance(error.schema, dict):
            where, failed = ".".join(path), error.schema
    refused = args.get(arg, NO_EXAMPLE)
    vschema = (validation_schema(contract).get("properties", {}) or {}).get(arg, {})
    example = (
        valid_example(
            arg,
            vschema,
            contract.description,
            root=contract.parameters,
            avoid=refused,
            placeholders=False,
        )
        if vschema and head not in ("unknown",) and "." not in arg
        else NO_EXAMPLE
    )
    # a refused value is quoted cut short (the record's args hold it whole): a 5,000-character
    # argument is not copied into the message and each provider's wire view (issue 28 item 7)
    got = shorten(canonical_json(args.get(arg)), QUOTE_CHARS) if arg in args else None
    detail = shorten(detail, 2 * QUOTE_CHARS)
    allowed_names = ", ".join(contract.parameters.get("properties", {}) or {}) or "(none)"
    allowed_values = failed.get("enum", [failed["const"]] if "const" in failed else [])
    fmt = failed.get("format")
    kind = contract.type_formats.get(arg) if head == "format" else None
    holding = (
        _string_holding_json(error.instance, error.schema)
        if head == "type" and error is not None
        else ""
    )
    fix = {
        "missing": f"Add {arg!r}",
        "unknown": _unknown_fix(contract, arg, error, allowed_names),
        "type": (
            f"{where!r} is a string holding JSON (an {holding}): send the {holding} itself, "
            "not a string"
            if holding
            else _give_as(contract, arg, schema, error)
        ),
        "allowed": f"Use one of {canonical_json(allowed_values)} for {where!r}",
        "range": f"Keep {where!r} within {_bounds(failed)}",
        "pattern": f"Make {where!r} match the pattern {failed.get('pattern')!r}",
        "format": (
            f"Write {where!r} as {KINDS[kind][2].split(', e.g.')[0]}"
            if kind
            else f"Write {where!r} as {words_for(fmt)}"
            if fmt in FORMAT_KIND
            else f"Write {where!r} in {fmt} format"
            + (f" ({FORMAT_WORDS[fmt]})" if fmt in FORMAT_WORDS else "")
        ),
    }.get(head, "Fix the arguments")
    parts = [f"Invalid arguments for {contract.name}: {code}."]
    if got is not None and head != "unknown":
        parts.append(f"Got {got}.")
    parts.append(_detail(contract, code, detail, error).rstrip(".") + ".")
    parts.append(
        fix + (f", e.g. {canonical_json({arg: example})}." if example is not NO_EXAMPLE else ".")
    )
    call = _example_args(validation_schema(contract), contract.description)
    if call is not NO_EXAMPLE:
        parts.append(f"Example call: {contract.name}({canonical_json(call)}).")
    return " ".join(parts)


def _give_as(contract: Contract, arg: str, schema: Any, error: ValidationError | None) -> str:
    """``Give 'x' as <type>`` for a ``type`` verdict, naming the field that failed and its own
    type when it sits below the argument (``triage.labels.0`` as ``object with name ...``)."""
    root = contract.parameters
    where = ".".join(str(p) for p in error.absolute_path) if error is not None else arg
    if error is not None and where and where != arg:
        return f"Give {where!r} as {_type_words(_resolve(error.schema, root), root)}"
    return f"Give {arg!r} as {_type_words(_resolve(schema, root), root)}"


def _unknown_fix(
    contract: Contract, arg: str, error: ValidationError | None, allowed_names: str
) -> str:
    """The fix for ``unknown:<arg>``: a nested key names the keys allowed at its own level."""
    if "." in arg and error is not None and isinstance(error.schema, dict):
        parent, _, key = arg.rpartition(".")
        here = ", ".join((error.schema.get("properties") or {}).keys()) or "(none)"
        return f"Remove {key!r} from {parent!r}; the fields allowed there are {here}"
    return f"Remove {arg!r}; the allowed arguments are {allowed_names}"


def _type_words(schema: Any, root: dict[str, Any] | None = None) -> str:
    """``"string"``, ``"integer or null"``, ``"array of string"``, ``"object with city
    (string), zip_code (string)"`` (its required fields): the declared type in words, with no
    placeholder value. ``root``: the parameters schema, for a local ``$ref``."""
    if not isinstance(schema, dict):
        return "the declared type"
    types: list[str] = []
    for branch in [schema, *(schema.get("anyOf") or []), *(schema.get("oneOf") or [])]:
        branch = _resolve(branch, root) if root is not None else branch
        if isinstance(branch, dict) and branch.get("type") == "object" and branch.get("required"):
            fields = branch.get("properties") or {}
            said = ", ".join(
                f"{name} ({_type_words(_resolve(fields.get(name, {}), root or {}), None)})"
                for name in branch["required"]
            )
            if said and f"object with {said}" not in types:
                types.append(f"object with {said}")
            continue
        t = branch.get("type") if isinstance(branch, dict) else None
        for one in t if isinstance(t, list) else [t] if t else []:
            items = branch.get("items") if isinstance(branch, dict) else None
            if one == "array" and isinstance(items, dict) and isinstance(items.get("type"), str):
                one = f"array of {items['type']}"
            if one not in types:
                types.append(one)
    return " or ".join(types) or "the declared type"


def _bounds(schema: dict[str, Any]) -> str:
    pairs = [
        ("minimum", ">="),
        ("maximum", "<="),
        ("minLength", "length >="),
        ("maxLength", "length <="),
        ("exclusiveMinimum", ">"),
        ("exclusiveMaximum", "<"),
        ("minItems", "items >="),
        ("maxItems", "items <="),
    ]
    found = [f"{sym} {schema[k]}" for k, sym in pairs if k in schema]
    return " and ".join(found) or "the declared bounds"


def check_result(contract: Contract, value: Any) -> ResultCheck:
    """Validate a body's return value against ``contract.returns``; never raises.

    Order: ``not_serializable`` (after converting what JSON can carry), ``shape`` (schema type /
    required keys / item shape), ``empty`` (the rows list -- ``rows_key``, default ``"rows"`` --
    or the result list has no items; also without a ``returns`` schema),
    ``too_big`` (more than ``max_rows`` rows or more than ``max_bytes`` bytes of JSON),
    ``range`` (a ``minimum``/``maximum``-style keyword failed).
    """
    data, unserializable = _json_data(contract, value)
    if unserializable is not None:
        return unserializable
    returns = contract.returns
    if not returns:
        return _check_rows_only(data)
    try:
        # The limit keys (RESULT_LIMIT_KEYS) are no JSON Schema keywords: jsonschema skips them,
        # so ``returns`` itself is the schema (and its cached validator is found by identity).
        errors = (
            [] if surely_valid(returns, data) else list(validator_for(returns).iter_errors(data))
        )
    except Exception as exc:
        return ResultCheck("shape", f"The contract's returns schema is invalid: {exc}", data)
    too_big_errors = [e for e in errors if e.validator == "maxItems"] if errors else []
    range_errors = [
        e for e in errors if e.validator in _RANGE_KEYWORDS and e.validator != "maxItems"
    ]
    shape_errors = [e for e in errors if e not in range_errors and e not in too_big_errors]
    if shape_errors:
        e = shape_errors[0]
        return ResultCheck(
            "shape",
            f"{contract.name} returned a value of the wrong shape at {_where(e)}: {e.message}.",
            data,
        )
    limited = _check_limits(contract, returns, data, too_big_errors)
    if limited is not None:
        return limited
    if range_errors:
        e = range_errors[0]
        return ResultCheck(
            "range",
            f"{contract.name} returned an out-of-range value at {_where(e)}: {e.message}.",
            data,
        )
    return ResultCheck("", "", data)


def _json_data(contract: Contract, value: Any) -> tuple[Any, ResultCheck | None]:
    """``(data, None)``: ``value`` as JSON data (:func:`to_json_value`), or ``(None, check)``
    with a ``not_serializable`` check naming what JSON cannot carry (or a self-reference)."""
    try:
        return to_json_value(value), None
    except NotSerializable as exc:
        return None, ResultCheck(
            "not_serializable",
            f"{contract.name} returned {exc.what} at {exc.path}; a tool result must be JSON data.",
            None,
        )
    except RecursionError:
        return None, ResultCheck(
            "not_serializable", f"{contract.name} returned a self-referencing value.", None
        )


def _check_rows_only(data: Any) -> ResultCheck:
    """A result without a ``returns`` schema: ``empty`` when it is an empty list or its
    ``rows`` is one, else valid."""
    rows = (
        data if isinstance(data, list) else (data.get("rows") if isinstance(data, dict) else None)
    )
    if isinstance(rows, list) and not rows:
        return ResultCheck("empty", "Nothing matched.", data)
    return ResultCheck("", "", data)


def _where(error: Any) -> str:
    """A jsonschema error's place in the result as ``$['key'][0]...``."""
    return "$" + "".join(
        f"[{p!r}]" if isinstance(p, str) else f"[{p}]" for p in error.absolute_path
    )


def _check_limits(
    contract: Contract, returns: dict[str, Any], data: Any, too_big_errors: list[Any]
) -> ResultCheck | None:
    """``empty`` (the rows list -- ``rows_key``, default ``"rows"`` -- or the result list has no
    items), else ``too_big`` (more than ``max_rows`` rows, a ``maxItems`` error, or more than
    ``max_bytes`` bytes of canonical JSON, measured only when declared); ``None`` within them."""
    rows_key = returns.get("rows_key", "rows")
    rows = (
        data if isinstance(data, list) else (data.get(rows_key) if isinstance(data, dict) else None)
    )
    if isinstance(rows, list) and not rows:
        return ResultCheck("empty", "Nothing matched.", data)
    max_rows = returns.get("max_rows")
    if isinstance(rows, list) and isinstance(max_rows, int) and len(rows) > max_rows:
        return ResultCheck(
            "too_big",
            f"{contract.name} returned {len(rows)} rows; its contract allows at most {max_rows}.",
            data,
        )
    if too_big_errors:
        return ResultCheck(
            "too_big",
            f"{contract.name} returned too many items: {too_big_errors[0].message}.",
            data,
        )
    max_bytes = returns.get("max_bytes")
    # The size is measured only when a byte limit is declared.
    if isinstance(max_bytes, int) and (size := len(canonical_json(data).encode())) > max_bytes:
        return ResultCheck(
            "too_big",
            f"{contract.name} returned {size} bytes of JSON; its contract allows at most {max_bytes}.",
            data,
        )
    return None
