"""What the argument rules read of one parameter (:class:`ParamSpec`, built by
:func:`param_specs` from the JSON schema and the docstring's argument texts) and what they
build for one tool (:class:`Fill`: the values, their evidence, the spans used)."""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from playground.core.optional_schema import value_schema
from playground.routing.fill.examples import extract_examples, find_prefix, shape_regex

_FREE_TEXT_NAMES = frozenset(
    {
        "keyword",
        "keywords",
        "query",
        "q",
        "search",
        "search_term",
        "term",
        "terms",
        "text",
        "search_text",
        "검색어",
    }
)
_FREE_TEXT_DOC_RE = re.compile(r"검색어|키워드|keyword|query|search term|search text|검색", re.I)
PLAIN_WORD_RE = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+)*")
_FORMAT_RE = re.compile(
    r"\bformat(?:ted)?\s+(?:of|as|like)\s+['\"‘“`]([^'\"’”`]{1,60})['\"’”`]", re.I
)


def _types(schema: dict[str, Any]) -> tuple[str, ...]:
    t = schema.get("type")
    if isinstance(t, str):
        return (t,)
    if isinstance(t, list):
        return tuple(x for x in t if x != "null")
    out: list[str] = []
    for sub in schema.get("anyOf", []) + schema.get("oneOf", []):
        if isinstance(sub, dict):
            out.extend(x for x in _types(sub) if x not in out)
    return tuple(x for x in out if x != "null")


@dataclass(frozen=True)
class ParamSpec:
    """What the router knows about one parameter (all from the declaration)."""

    name: str
    types: tuple[str, ...]
    required: bool
    doc: str = ""
    enum: tuple[Any, ...] = ()
    pattern: str | None = None
    format: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    examples: tuple[str, ...] = ()
    shapes: tuple[tuple[str, str], ...] = ()  # (example, regex derived from it)
    prefix: str | None = None
    free_text: bool = False
    item_types: tuple[str, ...] = ()  # an array's item types
    item_enum: tuple[Any, ...] = ()  # an array's listed item values
    #: the schema's ``default`` (``has_default`` says whether there is one)
    default: Any = field(default=None, compare=False)
    has_default: bool = False
    #: how many ", "-joined parts its values have beyond the first, from its examples or a
    #: "format of 'City, State'" in its description (0: none said; -1: examples without one)
    joined: int = 0
    #: values its description quotes ("'real' for real roots, 'all' for both"): the options a
    #: reader sees, like an enum the schema does not declare
    listed: tuple[str, ...] = ()
    #: an object's properties, as parameters of their own (its fields named in the question)
    sub: tuple[ParamSpec, ...] = field(default=(), compare=False)
    #: the tool whose parameter of the same name lent :attr:`pattern` (rule ``sibling_pattern``;
    #: ``""``: the pattern is this parameter's own, or there is none)
    pattern_from: str = field(default="", compare=False)

    @property
    def structured(self) -> bool:
        """True when a value can be recognised by shape (enum/pattern/format/example/prefix)."""
        return bool(
            self.enum
            or self.pattern
            or self.format in {"date", "email"}
            or self.shapes
            or self.prefix
        )


def bare(name: str) -> str:
    """``name`` lower case without spaces, underscores or punctuation (``Meta_Title`` and
    ``'meta title'`` are the same name)."""
    return re.sub(r"[\W_]+", "", name).lower()


