"""Convert a contract's JSON Schema into the copy the Gemini API accepts.

The playground validates arguments locally against the FULL schema (``playground.core``); only
the copy sent to Gemini as ``FunctionDeclaration.parameters_json_schema`` is converted here, and
every change is listed as a human-readable note so the UI can show what the model really reads.

Sources for the rules (read for google-genai 3.6.1):

* ``google.genai.types.JSONSchema`` -- "a subset of JSON Schema according to 2020-12 JSON Schema
  draft ... used by the Gemini model". Its fields are the keywords kept here
  (:data:`GEMINI_KEYWORDS`); anything else is dropped. It has no ``nullable`` (that keyword belongs
  to the OpenAPI 3.0 ``Schema`` used by ``FunctionDeclaration.parameters``, not to
  ``parameters_json_schema``), so a nullable type is written ``anyOf [{type: X}, {type: "null"}]``,
  the form the Gemini API announcement of JSON Schema support lists ("anyOf", "type: 'null'",
  Google Developers Blog, 2025-11-05) and the form Pydantic emits for ``X | None``.
* ``FunctionDeclaration.parameters_json_schema`` doc (types.py) -- its example uses
  ``propertyOrdering``; kept as well. ``prefixItems`` is listed by the same announcement.
* ``google.genai._transformers.process_schema`` inlines ``$defs`` before sending a schema; we do
  the same so that every model version reads a self-contained schema.
* ``FunctionDeclaration.parameters`` (OpenAPI ``Schema``) doc: ``enum`` is a list of strings; the
  Gemini Developer API has no ``default`` in its ``Schema`` while Vertex AI has one, so
  ``default`` is dropped (and mentioned in the description) only when ``vertex`` is false.
* An empty parameter list: "For function with no parameters, this can be left unset"
  (``FunctionDeclaration.parameters`` doc), so ``parameters`` becomes ``None``.

Pure functions: no google import, no I/O, inputs are never mutated.
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

from playground.core.optional_schema import follow_refs

#: JSON Schema keywords the Gemini API reads in ``parameters_json_schema`` (the fields of
#: ``google.genai.types.JSONSchema`` by alias, plus ``propertyOrdering`` and ``prefixItems``).
#: ``$ref`` / ``$defs`` are listed by the SDK too but are inlined here before sending.
GEMINI_KEYWORDS: frozenset[str] = frozenset(
    {
        "type",
        "format",
        "title",
        "description",
        "default",
        "items",
        "minItems",
        "maxItems",
        "enum",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "additionalProperties",
        "anyOf",
        "uniqueItems",
        "oneOf",
        "propertyOrdering",
        "prefixItems",
    }
)

#: Keywords that only make sense for one JSON type; moved into that type's ``anyOf`` branch
#: when a type list is split (as the SDK's ``Schema.from_json_schema`` does).
_TYPE_KEYWORDS: dict[str, frozenset[str]] = {
    "string": frozenset({"format", "minLength", "maxLength", "pattern", "enum"}),
    "number": frozenset({"format", "minimum", "maximum", "enum"}),
    "integer": frozenset({"format", "minimum", "maximum", "enum"}),
    "array": frozenset({"items", "minItems", "maxItems", "uniqueItems", "prefixItems"}),
    "object": frozenset(
        {
            "properties",
            "required",
            "minProperties",
            "maxProperties",
            "additionalProperties",
            "propertyOrdering",
        }
    ),
    "boolean": frozenset(),
    "null": frozenset(),
}


def convert_parameters(
    parameters: dict[str, Any] | None, *, vertex: bool = False
) -> tuple[dict[str, Any] | None, list[str]]:
    """Return ``(schema, notes)``: the Gemini copy of a contract's ``parameters`` JSON Schema.

    ``parameters``: a JSON Schema object (``{"type": "object", "properties": {...}, ...}``) or
    ``None``. ``vertex``: ``True`` for Vertex AI (keeps ``default``), ``False`` for the Gemini
    Developer API. Returns the converted copy (``None`` when the function takes no parameters)
    and one note per change, e.g. ``"properties.region: $ref #/$defs/Region inlined"``.
    Conversions: ``$ref`` inlined and ``$defs`` removed (a recursive ``$ref`` is cut to its
    ``type``); ``allOf`` of one schema merged; a type list -> one type, or ``anyOf`` of one
    branch per type (``"null"`` becomes ``{"type": "null"}``); ``const`` -> a one-value
    ``enum``; non-string ``enum`` values -> JSON text with ``type: "string"``; integer
    ``exclusiveMinimum``/``exclusiveMaximum`` -> ``minimum``/``maximum`` +/- 1; ``default``
    dropped unless ``vertex`` (its value is added to the description); every other keyword
    outside :data:`GEMINI_KEYWORDS` dropped. Never raises: a malformed schema part is dropped
    with a note.
    """
    notes: list[str] = []
    if parameters is None:
        return None, notes
    if not isinstance(parameters, dict):
        notes.append(
            f"(root): parameters is not a JSON object ({type(parameters).__name__}); dropped"
        )
        return None, notes
    converter = _Converter(root=parameters, vertex=vertex, notes=notes)
    schema = converter.convert(parameters, "(root)", ())
    if "$defs" in parameters or "definitions" in parameters:
        notes.append("(root): $defs removed (every $ref inlined)")
    if not schema.get("properties") and schema.get("type", "object") == "object":
        notes.append("(root): no parameters; parameters left unset")
        return None, notes
    return schema, notes


def convert_declaration(
    declaration: dict[str, Any], *, vertex: bool = False
) -> tuple[dict[str, Any], list[str]]:
    """Return ``({"name", "description", "parameters"}, notes)`` for one declaration dict.

    ``declaration``: ``{"name": str, "description": str, "parameters": JSON Schema}`` as the
    router protocol gives it. ``parameters`` in the result is the converted copy (or ``None``),
    notes as in :func:`convert_parameters`. The input is not changed.
    """
    schema, notes = convert_parameters(declaration.get("parameters"), vertex=vertex)
    return (
        {
            "name": declaration.get("name"),
            "description": declaration.get("description"),
            "parameters": schema,
        },
        notes,
    )


def _json_text(value: Any) -> str:
    """A non-string enum value as the text the model will write (``1`` -> ``"1"``)."""
    return json.dumps(value, ensure_ascii=False)


class _Converter:
    """One conversion pass; holds the root (for ``$ref``) and the notes list."""

    def __init__(self, *, root: dict[str, Any], vertex: bool, notes: list[str]) -> None:
        self.root = root
        self.vertex = vertex
        self.notes = notes

    def note(self, where: str, what: str) -> None:
        self.notes.append(f"{where}: {what}")

    # -- $ref ------------------------------------------------------------------------------
    def resolve(self, ref: Any, where: str) -> dict[str, Any] | None:
        """The schema a local ``$ref`` (``#/...`` JSON pointer) points at, or ``None``."""
        if not isinstance(ref, str) or not ref.startswith("#"):
            self.note(where, f"$ref {ref!r} is not a local reference; dropped")
            return None
        node: Any = self.root
        for token in [t for t in ref[1:].split("/") if t]:
            token = token.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and token in node:
                node = node[token]
            else:
                self.note(where, f"$ref {ref} not found; dropped")
                return None
        if not isinstance(node, dict):
            self.note(where, f"$ref {ref} is not a schema object; dropped")
            return None
        return node

    # -- main walk ---------------------------------------------------------------------------
    def convert(self, schema: Any, where: str, refs: tuple[str, ...]) -> dict[str, Any]:
        """Convert one schema node; ``refs`` are the ``$ref`` targets being inlined above it."""
        if schema is True or schema == {}:
            return {}
        if not isinstance(schema, dict):
            self.note(where, f"schema {schema!r} is not an object; replaced by {{}}")
            return {}
        node = dict(schema)

        ref = node.pop("$ref", None)
        if ref is not None:
            if ref in refs:
                target = self.resolve(ref, where) or {}
                cut = {k: target[k] for k in ("type", "description") if k in target}
                self.note(
                    where, f"recursive $ref {ref} cut to {json.dumps(cut, ensure_ascii=False)}"
                )
                node = {**cut, **node}
            else:
                resolved = self.resolve(ref, where)
                if resolved is not None:
                    self.note(where, f"$ref {ref} inlined")
                    # The referring schema's own keywords (e.g. a description) win.
                    return self.convert({**resolved, **node}, where, refs + (ref,))

        for key in ("$defs", "definitions"):
            node.pop(key, None)

        all_of = node.pop("allOf", None)
        if all_of is not None:
            if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
                self.note(where, "allOf of one schema merged")
                return self.convert({**all_of[0], **node}, where, refs)
            self.note(where, "allOf dropped (not supported by the Gemini API)")

        self.const(node, where)
        self.exclusive_bounds(node, where)
        self.default(node, where)

        for key in sorted(k for k in node if k not in GEMINI_KEYWORDS):
            node.pop(key)
            self.note(where, f"{key} dropped (not supported by the Gemini API)")

        self.children(node, where, refs)
        node = self.split_types(node, where)
        self.stringify_enum(node, where)
        return node

    def const(self, node: dict[str, Any], where: str) -> None:
        """``const`` becomes a one-value ``enum`` (dropped when an enum is there already)."""
        if "const" not in node:
            return
        const = node.pop("const")
        if "enum" not in node:
            node["enum"] = [const]
            self.note(where, f"const {_json_text(const)} -> enum [{_json_text(const)}]")
        else:
            self.note(where, "const dropped (enum kept)")

    def exclusive_bounds(self, node: dict[str, Any], where: str) -> None:
        """An integer's exclusive bound becomes the inclusive one strictly inside it; any other
        exclusive bound is dropped."""
        for key, bound, step in (
            ("exclusiveMinimum", "minimum", 1),
            ("exclusiveMaximum", "maximum", -1),
        ):
            if key not in node:
                continue
            value = node.pop(key)
            is_int = node.get("type") == "integer"
            if (
                is_int
                and isinstance(value, (int, float))
                and not isinstance(value, bool)
                and bound not in node
            ):
                # the smallest / largest integer strictly inside the bound
                node[bound] = math.floor(value) + 1 if step > 0 else math.ceil(value) - 1
                self.note(where, f"{key} {_json_text(value)} -> {bound} {node[bound]}")
            else:
                self.note(where, f"{key} dropped (not supported by the Gemini API)")

    def default(self, node: dict[str, Any], where: str) -> None:
        """The Gemini API has no ``default``: it moves into the description (kept for Vertex)."""
        if "default" not in node or self.vertex:
            return
        default = node.pop("default")
        text = f"(default: {_json_text(default)})"
        description = node.get("description")
        node["description"] = f"{description} {text}" if description else text
        self.note(
            where,
            f"default {_json_text(default)} dropped (Gemini API); noted in the description",
        )

    def children(self, node: dict[str, Any], where: str, refs: tuple[str, ...]) -> None:
        """Convert the sub-schemas of ``node`` in place."""
        prefix = "" if where == "(root)" else f"{where}."
        props = node.get("properties")
        if isinstance(props, dict):
            node["properties"] = {
                name: self.convert(sub, f"{prefix}properties.{name}", refs)
                for name, sub in props.items()
            }
        elif "properties" in node:
            node.pop("properties")
            self.note(where, "properties is not an object; dropped")
        items = node.get("items")
        if isinstance(items, list):  # draft-04 tuple form
            node.pop("items")
            node["prefixItems"] = [
                self.convert(sub, f"{prefix}items[{i}]", refs) for i, sub in enumerate(items)
            ]
            self.note(where, "items list -> prefixItems")
        elif "items" in node:
            node["items"] = self.convert(items, f"{prefix}items", refs)
        if isinstance(node.get("prefixItems"), list) and not isinstance(items, list):
            node["prefixItems"] = [
                self.convert(sub, f"{prefix}prefixItems[{i}]", refs)
                for i, sub in enumerate(node["prefixItems"])
            ]
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            node["additionalProperties"] = self.convert(
                extra, f"{prefix}additionalProperties", refs
            )
        for key in ("anyOf", "oneOf"):
            if isinstance(node.get(key), list):
                node[key] = [
                    self.convert(sub, f"{prefix}{key}[{i}]", refs)
                    for i, sub in enumerate(node[key])
                ]

    def split_types(self, node: dict[str, Any], where: str) -> dict[str, Any]:
        """A ``type`` list -> one type, or ``anyOf`` with one branch per type."""
        types = node.get("type")
        if not isinstance(types, list):
            return node
        unique = list(dict.fromkeys(t for t in types if isinstance(t, str)))
        if len(unique) == 1:
            node["type"] = unique[0]
            self.note(where, f"type {json.dumps(types)} -> {json.dumps(unique[0])}")
            return node
        if not unique:
            node.pop("type")
            self.note(where, f"type {json.dumps(types)} dropped")
            return node
        node.pop("type")
        branches = []
        for name in unique:
            branch: dict[str, Any] = {"type": name}
            for key in sorted(_TYPE_KEYWORDS.get(name, frozenset())):
                if key in node:
                    branch[key] = copy.deepcopy(node[key])
            branches.append(branch)
        moved = set().union(*(_TYPE_KEYWORDS.get(t, frozenset()) for t in unique))
        outer = {k: v for k, v in node.items() if k not in moved}
        if "anyOf" in outer:
            self.note(where, f"type {json.dumps(types)} dropped (anyOf already present)")
            return outer
        outer["anyOf"] = branches
        for branch in branches:
            self.stringify_enum(branch, where)
        self.note(
            where, f"type {json.dumps(types)} -> anyOf {json.dumps(branches, ensure_ascii=False)}"
        )
        return outer

    def stringify_enum(self, node: dict[str, Any], where: str) -> None:
        """Non-string ``enum`` values -> their JSON text; the type becomes ``string``."""
        values = node.get("enum")
        if not isinstance(values, list):
            return
        if all(isinstance(v, str) for v in values):
            if "type" not in node and "anyOf" not in node:
                node["type"] = "string"
                self.note(where, 'type "string" added for a string enum')
            return
        node["enum"] = [v if isinstance(v, str) else _json_text(v) for v in values]
        old_type = node.get("type")
        node["type"] = "string"
        for key in ("minimum", "maximum"):
            node.pop(key, None)
        self.note(
            where,
            f"enum {json.dumps(values, ensure_ascii=False)} -> strings "
            f"{json.dumps(node['enum'], ensure_ascii=False)}"
            + (f' (type {json.dumps(old_type)} -> "string")' if old_type != "string" else ""),
        )


# ------------------------------------------------------------------------------ mapping back

#: Keywords that only annotate (dropping them changes nothing a value must satisfy).
_ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "$anchor",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "contentMediaType",
        "contentEncoding",
        "default",
    }
)


