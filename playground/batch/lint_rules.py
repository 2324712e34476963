"""The schema lint rules, grouped: naming, description/boundary, parameter prose, returns.

Owns the rule functions that turn one contract into findings: name rules (``gemini-name``
with :func:`gemini_name_problems` / :func:`suggest_gemini_name`, ``name-verb-object``,
``name-vague``, ``name-version``, ``name-two-things``), description rules
(``description-missing``, ``description-no-boundary`` with :func:`has_boundary` and
:func:`overlaps`), parameter rules (``prose-constraint``, ``param-undocumented``, ``optional-undocumented``, ``example-invalid``), the effects rule
(``effects-undeclared``) and
returns rules (``returns-undeclared``, ``returns-personal-data`` with :func:`personal_key` and
:func:`returned_keys`, ``empty-no-note``). What each rule flags and why is the table in
:mod:`playground.batch.lint`'s docstring; shared vocabulary is in :mod:`playground.batch.lint_base`.

Rule sources: seed 002 (``002_5dea94806f69c756.txt``: verb + object names, no versions, one
thing per tool, when-not-to-use sentences pointing at the alternative, constraints in the
schema not in prose, optional arguments said to be optional, empty results carry a note),
seed 000 (``000_c08e8917b842d5f8.txt``: "수령인 이름과 주소는 돌려주지 않는다"), seed 001
(``001_3a95fa703827e0ed.txt``: parameter prose lives in the docstring's ``Args:``) and
google-genai 3.6.1 ``FunctionDeclaration.name`` (the Gemini name rule, max 128).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from playground.batch.lint_base import (
    BOUNDARY_MARKERS,
    OMIT_MARKERS,
    OVERLAP_MIN_SHARED,
    STOP_WORDS,
    VAGUE_VERBS,
    VAGUE_WORDS,
    VERBS,
    VERSION_RE,
    VERSION_WORDS,
    DocstringSources,
    Finding,
    content_words,
    fix_for,
    has_keyword,
    is_rows_list,
    make_finding,
    name_words,
    schema_types,
)
from playground.core.canonical import canonical_json
from playground.core.contracts import Contract
from playground.core.examples import refused_examples
from playground.core.registry import Registry
from playground.core.type_formats import readable
from playground.core.validation import arg_doc, validation_schema

# --------------------------------------------------------------------------------- name rules

#: FunctionDeclaration.name's limit (google-genai 3.6.1 ``types.py`` docstring: "with a maximum
#: length of 128"; older Gemini docs said 64).
GEMINI_NAME_MAX = 128
_GEMINI_NAME_CHARS = re.compile(r"[A-Za-z0-9_.:\-]")


def gemini_name_problems(name: str) -> list[str]:
    """Why Gemini's API would refuse ``name`` as a function name (``[]`` when it is fine).

    The rule, from the installed google-genai's ``FunctionDeclaration.name`` docstring
    (``google/genai/types.py``, 3.6.1): "Must start with a letter or an underscore. Must be
    a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of
    128." Letters are ASCII only (``str.isalpha`` would accept Hangul). Returns one phrase per
    broken part, e.g. ``["holds characters outside a-z, A-Z, 0-9, _ . : - ('주', '문', ' ')"]``.
    """
    out: list[str] = []
    if not name:
        return ["is empty"]
    first = name[0]
    if not (first == "_" or ("a" <= first <= "z") or ("A" <= first <= "Z")):
        out.append(f"starts with {first!r}, not a letter a-z/A-Z or an underscore")
    bad = list(dict.fromkeys(c for c in name if not _GEMINI_NAME_CHARS.fullmatch(c)))
    if bad:
        shown = ", ".join(repr(c) for c in bad[:5]) + (", …" if len(bad) > 5 else "")
        out.append(f"holds characters outside a-z, A-Z, 0-9, _ . : - ({shown})")
    if len(name) > GEMINI_NAME_MAX:
        out.append(f"is {len(name)} characters long (at most {GEMINI_NAME_MAX})")
    return out


def suggest_gemini_name(name: str) -> str:
    """A name Gemini accepts, derived from ``name`` (spaces and other refused characters become
    ``_``, a leading digit gets ``_`` in front, cut to 128), or ``""`` when nothing usable is
    left (an all-Hangul name: it needs an English name)."""
    text = re.sub(
        r"_+", "_", "".join(c if _GEMINI_NAME_CHARS.fullmatch(c) else "_" for c in name)
    ).strip("_")
    if not re.search(r"[A-Za-z]", text):
        return ""
    if not re.match(r"[A-Za-z_]", text):
        text = "_" + text
    return text[:GEMINI_NAME_MAX].rstrip("_.:-")


def invalid_name_findings(contract: Contract) -> list[Finding]:
    name = contract.name
    why = gemini_name_problems(name)
    if not why:
        return []
    shown = name if len(name) <= 60 else name[:59] + "…"
    fixed = suggest_gemini_name(name)
    hint = (
        f"rename it to ASCII snake_case, e.g. {fixed}"
        if fixed
        else "rename it to an English verb_object name in ASCII (e.g. 주문_조회 → search_orders); "
        "keep the Korean in the description"
    )
    return [
        make_finding(
            "gemini-name",
            contract,
            name,
            contract.source,
            f"{shown!r} {'; '.join(why)}: Gemini's API rejects the whole request (google-genai "
            "FunctionDeclaration.name: start with a letter or underscore; a-z, A-Z, 0-9, _ . : -; "
            f"at most {GEMINI_NAME_MAX} characters).",
            fix_for(contract, code=hint, mcp=hint.replace("rename it", "rename the tool")) + ".",
        )
    ]


def name_findings(contract: Contract) -> list[Finding]:
    """The name rules, in this order: ``name-two-things``, ``name-version``, ``name-vague``,
    ``name-verb-object`` (a finding each at most; the table is in :mod:`playground.batch.lint`)."""
    words = name_words(contract.name)
    rules = (_two_things_finding, _version_finding, _vague_finding, _verb_object_finding)
    return [found for rule in rules if (found := rule(contract, words)) is not None]


def _two_things_finding(contract: Contract, words: list[str]) -> Finding | None:
    """``name-two-things``: an ``and`` between two words (``_and_``, ``xAndY``)."""
    name = contract.name
    if not ("and" in words[1:-1] or re.search(r"_and_|[a-z]And[A-Z]", name)):
        return None
    i = words.index("and") if "and" in words else len(words) // 2
    left, right = "_".join(words[:i]), "_".join(words[i + 1 :])
    return make_finding(
        "name-two-things",
        contract,
        name,
        contract.source,
        f"{name!r} says it does two things ({left!r} and {right!r}): the model calls it when "
        "only one is wanted, or hesitates to call it at all.",
        _same(
            contract,
            f"split it into two tools, e.g. {left} + {right}; keep side effects in separate tools.",
        ),
    )


def _version_finding(contract: Contract, words: list[str]) -> Finding | None:
    """``name-version``: a version or age marker (``v2``, ``new``, ``old``...)."""
    name = contract.name
    if not (VERSION_RE.search(name) or VERSION_WORDS & set(words)):
        return None
    return make_finding(
        "name-version",
        contract,
        name,
        contract.source,
        f"{name!r} carries a version or age marker; a version means nothing to the model.",
        _same(
            contract,
            "name it for what it does (query_v2 → query_inventory) and retire or hide the old one.",
        ),
    )


def _vague_finding(contract: Contract, words: list[str]) -> Finding | None:
    """``name-vague``: a word of :data:`VAGUE_WORDS`, or a ``do_`` prefix."""
    name = contract.name
    vague = [w for w in words if w in VAGUE_WORDS]
    if not (vague or name.lower().startswith("do_")):
        return None
    shown = ", ".join(dict.fromkeys(vague or ["do"]))
    return make_finding(
        "name-vague",
        contract,
        name,
        contract.source,
        f"{name!r} uses vague word(s) ({shown}): neither the action nor the object is clear.",
        _same(
            contract,
            "use a concrete verb and object, e.g. get_data → get_customer_profile, "
            "handler → cancel_subscription.",
        ),
    )


def _verb_object_finding(contract: Contract, words: list[str]) -> Finding | None:
    """``name-verb-object``: a single word (digits and ``v2`` aside), or no verb as the first
    or last word."""
    name = contract.name
    plain = [w for w in words if not w.isdigit() and not re.fullmatch(r"v\d*", w)]
    if len(plain) <= 1:
        return make_finding(
            "name-verb-object",
            contract,
            name,
            contract.source,
            f"{name!r} is a single word: it does not say what it acts on.",
            _same(contract, "name it verb + concrete object, e.g. search → search_orders."),
        )
    if not ({plain[0], plain[-1]} & (VERBS | VAGUE_VERBS)):
        return make_finding(
            "name-verb-object",
            contract,
            name,
            contract.source,
            f"{name!r} has no verb (first or last word): the model cannot tell what it does.",
            _same(contract, "name it verb + concrete object, e.g. handler → cancel_subscription."),
        )
    return None


# -------------------------------------------------------------------------- description rules


def has_boundary(description: str, other_names: Iterable[str] = ()) -> bool:
    """Whether ``description`` says when not to use the tool or names another tool."""
    low = (description or "").lower()
    if any(m in low for m in BOUNDARY_MARKERS):
        return True
    return any(
        re.search(rf"(?<![A-Za-z0-9_]){re.escape(n.lower())}(?![A-Za-z0-9_])", low)
        for n in other_names
    )


def _vocabulary(contract: Contract, tool_names: list[str]) -> tuple[set[str], set[str]]:
    name_part = {
        w
        for w in name_words(contract.name)
        if w not in VERBS and w not in STOP_WORDS and len(w) > 1
    }
    desc_part = content_words(
        contract.name.replace("_", " ") + " " + contract.description, exclude=tool_names
    )
    return name_part, desc_part | name_part


def overlaps(a: Contract, b: Contract, tool_names: list[str]) -> list[str]:
    """The shared words that make ``a`` and ``b`` overlap (``[]`` when they do not)."""
    a_name, a_words = _vocabulary(a, tool_names)
    b_name, b_words = _vocabulary(b, tool_names)
    shared_names = sorted(a_name & b_name)
    shared = sorted(a_words & b_words)
    if shared_names:
        return shared_names + [w for w in shared if w not in shared_names]
    return shared if len(shared) >= OVERLAP_MIN_SHARED else []


def description_findings(contract: Contract, registry: Registry) -> list[Finding]:
    desc = contract.description or ""
    src = contract.source
    loc = f"{contract.name}.description"
    if not desc.strip():
        return [
            make_finding(
                "description-missing",
                contract,
                loc,
                src,
                f"{contract.name} has no description: the model sees only its name and argument names.",
                fix_for(
                    contract,
                    code="write a docstring that says what it does, when to use it and when not "
                    "(pointing at the alternative tool).",
                    table='write its "description": what it does, when to use it and when not '
                    "(pointing at the alternative tool).",
                    mcp="describe the tool: what it does, when to use it and when not (pointing "
                    "at the alternative tool).",
                ),
            )
        ]
    names = registry.names()
    others = [c for c in registry.contracts.values() if c.name != contract.name]
    if has_boundary(desc, [c.name for c in others]):
        return []
    hits = [(c.name, overlaps(contract, c, names)) for c in others]
    hits = [(n, w) for n, w in hits if w]
    if not hits:
        return []
    near = ", ".join(f"{n} ({', '.join(w[:4])})" for n, w in hits[:3])
    return [
        make_finding(
            "description-no-boundary",
            contract,
            loc,
            src,
            f"{contract.name}'s description never says when NOT to use it, yet it overlaps {near}.",
            _same(
                contract,
                "add a boundary sentence naming the alternative to its description, e.g. "
                f'"... 문의에는 사용하지 않는다({hits[0][0]}를 쓴다)" / "Do not use it for ...; use '
                f'{hits[0][0]} instead."',
            ),
        )
    ]


# ---------------------------------------------------------------------------- parameter rules

_ENUM_RX = re.compile(r"\bone of\b|중\s*하나|중의\s*하나|\beither\b.+\bor\b", re.I)
_RANGE_RX = re.compile(
    r"\bbetween\b|사이|\d+\s*(?:\.\.|~|–)\s*\d+|\bat (?:most|least)\b|\bno (?:more|fewer|less) than\b|"
    r"\bup to \d|최대\s*\d|최소\s*\d|\d+\s*(?:개|자|건|회|일)?\s*(?:이상|이하|미만|초과)",
    re.I,
)
_DATE_RX = re.compile(r"yyyy-mm-dd|yyyy/mm/dd|yyyymmdd", re.I)
_PATTERN_RX = re.compile(
    r"\bstarts? with\b|\bbegins? with\b|\bprefix(?:ed)?\b|(?:로|으로)\s*시작|\d+\s*자리|\b\d+\s*digits?\b",
    re.I,
)
_DEFAULT_RX = re.compile(r"기본값|\bdefault(?:s)? (?:is|to)\b|\bby default\b|\bdefaults to\b", re.I)

_PREFIX_RX = re.compile(
    r"['\"‘’“”`]?([A-Za-z0-9][A-Za-z0-9\-]*)['\"‘’“”`]?\s*(?:로|으로)\s*시작|"
    r"(?:starts?|begins?) with\s+['\"`]?([A-Za-z0-9][A-Za-z0-9\-]*)",
    re.I,
)
_NUM_RANGE_RX = re.compile(r"(-?\d+(?:\.\d+)?)\s*(?:\.\.|~|–|에서|to|and|부터)\s*(-?\d+(?:\.\d+)?)")
_DEFAULT_VALUE_RX = re.compile(
    r"(?:기본값(?:은|는|:)?|default(?:s)? (?:is|to)|by default)\s*:?\s*['\"`]?([\w\-.]+)", re.I
)
_ENUM_LIST_RX = re.compile(r"([\w\-]+(?:\s*[,/]\s*[\w\-]+)+)\s*중\s*(?:의\s*)?하나")


def _enum_values(prose: str) -> list[str]:
    m = _ENUM_LIST_RX.search(prose)
    if m:
        return [v.strip() for v in re.split(r"[,/]", m.group(1)) if v.strip()]
    quoted = re.findall(
        r"['\"“‘]([^'\"”’]+)['\"”’]", prose.split("one of", 1)[-1] if "one of" in prose else prose
    )
    return quoted


def _clause(prose: str, match: str) -> str:
    """The sentence of ``prose`` holding ``match`` (at most 80 characters)."""
    for part in re.split(r"(?<=[.!?。])\s+|\n", prose):
        if match in part:
            part = part.strip()
            return part if len(part) <= 80 else part[:77] + "..."
    return match


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def _same(contract: Contract, fix: str) -> str:
    """``fix`` as it is for a Python tool; for an MCP server's tool, what to ask of its author
    (:func:`playground.batch.lint_base.fix_for`)."""
    return fix_for(contract, code=fix, mcp=fix)


def _how(contract: Contract, table_key: str, function_hint: str) -> str:
    if contract.origin == "table":
        return f" In the TOOLS table: {table_key}."
    return (
        f" A plain function's schema comes from its signature (google-genai builds it): "
        f"{function_hint}."
    )


#: What one prose rule found: ``(matched text, missing keyword, schema example, TOOLS-table
#: key, plain-function hint)``, as :func:`_prose_finding` words it.
_ProseHit = tuple[str, str, str, str, str]


def _prose_findings(
    contract: Contract, param: str, schema: dict[str, Any], prose: str, src: str
) -> list[Finding]:
    """``prose-constraint`` findings for one parameter: its prose states an enum, a range, a
    date format, a pattern or a default that its schema does not declare (in this order)."""
    types = schema_types(schema)
    hits = (
        _enum_in_prose(schema, prose),
        _range_in_prose(schema, prose, types),
        _date_in_prose(schema, prose),
        _pattern_in_prose(schema, prose),
        _default_in_prose(schema, prose),
    )
    return [_prose_finding(contract, param, prose, src, hit) for hit in hits if hit is not None]


def _prose_finding(contract: Contract, param: str, prose: str, src: str, hit: _ProseHit) -> Finding:
    what, keyword, example, table_key, fn_hint = hit
    return make_finding(
        "prose-constraint",
        contract,
        f"{contract.name}.{param}",
        src,
        f"{param}: the prose says {_clause(prose, what)!r}, but the schema has no {keyword}; the "
        "model may ignore prose, and the gate cannot enforce it.",
        fix_for(
            contract,
            code=f"declare it in the schema: {example}; keep only what a type cannot say "
            "(where the value comes from, when not to use it)."
            + _how(contract, table_key, fn_hint),
            mcp=f"declare it in the tool's inputSchema: {example}, and keep in the prose "
            "only what a type cannot say (where the value comes from, when not to use it).",
        ),
    )


def _enum_in_prose(schema: dict[str, Any], prose: str) -> _ProseHit | None:
    m = _ENUM_RX.search(prose)
    if not m or has_keyword(schema, "enum", "const"):
        return None
    values = _enum_values(prose)
    example = f'"enum": {values!r}'.replace("'", '"') if values else '"enum": [...]'
    return (m.group(0), "enum", example, '"allowed": [...]', "Literal[...] as the type hint")


def _range_in_prose(schema: dict[str, Any], prose: str, types: set[str]) -> _ProseHit | None:
    """A range in prose (``between``, ``1~10``, ``최대 5``...) without the bound keywords of
    the parameter's type (string lengths, array items, else numbers)."""
    m = _RANGE_RX.search(prose)
    if not m:
        return None
    keys: tuple[str, ...]
    if "string" in types and not types & {"integer", "number"}:
        keys, names = ("minLength", "maxLength"), ("minLength", "maxLength")
    elif "array" in types:
        keys, names = ("minItems", "maxItems"), ("minItems", "maxItems")
    else:
        keys, names = (
            ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"),
            ("minimum", "maximum"),
        )
    if has_keyword(schema, *keys):
        return None
    nums = _NUM_RANGE_RX.search(prose)
    example = (
        f'"{names[0]}": {_number(nums.group(1))}, "{names[1]}": {_number(nums.group(2))}'
        if nums
        else f'"{names[0]}" / "{names[1]}"'
    )
    return (
        m.group(0),
        f"{names[0]}/{names[1]}",
        example,
        '"min" / "max"',
        "Annotated[int, Field(ge=..., le=...)] (pydantic.Field)",
    )


