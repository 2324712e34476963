"""Contracts: one registered tool (name, description, parameters, returns, callable, flags).

Two ways a tool module declares contracts (see docs/tool-modules.md):

* plain functions listed in ``__tools__``, with optional metadata in ``__contracts__``
  (``returns``, ``side_effects``, ``cacheable``, ``timeout_s``). The declaration is built by
  google-genai exactly as ``tools=[fn]`` sends it (:func:`playground.core.wire.gemini_function_declaration`,
  through the on-disk cache of :mod:`playground.core.declcache`), so the model sees the name,
  the whole docstring and the parameter schema; that ``parameters_json_schema`` is also what the
  validator enforces (seed 001: "the SDK builds the declaration from the Python function").
* a contract table ``TOOLS = {name: {"fn", "args", "returns"}}`` in the format of seed 003,
  converted here to JSON Schema (:func:`schema_from_table_args`, :func:`returns_from_table`).
"""

from __future__ import annotations

import hashlib
import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playground.core import declcache, schemacache
from playground.core.canonical import canonical_json
from playground.core.effects import from_meta
from playground.core.returns_annotation import annotated_returns, annotation_sources
from playground.core.settings import MAX_TIME_LIMIT_S
from playground.core.type_formats import declared as declared_type_formats
from playground.core.type_formats import for_validation, has_probed_formats, probe_kinds
from playground.errors import LoadError

DEFAULT_TIMEOUT_S = 5.0
#: Longest time limit accepted (:data:`playground.core.settings.MAX_TIME_LIMIT_S`).
MAX_TIMEOUT_S = MAX_TIME_LIMIT_S

# seed 003 type names → JSON Schema types
_TABLE_TYPES = {
    "str": "string",
    "string": "string",
    "int": "integer",
    "integer": "integer",
    "float": "number",
    "number": "number",
    "bool": "boolean",
    "boolean": "boolean",
    "list": "array",
    "array": "array",
    "dict": "object",
    "object": "object",
}


@dataclass(frozen=True)
class SourceLocation:
    """Where a contract (or a finding) was defined: ``path`` and 1-based ``line`` (``None``
    when unknown), parsed once from the ``"path:line"`` text of ``Contract.source``."""

    path: str
    line: int | None = None

    @classmethod
    def parse(cls, source: str) -> SourceLocation:
        """``"path:line"`` → ``SourceLocation(path, line)``; text without a numeric ``:line``
        (a repr, ``""``) → ``SourceLocation(source, None)``."""
        path, sep, line = source.rpartition(":")
        if sep and path and line.isdigit():
            return cls(path, int(line))
        return cls(source, None)

    def __str__(self) -> str:
        """``"path:line"`` (``"path"`` without a line)."""
        return self.path if self.line is None else f"{self.path}:{self.line}"

    @property
    def file_name(self) -> str:
        """The last part of :attr:`path` (``"shop.py"``), or the path when it has none."""
        return Path(self.path).name or self.path

    def relative(self) -> SourceLocation:
        """The same location with :attr:`path` relative to the working folder when it lies
        inside it (``tools/shop.py:175``); unchanged otherwise or without a line."""
        if self.line is None:
            return self
        try:
            path = Path(self.path).resolve().relative_to(Path.cwd().resolve())
        except (ValueError, OSError):
            return self
        return SourceLocation(str(path), self.line)


