"""Schema lint: seed 002's advice on tool schemas as findings ("도구 스키마는 프롬프트의 일부다").

Every rule names its source. Severities: ``error`` (exit 1), ``warning`` (exit 1 only with
``--strict``), ``info`` (never changes the exit code).

=========================  ========  ==========================================================
rule                       severity  what it flags (seed 002 unless said otherwise; the
                                     provider rules are in :mod:`playground.batch.lint_providers`
                                     with their sources)
=========================  ========  ==========================================================
``gemini-name``            error     a name Gemini's API refuses (google-genai 3.6.1,
                                     ``google/genai/types.py``, ``FunctionDeclaration.name``:
                                     "Must start with a letter or an underscore. Must be a-z,
                                     A-Z, 0-9, or contain underscores, dots, colons and dashes,
                                     with a maximum length of 128."): Hangul or other non-ASCII
                                     letters, spaces, a leading digit, over 128 characters.
                                     See :func:`gemini_name_problems`.
``gemini-schema``          error     parameters that are no object schema (Gemini's
                                     ``parameters_json_schema`` "must describe an object").
``anthropic-name``,        error     a tool name Anthropic / OpenAI refuses
``openai-name``                      (``^[a-zA-Z0-9_-]{1,64}$``).
``anthropic-param-name``   error     a parameter name Anthropic refuses
                                     (``^[a-zA-Z0-9_.-]{1,64}$``).
``anthropic-schema``,      error     parameters that are no object schema, or a combinator at
``openai-schema``                    the root.
``openai-array-items``     error     an array schema without ``items``: OpenAI answers 400
                                     "array schema missing items", strict or not.
``openai-strict``          info      what OpenAI's ``strict: true`` would refuse (Structured
                                     Outputs, "Supported schemas"): ``additionalProperties``
                                     not ``false``, a property not ``required``, an unsupported
                                     keyword or format, ``$ref`` beside other keywords, limits.
``anthropic-strict``       info      what Anthropic's ``strict: true`` would refuse (Structured
                                     outputs, "JSON Schema limitations").
``gemini-lossy``           warning   a keyword the Gemini copy drops that an answer cannot be
                                     mapped back from.
``name-verb-object``       warning   a name that is one word (``search``) or has no verb from
                                     :data:`VERBS` first or last ("이름은 동사 + 대상의 꼴").
                                     ``stock_lookup`` (object + verb-noun) is accepted: both
                                     parts are there.
``name-vague``             warning   a vague verb or object in the name (``get_data``,
                                     ``handle``, ``process``, ``do_``, ``manager``; see
                                     :data:`VAGUE_WORDS`) — "대상도 동작도 모호하다".
``name-version``           warning   a version in the name: ``_v2``, ``V2``, ``_2``, or the words
                                     ``new``/``old``/``legacy``/``latest``/``deprecated``
                                     ("버전은 모델에게 의미가 없다").
``name-two-things``        error     ``_and_`` (or ``And``) in the name: the tool does two
                                     things ("부작용이 다르면 도구를 나눈다").
``description-missing``    error     no description at all: the model has only the name.
``description-no-boundary`` warning  no sentence on when NOT to use it, while another contract
                                     overlaps in vocabulary ("설명문에는 '언제 쓰지 않는가'를 쓴다").
``prose-constraint``       warning   a parameter's prose states a constraint the schema could
                                     hold but does not ("타입으로 말할 수 있는 것은 설명문에 쓰지
                                     않는다"): "one of"/"중 하나" → ``enum``; "between"/"사이"/
                                     ``1..5`` → ``minimum``/``maximum``; "YYYY-MM-DD" →
                                     ``format: date``; "starts with"/"로 시작"/"8자리" →
                                     ``pattern``; "기본값"/"default is" → ``default``.
``format-type-disagree``   info      a ``date-time``/``time`` parameter whose own type takes
                                     what the declared format refuses (a plain ``datetime``
                                     takes local time; RFC 3339 needs an offset): the gate
                                     checks the type's rule and the declaration says so.
``example-invalid``        warning   an example (``examples``, or "e.g."/"예:" in the prose) that
                                     the parameter's own schema refuses, formats included: the
                                     model copies it and the gate refuses the call. An array or
                                     object written in JSON (``e.g. ["Acme"]``) is read as JSON.
``optional-undocumented``  warning   an optional parameter whose prose never says when to leave
                                     it out ("선택 인자는 비워도 된다는 사실을 명시해야 실제로
                                     비운다").
``effects-undeclared``     warning   a tool whose effects are only inferred from a verb or
                                     unknown (a Python tool without ``side_effects`` /
                                     ``cacheable``, an MCP tool without annotations).
``returns-undeclared``     warning   no ``returns`` schema and no return annotation with a shape
                                     ("반환값도 스키마 설계의 일부다").
``returns-unbounded``      warning   rows with no ``max_rows`` / ``max_bytes`` (Claude Code
                                     caps MCP tool output at 25,000 tokens).
``returns-personal-data``  warning   a returned key that looks like personal data (seed 000:
                                     "수령인 이름과 주소는 돌려주지 않는다"); see
                                     :func:`personal_key`.
``empty-no-note``          warning   a result with rows but no ``note`` property, or a bare list
                                     ("빈 결과에 말을 붙인다").
``tool-count``             warning / more than 10 tools (warning) or more than 30 (error): "10~30개
                           error     — 혼동이 보이기 시작한다", "30개 이상 — 목록을 그대로 다 주면
                                     안 된다".
=========================  ========  ==========================================================

Where the prose is: a parameter's own ``description`` in the schema, plus — for plain functions —
its line in the docstring's ``Args:`` section, because google-genai puts the whole docstring in
the tool description and leaves the parameter descriptions empty (seed 001;
:func:`playground.core.validation.arg_doc`). A schema keyword counts when it appears in the
parameter schema or in one of its ``anyOf``/``oneOf``/``allOf`` branches (``date | None``).

How overlap is measured (``description-no-boundary``): each contract's *content words* are the
words of its name and description (English words lower-cased; Hangul words with a trailing
particle such as 을/를/으로/에서 removed), minus stop words (:data:`STOP_WORDS`), minus the verbs
of :data:`VERBS`, minus registered tool names. Two contracts overlap when their names share a
content word (``stock_lookup`` / ``legacy_stock`` share ``stock``) or their content words share
at least :data:`OVERLAP_MIN_SHARED` (3) words. A description has a boundary when it contains one
of :data:`BOUNDARY_MARKERS` or names another registered tool (seed 002: "서로를 가리켜 주면
경계가 생긴다").

Every fix fits where the tool comes from (:func:`playground.batch.lint_base.fix_for`): what to
change in the code for a Python function, in the ``TOOLS`` table for a table entry, and what to
ask of the server's author for an MCP server's tool.

This module owns the entry points (:func:`lint_contract`, :func:`lint_registry`, sorting,
counting, the exit code) and the tool-count rule. The rule functions are in
:mod:`playground.batch.lint_rules`, the shared severities, :data:`RULES`, :class:`Finding`,
word lists and helpers in :mod:`playground.batch.lint_base`.
"""