def _date_in_prose(schema: dict[str, Any], prose: str) -> _ProseHit | None:
    m = _DATE_RX.search(prose)
    if not m or has_keyword(schema, "format", "pattern"):
        return None
    return (
        m.group(0),
        "format",
        '"format": "date"',
        '"format": "date"',
        "datetime.date as the type hint",
    )


def _pattern_in_prose(schema: dict[str, Any], prose: str) -> _ProseHit | None:
    m = _PATTERN_RX.search(prose)
    if not m or has_keyword(schema, "pattern", "enum", "const", "format"):
        return None
    pm = _PREFIX_RX.search(prose)
    prefix = (pm.group(1) or pm.group(2)) if pm else None
    regex = f"^{re.escape(prefix)}" if prefix else "^...$"
    return (
        m.group(0),
        "pattern",
        f'"pattern": "{regex}"',
        f'"pattern": "{regex}"',
        f'Annotated[str, Field(pattern="{regex}")] (pydantic.Field)',
    )


def _default_in_prose(schema: dict[str, Any], prose: str) -> _ProseHit | None:
    m = _DEFAULT_RX.search(prose)
    if not m or has_keyword(schema, "default"):
        return None
    dm = _DEFAULT_VALUE_RX.search(prose)
    example = f'"default": {dm.group(1)}' if dm else '"default": ...'
    return (m.group(0), "default", example, '"default": ...', "a default value in the signature")