@dataclass
class Contract:
    """One registered tool.

    ``parameters``: the JSON Schema (an ``object`` schema) the arguments are validated against —
    the same one the model is shown. ``returns``: JSON Schema of the result plus the limits
    ``max_rows`` (rows), ``rows_key`` (default ``"rows"``) and ``max_bytes`` (bytes of canonical
    JSON), or ``None`` when undeclared. ``timeout_s``: the body's time limit in seconds.
    ``source``: ``"path:line"`` where it was defined. ``origin``: ``"function"`` or ``"table"``.
    ``sdk_declaration``: the Gemini declaration JSON as google-genai built it (plain functions,
    from loading; ``None`` for table and MCP contracts, whose requests are built from
    ``parameters`` by :mod:`playground.routing.declarations`).
    ``fn``: the callable when the body lives in this process, else ``None`` (a worker process
    or an MCP server runs it). ``tool_source``: the :class:`~playground.core.toolsource.ToolSource`
    whose ``call`` runs the body (``None``: run ``fn`` in this process). ``module_file``: the tool
    module's path; ``module_constants``: its UPPER_CASE JSON-scalar names (``FALLBACK_<ARG>``),
    read at load time (:func:`playground.core.registry.module_constants`). ``effects_declared``:
    whether the author set ``side_effects`` or ``cacheable`` (``lint`` reports the others,
    ``effects-undeclared``).

    Effects (:mod:`playground.core.effects`, issue 20 item 1): ``effects`` is ``"read"``,
    ``"write"`` or ``"unknown"``; ``effects_basis`` how that is known (``"declared"``,
    ``"annotations"``, ``"inferred"``, ``"unknown"``); ``effects_evidence`` what decided it;
    ``idempotent`` whether a repeat is harmless (the gate retries only those). Built by hand
    with only ``side_effects``, a contract is a declared write (``True``) or read (``False``).
    ``side_effects`` is then kept true for every contract that may write (``write`` or
    ``unknown``): such a contract is never cached. ``type_formats``: ``{parameter: kind}`` for
    the date/time parameters whose own type takes more than RFC 3339
    (:mod:`playground.core.type_formats`); the gate checks them as that type does.
    """

    name: str
    description: str
    parameters: dict[str, Any]
    fn: Callable[..., Any] | None
    returns: dict[str, Any] | None = None
    side_effects: bool = False
    cacheable: bool = True
    timeout_s: float = DEFAULT_TIMEOUT_S
    source: str = ""
    origin: str = "function"
    sdk_declaration: dict[str, Any] | None = field(default=None, repr=False)
    tool_source: Any = field(default=None, repr=False, compare=False)
    module_file: str = ""
    module_constants: dict[str, Any] = field(default_factory=dict, repr=False)
    effects_declared: bool = True
    effects: str = ""
    effects_basis: str = ""
    effects_evidence: str = ""
    idempotent: bool | None = None
    type_formats: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from playground.core import effects as fx

        if not self.effects:
            self.effects = fx.WRITE if self.side_effects else fx.READ
            self.effects_basis = self.effects_basis or fx.DECLARED
            self.effects_evidence = self.effects_evidence or f"side_effects: {self.side_effects}"
        self.side_effects = self.effects != fx.READ
        if self.idempotent is None:
            self.idempotent = self.effects == fx.READ

    @property
    def effects_info(self) -> Any:
        """The :class:`playground.core.effects.Effects` of this contract."""
        from playground.core.effects import Effects

        return Effects(
            self.effects, self.effects_basis, bool(self.idempotent), self.effects_evidence
        )

    @property
    def cache_skip_reason(self) -> str:
        """Why this contract's calls are not cached (``""`` when they are): one line for the
        record (:func:`playground.core.effects.cache_skip_reason`)."""
        from playground.core.effects import cache_skip_reason

        return cache_skip_reason(self.effects_info, self.cacheable)

    def to_data(self) -> dict[str, Any]:
        """Everything but ``fn`` and ``tool_source``, as JSON-compatible data (what a worker
        process sends for each contract it loaded); :func:`contract_from_data` reads it back."""
        return {
            "name": self.name,
            "description": self.description,
            "parameters": self.parameters,
            "returns": self.returns,
            "side_effects": self.side_effects,
            "cacheable": self.cacheable,
            "timeout_s": self.timeout_s,
            "source": self.source,
            "origin": self.origin,
            "sdk_declaration": self.sdk_declaration,
            "module_file": self.module_file,
            "module_constants": self.module_constants,
            "effects_declared": self.effects_declared,
            "effects": self.effects,
            "effects_basis": self.effects_basis,
            "effects_evidence": self.effects_evidence,
            "idempotent": self.idempotent,
            "type_formats": self.type_formats,
        }

    @property
    def location(self) -> SourceLocation:
        """:attr:`source` parsed (``path``, ``line``)."""
        return SourceLocation.parse(self.source)

    @property
    def caches(self) -> bool:
        """Whether successes of this contract are cached (never for ``side_effects``)."""
        return self.cacheable and not self.side_effects

    def declaration(self) -> dict[str, Any]:
        """The provider-neutral declaration: ``{"name", "description", "parameters"}``."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}

    def declaration_hash(self) -> str:
        """sha256 (64 hex characters) of the canonical JSON of :meth:`declaration` — what every
        provider's model is shown (name, description, parameter schema). History entries, golden
        episodes and check lines keep it so a later run can say that the declaration changed."""
        return declaration_hash(self.declaration())


def contract_from_data(data: dict[str, Any]) -> Contract:
    """A contract without a callable from :meth:`Contract.to_data`'s output."""
    return Contract(fn=None, **data)


