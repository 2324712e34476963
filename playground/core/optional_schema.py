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
