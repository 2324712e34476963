"""The fix to name when google-genai cannot declare a Python tool (issue 11 kind 4, issue 20).

``FunctionDeclaration.from_callable_with_api_option`` (google-genai 3.6.1,
``google/genai/_automatic_function_calling_util.py``) fails with "Failed to parse the parameter
NAME: TYPE of function F for automatic function calling." -- for the return annotation NAME is
``return_value``. The fix differs: a parameter needs a type the SDK can declare; a return
annotation (a dataclass or a TypedDict, which the SDK declares as parameters but not as a
return) needs a pydantic model, or ``-> dict`` with a ``returns`` schema in ``__contracts__``.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Callable
from typing import Any, is_typeddict

_FAILED = re.compile(r"Failed to parse the parameter (\w+)")

#: The types google-genai declares for a parameter (what the fix for a parameter lists).
PARAMETER_TYPES = (
    "str, int, float, bool, list[...] or dict of those, Literal[...], an Enum, date/datetime, "
    "or a pydantic BaseModel (for a dataclass or TypedDict, use a pydantic model)"
)


def _kind(annotation: Any) -> str:
    """``" (a dataclass)"``, ``" (a TypedDict)"`` or ``""`` for the type named in the fix."""
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        return " (a dataclass)"
    if is_typeddict(annotation):
        return " (a TypedDict)"
    return ""


def _type_name(annotation: Any) -> str:
    return getattr(annotation, "__name__", None) or str(annotation)


def declarable_fix(fn: Callable[..., Any], sdk_message: str) -> str:
    """The ``"Fix: ..."`` sentence for ``fn`` given google-genai's error text ``sdk_message``.

    For the return annotation (the SDK names the parameter ``return_value``): "Fix: google-genai
    cannot declare the return annotation Slot (a dataclass): make Slot a pydantic BaseModel,
    or annotate the return -> dict and declare 'returns' (JSON Schema) in __contracts__." For a
    parameter: "Fix: annotate parameter 'when' with a type google-genai can declare: str, ...".
    Never raises (an unreadable signature gives the parameter text without a name).
    """
    m = _FAILED.search(sdk_message)
    name = m.group(1) if m else ""
    try:
        signature: inspect.Signature | None = inspect.signature(fn, eval_str=True)
    except Exception:  # an annotation that does not evaluate: name no type
        signature = None
    if name == "return_value":
        annotation = signature.return_annotation if signature is not None else None
        shown = _type_name(annotation) if annotation not in (None, inspect.Signature.empty) else ""
        what = f"{shown}{_kind(annotation)}" if shown else "this type"
        model = shown or "it"
        return (
            f"Fix: google-genai cannot declare the return annotation {what}: make {model} a "
            "pydantic BaseModel (google-genai declares those as the result's schema), or "
            "annotate the return -> dict and declare 'returns' (JSON Schema) in __contracts__."
        )
    which = f"parameter {name!r}" if name else "each parameter"
    return f"Fix: annotate {which} with a type google-genai can declare: {PARAMETER_TYPES}."