def declaration_hash(declaration: dict[str, Any]) -> str:
    """sha256 hex digest of ``canonical_json(declaration)`` (keys sorted, Hangul as UTF-8)."""
    return hashlib.sha256(canonical_json(declaration).encode("utf-8")).hexdigest()


def source_of(fn: Callable[..., Any]) -> str:
    """``"path:line"`` of a callable, or its repr when inspect cannot tell."""
    try:
        path = inspect.getsourcefile(fn) or "?"
        # the line ``inspect.getsourcelines`` gives, without tokenizing the body to find its end
        line = inspect.findsource(inspect.unwrap(fn))[1] + 1
        return f"{path}:{line}"
    except (OSError, TypeError):
        return repr(fn)


def sdk_declaration_for(fn: Callable[..., Any]) -> dict[str, Any]:
    """Build the declaration google-genai sends for ``tools=[fn]``, as JSON
    (:func:`playground.core.wire.gemini_function_declaration`, which imports google.genai).

    Returns ``{"name", "description", "parameters_json_schema", ...}``. Raises
    :class:`LoadError` naming the function's ``path:line`` when the SDK cannot describe it (an
    unsupported type hint), with the fix for what it could not describe (a parameter or the
    return annotation: :func:`playground.core.declarable.declarable_fix`).
    """
    from playground.core.declarable import declarable_fix
    from playground.core.wire import gemini_function_declaration

    try:
        return gemini_function_declaration(fn)
    except ValueError as exc:
        raise LoadError(
            f"{source_of(fn)}: google-genai cannot build a declaration for "
            f"{getattr(fn, '__name__', fn)!r}: {exc} {declarable_fix(fn, str(exc))}"
        ) from None


def _checked_annotated_returns(fn: Callable[..., Any]) -> dict[str, Any] | None:
    """:func:`annotated_returns`, or ``None`` when that schema fails :func:`check_schema` (a
    pydantic ``pattern`` that is no ECMA-262 regex, say): the result is then left unchecked,
    never given a false fault."""
    schema = annotated_returns(fn)
    if schema is None:
        return None
    try:
        check_schema(getattr(fn, "__name__", "tool"), "returns", schema)
    except LoadError:
        return None
    return schema


def contract_from_function(
    fn: Callable[..., Any],
    meta: dict[str, Any] | None = None,
    declaration: dict[str, Any] | None = None,
    *,
    use_cache: bool = True,
) -> Contract:
    """A contract for a plain function; ``meta`` is its ``__contracts__`` entry.

    ``declaration``: a previously built SDK declaration. When ``None`` it comes from the
    on-disk declaration cache (:mod:`playground.core.declcache`; no google.genai import on a
    hit) or, on a miss or with ``use_cache=False``, from :func:`sdk_declaration_for`.
    Raises :class:`LoadError` on bad metadata or a type hint the SDK cannot describe.
    """
    if meta is not None and not isinstance(meta, dict):
        raise LoadError(
            f"{getattr(fn, '__name__', fn)}: its __contracts__ entry must be a dict "
            f"(returns, side_effects, cacheable, idempotent, timeout_s), got {type(meta).__name__}"
        )
    meta = dict(meta or {})
    check_parameter_kinds(fn)
    if declaration is not None:
        decl = declaration
    elif use_cache:
        decl = declcache.cached_declaration(fn, sdk_declaration_for)
    else:
        decl = sdk_declaration_for(fn)
    params = decl.get("parameters_json_schema") or {"type": "object", "properties": {}}
    if params.get("type") != "object":
        params = {"type": "object", "properties": {}}
    returns = meta.get("returns")
    _check_meta(fn.__name__, meta, returns)
    if returns is None:  # no 'returns' in __contracts__: the return annotation, if it says one
        if use_cache:
            kind = "\0".join(["returns", *annotation_sources(fn)])
            returns = declcache.cached_fact(fn, kind, lambda: _checked_annotated_returns(fn))
        else:
            returns = _checked_annotated_returns(fn)
    if not has_probed_formats(params):
        kinds = {}
    elif use_cache:
        kinds = declcache.cached_fact(fn, "type_formats", lambda: probe_kinds(fn, params))
    else:
        kinds = probe_kinds(fn, params)
    # defaults are checked as the gate checks calls: a date or time by its own type
    check_signature(fn, decl["name"], for_validation(params, kinds, python=True))
    if kinds:  # the declaration says what the parameter's own type takes (issue 20 item 3)
        params = declared_type_formats(params, kinds)
        decl = {**decl, "parameters_json_schema": params}
    effects = from_meta(decl["name"], decl.get("description", ""), meta)
    return Contract(
        name=decl["name"],
        description=decl.get("description", ""),
        parameters=params,
        fn=fn,
        returns=returns,
        effects=effects.kind,
        effects_basis=effects.basis,
        effects_evidence=effects.evidence,
        idempotent=effects.idempotent,
        type_formats=dict(kinds or {}),
        cacheable=bool(meta.get("cacheable", True)),
        timeout_s=float(meta.get("timeout_s", DEFAULT_TIMEOUT_S)),
        source=source_of(fn),
        origin="function",
        sdk_declaration=decl,
        effects_declared="side_effects" in meta or "cacheable" in meta,
    )


