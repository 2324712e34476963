"""Schema lint: seed 002's advice on tool schemas as findings ("도구 스키마는 프롬프트의 일부다").

Every rule names its source. Severities: ``error`` (exit 1), ``warning`` (exit 1 only with
``--strict``), ``info`` (never changes the exit code).

=========================  ========  ==========================================================
rule                       severity  what it flags (seed 002 unless said otherwise)
=========================  ========  ==========================================================
``name-invalid``           error     a name Gemini's API refuses (google-genai 3.6.1,
                                     ``google/genai/types.py``, ``FunctionDeclaration.name``:
                                     "Must start with a letter or an underscore. Must be a-z,
                                     A-Z, 0-9, or contain underscores, dots, colons and dashes,
                                     with a maximum length of 128."): Hangul or other non-ASCII
                                     letters, spaces, a leading digit, over 128 characters.
                                     See :func:`gemini_name_problems`.
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
``optional-undocumented``  warning   an optional parameter whose prose never says when to leave
                                     it out ("선택 인자는 비워도 된다는 사실을 명시해야 실제로
                                     비운다").
``returns-undeclared``     warning   no ``returns`` schema ("반환값도 스키마 설계의 일부다").
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
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from playground.core.contracts import Contract
from playground.core.registry import Registry
from playground.core.validation import arg_doc

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITY_ORDER = {ERROR: 0, WARNING: 1, INFO: 2}

#: rule id → (default severity, one-line summary, source)
RULES: dict[str, tuple[str, str, str]] = {
    "name-invalid": (ERROR, "a tool name Gemini's API refuses",
                     "google-genai 3.6.1 types.py, FunctionDeclaration.name"),
    "name-verb-object": (WARNING, "name is not verb + object", "seed 002, 이름이 가장 강한 신호다"),
    "name-vague": (WARNING, "vague verb or object in the name", "seed 002, get_data / handler"),
    "name-version": (WARNING, "version in the name", "seed 002, query_v2"),
    "name-two-things": (ERROR, "the tool does two things", "seed 002, do_refund_and_notify"),
    "description-missing": (ERROR, "no description", "seed 002 / seed 001"),
    "description-no-boundary": (WARNING, "no 'when not to use' sentence next to an overlapping tool",
                                "seed 002, 설명문에는 '언제 쓰지 않는가'를 쓴다"),
    "prose-constraint": (WARNING, "a constraint written in prose that belongs in the schema",
                         "seed 002, 타입으로 말할 수 있는 것은 설명문에 쓰지 않는다"),
    "optional-undocumented": (WARNING, "optional parameter without a word on when to omit it",
                              "seed 002, 선택 인자는 비워도 된다는 사실을 명시"),
    "returns-undeclared": (WARNING, "no declared return schema", "seed 002, 반환값도 스키마 설계의 일부다"),
    "returns-personal-data": (WARNING, "a returned key looks like personal data", "seed 000, 필요한 것만 돌려준다"),
    "empty-no-note": (WARNING, "an empty result cannot carry a note", "seed 002, 빈 결과에 말을 붙인다"),
    "tool-count": (WARNING, "too many tools in one list (10 / 30)", "seed 002, 도구가 몇 개까지 괜찮은가"),
}

MANY_TOOLS = 10
TOO_MANY_TOOLS = 30
OVERLAP_MIN_SHARED = 3

VERBS = frozenset("""
get list search find lookup look check track create add insert update edit modify patch delete remove
cancel send issue fetch query set compute calculate count validate verify book reserve refund notify read
write open close start stop run convert translate summarize summarise generate estimate apply approve reject
submit upload download export import schedule sync resolve request register subscribe unsubscribe reset
change move copy assign compare recommend rank filter sort parse format describe show explain report load
save post publish archive restore retrieve transfer pay charge quote ship reorder
enable disable grant revoke invite confirm mark rename merge split tag label analyze analyse scan detect
classify extract render draw plot predict forecast answer reply ask lock unlock
""".split())

VAGUE_WORDS = frozenset("""
data info information stuff thing things handle handler handlers process processor do manager manage
misc util utils helper helpers generic execute perform item items object obj
""".split())

#: verbs that are vague (name-vague) but still verbs for name-verb-object (process_order)
VAGUE_VERBS = frozenset({"handle", "process", "do", "manage", "execute", "perform"})

VERSION_WORDS = frozenset({"new", "old", "legacy", "latest", "deprecated", "tmp", "temp"})

BOUNDARY_MARKERS = (
    "사용하지 않는다", "사용하지 않습니다", "사용하지 말", "쓰지 않는다", "쓰지 않습니다", "쓰지 말",
    "대신", "쓸 것", "do not use", "don't use", "not for", "instead", "never use", "should not be used",
)
OMIT_MARKERS = (
    "생략", "비워", "비우", "없으면", "omit", "leave out", "leave it out", "leave empty", "if not given",
    "if omitted", "if not provided", "optional", "not required",
)

STOP_WORDS = frozenset("""
the a an and or of to in on for with by from as is are be it this that these those its at if not no
use used using when what which who whom how any all only one e g eg i.e example args returns return
you your can may must should will do does than then there their they them so such per each via into
사용 사용한다 사용하지 사용하 않는다 문의 도구 경우 있다 없다 한다 하는 것 수 등 및 또는 예 먼저 뒤 이 그 저
때 지금 현재 이미 모든 함께 다시 경우에 에는 입니다 합니다 있는지 있는 한 할 된 되는 조회 조회한다
""".split())

_PARTICLES = tuple(sorted(
    "을 를 이 가 은 는 의 에 로 와 과 도 만 으로 에서 에게 까지 부터 이나 이고 이며 이다 한다 하고 에는 으로는 로는 인지".split(),
    key=len, reverse=True,
))

_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*|[가-힣]+")
_NAME_WORD_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_VERSION_RE = re.compile(r"(?:_|(?<=[a-z]))[vV]\d+$|_\d+$|(?:^|_)v\d+(?:_|$)")


@dataclass(frozen=True)
class Finding:
    """One lint finding.

    ``rule``: a key of :data:`RULES`. ``severity``: ``error`` | ``warning`` | ``info``.
    ``tool``: the contract's name (``""`` for registry-wide findings). ``location``: the tool,
    ``"tool.param"``, ``"tool.description"``, ``"tool.returns.<path>"`` or ``"registry"``.
    ``source``: ``"file:line"`` (the contract's ``source``, or the docstring line of a
    parameter when found). ``message``: what is wrong; ``suggestion``: how to fix it.
    """

    rule: str
    severity: str
    tool: str
    location: str
    source: str
    message: str
    suggestion: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "severity": self.severity, "tool": self.tool, "location": self.location,
                "source": self.source, "message": self.message, "suggestion": self.suggestion}


# ------------------------------------------------------------------------------------ helpers


def name_words(name: str) -> list[str]:
    """Lower-case words of a snake_case / camelCase / kebab name (``getDataV2`` → get, data, v, 2)."""
    return [w.lower() for w in _NAME_WORD_RE.findall(name.replace("-", "_"))]


def _strip_particle(word: str) -> str:
    for p in _PARTICLES:
        if word.endswith(p) and len(word) - len(p) >= 2:
            return word[: -len(p)]
    return word


def content_words(text: str, exclude: Iterable[str] = ()) -> set[str]:
    """Content words of ``text`` (module docstring, "How overlap is measured")."""
    excluded = {e.lower() for e in exclude}
    out = set()
    for raw in _WORD_RE.findall(text or ""):
        word = raw.lower()
        if "가" <= raw[0] <= "힣":
            word = _strip_particle(raw)
        if len(word) < 2 or word in STOP_WORDS or word in VERBS or word in excluded:
            continue
        out.add(word)
    return out


def _branches(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield schema
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, []) or []:
            if isinstance(sub, dict):
                yield from _branches(sub)


def has_keyword(schema: dict[str, Any], *keywords: str) -> bool:
    """Whether ``schema`` or one of its anyOf/oneOf/allOf branches has one of ``keywords``."""
    return any(k in s for s in _branches(schema) for k in keywords)


def schema_types(schema: dict[str, Any]) -> set[str]:
    """The JSON types a parameter schema names (``type`` and those of its branches)."""
    out: set[str] = set()
    for s in _branches(schema):
        t = s.get("type")
        if isinstance(t, str):
            out.add(t)
        elif isinstance(t, list):
            out.update(x for x in t if isinstance(x, str))
    return out


class _Sources:
    """Reads tool files once per lint run to point findings at docstring lines."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}

    def lines(self, path: str) -> list[str]:
        if path not in self._lines:
            try:
                self._lines[path] = Path(path).read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._lines[path] = []
        return self._lines[path]

    def find(self, contract: Contract, pattern: str) -> str:
        """``file:line`` of the first line at or after the contract's source line matching
        ``pattern`` (a regex), within 80 lines; else the contract's source."""
        path, _, line = contract.source.rpartition(":")
        if not path or not line.isdigit():
            return contract.source
        start = int(line) - 1
        lines = self.lines(path)
        rx = re.compile(pattern)
        for i in range(start, min(len(lines), start + 80)):
            if rx.search(lines[i]):
                return f"{path}:{i + 1}"
        return contract.source