def param_findings(contract: Contract, sources: DocstringSources) -> list[Finding]:
    props = contract.parameters.get("properties", {}) or {}
    required = set(contract.parameters.get("required", []) or [])
    out: list[Finding] = []
    for param, schema in props.items():
        if not isinstance(schema, dict):
            continue
        doc_line = arg_doc(contract.description, param) if contract.origin == "function" else ""
        prose = " ".join(p for p in (schema.get("description", "") or "", doc_line) if p)
        src = (
            sources.find(contract, rf"^\s*{re.escape(param)}\s*(?:\([^)]*\))?:")
            if doc_line
            else contract.source
        )
        out.extend(_prose_findings(contract, param, schema, prose, src))
        checked = (validation_schema(contract).get("properties") or {}).get(param, schema)
        for example, why in refused_examples(  # as the gate checks it: the parameter's own type
            param, checked, contract.description, root=contract.parameters
        ):
            out.append(
                make_finding(
                    "example-invalid",
                    contract,
                    f"{contract.name}.{param}",
                    src,
                    f"the example {canonical_json(example)} for {param} is refused by its own "
                    f"schema ({readable(why)}); the model copies examples, then the call is refused.",
                    fix_for(
                        contract,
                        code="write an example in the docstring that passes the schema, or change "
                        "the annotation to accept it",
                        table='write an example in its "description" that passes the schema, or '
                        "change the schema to accept it",
                        mcp="make the example in the tool's description pass its inputSchema, or "
                        "the inputSchema accept it",
                    ),
                )
            )
        if not prose.strip():
            out.append(_undocumented(contract, param, required, src))
        elif param not in required and not any(m in prose.lower() for m in OMIT_MARKERS):
            out.append(
                make_finding(
                    "optional-undocumented",
                    contract,
                    f"{contract.name}.{param}",
                    src,
                    f"{param} is optional, but nothing says when to leave it out; models fill optional "
                    "arguments with guesses (today's date, an arbitrary value).",
                    _same(
                        contract,
                        'say in its description when to omit it, e.g. "사용자가 말하지 않았으면 '
                        '생략한다" / "Omit it unless the user gives one."',
                    ),
                )
            )
    return out