def lossy_changes(parameters: dict[str, Any] | None) -> list[str]:
    """The changes of :func:`convert_parameters` that an answer cannot be mapped back from.

    Mapped back by :func:`map_back` (so not listed): non-string ``enum`` / ``const`` sent as
    strings, type lists sent as ``anyOf`` (with ``null``), ``$ref`` inlined and ``$defs``
    removed, ``allOf`` of one merged, integer exclusive bounds turned inclusive, ``default``
    moved into the description, annotations dropped. Listed: a constraint the model never sees
    (``multipleOf``, ``not``, ``allOf`` of several, ``patternProperties``, a number's exclusive
    bound, ``const`` beside ``enum``, …), a recursive ``$ref`` cut, and an enum whose values
    share one JSON text (``[1, "1"]``) so that the answer is ambiguous. Returns one note each,
    in the form of :func:`convert_parameters` (``"properties.x: multipleOf dropped ..."``).
    """
    _, notes = convert_parameters(parameters)
    out = []
    for note in notes:
        what = note.partition(": ")[2]
        keyword = what.split(" ", 1)[0]
        dropped = " dropped" in what and keyword not in _ANNOTATIONS
        if (dropped and not what.startswith("type ")) or what.startswith("recursive $ref"):
            out.append(note)
    out.extend(_ambiguous_enums(parameters, "(root)"))
    return out