def _f(rule: str, contract: Contract | None, location: str, source: str, message: str, suggestion: str,
       severity: str | None = None) -> Finding:
    return Finding(rule, severity or RULES[rule][0], contract.name if contract else "", location, source,
                   message, suggestion)


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
    text = re.sub(r"_+", "_", "".join(c if _GEMINI_NAME_CHARS.fullmatch(c) else "_" for c in name)).strip("_")
    if not re.search(r"[A-Za-z]", text):
        return ""
    if not re.match(r"[A-Za-z_]", text):
        text = "_" + text
    return text[:GEMINI_NAME_MAX].rstrip("_.:-")


def _invalid_name_findings(contract: Contract) -> list[Finding]:
    name = contract.name
    why = gemini_name_problems(name)
    if not why:
        return []
    shown = name if len(name) <= 60 else name[:59] + "…"
    fixed = suggest_gemini_name(name)
    hint = (f"rename it to ASCII snake_case, e.g. {fixed}" if fixed
            else "rename it to an English verb_object name in ASCII (e.g. 주문_조회 → search_orders); "
                 "keep the Korean in the description")
    return [_f("name-invalid", contract, name, contract.source,
               f"{shown!r} {'; '.join(why)}: Gemini's API rejects the whole request (google-genai "
               "FunctionDeclaration.name: start with a letter or underscore; a-z, A-Z, 0-9, _ . : -; "
               f"at most {GEMINI_NAME_MAX} characters).",
               hint + ".")]