def check_parameter_kinds(fn: Callable[..., Any]) -> None:
    """Raise :class:`LoadError` for a parameter the gate cannot pass by name whatever the
    schema says (positional-only, ``*args``, ``**kwargs``) or a pydantic ``Field(...)`` used as
    a default (issue 11 item 4); checked before google-genai builds the declaration."""
    where = source_of(fn)
    name = getattr(fn, "__name__", repr(fn))
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    for pname, param in signature.parameters.items():
        at = f"{where}: tool {name!r}, parameter {pname!r}"
        if param.kind is inspect.Parameter.POSITIONAL_ONLY:
            raise LoadError(
                f"{at} is positional-only; the playground passes arguments by name. "
                "Remove the '/' from the signature."
            )
        if param.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            star = "*" if param.kind is inspect.Parameter.VAR_POSITIONAL else "**"
            raise LoadError(
                f"{at} is {star}{pname}, which no schema can declare. "
                "Name each argument as its own parameter."
            )
        default = param.default
        if type(default).__name__ == "FieldInfo" and type(default).__module__.startswith(
            "pydantic"
        ):
            raise LoadError(
                f"{at} uses pydantic Field(...) as its default; the body would receive the "
                "FieldInfo object. Write 'Annotated[T, Field(...)]' and a plain default."
            )


def check_signature(fn: Callable[..., Any], name: str, params: dict[str, Any]) -> None:
    """Raise :class:`LoadError` unless ``fn``'s signature and its parameter schema agree, so
    that no valid call can fail with a ``TypeError`` about its arguments (issue 11 item 4).

    Refused here, each naming the tool, the parameter and the fix: a parameter Python requires
    that the schema leaves optional (``Any`` or unannotated) and a default that fails its own
    schema (``x: T = None`` is accepted). Parameter kinds and ``Field(...)`` defaults are
    refused earlier by :func:`check_parameter_kinds`. A default found valid is remembered
    across commands (:mod:`playground.core.schemacache`), so loading known tools needs no
    ``jsonschema`` import.
    """
    where = source_of(fn)
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    props = params.get("properties", {}) or {}
    required = set(params.get("required", []) or [])
    for pname, param in signature.parameters.items():
        at = f"{where}: tool {name!r}, parameter {pname!r}"
        default = param.default
        if default is inspect.Parameter.empty:
            if pname not in required:
                raise LoadError(
                    f"{at} is required by Python but optional in the schema (annotated Any or "
                    "not annotated), so a call without it would fail. Annotate it with a type, "
                    "or give it a default."
                )
            continue
        schema = props.get(pname)
        # ``x: str = None`` (the old implicit Optional) is left alone: omitting x gives None,
        # as the author meant, and the schema still refuses an explicit null
        if default is not None and isinstance(schema, dict) and schema:
            from playground.core.canonical import to_json_value

            own = {**schema, "$defs": params.get("$defs", {})}
            try:
                value = to_json_value(default)
                key = schemacache.schema_key({"schema": own, "value": value}, against="own schema")
                problem = None
                if key is None or not schemacache.known_valid(key):
                    from playground.core.validators import validator_for

                    problem = next(iter(validator_for(own).iter_errors(value)), None)
                    if problem is None and key is not None:
                        schemacache.remember_valid(key)
            except Exception as exc:  # a default JSON cannot carry
                raise LoadError(
                    f"{at}: its default {default!r} is not JSON data ({exc})."
                ) from None
            if problem is not None:
                raise LoadError(
                    f"{at}: its default {default!r} fails its own schema ({problem.message}). "
                    "Change the default or the annotation (e.g. 'T | None = None')."
                )


