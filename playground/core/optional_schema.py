"""The schema of an optional value: ``Optional[X]`` as pydantic and google-genai declare it.

pydantic (and google-genai, which builds declarations with it) writes ``x: X | None = None`` as
``{"anyOf": [<X's schema>, {"type": "null"}], "default": null, ...}`` — JSON Schema 2020-12
``anyOf``. Whatever describes the value (``type``, ``format``, ``pattern``, ``enum``, bounds,
``items``) then sits one level down, in the non-null branch. The offline router fills arguments
from it and the TUI's form picks its widget from it, as a model reads it.
"""

from __future__ import annotations

from typing import Any


def nullable_branch(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of an optional value's non-null branch, merged with the keywords beside it.

    pydantic and google-genai declare ``Optional[X]`` as ``{"anyOf": [X, {"type": "null"}],
    "default": None, ...}`` (JSON Schema 2020-12 ``anyOf``), so ``format``, ``pattern``,
    ``enum``, bounds and ``items`` sit one level down. The outer keywords (description, default, title) win. Returns ``schema`` itself
    when it is not such a union (no branch, or several non-null branches).
    """
    branches = [
        b
        for b in (schema.get("anyOf") or schema.get("oneOf") or [])
        if isinstance(b, dict) and b.get("type") != "null"
    ]
    if len(branches) != 1:
        return schema
    outer = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
    return {**branches[0], **outer}


def local_ref(root: dict[str, Any] | None, ref: str) -> dict[str, Any] | None:
    """The schema a local ``$ref`` (``#/$defs/Genre``: a JSON Pointer into ``root``, RFC 6901
    with ``~1``/``~0`` unescaped) points to, or ``None`` for a remote or broken one."""
    if root is None or not ref.startswith("#"):
        return None
    node: Any = root
    for token in [t for t in ref[1:].split("/") if t]:
        token = token.replace("~1", "/").replace("~0", "~")
        node = node.get(token) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else None


def follow_refs(
    schema: Any, root: dict[str, Any] | None, refs: tuple[str, ...] = ()
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``schema`` with its local ``$ref`` followed (repeatedly), the keywords beside the
    ``$ref`` winning over the target's (JSON Schema 2020-12 lets them sit together), and the
    refs followed. ``refs``: those already followed on the way here (a walk down a schema
    passes them on), so a cycle stops at its first repeat; a remote or broken ``$ref`` stays
    as it is. A schema that is no object (``true``) gives ``{}``. The one ``$ref`` walk of the
    form, the router's fill rules, the examples and the Gemini mapping back."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        ref = schema["$ref"]
        target = None if ref in refs else local_ref(root, ref)
        if target is None:
            break
        refs = (*refs, ref)
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return (schema if isinstance(schema, dict) else {}), refs


def followed(schema: Any, root: dict[str, Any] | None) -> dict[str, Any]:
    """``schema`` with its local ``$ref`` followed (:func:`follow_refs`); ``schema`` itself
    when it has no local ``$ref``, ``{}`` when it is no object."""
    return follow_refs(schema, root)[0]


def value_schema(schema: dict[str, Any], root: dict[str, Any] | None) -> dict[str, Any]:
    """What describes a parameter's value as a model reads it: its local ``$ref`` followed
    (pydantic declares an ``Enum`` or a model as ``{"$ref": "#/$defs/Genre"}`` beside the
    parameters' ``$defs``), then an Optional's non-null branch (:func:`nullable_branch`), whose
    own ``$ref`` is followed too. ``root``: the parameters object holding ``$defs``."""
    return followed(nullable_branch(followed(schema, root)), root)
