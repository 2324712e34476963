"""What a tool does to the world: ``read``, ``write`` or ``unknown``, and how that is known.

A tool is never silently taken for a pure read (issue 20, item 1). Its effects are, in order:

1. **declared** — ``__contracts__`` / a ``TOOLS`` entry: ``side_effects`` (``True`` → write,
   ``False`` → read), else ``cacheable: true`` (caching is only safe for a read, so the author
   says it is one); ``idempotent`` is taken as written;
2. **annotations** — an MCP tool's ``readOnlyHint`` / ``destructiveHint`` / ``idempotentHint``
   (MCP 2025-06-18, "Tool annotations": ``readOnlyHint: true`` is a read; ``readOnlyHint: false``
   or ``destructiveHint: true`` a write);
3. **inferred** — the verb the tool's name starts with (``book_appointment`` → write,
   ``get_order`` → read), else the first verb of its description (English or Korean:
   "Books …", "예약한다" → write; "Returns …", "조회" → read);
4. **unknown** — nothing of the above says.

The gate's rules follow (seed 003: a cache is only for reads; seed 004: automatic retries only
where a repeat is harmless): a ``write`` or ``unknown`` tool is never served from the cache and is
retried automatically only when declared idempotent. :func:`cache_skip_reason` says why a call
was not cached, for the record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

READ = "read"
WRITE = "write"
UNKNOWN = "unknown"

DECLARED = "declared"
ANNOTATIONS = "annotations"
INFERRED = "inferred"

# Verbs a tool name starts with (``send_email``, ``bookAppointment``, ``delete-file``).
# Deliberately small and general: each is an action on the world (write) or a question about it
# (read). A name starting with none of them falls through to the description, then ``unknown``.
WRITE_VERBS = frozenset(
    [
        "add",
        "append",
        "apply",
        "approve",
        "archive",
        "assign",
        "attach",
        "ban",
        "block",
        "book",
        "buy",
        "cancel",
        "charge",
        "checkout",
        "clear",
        "close",
        "comment",
        "commit",
        "confirm",
        "create",
        "deactivate",
        "decrement",
        "delete",
        "deploy",
        "destroy",
        "detach",
        "disable",
        "drop",
        "edit",
        "email",
        "enable",
        "enroll",
        "enqueue",
        "escalate",
        "execute",
        "file",
        "grant",
        "import",
        "increment",
        "insert",
        "install",
        "invite",
        "kill",
        "launch",
        "like",
        "link",
        "lock",
        "log",
        "login",
        "logout",
        "mark",
        "merge",
        "message",
        "modify",
        "move",
        "mute",
        "notify",
        "order",
        "patch",
        "pay",
        "place",
        "post",
        "publish",
        "purchase",
        "purge",
        "push",
        "put",
        "record",
        "refund",
        "register",
        "reject",
        "release",
        "reload",
        "remove",
        "rename",
        "reopen",
        "reply",
        "report",
        "request",
        "reschedule",
        "reserve",
        "reset",
        "restart",
        "restore",
        "revoke",
        "run",
        "save",
        "schedule",
        "sell",
        "send",
        "set",
        "share",
        "sign",
        "signup",
        "start",
        "stop",
        "store",
        "submit",
        "subscribe",
        "sync",
        "tag",
        "terminate",
        "transfer",
        "trigger",
        "truncate",
        "unban",
        "unblock",
        "uninstall",
        "unlink",
        "unlock",
        "unsubscribe",
        "update",
        "upload",
        "upsert",
        "vote",
        "withdraw",
        "write",
    ]
)
READ_VERBS = frozenset(
    [
        "analyse",
        "analyze",
        "browse",
        "calc",
        "calculate",
        "check",
        "classify",
        "compare",
        "compute",
        "convert",
        "count",
        "describe",
        "detect",
        "diff",
        "download",
        "echo",
        "estimate",
        "evaluate",
        "explain",
        "export",
        "extract",
        "fetch",
        "find",
        "format",
        "get",
        "grep",
        "guess",
        "inspect",
        "is",
        "has",
        "can",
        "list",
        "load",
        "lookup",
        "match",
        "measure",
        "parse",
        "peek",
        "ping",
        "predict",
        "preview",
        "query",
        "quote",
        "rank",
        "read",
        "recommend",
        "render",
        "retrieve",
        "score",
        "search",
        "show",
        "stat",
        "status",
        "suggest",
        "summarise",
        "summarize",
        "tell",
        "track",
        "translate",
        "validate",
        "verify",
        "view",
        "whois",
    ]
)

# The first verb of a description: "Books an appointment" / "Send an e-mail" / "Returns …".
_EN_WORD = re.compile(r"[A-Za-z]+")
# Korean verb stems, write first: 예약 (book), 취소 (cancel), 삭제 (delete), 등록 (register),
# 변경/수정 (change), 보내/전송/발송 (send), 결제/송금 (pay), 저장 (save), 생성/만들 (create),
# 주문 (order); read: 조회 (look up), 검색 (search), 확인 (check), 알려 (tell), 보여 (show),
# 계산 (calculate), 찾 (find), 읽 (read).
_KO_WRITE = (
    "예약",
    "취소",
    "삭제",
    "등록",
    "변경",
    "수정",
    "보내",
    "보낸",
    "전송",
    "발송",
    "결제",
    "송금",
    "저장",
    "생성",
    "만든",
    "만들",
    "주문",
    "신청",
    "추가",
    "제거",
)
_KO_READ = ("조회", "검색", "확인", "알려", "보여", "계산", "찾", "읽", "반환", "돌려준")


_PREDICATES = frozenset({"is", "has", "can"})


@dataclass(frozen=True)
class Effects:
    """A tool's effects: ``kind`` (:data:`READ`, :data:`WRITE` or :data:`UNKNOWN`), ``basis``
    (:data:`DECLARED`, :data:`ANNOTATIONS`, :data:`INFERRED`, or :data:`UNKNOWN` when nothing
    said), ``idempotent`` (a repeat of the same call is harmless: reads always, writes only when
    declared), and ``evidence`` (what decided it, in words: ``"the name's verb 'book'"``)."""

    kind: str
    basis: str
    idempotent: bool
    evidence: str = ""

    @property
    def label(self) -> str:
        """``"write (inferred)"``, ``"read (declared)"``, ``"unknown"``: for lists and records."""
        return self.kind if self.basis == UNKNOWN else f"{self.kind} ({self.basis})"


def name_words(name: str) -> list[str]:
    """The lower-case words of a tool name: ``bookAppointment`` / ``book-appointment`` /
    ``book_appointment`` → ``["book", "appointment"]``; an MCP ``server.tool`` keeps the tool."""
    tail = name.rsplit(".", 1)[-1]
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", tail)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]


def infer(name: str, description: str = "") -> Effects:
    """Effects inferred from ``name``'s leading (else trailing) verb, else ``description``'s
    first verb; an
    :data:`UNKNOWN` kind (basis :data:`UNKNOWN`) when neither names one. Never raises."""
    words = name_words(name)
    # the verb leads (``get_order``) or, in noun-first names, ends it (``stock_lookup``)
    for verb in dict.fromkeys(words[:1] + words[-1:]):
        if verb in WRITE_VERBS:
            return Effects(WRITE, INFERRED, False, f"the name's verb {verb!r}")
        if verb in READ_VERBS:
            return Effects(READ, INFERRED, True, f"the name's verb {verb!r}")
    found = _description_verb(description or "")
    if found is not None:
        kind, verb = found
        return Effects(kind, INFERRED, kind == READ, f"the description's verb {verb!r}")
    return Effects(UNKNOWN, UNKNOWN, False, "neither the name nor the description names a verb")


def _description_verb(text: str) -> tuple[str, str] | None:
    first = text.strip().split("\n", 1)[0][:200]
    for word in _EN_WORD.findall(first)[:1]:  # a description starts with its verb: "Books …"
        low = word.lower()
        if low in _PREDICATES:  # "Is …" / "Has …" open a sentence without naming an action
            break
        for stem in (
            low,
            low[:-1] if low.endswith("s") else low,
            low[:-2] if low.endswith("es") else low,
        ):
            if stem in WRITE_VERBS:
                return WRITE, word
            if stem in READ_VERBS or stem == "return":
                return READ, word
    # Korean puts the verb last: the stem nearest the end of the first sentence wins
    # ("주문 상태를 조회한다" reads; "조회 후 취소한다" writes)
    sentence = re.split(r"[.!?。]\s", first, maxsplit=1)[0]
    found = [(sentence.rfind(s), WRITE, s) for s in _KO_WRITE if s in sentence]
    found += [(sentence.rfind(s), READ, s) for s in _KO_READ if s in sentence]
    if found:
        _, kind, stem = max(found)
        return kind, stem
    return None


def from_meta(name: str, description: str, meta: dict[str, Any]) -> Effects:
    """Effects of a Python tool from its ``__contracts__`` / ``TOOLS`` entry ``meta``
    (``side_effects``, ``cacheable``, ``idempotent``), else :func:`infer`."""
    idem = meta.get("idempotent")
    if "side_effects" in meta:
        writes = bool(meta["side_effects"])
        kind = WRITE if writes else READ
        evidence = f"side_effects: {writes}"
    elif meta.get("cacheable") is True:
        kind, evidence = READ, "cacheable: True"
    else:
        guessed = infer(name, description)
        if idem is None:
            return guessed
        return Effects(guessed.kind, guessed.basis, bool(idem), guessed.evidence)
    return Effects(kind, DECLARED, bool(idem) if idem is not None else kind == READ, evidence)


def from_annotations(name: str, description: str, annotations: dict[str, Any]) -> Effects:
    """Effects of an MCP tool from its ``annotations`` (MCP 2025-06-18 tool annotations), else
    :func:`infer` from its name and description. ``readOnlyHint: true`` → read;
    ``destructiveHint: true`` or ``readOnlyHint: false`` → write; ``idempotentHint`` as given
    (a read is idempotent)."""
    read_only = annotations.get("readOnlyHint")
    destructive = annotations.get("destructiveHint")
    idem = annotations.get("idempotentHint")
    if read_only is True and destructive is not True:
        return Effects(READ, ANNOTATIONS, True, "readOnlyHint: true")
    if read_only is False or destructive is True:
        said = "destructiveHint: true" if destructive is True else "readOnlyHint: false"
        return Effects(WRITE, ANNOTATIONS, idem is True, said)
    guessed = infer(name, description)
    if idem is True:
        return Effects(
            guessed.kind, guessed.basis, True, guessed.evidence + "; idempotentHint: true"
        )
    return guessed


def cache_skip_reason(effects: Effects, cacheable: bool) -> str:
    """Why a call of a tool is not served from (nor stored in) the cache, in one line for the
    record; ``""`` when it is cached (a read whose results may be cached)."""
    if effects.kind == WRITE:
        return f"it writes ({effects.basis}: {effects.evidence}); a write is never served from the cache"
    if effects.kind == UNKNOWN:
        return (
            "its effects are unknown (declare side_effects in __contracts__, or readOnlyHint for "
            "an MCP tool); a tool that may write is never served from the cache"
        )
    if not cacheable:
        return "declared cacheable: False"
    return ""
