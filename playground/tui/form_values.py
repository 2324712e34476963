"""Turning the call form's text fields into JSON arguments, and back (no Textual here).

The form shows one field per parameter of a contract's JSON Schema. What the user typed is
converted with the parameter's declared type; a value that does not parse for its type is sent
*as typed* (the string), so the gate gives the verdict (``"abc"`` for an integer parameter →
``type:<arg>``), exactly as a model's bad call would be judged. An empty field is left out
(a required one then gets ``missing:<arg>`` from the gate). An enum accepts a value typed
outside its choices (:class:`Typed`), and any field can be sent as JSON ``null`` (``nulls`` of
:func:`form_to_args`): both are calls a model can make, so the form can make them too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from playground.core.untrusted import json_shown

#: Field kinds the form knows: one widget per kind.
STRING, INTEGER, NUMBER, BOOLEAN, ENUM, JSON = (
    "string",
    "integer",
    "number",
    "boolean",
    "enum",
    "json",
)


@dataclass(frozen=True)
class Typed:
    """Text typed for an enum parameter outside its choices (the form's "other value…");
    parsed with the enum's base type (:func:`base_kind`) and sent, for the gate to judge."""

    text: str


@dataclass(frozen=True)
class FieldSpec:
    """One form field for one parameter.

    ``name``: the argument name. ``kind``: one of the kind constants above. ``required``: in the
    schema's ``required``. ``schema``: the parameter's own schema. ``doc``: its ``description``,
    else the docstring ``Args:`` line (``playground.core.validation.arg_doc``). ``choices``: the
    enum values (``ENUM`` only). ``default``: the schema default, or ``None``.
    """

    name: str
    kind: str
    required: bool
    schema: dict[str, Any]
    doc: str = ""
    choices: tuple[Any, ...] = ()
    default: Any = None

    @property
    def type_label(self) -> str:
        """A short type label for the UI: ``integer``, ``enum``, ``string (date)``…"""
        t = "enum" if self.kind == ENUM else declared_type(self.schema)
        fmt = self.schema.get("format")
        return f"{t} ({fmt})" if fmt else t


def declared_type(schema: dict[str, Any]) -> str:
    """The parameter's JSON type name: ``type`` (the first non-null of a list, or of ``anyOf``
    members), else ``"any"``."""
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "any")
    if not t and isinstance(schema.get("anyOf"), list):
        for member in schema["anyOf"]:
            if isinstance(member, dict) and member.get("type") not in (None, "null"):
                return declared_type(member)
    return t if isinstance(t, str) and t else "any"


def field_kind(schema: dict[str, Any]) -> str:
    """The form kind for a parameter schema (enum wins over its base type)."""
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return ENUM
    return base_kind(schema)


def base_kind(schema: dict[str, Any]) -> str:
    """The form kind of the schema's declared type, ignoring ``enum`` (``JSON`` for arrays,
    objects and anything untyped)."""
    t = declared_type(schema)
    return {"string": STRING, "integer": INTEGER, "number": NUMBER, "boolean": BOOLEAN}.get(t, JSON)


def field_specs(parameters: dict[str, Any], description: str = "") -> list[FieldSpec]:
    """One :class:`FieldSpec` per property of ``parameters`` (a JSON Schema object), in order.

    ``description``: the tool description, used for the docstring ``Args:`` line of a
    parameter that has no ``description`` of its own (seed 001: the model reads the whole
    docstring, Args included).
    """
    from playground.core.optional_schema import value_schema
    from playground.core.validation import arg_doc

    props = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    specs = []
    for name, schema in props.items():
        # an Optional value's enum and format are in its non-null anyOf branch, and an Enum's
        # choices behind its $ref into the parameters' $defs
        schema = value_schema(schema, parameters) if isinstance(schema, dict) else {}
        doc = (schema.get("description") or "").strip() or arg_doc(description, name)
        kind = field_kind(schema)
        specs.append(
            FieldSpec(
                name=name,
                kind=kind,
                required=name in required,
                schema=schema,
                doc=doc,
                choices=tuple(schema.get("enum") or ()) if kind == ENUM else (),
                default=schema.get("default"),
            )
        )
    return specs