def _undocumented(contract: Contract, param: str, required: set[str], src: str) -> Finding:
    """``param-undocumented``: ``param`` has no description at all (for a Python tool: no
    entry under the docstring's ``Args:``); an optional one is told to say when to omit it
    too (``optional-undocumented`` is not added on top)."""
    where = (
        "the docstring's Args section does not document it"
        if contract.origin == "function"
        else "its schema has no description"
    )
    omit = (
        ""
        if param in required
        else ' (it is optional: say when to leave it out too, e.g. "Omit it unless the user '
        'gives one.")'
    )
    return make_finding(
        "param-undocumented",
        contract,
        f"{contract.name}.{param}",
        src,
        f"{param} has no description: {where}; the model sees only its name and type, and "
        "guesses what to send.",
        fix_for(
            contract,
            code=f"add it under Args: in the docstring: `{param}: what it is, its format, "
            f"an example`{omit}",
            table=f'give it a "description": what it is, its format, an example{omit}',
            mcp=f'give the inputSchema property {param!r} a "description": what it is, its '
            f"format, an example{omit}",
        ),
    )


def format_type_findings(contract: Contract) -> list[Finding]:
    """``format-type-disagree``: where a parameter's declared ``format`` (RFC 3339's
    ``date-time`` or ``time``, as google-genai writes every ``datetime``/``time``) and its own
    Python type disagree (issue 20 item 3): the type takes a value without an offset. The gate
    checks what the type takes (:mod:`playground.core.type_formats`) and the declaration's
    description says so; the author may prefer a type that says what is meant."""
    from playground.core.type_formats import KINDS

    out: list[Finding] = []
    for param, kind in sorted(contract.type_formats.items()):
        declared, _, words, example = KINDS[kind]
        if kind == "aware-datetime":
            continue  # only the minutes-without-seconds detail differs: nothing to decide
        fix = {
            "datetime": "annotate it AwareDatetime (pydantic) if an offset is required, "
            "NaiveDatetime if only local times are meant; a plain datetime compared with aware "
            "ones raises TypeError",
            "naive-datetime": "nothing to change in the code: the type already says local time; "
            "say so in the docstring too, since google-genai's declaration alone asks for an "
            "offset",
            "time": "say in the docstring whether the time is local or carries an offset; a "
            "plain time compared with an aware one raises TypeError",
        }[kind]
        out.append(
            make_finding(
                "format-type-disagree",
                contract,
                f"{contract.name}.{param}",
                contract.source,
                f"{param} is declared format {declared!r} (RFC 3339: seconds and an offset), "
                f"but its type takes {example!r} ({words.rstrip('.')}). The playground checks "
                "what the type takes and tells the model so in the parameter's description.",
                fix,
            )
        )
    return out