def _check_meta(name: str, meta: dict[str, Any], returns: Any) -> None:
    for flag in ("side_effects", "cacheable", "idempotent"):
        if flag in meta and not isinstance(meta[flag], bool):
            raise LoadError(f"{name}: {flag!r} must be True or False, got {meta[flag]!r}")
    if returns is not None and not isinstance(returns, dict):
        raise LoadError(
            f"{name}: 'returns' must be a JSON Schema object, got {type(returns).__name__}"
        )
    if returns is not None:
        check_schema(name, "returns", returns)
    timeout = meta.get("timeout_s", DEFAULT_TIMEOUT_S)
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not math.isfinite(timeout)
        or not 0 < timeout <= MAX_TIMEOUT_S
    ):
        raise LoadError(
            f"{name}: 'timeout_s' must be a positive number of seconds, at most "
            f"{MAX_TIMEOUT_S:,.0f}, got {timeout!r}"
        )


def check_schema(name: str, what: str, schema: dict[str, Any]) -> None:
    """Raise :class:`LoadError` when ``schema`` is not a valid JSON Schema (Draft 2020-12
    metaschema, regex patterns compiled), so a broken contract is a load problem naming the
    tool instead of a misleading verdict at call time. The playground's ``max_rows``,
    ``rows_key`` and ``max_bytes`` limits are checked for their types.

    A schema found valid is remembered by content across commands
    (:mod:`playground.core.schemacache`) and not checked against the metaschema again."""
    body = {k: v for k, v in schema.items() if k not in ("max_rows", "rows_key", "max_bytes")}
    key = schemacache.schema_key(body)
    if key is None or not schemacache.known_valid(key):
        _check_against_metaschema(name, what, body)
        if key is not None:
            schemacache.remember_valid(key)
    _check_limits(name, what, schema)


def _check_against_metaschema(name: str, what: str, body: dict[str, Any]) -> None:
    from jsonschema import Draft202012Validator, FormatChecker
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(body, format_checker=FormatChecker())
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "(top)"
        raise LoadError(
            f"{name}: '{what}' is not a valid JSON Schema at {where}: {' '.join(exc.message.split())}"
        ) from None
    except Exception as exc:  # e.g. a pattern the regex engine refuses
        raise LoadError(
            f"{name}: '{what}' is not a valid JSON Schema: {type(exc).__name__}: {exc}"
        ) from None


def _check_limits(name: str, what: str, schema: dict[str, Any]) -> None:
    for key in ("max_rows", "max_bytes"):
        limit = schema.get(key)
        if key in schema and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
            raise LoadError(f"{name}: '{what}.{key}' must be a whole number >= 0, got {limit!r}")
    if "rows_key" in schema and not isinstance(schema["rows_key"], str):
        raise LoadError(f"{name}: '{what}.rows_key' must be a string, got {schema['rows_key']!r}")