def _name_findings(contract: Contract) -> list[Finding]:
    name = contract.name
    words = name_words(name)
    out: list[Finding] = []
    src = contract.source
    if "and" in words[1:-1] or re.search(r"_and_|[a-z]And[A-Z]", name):
        i = words.index("and") if "and" in words else len(words) // 2
        left, right = "_".join(words[:i]), "_".join(words[i + 1:])
        out.append(_f("name-two-things", contract, name, src,
                      f"{name!r} says it does two things ({left!r} and {right!r}): the model calls it when "
                      "only one is wanted, or hesitates to call it at all.",
                      f"split it into two tools, e.g. {left} + {right}; keep side effects in separate tools."))
    if _VERSION_RE.search(name) or VERSION_WORDS & set(words):
        out.append(_f("name-version", contract, name, src,
                      f"{name!r} carries a version or age marker; a version means nothing to the model.",
                      "name it for what it does (query_v2 → query_inventory) and retire or hide the old one."))
    vague = [w for w in words if w in VAGUE_WORDS]
    if vague or name.lower().startswith("do_"):
        shown = ", ".join(dict.fromkeys(vague or ["do"]))
        out.append(_f("name-vague", contract, name, src,
                      f"{name!r} uses vague word(s) ({shown}): neither the action nor the object is clear.",
                      "use a concrete verb and object, e.g. get_data → get_customer_profile, handler → "
                      "cancel_subscription."))
    plain = [w for w in words if not w.isdigit() and not re.fullmatch(r"v\d*", w)]
    if len(plain) <= 1:
        out.append(_f("name-verb-object", contract, name, src,
                      f"{name!r} is a single word: it does not say what it acts on.",
                      f"name it verb + concrete object, e.g. search → search_orders."))
    elif not ({plain[0], plain[-1]} & (VERBS | VAGUE_VERBS)):
        out.append(_f("name-verb-object", contract, name, src,
                      f"{name!r} has no verb (first or last word): the model cannot tell what it does.",
                      "name it verb + concrete object, e.g. handler → cancel_subscription."))
    return out


# -------------------------------------------------------------------------- description rules


def has_boundary(description: str, other_names: Iterable[str] = ()) -> bool:
    """Whether ``description`` says when not to use the tool or names another tool."""
    low = (description or "").lower()
    if any(m in low for m in BOUNDARY_MARKERS):
        return True
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(n.lower())}(?![A-Za-z0-9_])", low) for n in other_names)