def effects_findings(contract: Contract) -> list[Finding]:
    """``effects-undeclared``: a tool whose effects are only inferred (from its name's or its
    description's verb) or unknown (:mod:`playground.core.effects`, issue 20 item 1). The gate
    never caches or retries a tool that may write, so a read the guess took for a write (or
    for unknown) loses its cache, and a write it took for a read would be cached: the author
    should say. The fix fits the source: for a Python tool, ``__contracts__`` / the ``TOOLS``
    table; for an MCP tool, annotations the server's author adds (MCP 2025-06-18 tool
    annotations ``readOnlyHint`` / ``destructiveHint`` / ``idempotentHint``)."""
    if contract.effects_basis not in ("inferred", "unknown"):
        return []
    if contract.effects_basis == "inferred":
        said = (
            f"{contract.name}'s effects are only inferred ({contract.effects}, from "
            f"{contract.effects_evidence})"
        )
    else:
        said = (
            f"{contract.name}'s effects are unknown (neither its name nor its description has a "
            "verb the playground knows as a read or a write)"
        )
    said += (
        ": a write or unknown tool is never served from the cache and a failure is not retried;"
        " a read is cached and retried."
    )
    if contract.origin == "mcp":
        fix = (
            "ask the server's author to annotate the tool: readOnlyHint: true for a read, else "
            "destructiveHint and idempotentHint (MCP tool annotations)."
        )
    else:
        where = "__contracts__" if contract.origin == "function" else "the TOOLS table"
        fix = (
            f'declare it in {where}: "side_effects": True for a tool that changes anything '
            '(books, sends, writes), else "side_effects": False; "idempotent": True where a '
            "repeat is harmless."
        )
    return [make_finding("effects-undeclared", contract, contract.name, contract.source, said, fix)]