def _ambiguous_enums(schema: Any, where: str) -> list[str]:
    if not isinstance(schema, dict):
        return []
    out = []
    values = schema.get("enum")
    if isinstance(values, list) and not all(isinstance(v, str) for v in values):
        texts = [v if isinstance(v, str) else _json_text(v) for v in values]
        if len(set(texts)) < len(texts):
            out.append(f"{where}: enum {_json_text(values)} has values with the same text")
    prefix = "" if where == "(root)" else f"{where}."
    for name, sub in (schema.get("properties") or {}).items():
        out.extend(_ambiguous_enums(sub, f"{prefix}properties.{name}"))
    for key in ("items", "additionalProperties"):
        out.extend(_ambiguous_enums(schema.get(key), f"{prefix}{key}"))
    for key in ("anyOf", "oneOf", "prefixItems", "allOf"):
        for i, sub in enumerate(schema.get(key) or []):
            out.extend(_ambiguous_enums(sub, f"{prefix}{key}[{i}]"))
    for name, sub in (schema.get("$defs") or schema.get("definitions") or {}).items():
        out.extend(_ambiguous_enums(sub, f"$defs.{name}"))
    return out


def map_back(value: Any, schema: dict[str, Any] | None) -> Any:
    """``value`` (arguments a model wrote against the Gemini copy of ``schema``) in the form
    the local ``schema`` expects, before local validation.

    What is converted back, at every depth (``properties``, ``items``, ``prefixItems``,
    ``additionalProperties``, ``anyOf``/``oneOf``/``allOf`` branches, ``$ref`` into ``$defs``):
    a string that is the JSON text of a non-string ``enum``/``const`` value becomes that value
    (``speed: Literal[0, 2, 4]`` is sent as ``["0", "2", "4"]``; the answer ``"2"`` becomes
    ``2``). Everything else is returned unchanged (the gate's verdict on it stays honest); the
    input is never mutated. ``schema`` ``None`` returns ``value`` as is.
    """
    if not isinstance(schema, dict):
        return value
    return _Back(schema).walk(value, schema, ())