def _vocabulary(contract: Contract, tool_names: list[str]) -> tuple[set[str], set[str]]:
    name_part = {w for w in name_words(contract.name) if w not in VERBS and w not in STOP_WORDS and len(w) > 1}
    desc_part = content_words(contract.name.replace("_", " ") + " " + contract.description, exclude=tool_names)
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


def _description_findings(contract: Contract, registry: Registry) -> list[Finding]:
    desc = contract.description or ""
    src = contract.source
    loc = f"{contract.name}.description"
    if not desc.strip():
        return [_f("description-missing", contract, loc, src,
                   f"{contract.name} has no description: the model sees only its name and argument names.",
                   "say what it does, when to use it and when not (pointing at the alternative tool).")]
    names = registry.names()
    others = [c for c in registry.contracts.values() if c.name != contract.name]
    if has_boundary(desc, [c.name for c in others]):
        return []
    hits = [(c.name, overlaps(contract, c, names)) for c in others]
    hits = [(n, w) for n, w in hits if w]
    if not hits:
        return []
    near = ", ".join(f"{n} ({', '.join(w[:4])})" for n, w in hits[:3])
    return [_f("description-no-boundary", contract, loc, src,
               f"{contract.name}'s description never says when NOT to use it, yet it overlaps {near}.",
               f"add a boundary sentence naming the alternative, e.g. \"... 문의에는 사용하지 않는다({hits[0][0]}를 쓴다)\" "
               f"/ \"Do not use it for ...; use {hits[0][0]} instead.\"")]


# ---------------------------------------------------------------------------- parameter rules

_ENUM_RX = re.compile(r"\bone of\b|중\s*하나|중의\s*하나|\beither\b.+\bor\b", re.I)
_RANGE_RX = re.compile(
    r"\bbetween\b|사이|\d+\s*(?:\.\.|~|–)\s*\d+|\bat (?:most|least)\b|\bno (?:more|fewer|less) than\b|"
    r"\bup to \d|최대\s*\d|최소\s*\d|\d+\s*(?:개|자|건|회|일)?\s*(?:이상|이하|미만|초과)", re.I)
_DATE_RX = re.compile(r"yyyy-mm-dd|yyyy/mm/dd|yyyymmdd", re.I)
_PATTERN_RX = re.compile(
    r"\bstarts? with\b|\bbegins? with\b|\bprefix(?:ed)?\b|(?:로|으로)\s*시작|\d+\s*자리|\b\d+\s*digits?\b", re.I)
_DEFAULT_RX = re.compile(r"기본값|\bdefault(?:s)? (?:is|to)\b|\bby default\b|\bdefaults to\b", re.I)

_PREFIX_RX = re.compile(r"['\"‘’“”`]?([A-Za-z0-9][A-Za-z0-9\-]*)['\"‘’“”`]?\s*(?:로|으로)\s*시작|"
                        r"(?:starts?|begins?) with\s+['\"`]?([A-Za-z0-9][A-Za-z0-9\-]*)", re.I)
_NUM_RANGE_RX = re.compile(r"(-?\d+(?:\.\d+)?)\s*(?:\.\.|~|–|에서|to|and|부터)\s*(-?\d+(?:\.\d+)?)")
_DEFAULT_VALUE_RX = re.compile(r"(?:기본값(?:은|는|:)?|default(?:s)? (?:is|to)|by default)\s*:?\s*['\"`]?([\w\-.]+)", re.I)
_ENUM_LIST_RX = re.compile(r"([\w\-]+(?:\s*[,/]\s*[\w\-]+)+)\s*중\s*(?:의\s*)?하나")


def _enum_values(prose: str) -> list[str]:
    m = _ENUM_LIST_RX.search(prose)
    if m:
        return [v.strip() for v in re.split(r"[,/]", m.group(1)) if v.strip()]
    quoted = re.findall(r"['\"“‘]([^'\"”’]+)['\"”’]", prose.split("one of", 1)[-1] if "one of" in prose else prose)
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


def _how(contract: Contract, table_key: str, function_hint: str) -> str:
    if contract.origin == "table":
        return f" In the TOOLS table: {table_key}."
    return (f" A plain function's schema comes from its signature (google-genai builds it): "
            f"{function_hint}.")