# ------------------------------------------------------------------------------ returns rules

PERSON_PREFIXES = frozenset(
    {"recipient", "receiver", "orderer", "addressee", "sender", "consignee"}
)
PERSON_WORDS = frozenset(
    {
        "full",
        "first",
        "last",
        "given",
        "family",
        "middle",
        "real",
        "legal",
        "customer",
        "user",
        "buyer",
        "member",
        "recipient",
        "receiver",
        "sender",
        "orderer",
        "contact",
        "owner",
        "person",
        "holder",
        "guest",
        "patient",
        "employee",
        "student",
        "client",
        "applicant",
        "account",
        "consignee",
        "addressee",
    }
)
PERSONAL_ATTRS = frozenset(
    {
        "address",
        "addr",
        "phone",
        "mobile",
        "tel",
        "telephone",
        "email",
        "mail",
        "birthday",
        "birthdate",
        "dob",
        "ssn",
        "nickname",
        "username",
    }
)
NON_PERSON_OWNERS = frozenset(
    {
        "store",
        "shop",
        "warehouse",
        "company",
        "office",
        "branch",
        "server",
        "ip",
        "mac",
        "memory",
        "web",
        "url",
        "site",
        "api",
        "host",
        "courier",
        "seller",
        "vendor",
        "merchant",
        "carrier",
        "network",
        "pickup",
        "return",
        "returns",
        "support",
        "service",
        "hq",
    }
)
KO_PERSONAL = ("주소", "전화", "연락처", "휴대폰", "핸드폰", "이메일", "생년월일", "주민")
KO_NON_PERSON = ("매장", "회사", "지점", "창고", "사업장", "택배사", "고객센터", "판매자")
KO_NAME = ("이름", "성명", "성함")
KO_PERSON = ("수령인", "받는", "주문자", "고객", "회원", "구매자", "보내는")


