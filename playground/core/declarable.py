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
from types import UnionType
from typing import Any, Union, get_args, get_origin, is_typeddict

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
    """``Slot``, ``list[Recipe]``, ``dict[str, Slot]``: the annotation as its author wrote it
    (``str()`` of a generic names the tool module's internal import name)."""
    args = get_args(annotation)
    origin = get_origin(annotation)
    if args and origin in (Union, UnionType):
        return " | ".join(_type_name(arg) for arg in args)
    if args and origin is not None:
        name = getattr(origin, "__name__", None) or str(origin)
        return f"{name}[{', '.join(_type_name(arg) for arg in args)}]"
    if annotation is Ellipsis:
        return "..."
    if annotation is type(None):
        return "None"
    return getattr(annotation, "__name__", None) or str(annotation)


def _plain_return(annotation: Any) -> str:
    """``list`` for ``list[Recipe]`` or ``list[Recipe] | None``, else ``dict``: the plain
    annotation the fix suggests in place of ``annotation``."""
    arms = [annotation]
    if get_origin(annotation) in (Union, UnionType):
        arms = [arm for arm in get_args(annotation) if arm is not type(None)]
    return "list" if all(arm is list or get_origin(arm) is list for arm in arms) else "dict"


def _record_type(annotation: Any) -> Any:
    """The first dataclass or TypedDict in ``annotation`` (itself, or inside ``list[...]``,
    ``dict[..., ...]``, ``X | None``, at any depth), or ``None``: the type the fix names."""
    if _kind(annotation):
        return annotation
    for arg in get_args(annotation):
        found = _record_type(arg)
        if found is not None:
            return found
    return None


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
        record = _record_type(annotation)
        if record is not None and record is not annotation:  # list[Recipe]: Recipe is the one
            model = _type_name(record)
            what = f"{shown} ({model} is {_kind(record)[2:-1]})"
        else:
            what = f"{shown}{_kind(annotation)}" if shown else "this type"
            model = shown or "it"
        plain = _plain_return(annotation)
        return (
            f"Fix: google-genai cannot declare the return annotation {what}: make {model} a "
            "pydantic BaseModel (google-genai declares those as the result's schema), or "
            f"annotate the return -> {plain} and declare 'returns' (JSON Schema) in "
            "__contracts__."
        )
    which = f"parameter {name!r}" if name else "each parameter"
    return f"Fix: annotate {which} with a type google-genai can declare: {PARAMETER_TYPES}."