def _prose_findings(contract: Contract, param: str, schema: dict[str, Any], prose: str, src: str) -> list[Finding]:
    out: list[Finding] = []
    loc = f"{contract.name}.{param}"
    types = schema_types(schema)

    def add(what: str, keyword: str, example: str, table_key: str, fn_hint: str) -> None:
        out.append(_f("prose-constraint", contract, loc, src,
                      f"{param}: the prose says {_clause(prose, what)!r}, but the schema has no {keyword}; the "
                      "model may ignore prose, and the gate cannot enforce it.",
                      f"declare it in the schema: {example}; keep only what a type cannot say (where the "
                      "value comes from, when not to use it)." + _how(contract, table_key, fn_hint)))

    m = _ENUM_RX.search(prose)
    if m and not has_keyword(schema, "enum", "const"):
        values = _enum_values(prose)
        example = f'"enum": {values!r}'.replace("'", '"') if values else '"enum": [...]'
        add(m.group(0), "enum", example, '"allowed": [...]', "Literal[...] as the type hint")
    m = _RANGE_RX.search(prose)
    if m:
        if "string" in types and not types & {"integer", "number"}:
            keys, names = ("minLength", "maxLength"), ("minLength", "maxLength")
        elif "array" in types:
            keys, names = ("minItems", "maxItems"), ("minItems", "maxItems")
        else:
            keys, names = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"), ("minimum", "maximum")
        if not has_keyword(schema, *keys):
            nums = _NUM_RANGE_RX.search(prose)
            example = (f'"{names[0]}": {_number(nums.group(1))}, "{names[1]}": {_number(nums.group(2))}'
                       if nums else f'"{names[0]}" / "{names[1]}"')
            add(m.group(0), f"{names[0]}/{names[1]}", example, '"min" / "max"',
                "Annotated[int, Field(ge=..., le=...)] (pydantic.Field)")
    m = _DATE_RX.search(prose)
    if m and not has_keyword(schema, "format", "pattern"):
        add(m.group(0), "format", '"format": "date"', '"format": "date"', "datetime.date as the type hint")
    m = _PATTERN_RX.search(prose)
    if m and not has_keyword(schema, "pattern", "enum", "const", "format"):
        pm = _PREFIX_RX.search(prose)
        prefix = (pm.group(1) or pm.group(2)) if pm else None
        regex = f"^{re.escape(prefix)}" if prefix else "^...$"
        add(m.group(0), "pattern", f'"pattern": "{regex}"', f'"pattern": "{regex}"',
            f'Annotated[str, Field(pattern="{regex}")] (pydantic.Field)')
    m = _DEFAULT_RX.search(prose)
    if m and not has_keyword(schema, "default"):
        dm = _DEFAULT_VALUE_RX.search(prose)
        example = f'"default": {dm.group(1)}' if dm else '"default": ...'
        add(m.group(0), "default", example, '"default": ...', "a default value in the signature")
    return out


def _param_findings(contract: Contract, sources: _Sources) -> list[Finding]:
    props = contract.parameters.get("properties", {}) or {}
    required = set(contract.parameters.get("required", []) or [])
    out: list[Finding] = []
    for param, schema in props.items():
        if not isinstance(schema, dict):
            continue
        doc_line = arg_doc(contract.description, param) if contract.origin == "function" else ""
        prose = " ".join(p for p in (schema.get("description", "") or "", doc_line) if p)
        src = sources.find(contract, rf"^\s*{re.escape(param)}\s*(?:\([^)]*\))?:") if doc_line else contract.source
        out.extend(_prose_findings(contract, param, schema, prose, src))
        if param not in required and not any(m in prose.lower() for m in OMIT_MARKERS):
            out.append(_f("optional-undocumented", contract, f"{contract.name}.{param}", src,
                          f"{param} is optional, but nothing says when to leave it out; models fill optional "
                          "arguments with guesses (today's date, an arbitrary value).",
                          f"say when to omit it, e.g. \"사용자가 말하지 않았으면 생략한다\" / "
                          f"\"Omit it unless the user gives one.\""))
    return out


# ------------------------------------------------------------------------------ returns rules

PERSON_PREFIXES = frozenset({"recipient", "receiver", "orderer", "addressee", "sender", "consignee"})
PERSON_WORDS = frozenset({
    "full", "first", "last", "given", "family", "middle", "real", "legal", "customer", "user", "buyer",
    "member", "recipient", "receiver", "sender", "orderer", "contact", "owner", "person", "holder",
    "guest", "patient", "employee", "student", "client", "applicant", "account", "consignee", "addressee",
})
PERSONAL_ATTRS = frozenset({
    "address", "addr", "phone", "mobile", "tel", "telephone", "email", "mail", "birthday", "birthdate",
    "dob", "ssn", "nickname", "username",
})
NON_PERSON_OWNERS = frozenset({
    "store", "shop", "warehouse", "company", "office", "branch", "server", "ip", "mac", "memory", "web",
    "url", "site", "api", "host", "courier", "seller", "vendor", "merchant", "carrier", "network", "pickup",
    "return", "returns", "support", "service", "hq",
})
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
        owners = words[:i]
        return not owners or owners[-1] in PERSON_WORDS
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