def parse_field(spec: FieldSpec, raw: Any) -> tuple[bool, Any]:
    """``(present, value)`` for one field's widget value.

    Text fields: empty → ``(False, None)`` (left out). ``integer``: ``int`` when the text is an
    integer literal, a float literal becomes a float (the gate normalises ``1.0`` to ``1`` and
    rejects ``1.5``), anything else is sent as the string typed. ``number``: int or float, else
    the string. ``json``: the parsed JSON, else the string. ``boolean``: the bool given.
    ``enum``: ``None`` (blank) → left out, a :class:`Typed` → its text parsed as the enum's
    base type, else the choice.
    """
    if spec.kind == BOOLEAN:
        return True, bool(raw)
    if spec.kind == ENUM:
        if isinstance(raw, Typed):
            base = base_kind(spec.schema)
            return parse_text(STRING if base == BOOLEAN else base, raw.text)
        return (raw is not None), raw
    return parse_text(spec.kind, "" if raw is None else str(raw))


def parse_text(kind: str, text: str) -> tuple[bool, Any]:
    """``(present, value)`` for ``text`` typed into a field of ``kind`` (see
    :func:`parse_field`); text that does not parse for its kind is sent as the string typed."""
    if text.strip() == "":
        return False, None
    if kind == STRING:
        return True, text
    stripped = text.strip()
    if kind in (INTEGER, NUMBER):
        try:
            return True, int(stripped)
        except ValueError:
            pass
        try:
            value = float(stripped)
        except ValueError:
            return True, text
        return (True, value) if value == value and abs(value) != float("inf") else (True, text)
    value, problem = parse_json_text(stripped)
    return (True, text) if problem else (True, value)


def form_to_args(
    specs: list[FieldSpec],
    values: dict[str, Any],
    touched: set[str] | None = None,
    nulls: set[str] | None = None,
) -> dict[str, Any]:
    """The argument object for the form's widget ``values`` (by argument name).

    A boolean is included when it is required, differs from its default (``False`` when none),
    or was touched by the user (``touched``: names the user changed). A name in ``nulls`` is
    sent as ``None`` (JSON ``null``) whatever its widget holds.
    """
    touched = touched or set()
    nulls = nulls or set()
    args: dict[str, Any] = {}
    for spec in specs:
        if spec.name in nulls:
            args[spec.name] = None
            continue
        if spec.name not in values:
            continue
        present, value = parse_field(spec, values[spec.name])
        if spec.kind == BOOLEAN:
            default = spec.default if isinstance(spec.default, bool) else False
            present = spec.required or value != default or spec.name in touched
        if present:
            args[spec.name] = value
    return args


def field_text(spec: FieldSpec, value: Any) -> Any:
    """The widget value showing ``value`` (the inverse of :func:`parse_field`).

    Strings show as typed, numbers as their literal, other JSON compactly; ``BOOLEAN`` gives a
    bool, ``ENUM`` the choice itself, ``None`` for no value, or a :class:`Typed` holding the
    text of a value outside the choices.
    """
    if spec.kind == BOOLEAN:
        return value is True
    if spec.kind == ENUM:
        if value is None or is_choice(spec, value):
            return value
        return Typed(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json_shown(json.dumps(value, ensure_ascii=False))


def is_choice(spec: FieldSpec, value: Any) -> bool:
    """Whether ``value`` is one of ``spec.choices`` with the same JSON type (``true`` is not
    the choice ``1``)."""
    return any(value == c and type(value) is type(c) for c in spec.choices)


def args_to_json_text(args: Any) -> str:
    """Pretty JSON for the raw editor (Korean kept as is; control, bidi and invisible characters
    as JSON escapes, :func:`~playground.core.untrusted.json_shown`: the same values)."""
    return json_shown(json.dumps(args, ensure_ascii=False, indent=2))


def parse_json_text(text: str) -> tuple[Any, str]:
    """``(value, "")`` for valid JSON text, else ``(None, "line L col C: message")`` (or
    ``nested deeper than 100 levels``, ``larger than 16 MB ...``: bounded as every JSON input).

    Empty text is ``{}`` (no arguments). Any JSON value is accepted: a non-object is sent and
    the gate answers ``shape``.
    """
    if not text.strip():
        return {}, ""
    from playground.core.canonical import (
        MAX_DEPTH,
        MAX_JSON_BYTES,
        json_depth_problem,
        too_big_text,
        utf8_over,
    )

    if utf8_over(text, MAX_JSON_BYTES):
        return None, too_big_text()
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"line {exc.lineno} col {exc.colno}: {exc.msg}"
    except RecursionError:
        return None, f"nested deeper than {MAX_DEPTH} levels"
    except ValueError as exc:  # an integer longer than 4,300 digits
        return None, " ".join(str(exc).split())[:160]
    problem = json_depth_problem(value)  # deep garbage: one line, never a crash later
    return (None, problem) if problem else (value, "")
