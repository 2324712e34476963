"""typer's option coercion without pydantic for the values a command line usually carries.

typer 0.29 coerces every parameter's value through a pydantic ``TypeAdapter`` built on first
use (``typer._coercion.build_runtime_param``): importing pydantic and building ~20 adapters cost
a ``playground call`` more CPU than its own work. :func:`install` makes each parameter's runtime
coercion a :class:`QuickRuntimeParam`: for the values whose result typer's adapter is known to
give without pydantic (a ``str`` for ``str``, a ``str`` for ``Path``, a choice of an ``Enum`` or
``Literal``, lists of those, a value already of its exact number type) it gives that result by
typer's own functions (``coerce_cli_choice``, ``coerce_cli_path``); every other value, and any
value those functions refuse, goes to typer's own adapter, built then, so each error message is
typer's (docs/performance.md, "typer without pydantic").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args, get_origin

import typer.core
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
from typer._param_types import (
    choice_coercion_annotation,
    coerce_cli_choice,
    coerce_cli_path,
    routes_to_path,
)
from typer._typing import is_number_type

if TYPE_CHECKING:
    from typer._click import Context
    from typer.models import ParameterInfo

_NOT_QUICK: Any = object()


@dataclass(frozen=True)
class QuickRuntimeParam(RuntimeParam):
    """A parameter's coercion: the quick result where there is one (:func:`quick_value`),
    else typer's own runtime parameter (built, with its pydantic adapter, on first need)."""

    descriptor: TypeDescriptor = field(kw_only=True)
    _built: list[RuntimeParam] = field(default_factory=list, kw_only=True)

    def typer_param(self) -> RuntimeParam:
        """typer's own runtime parameter for this descriptor (built once)."""
        if not self._built:
            self._built.append(build_runtime_param(self.descriptor))
        return self._built[0]

    def _coerce_value(self, value: Any, param: Any, ctx: Context) -> Any:
        quick = quick_value(self.descriptor, value, ctx)
        if quick is not _NOT_QUICK:
            return quick
        return self.typer_param()._coerce_value(value, param=param, ctx=ctx)


def quick_value(descriptor: TypeDescriptor, value: Any, ctx: Context | None) -> Any:
    """What typer's adapter makes of ``value`` for ``descriptor``, or :data:`_NOT_QUICK` where
    only the adapter can say (a parser, a file, a tuple, a date, a number given as text, an
    empty path, a value refused)."""
    info = descriptor.parameter_info
    if info.parser is not None or descriptor.file_annotation is not None:
        return _NOT_QUICK
    annotation = descriptor.annotation
    origin: Any = get_origin(annotation)
    if origin is list:
        (item,) = get_args(annotation) or (Any,)
        if not isinstance(value, (list, tuple)):
            return _NOT_QUICK
        out = [_leaf(item, info, one, ctx) for one in value]
        return _NOT_QUICK if any(one is _NOT_QUICK for one in out) else out
    if origin is not None:
        return _NOT_QUICK
    return _leaf(annotation, info, value, ctx)


def _leaf(annotation: Any, info: ParameterInfo, value: Any, ctx: Context | None) -> Any:
    """One value, in the order of typer's ``build_leaf_adapter``."""
    choice = choice_coercion_annotation(annotation, info)
    if choice is not None:
        try:
            return coerce_cli_choice(value, choices=choice[0], case_sensitive=choice[1], ctx=ctx)
        except Exception:  # refused: typer's adapter says it its own way
            return _NOT_QUICK
    if is_number_type(annotation):
        no_bounds = info.min is None and info.max is None and not info.clamp
        return value if no_bounds and type(value) is annotation else _NOT_QUICK
    if annotation is bool:
        return value if type(value) is bool else _NOT_QUICK
    if annotation is str:
        return value if type(value) is str else _NOT_QUICK
    if routes_to_path(annotation, info) and annotation is Path and info.path_type is None:
        if type(value) is not str or not value:
            return _NOT_QUICK
        try:  # pydantic's Path of a str is Path(str); the checks are typer's own function
            return coerce_cli_path(Path(value), info, path_type=Path)
        except Exception:
            return _NOT_QUICK
    return _NOT_QUICK


def _get_runtime_param(self: typer.core._TyperParameter) -> RuntimeParam:
    if self._runtime_param is None:
        descriptor = self.type_descriptor
        self._runtime_param = QuickRuntimeParam(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            descriptor=descriptor,
        )
    return self._runtime_param


def install() -> None:
    """Make every typer parameter of this process coerce through :class:`QuickRuntimeParam`
    (idempotent)."""
    typer.core._TyperParameter.get_runtime_param = _get_runtime_param  # type: ignore[method-assign]