def schema_from_table_args(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Convert seed-003 ``args`` (``{arg: {type, required, allowed, min, max}}``) to JSON Schema.

    ``min``/``max`` become ``minimum``/``maximum`` for numbers and ``minLength``/``maxLength``
    for strings; ``allowed`` becomes ``enum``; ``pattern``, ``format``, ``description`` and
    ``default`` pass through. ``additionalProperties`` is ``false``. Raises :class:`LoadError`
    for an unknown type name or a spec that is not a dict.
    """
    if not isinstance(args, dict):
        raise LoadError(
            f"{name}: 'args' must be a dict of argument specs, got {type(args).__name__}"
        )
    props: dict[str, Any] = {}
    required: list[str] = []
    for arg, spec in args.items():
        if not isinstance(spec, dict):
            raise LoadError(f"{name}.{arg}: an argument spec must be a dict, got {spec!r}")
        type_name = spec.get("type", "str")
        if type_name not in _TABLE_TYPES:
            raise LoadError(
                f"{name}.{arg}: unknown type {type_name!r} (one of {sorted(_TABLE_TYPES)})"
            )
        jtype = _TABLE_TYPES[type_name]
        prop: dict[str, Any] = {"type": jtype}
        for key in ("description", "pattern", "format", "default"):
            if key in spec:
                prop[key] = spec[key]
        if "allowed" in spec:
            prop["enum"] = list(spec["allowed"])
        lo, hi = ("minLength", "maxLength") if jtype == "string" else ("minimum", "maximum")
        if jtype == "array":
            lo, hi = "minItems", "maxItems"
        if "min" in spec:
            prop[lo] = spec["min"]
        if "max" in spec:
            prop[hi] = spec["max"]
        props[arg] = prop
        if spec.get("required", False):
            required.append(arg)
    schema: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


def returns_from_table(name: str, returns: dict[str, Any] | None) -> dict[str, Any] | None:
    """Convert seed-003 ``returns`` (``{"keys": {k: type}, "rows": {"max_len", "item", "min"}}``).

    Produces a JSON Schema object with every key required, ``rows`` as an array of ``item``
    objects whose ``min`` fields get ``minimum``, and the limits ``max_rows`` / ``rows_key``.
    A dict that already looks like JSON Schema (has ``"type"``) is returned as is.
    """
    if returns is None:
        return None
    if not isinstance(returns, dict):
        raise LoadError(f"{name}: 'returns' must be a dict, got {type(returns).__name__}")
    if "type" in returns and "keys" not in returns:
        return returns
    keys = returns.get("keys", {})
    props: dict[str, Any] = {}
    for key, type_name in keys.items():
        if type_name not in _TABLE_TYPES:
            raise LoadError(f"{name}.returns.{key}: unknown type {type_name!r}")
        props[key] = {"type": _TABLE_TYPES[type_name]}
    schema: dict[str, Any] = {"type": "object", "properties": props, "required": list(keys)}
    rows = returns.get("rows")
    if isinstance(rows, dict):
        item_props: dict[str, Any] = {}
        for field_name, type_name in (rows.get("item") or {}).items():
            item_props[field_name] = {"type": _TABLE_TYPES.get(type_name, "string")}
        for field_name, minimum in (rows.get("min") or {}).items():
            item_props.setdefault(field_name, {})["minimum"] = minimum
        for field_name, maximum in (rows.get("max") or {}).items():
            item_props.setdefault(field_name, {})["maximum"] = maximum
        schema["properties"]["rows"] = {
            "type": "array",
            "items": {
                "type": "object",
                "properties": item_props,
                "required": list(rows.get("item") or {}),
            },
        }
        if "max_len" in rows:
            schema["max_rows"] = rows["max_len"]
        schema["rows_key"] = "rows"
    return schema


def contract_from_table(name: str, entry: Any) -> Contract:
    """A contract from one seed-003 ``TOOLS`` entry. Raises :class:`LoadError` when malformed."""
    if not isinstance(entry, dict) or not callable(entry.get("fn")):
        raise LoadError(f"TOOLS[{name!r}] must be a dict with a callable 'fn'")
    fn = entry["fn"]
    description = entry.get("description") or inspect.getdoc(fn) or ""
    meta = {
        k: entry[k] for k in ("side_effects", "cacheable", "idempotent", "timeout_s") if k in entry
    }
    returns = returns_from_table(name, entry.get("returns"))
    _check_meta(name, meta, returns)
    parameters = schema_from_table_args(name, entry.get("args", {}))
    check_schema(name, "args", parameters)
    effects = from_meta(name, description, meta)
    return Contract(
        name=name,
        description=description,
        parameters=parameters,
        fn=fn,
        returns=returns,
        effects=effects.kind,
        effects_basis=effects.basis,
        effects_evidence=effects.evidence,
        idempotent=effects.idempotent,
        cacheable=bool(meta.get("cacheable", True)),
        timeout_s=float(meta.get("timeout_s", DEFAULT_TIMEOUT_S)),
        source=source_of(fn),
        origin="table",
        effects_declared="side_effects" in meta or "cacheable" in meta,
    )