def _returns_findings(contract: Contract) -> list[Finding]:
    returns = contract.returns
    src = contract.source
    loc = f"{contract.name}.returns"
    if returns is None:
        return [_f("returns-undeclared", contract, loc, src,
                   f"{contract.name} declares no result shape: nothing checks what it returns or that it "
                   "returns only what the purpose needs.",
                   "declare 'returns' (JSON Schema, plus max_rows for lists) in __contracts__ or the TOOLS table.")]
    out: list[Finding] = []
    seen: set[str] = set()
    for key, path in returned_keys(returns):
        if path in seen or not personal_key(key):
            continue
        seen.add(path)
        out.append(_f("returns-personal-data", contract, f"{loc}.{path}", src,
                      f"{contract.name} returns {path!r}, which looks like personal data; every result stays "
                      "in the conversation and is re-sent on every turn.",
                      "return only what the purpose needs (seed 000: no recipient name or address); if it is "
                      "the name of a thing, say so in the key (product_name, store_address)."))
    rows_key = returns.get("rows_key", "rows")
    props = returns.get("properties") or {}
    if returns.get("type") == "array":
        out.append(_f("empty-no-note", contract, loc, src,
                      f"{contract.name} returns a bare list: [] cannot say whether nothing matched or the lookup failed.",
                      '{"rows": [...], "note": "..."} with a note when rows is empty, e.g. "조건에 맞는 주문이 '
                      '없다. 기간을 넓히거나 키워드를 바꿔 볼 것".'))
    elif isinstance(props.get(rows_key), dict) and "array" in schema_types(props[rows_key]) and "note" not in props:
        out.append(_f("empty-no-note", contract, f"{loc}.{rows_key}", src,
                      f"{contract.name} returns {rows_key!r} rows but declares no 'note': an empty result "
                      "cannot say what to try next (the playground's gate adds a generic note; a real "
                      "deployment does not).",
                      f'add "note" (string) to the returns schema and set it when {rows_key} is empty, '
                      'e.g. "nothing matched: widen the period or change the keyword".'))
    return out


# ---------------------------------------------------------------------------------- entry points


def _count_findings(registry: Registry) -> list[Finding]:
    n = len(registry)
    src = ", ".join(str(p) for p in registry.paths)
    if n > TOO_MANY_TOOLS:
        return [Finding("tool-count", ERROR, "", "registry", src,
                        f"{n} tools in one list (more than {TOO_MANY_TOOLS}): the model has too many similar "
                        "choices at once.",
                        "expose a subset per stage (staged exposure) or a top-level tool that picks a domain; "
                        "decide the list once at the start of a conversation to keep the prompt cache.")]
    if n > MANY_TOOLS:
        return [Finding("tool-count", WARNING, "", "registry", src,
                        f"{n} tools in one list (more than {MANY_TOOLS}): confusion between similar tools starts.",
                        "group names by prefix (order_*, ship_*), merge overlapping tools, add boundary sentences.")]
    return []


def lint_contract(registry: Registry, name: str, sources: _Sources | None = None) -> list[Finding]:
    """Findings for one contract (overlap is judged against the rest of ``registry``).

    Raises ``KeyError`` when ``name`` is not registered.
    """
    contract = registry.contracts[name]
    sources = sources or _Sources()
    found = (_invalid_name_findings(contract) + _name_findings(contract) + _description_findings(contract, registry)
             + _param_findings(contract, sources) + _returns_findings(contract))
    return sort_findings(found)


def lint_registry(registry: Registry) -> list[Finding]:
    """Findings for every contract of ``registry`` plus the registry-wide tool count, sorted by
    severity (errors first), then tool, then rule."""
    sources = _Sources()
    found = _count_findings(registry)
    for name in registry.names():
        found.extend(lint_contract(registry, name, sources))
    return sort_findings(found)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Errors first, then warnings, then info; within a severity by tool, location and rule."""
    return sorted(findings, key=lambda f: (SEVERITY_ORDER.get(f.severity, 9), f.tool, f.location, f.rule))


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