def param_specs(parameters: dict[str, Any] | None, arg_docs: dict[str, str]) -> list[ParamSpec]:
    """One :class:`ParamSpec` per schema property, in schema order."""
    parameters = parameters if isinstance(parameters, dict) else {}
    raw_props = parameters.get("properties")
    props: dict[str, Any] = raw_props if isinstance(raw_props, dict) else {}
    required = set(parameters.get("required") or [])
    # "If not provided, the 'Title' will be used": a quoted parameter name is no option
    siblings = {bare(n) for n in props}
    specs = []
    for name, schema in props.items():
        schema = value_schema(schema, parameters) if isinstance(schema, dict) else {}
        doc = " ".join(
            x for x in (arg_docs.get(name, ""), str(schema.get("description") or "")) if x
        )
        examples = tuple(extract_examples(doc)) + tuple(
            str(e) for e in schema.get("examples", []) or []
        )
        shapes = tuple(
            (e, rx) for e, rx in ((e, shape_regex(e)) for e in dict.fromkeys(examples)) if rx
        )
        types = _types(schema)
        enum = tuple(schema.get("enum") or ())
        shown = [e for e in examples if re.match(r"[^\W\d_]", e)] + _FORMAT_RE.findall(doc)
        joined = max((e.count(",") for e in shown), default=0) or (-1 if shown else 0)
        prefix = find_prefix(doc)
        spec = ParamSpec(
            name=name,
            types=types,
            required=name in required,
            doc=doc,
            enum=enum,
            pattern=schema.get("pattern"),
            format=schema.get("format"),
            minimum=schema.get("minimum"),
            maximum=schema.get("maximum"),
            examples=examples,
            shapes=shapes,
            prefix=prefix,
            item_types=_types(schema["items"]) if isinstance(schema.get("items"), dict) else (),
            item_enum=tuple(schema["items"].get("enum") or ())
            if isinstance(schema.get("items"), dict)
            else (),
            default=schema.get("default"),
            has_default="default" in schema,
            joined=joined,
            listed=tuple(
                dict.fromkeys(
                    q
                    for q in re.findall(r"['‘“\"]([^'’”\"]{1,30})['’”\"]", doc)
                    if (PLAIN_WORD_RE.fullmatch(q) or re.fullmatch(r"[\w/°]{1,12}", q))
                    and bare(q) not in siblings
                )
            ),
        )
        free = (
            ("string" in types or not types)
            and not spec.structured
            and (name.lower() in _FREE_TEXT_NAMES or bool(_FREE_TEXT_DOC_RE.search(doc)))
        )
        if "object" in types and isinstance(schema.get("properties"), dict):
            spec = replace(spec, sub=tuple(param_specs(schema, {})))
        specs.append(replace(spec, free_text=free))
    return specs


@dataclass
class Fill:
    """The arguments found for one tool: ``args``, ``evidence`` (``{arg: {rule, span, text,
    detail}}``), ``missing`` (required args not filled), ``consumed`` (question spans used)."""

    args: dict[str, Any] = field(default_factory=dict)
    evidence: dict[str, dict[str, Any]] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    consumed: list[tuple[int, int]] = field(default_factory=list)


def drop_values(specs: Sequence[ParamSpec], fill: Fill, names: Sequence[str]) -> list[str]:
    """Take the values of the parameters ``names`` out of ``fill`` (its ``args`` and
    ``evidence``); the required ones join ``fill.missing``, in declaration order. Returns
    ``names`` as a list. The value rules that find a misfit (:mod:`playground.routing.misfits`,
    :mod:`playground.routing.value_shape`) all drop it this way."""
    dropped = list(names)
    for name in dropped:
        fill.args.pop(name, None)
        fill.evidence.pop(name, None)
    fill.missing.extend(s.name for s in specs if s.required and s.name in dropped)
    return dropped


def drop_where(
    specs: Sequence[ParamSpec],
    fill: Fill,
    rules: Container[str],
    misfit: Callable[[ParamSpec, Any, Mapping[str, Any]], bool],
) -> list[str]:
    """Drop (:func:`drop_values`) every value of ``fill`` that a fill rule of ``rules`` gave and
    ``misfit(spec, value, evidence)`` refuses. Only a fill that lacks nothing is judged (one
    that lacks a value is not called anyway; the question back ranks the tools by what they
    have): ``[]`` otherwise. Returns the parameters dropped, in declaration order."""
    if fill.missing:
        return []
    names = []
    for spec in specs:
        ev = fill.evidence.get(spec.name)
        if ev is None or ev.get("rule") not in rules or spec.name not in fill.args:
            continue
        if misfit(spec, fill.args[spec.name], ev):
            names.append(spec.name)
    return drop_values(specs, fill, names)


def plain_string(spec: ParamSpec) -> bool:
    """A string parameter no shape rule and no free-text rule covers (``city``, ``name``)."""
    return ("string" in spec.types or not spec.types) and not spec.structured and not spec.free_text