from __future__ import annotations

from collections.abc import Iterable

from playground.batch.lint_base import (
    ERROR,
    INFO,
    MANY_TOOLS,
    SEVERITY_ORDER,
    TOO_MANY_TOOLS,
    WARNING,
    DocstringSources,
    Finding,
)
from playground.batch.lint_providers import budget_findings, provider_findings
from playground.batch.lint_rules import (
    description_findings,
    effects_findings,
    format_type_findings,
    invalid_name_findings,
    name_findings,
    param_findings,
    returns_findings,
)
from playground.core.registry import Registry

# ---------------------------------------------------------------------------------- entry points


def _count_findings(registry: Registry) -> list[Finding]:
    n = len(registry)
    src = ", ".join(str(p) for p in registry.paths)
    if n > TOO_MANY_TOOLS:
        return [
            Finding(
                "tool-count",
                ERROR,
                "",
                "registry",
                src,
                f"{n} tools in one list (more than {TOO_MANY_TOOLS}): the model has too many similar "
                "choices at once.",
                "expose a subset per stage (staged exposure) or a top-level tool that picks a domain; "
                "decide the list once at the start of a conversation to keep the prompt cache.",
            )
        ]
    if n > MANY_TOOLS:
        return [
            Finding(
                "tool-count",
                WARNING,
                "",
                "registry",
                src,
                f"{n} tools in one list (more than {MANY_TOOLS}): confusion between similar tools starts.",
                "group names by prefix (order_*, ship_*), merge overlapping tools, add boundary sentences.",
            )
        ]
    return []


def lint_contract(
    registry: Registry, name: str, sources: DocstringSources | None = None
) -> list[Finding]:
    """Findings for one contract (overlap is judged against the rest of ``registry``).

    Raises ``KeyError`` when ``name`` is not registered.
    """
    contract = registry.contracts[name]
    sources = sources or DocstringSources()
    found = (
        invalid_name_findings(contract)
        + name_findings(contract)
        + description_findings(contract, registry)
        + param_findings(contract, sources)
        + returns_findings(contract)
        + effects_findings(contract)
        + format_type_findings(contract)
        + provider_findings(contract)
        + budget_findings(contract)
    )
    return sort_findings(found)


def lint_registry(registry: Registry) -> list[Finding]:
    """Findings for every contract of ``registry`` plus the registry-wide tool count, sorted by
    severity (errors first), then tool, then rule."""
    sources = DocstringSources()
    found = _count_findings(registry)
    for name in registry.names():
        found.extend(lint_contract(registry, name, sources))
    return sort_findings(found)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Errors first, then warnings, then info; within a severity by tool, location and rule."""
    return sorted(
        findings, key=lambda f: (SEVERITY_ORDER.get(f.severity, 9), f.tool, f.location, f.rule)
    )


def summarize(findings: Iterable[Finding]) -> dict[str, int]:
    """``{"error": n, "warning": n, "info": n}``."""
    counts = {ERROR: 0, WARNING: 0, INFO: 0}
    for f in findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    return counts


def lint_exit_code(findings: Iterable[Finding], strict: bool = False) -> int:
    """1 when there is an error (or, with ``strict``, a warning); else 0. ``info`` never counts."""
    counts = summarize(findings)
    return 1 if counts[ERROR] or (strict and counts[WARNING]) else 0