def personal_key(key: str) -> bool:
    """Whether a returned key looks like personal data (seed 000; the rule of this lint).

    * ``recipient_*`` / ``receiver_*`` / ``orderer_*`` / ``sender_*`` … (and 수령인…/주문자…): always.
    * ``address``, ``phone``, ``email``, ``mobile``, ``birthday``, … anywhere in the key: personal
      unless the owner is a place, firm or machine (``store_address``, ``courier_phone``,
      ``ip_address``); ``shipping_address`` / ``email_address`` are personal.
    * ``name`` is the careful one, since every thing has a name: only a bare ``name`` or a name
      owned by a person (``full_name``, ``customer_name``, ``user_name``) is personal;
      ``product_name``, ``store_name``, ``courier_name`` are not. A bare ``name`` is flagged because
      it does not say whose name it is (seed 000: keys must explain themselves).
    * Korean keys: 주소/전화/연락처/이메일/생년월일… unless led by 매장/회사/택배사…; 이름/성명/성함
      only bare or with 수령인/주문자/고객/회원/구매자.
    """
    if re.search(r"[가-힣]", key):
        if any(key.startswith(p) for p in ("수령인", "주문자", "받는분", "보내는분")):
            return True
        if any(k in key for k in KO_PERSONAL):
            return not any(key.startswith(p) for p in KO_NON_PERSON)
        if any(k in key for k in KO_NAME):
            return key in KO_NAME or any(p in key for p in KO_PERSON)
        return False
    words = name_words(key)
    if not words:
        return False
    if words[0] in PERSON_PREFIXES:
        return True
    if any(w in PERSONAL_ATTRS for w in words):
        i = next(i for i, w in enumerate(words) if w in PERSONAL_ATTRS)
        owners = set(words[:i])
        if words[i] == "mail" and not owners & {"e"}:
            return False  # "mail" alone (mail_count) is not an e-mail address
        return not owners & NON_PERSON_OWNERS
    if "name" in words:
        i = words.index("name")
        before = words[:i]
        return not before or before[-1] in PERSON_WORDS
    return False