class _Back:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root

    def walk(self, value: Any, schema: Any, refs: tuple[str, ...]) -> Any:
        schema, refs = follow_refs(schema, self.root, refs)
        if isinstance(value, str):
            choices = list(schema.get("enum") or []) + (
                [schema["const"]] if "const" in schema else []
            )
            for choice in choices:
                if not isinstance(choice, str) and _json_text(choice) == value:
                    return choice
        if isinstance(value, dict):
            value = self.walk_object(value, schema, refs)
        if isinstance(value, list):
            value = self.walk_array(value, schema, refs)
        for key in ("allOf", "anyOf", "oneOf"):
            branches = schema.get(key)
            if not isinstance(branches, list):
                continue
            for branch in branches:
                mapped = self.walk(value, branch, refs)
                if mapped != value or type(mapped) is not type(value):
                    value = mapped
                    if key != "allOf":
                        break
        if isinstance(schema.get("type"), list) and isinstance(value, str):
            # a type list was sent as anyOf with one branch per type: the enum moved there
            for choice in schema.get("enum") or []:
                if not isinstance(choice, str) and _json_text(choice) == value:
                    return choice
        return value

    def walk_object(
        self, value: dict[str, Any], schema: dict[str, Any], refs: tuple[str, ...]
    ) -> dict[str, Any]:
        """Each property mapped back by its own schema (``additionalProperties`` for the rest)."""
        props = schema.get("properties")
        extra = schema.get("additionalProperties")
        if isinstance(props, dict):
            return {
                k: self.walk(v, props[k], refs)
                if k in props
                else (self.walk(v, extra, refs) if isinstance(extra, dict) else v)
                for k, v in value.items()
            }
        if isinstance(extra, dict):
            return {k: self.walk(v, extra, refs) for k, v in value.items()}
        return value

    def walk_array(
        self, value: list[Any], schema: dict[str, Any], refs: tuple[str, ...]
    ) -> list[Any]:
        """Each item mapped back by its ``prefixItems`` (or draft-04 tuple) schema or ``items``."""
        prefix = schema.get("prefixItems")
        items = schema.get("items")
        if isinstance(items, list):  # draft-04 tuple form
            prefix, items = items, None
        out = []
        for i, item in enumerate(value):
            if isinstance(prefix, list) and i < len(prefix):
                out.append(self.walk(item, prefix[i], refs))
            elif isinstance(items, dict):
                out.append(self.walk(item, items, refs))
            else:
                out.append(item)
        return out
