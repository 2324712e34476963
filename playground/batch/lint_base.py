"""What every schema lint rule shares: severities, the rules table, :class:`Finding`, word lists
and text/schema helpers.

Owns the severities (``error``/``warning``/``info``), :data:`RULES` (rule -> severity, seed
source, short text), the tool-count thresholds (:data:`MANY_TOOLS` 10, :data:`TOO_MANY_TOOLS`
30), the word lists the rules read (:data:`VERBS`, :data:`VAGUE_WORDS`, :data:`STOP_WORDS`,
:data:`BOUNDARY_MARKERS`, :data:`OMIT_MARKERS`), content words of a text (English lower-cased,
Hangul with a trailing particle removed), schema keyword/type lookups over ``anyOf``/``oneOf``/
``allOf`` branches, and the reader pointing findings at docstring lines. The rules themselves
are in :mod:`playground.batch.lint_rules`; the table of rules is in :mod:`playground.batch.lint`.

Rule sources: seed 002 (``002_5dea94806f69c756.txt``: "도구 스키마는 프롬프트의 일부다"; names,
boundaries, constraints in the schema, the 10 / 30 tool thresholds), seed 000
(``000_c08e8917b842d5f8.txt``: return only what the purpose needs) and seed 001
(``001_3a95fa703827e0ed.txt``: the docstring's ``Args:`` lines are the parameters' prose).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playground.core.contracts import Contract

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITY_ORDER = {ERROR: 0, WARNING: 1, INFO: 2}

#: rule id → (default severity, one-line summary, source)
RULES: dict[str, tuple[str, str, str]] = {
    "gemini-name": (
        ERROR,
        "a tool name Gemini's API refuses",
        "google-genai 3.6.1 types.py, FunctionDeclaration.name",
    ),
    "gemini-schema": (
        ERROR,
        "parameters that do not describe an object, which Gemini's API refuses",
        "google-genai 3.6.1 types.py, FunctionDeclaration.parameters_json_schema",
    ),
    "openai-array-items": (
        ERROR,
        "an array schema without items, which OpenAI's API refuses (strict or not)",
        "OpenAI API error 400 invalid_function_parameters: 'array schema missing items'",
    ),
    "openai-strict": (
        INFO,
        "what OpenAI refuses with strict: true (additionalProperties false in every object, "
        "every property required, supported keywords and formats, size limits)",
        "OpenAI Structured Outputs guide, 'Supported schemas'",
    ),
    "anthropic-strict": (
        INFO,
        "what Anthropic refuses with strict: true (additionalProperties false in every object, "
        "supported keywords and formats, no recursion)",
        "Anthropic docs, Structured outputs: 'JSON Schema limitations'",
    ),
    "anthropic-name": (
        ERROR,
        "a tool name Anthropic's API refuses (^[a-zA-Z0-9_-]{1,64}$)",
        "Anthropic Messages API, tool use: tools[].name",
    ),
    "openai-name": (
        ERROR,
        "a tool name OpenAI's API refuses (^[a-zA-Z0-9_-]{1,64}$)",
        "OpenAI Chat Completions API, tools[].function.name",
    ),
    "anthropic-param-name": (
        ERROR,
        "a parameter name Anthropic's API refuses (^[a-zA-Z0-9_.-]{1,64}$)",
        "Anthropic Messages API, input_schema.properties keys",
    ),
    "anthropic-schema": (
        ERROR,
        "an input_schema Anthropic's API refuses (not an object, or a combinator at the root)",
        "Anthropic Messages API, tool use: input_schema",
    ),
    "openai-schema": (
        ERROR,
        "a parameters schema OpenAI's API refuses (not an object, or a combinator at the root)",
        "OpenAI function calling guide: parameters",
    ),
    "gemini-lossy": (
        WARNING,
        "the schema sent to Gemini differs from the local one in a way answers cannot be mapped back",
        "google-genai 3.6.1 types.JSONSchema; routing/gemini_schema.py",
    ),
    "name-verb-object": (
        WARNING,
        "name is not verb + object",
        "이름이 가장 강한 신호다 (a name is the strongest signal a model reads)",
    ),
    "name-vague": (
        WARNING,
        "vague verb or object in the name",
        "vague names such as get_data or handler tell the model nothing",
    ),
    "name-version": (
        WARNING,
        "version in the name",
        "a version in a name (query_v2) tells the model nothing about the job",
    ),
    "name-two-things": (
        ERROR,
        "the tool does two things",
        "one tool, one job (do_refund_and_notify is two)",
    ),
    "description-missing": (
        ERROR,
        "no description",
        "the model sees only the name, the description and the argument types",
    ),
    "description-no-boundary": (
        WARNING,
        "no 'when not to use' sentence next to an overlapping tool",
        "설명문에는 '언제 쓰지 않는가'를 쓴다 (say when not to use the tool)",
    ),
    "prose-constraint": (
        WARNING,
        "a constraint written in prose that belongs in the schema",
        "타입으로 말할 수 있는 것은 설명문에 쓰지 않는다 (what a type can say goes in the schema)",
    ),
    "example-invalid": (
        WARNING,
        "an example the parameter's own schema refuses",
        '인자 설명의 예시가 하는 일: 질문 속의 "P008"을 그대로 product_id에 넣습니다 (an example shows the model the value to copy)',
    ),
    "param-undocumented": (
        WARNING,
        "a parameter nothing describes: no Args entry in the docstring, no schema description",
        "모델이 보는 것은 이름, 설명, 인자 설명 세 가지 글뿐입니다 (the model sees only the name, "
        "the description and the argument descriptions)",
    ),
    "optional-undocumented": (
        WARNING,
        "optional parameter without a word on when to omit it",
        "선택 인자는 비워도 된다는 사실을 명시 (say that an optional argument may be left out)",
    ),
    "effects-undeclared": (
        WARNING,
        "effects only inferred or unknown: neither declared nor annotated",
        "일시적 오류는 툴 실행 계층에서 재시도 (transient errors are retried by the tool layer); "
        "MCP 2025-06-18 ToolAnnotations "
        "(readOnlyHint defaults to false)",
    ),
    "format-type-disagree": (
        INFO,
        "a date/time parameter's type takes more than its declared format says",
        "JSON Schema 2020-12 §7.3.1 (RFC 3339 date-time needs an offset); pydantic datetime "
        "accepts a naive ISO 8601 value",
    ),
    "returns-undeclared": (
        WARNING,
        "no declared return schema",
        "반환값도 스키마 설계의 일부다 (the return value is part of the schema design)",
    ),
    "returns-personal-data": (
        WARNING,
        "a returned key looks like personal data",
        "필요한 것만 돌려준다 (return only what the purpose needs)",
    ),
    "returns-unbounded": (
        WARNING,
        "a list result with no max_rows / max_bytes can exceed the 25,000-token budget",
        "Claude Code MCP output limit (25,000 tokens); core/budget.py",
    ),
    "empty-no-note": (
        WARNING,
        "an empty result cannot carry a note",
        "빈 결과에 말을 붙인다 (an empty result carries a note)",
    ),
    "tool-count": (
        WARNING,
        "too many tools in one list (10 / 30)",
        "도구가 몇 개까지 괜찮은가 (how many tools one list can hold)",
    ),
}

MANY_TOOLS = 10
TOO_MANY_TOOLS = 30
OVERLAP_MIN_SHARED = 3

VERBS = frozenset(
    [
        "get",
        "list",
        "search",
        "find",
        "lookup",
        "look",
        "check",
        "track",
        "create",
        "add",
        "insert",
        "update",
        "edit",
        "modify",
        "patch",
        "delete",
        "remove",
        "cancel",
        "send",
        "issue",
        "fetch",
        "query",
        "set",
        "compute",
        "calculate",
        "count",
        "validate",
        "verify",
        "book",
        "reserve",
        "refund",
        "notify",
        "read",
        "write",
        "open",
        "close",
        "start",
        "stop",
        "run",
        "convert",
        "translate",
        "summarize",
        "summarise",
        "generate",
        "estimate",
        "apply",
        "approve",
        "reject",
        "submit",
        "upload",
        "download",
        "export",
        "import",
        "schedule",
        "sync",
        "resolve",
        "request",
        "register",
        "subscribe",
        "unsubscribe",
        "reset",
        "change",
        "move",
        "copy",
        "assign",
        "compare",
        "recommend",
        "rank",
        "filter",
        "sort",
        "parse",
        "format",
        "describe",
        "show",
        "explain",
        "report",
        "load",
        "save",
        "post",
        "publish",
        "archive",
        "restore",
        "retrieve",
        "transfer",
        "pay",
        "charge",
        "quote",
        "ship",
        "reorder",
        "enable",
        "disable",
        "grant",
        "revoke",
        "invite",
        "confirm",
        "mark",
        "rename",
        "merge",
        "split",
        "tag",
        "label",
        "analyze",
        "analyse",
        "scan",
        "detect",
        "classify",
        "extract",
        "render",
        "draw",
        "plot",
        "predict",
        "forecast",
        "answer",
        "reply",
        "ask",
        "lock",
        "unlock",
        # more verbs tool authors use (issue 11: renew_loan has a verb)
        "renew",
        "extend",
        "borrow",
        "lend",
        "refresh",
        "rebuild",
        "build",
        "make",
        "print",
        "play",
        "pause",
        "resume",
        "ping",
        "buy",
        "sell",
        "rent",
        "turn",
        "toggle",
        "switch",
        "clear",
        "fill",
        "measure",
        "release",
        "attach",
        "detach",
        "join",
        "leave",
        "accept",
        "decline",
        "sign",
        "login",
        "logout",
        "watch",
        "follow",
        "unfollow",
        "share",
        "browse",
        "preview",
        "vote",
        "deploy",
        "install",
        "uninstall",
        "upgrade",
        "fix",
        "repair",
        "clean",
        "backup",
        "encode",
        "decode",
        "encrypt",
        "decrypt",
        "compress",
        "reduce",
        "lookup",
        "give",
        "take",
        "keep",
        "hide",
        "mute",
        "unmute",
        "greet",
        "welcome",
    ]
)

VAGUE_WORDS = frozenset(
    [
        "data",
        "info",
        "information",
        "stuff",
        "thing",
        "things",
        "handle",
        "handler",
        "handlers",
        "process",
        "processor",
        "do",
        "manager",
        "manage",
        "misc",
        "util",
        "utils",
        "helper",
        "helpers",
        "generic",
        "execute",
        "perform",
        "item",
        "items",
        "object",
        "obj",
    ]
)

#: verbs that are vague (name-vague) but still verbs for name-verb-object (process_order)
VAGUE_VERBS = frozenset({"handle", "process", "do", "manage", "execute", "perform"})

VERSION_WORDS = frozenset({"new", "old", "legacy", "latest", "deprecated", "tmp", "temp"})

BOUNDARY_MARKERS = (
    "사용하지 않는다",
    "사용하지 않습니다",
    "사용하지 말",
    "쓰지 않는다",
    "쓰지 않습니다",
    "쓰지 말",
    "대신",
    "쓸 것",
    "do not use",
    "don't use",
    "not for",
    "instead",
    "never use",
    "should not be used",
)
OMIT_MARKERS = (
    "생략",
    "비워",
    "비우",
    "없으면",
    "omit",
    "leave out",
    "leave it out",
    "leave empty",
    "if not given",
    "if omitted",
    "if not provided",
    "optional",
    "not required",
)

STOP_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "for",
        "with",
        "by",
        "from",
        "as",
        "is",
        "are",
        "be",
        "it",
        "this",
        "that",
        "these",
        "those",
        "its",
        "at",
        "if",
        "not",
        "no",
        "use",
        "used",
        "using",
        "when",
        "what",
        "which",
        "who",
        "whom",
        "how",
        "any",
        "all",
        "only",
        "one",
        "e",
        "g",
        "eg",
        "i.e",
        "example",
        "args",
        "returns",
        "return",
        "you",
        "your",
        "can",
        "may",
        "must",
        "should",
        "will",
        "do",
        "does",
        "than",
        "then",
        "there",
        "their",
        "they",
        "them",
        "so",
        "such",
        "per",
        "each",
        "via",
        "into",
        # the words of the omission sentence optional-undocumented asks for ("Omit it unless
        # the user gives one", "없으면 생략한다") say nothing about what a tool does
        "omit",
        "omitted",
        "unless",
        "leave",
        "out",
        "생략",
        "생략한다",
        "사용",
        "사용한다",
        "사용하지",
        "사용하",
        "않는다",
        "문의",
        "도구",
        "경우",
        "있다",
        "없다",
        "한다",
        "하는",
        "것",
        "수",
        "등",
        "및",
        "또는",
        "예",
        "먼저",
        "뒤",
        "이",
        "그",
        "저",
        "때",
        "지금",
        "현재",
        "이미",
        "모든",
        "함께",
        "다시",
        "경우에",
        "에는",
        "입니다",
        "합니다",
        "있는지",
        "있는",
        "한",
        "할",
        "된",
        "되는",
        "조회",
        "조회한다",
    ]
)

_PARTICLES = tuple(
    sorted(
        [
            "을",
            "를",
            "이",
            "가",
            "은",
            "는",
            "의",
            "에",
            "로",
            "와",
            "과",
            "도",
            "만",
            "으로",
            "에서",
            "에게",
            "까지",
            "부터",
            "이나",
            "이고",
            "이며",
            "이다",
            "한다",
            "하고",
            "에는",
            "으로는",
            "로는",
            "인지",
        ],
        key=len,
        reverse=True,
    )
)

_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*|[가-힣]+")
_NAME_WORD_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
VERSION_RE = re.compile(r"(?:_|(?<=[a-z]))[vV]\d+$|_\d+$|(?:^|_)v\d+(?:_|$)")


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
        return {
            "rule": self.rule,
            "severity": self.severity,
            "tool": self.tool,
            "location": self.location,
            "source": self.source,
            "message": self.message,
            "suggestion": self.suggestion,
        }


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


class DocstringSources:
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
        where = contract.location
        if where.line is None:
            return contract.source
        start = where.line - 1
        lines = self.lines(where.path)
        rx = re.compile(pattern)
        for i in range(start, min(len(lines), start + 80)):
            if rx.search(lines[i]):
                return f"{where.path}:{i + 1}"
        return contract.source


def is_rows_list(schema: dict[str, Any]) -> bool:
    """Whether a result schema is a list of rows: an array that is not a fixed-length tuple
    (``prefixItems``: ``-> tuple[int, str]``, a ``NamedTuple``), whose length says nothing
    about how much matched."""
    return schema.get("type") == "array" and "prefixItems" not in schema


def server_of(contract: Contract | None) -> str:
    """The MCP server's name for a contract of an MCP server, else ``""``."""
    if contract is None or contract.origin != "mcp":
        return ""
    return str(getattr(contract, "server", "") or "?")


def fix_for(contract: Contract | None, *, code: str, mcp: str, table: str | None = None) -> str:
    """The fix that fits where ``contract`` comes from: ``code`` for a Python function (what to
    change in the code), ``table`` for a seed-003 ``TOOLS`` table entry (``code`` when not
    given), and for an MCP server's tool what to ask of the server's author: ``"ask the author
    of MCP server 'shop' to " + mcp`` (the playground sends the tool as the server lists it,
    so there is nothing to change locally)."""
    server = server_of(contract)
    if server:
        return f"ask the author of MCP server {server!r} to {mcp}"
    if contract is not None and contract.origin == "table" and table is not None:
        return table
    return code


def make_finding(
    rule: str,
    contract: Contract | None,
    location: str,
    source: str,
    message: str,
    suggestion: str,
    severity: str | None = None,
) -> Finding:
    """A :class:`Finding` of ``rule`` for ``contract`` (``None``: the registry as a whole) at
    ``location`` (``"description"``, ``"parameters.<arg>"``, ...) and ``source`` (``path:line``);
    ``severity`` defaults to the rule's own in :data:`RULES`."""
    return Finding(
        rule,
        severity or RULES[rule][0],
        contract.name if contract else "",
        location,
        source,
        message,
        suggestion,
    )