def returned_keys(schema: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """``(key, path)`` for every property name in a returns schema, recursively (properties,
    items, prefixItems, additionalProperties, patternProperties, if/then/else, allOf/anyOf/oneOf,
    not, $defs/definitions). ``path`` reads ``rows[].store``."""
    if not isinstance(schema, dict):
        return
    for key, sub in (schema.get("properties") or {}).items():
        here = f"{path}.{key}" if path else key
        yield key, here
        yield from returned_keys(sub, here)
    items = schema.get("items")
    if isinstance(items, dict):
        yield from returned_keys(items, f"{path}[]")
    elif isinstance(items, list):
        for sub in items:
            yield from returned_keys(sub, f"{path}[]")
    for sub in schema.get("prefixItems", []) or []:
        yield from returned_keys(sub, f"{path}[]")
    for key in ("additionalProperties", "not", "if", "then", "else"):
        if isinstance(schema.get(key), dict):
            yield from returned_keys(schema[key], path)
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key, []) or []:
            yield from returned_keys(sub, path)
    for key in ("patternProperties", "$defs", "definitions"):
        for sub in (schema.get(key) or {}).values():
            yield from returned_keys(sub, path)


def returns_findings(contract: Contract) -> list[Finding]:
    """The returns rules: ``returns-undeclared`` alone when there is no result shape, else
    ``returns-personal-data`` per returned key that looks personal, then ``empty-no-note``."""
    returns = contract.returns
    loc = f"{contract.name}.returns"
    if returns is None:
        return [_returns_undeclared(contract, loc)]
    out = _personal_data_findings(contract, returns, loc)
    no_note = _empty_no_note_finding(contract, returns, loc)
    if no_note is not None:
        out.append(no_note)
    return out


def _returns_undeclared(contract: Contract, loc: str) -> Finding:
    return make_finding(
        "returns-undeclared",
        contract,
        loc,
        contract.source,
        f"{contract.name} declares no result shape: nothing checks what it returns or that it "
        "returns only what the purpose needs.",
        fix_for(
            contract,
            code="annotate the return with a shape (a pydantic model, list[Model], int), "
            "or declare 'returns' (JSON Schema, plus max_rows for lists) in __contracts__.",
            table="declare 'returns' in its TOOLS entry (keys and rows, with max_len).",
            mcp="declare an outputSchema for the tool and return structuredContent that "
            "fits it (MCP 2025-06-18, tools: 'Output Schema').",
        ),
    )


def _personal_data_findings(contract: Contract, returns: dict[str, Any], loc: str) -> list[Finding]:
    """``returns-personal-data``: one finding per path of a returned key that
    :func:`personal_key` flags (each path once)."""
    out: list[Finding] = []
    seen: set[str] = set()
    for key, path in returned_keys(returns):
        if path in seen or not personal_key(key):
            continue
        seen.add(path)
        out.append(
            make_finding(
                "returns-personal-data",
                contract,
                f"{loc}.{path}",
                contract.source,
                f"{contract.name} returns {path!r}, which looks like personal data; every result stays "
                "in the conversation and is re-sent on every turn.",
                _same(
                    contract,
                    "return only what the purpose needs (no recipient name or address); "
                    "if it is the name of a thing, say so in the key (product_name, store_address).",
                ),
            )
        )
    return out


def _empty_no_note_finding(contract: Contract, returns: dict[str, Any], loc: str) -> Finding | None:
    """``empty-no-note``: a bare list of rows, or a rows array (``rows_key``) beside no
    ``note`` property, so an empty result cannot say what to try next."""
    rows_key = returns.get("rows_key", "rows")
    props = returns.get("properties") or {}
    if is_rows_list(returns):
        return make_finding(
            "empty-no-note",
            contract,
            loc,
            contract.source,
            f"{contract.name} returns a bare list: [] cannot say whether nothing matched or the lookup failed.",
            _same(
                contract,
                'return {"rows": [...], "note": "..."} with a note when rows is empty, e.g. '
                '"조건에 맞는 주문이 없다. 기간을 넓히거나 키워드를 바꿔 볼 것".',
            ),
        )
    if (
        isinstance(props.get(rows_key), dict)
        and "array" in schema_types(props[rows_key])
        and "note" not in props
    ):
        return make_finding(
            "empty-no-note",
            contract,
            f"{loc}.{rows_key}",
            contract.source,
            f"{contract.name} returns {rows_key!r} rows but declares no 'note': an empty result "
            "cannot say what to try next (the playground's gate adds a generic note; a real "
            "deployment does not).",
            _same(
                contract,
                f'add "note" (string) to the returns schema and set it when {rows_key} is '
                'empty, e.g. "nothing matched: widen the period or change the keyword".',
            ),
        )
    return None
