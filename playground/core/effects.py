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

import itertools
import re
from dataclasses import dataclass
from typing import Any

READ = "read"
WRITE = "write"
UNKNOWN = "unknown"

DECLARED = "declared"
ANNOTATIONS = "annotations"
INFERRED = "inferred"

# The words of a tool's name, by what they say of its effects. Deliberately general: each is an
# action on the world (a write) or a question about it (a read), never a benchmark's word.
#: verbs that only ever act: a write wherever they stand in the name (``get_or_create_user``)
WRITE_VERBS = frozenset(
    [
        "accept",
        "activate",
        "add",
        "allocate",
        "append",
        "apply",
        "approve",
        "archive",
        "assign",
        "attach",
        "authorize",
        "ban",
        "buy",
        "cancel",
        "charge",
        "checkout",
        "claim",
        "clear",
        "close",
        "commit",
        "confirm",
        "create",
        "deactivate",
        "decline",
        "decrement",
        "delete",
        "deploy",
        "deposit",
        "destroy",
        "detach",
        "disable",
        "dismiss",
        "dispatch",
        "drop",
        "edit",
        "enable",
        "enqueue",
        "enroll",
        "erase",
        "escalate",
        "execute",
        "grant",
        "increment",
        "insert",
        "install",
        "invite",
        "kill",
        "launch",
        "logout",
        "merge",
        "modify",
        "mute",
        "notify",
        "pay",
        "pop",
        "publish",
        "purchase",
        "purge",
        "refund",
        "register",
        "reject",
        "reload",
        "remove",
        "rename",
        "reopen",
        "replace",
        "reschedule",
        "reserve",
        "reset",
        "restart",
        "restore",
        "revoke",
        "rollback",
        "save",
        "sell",
        "send",
        "submit",
        "subscribe",
        "suspend",
        "terminate",
        "transfer",
        "trigger",
        "truncate",
        "unassign",
        "unban",
        "unblock",
        "unfollow",
        "uninstall",
        "unlink",
        "unlock",
        "unmute",
        "unpin",
        "unsubscribe",
        "update",
        "upload",
        "upsert",
        "withdraw",
        "write",
    ]
)
#: words that are a noun as often as a verb (``order_status``, ``email_lookup``): a write only
#: when one leads the name (or a part of it after ``and``/``or``) and no read word says otherwise
NOUN_VERBS = frozenset(
    [
        "block",
        "answer",
        "book",
        "comment",
        "email",
        "file",
        "follow",
        "import",
        "like",
        "link",
        "lock",
        "log",
        "mark",
        "message",
        "move",
        "order",
        "patch",
        "pin",
        "place",
        "post",
        "print",
        "put",
        "record",
        "release",
        "reply",
        "report",
        "request",
        "run",
        "schedule",
        "set",
        "share",
        "sign",
        "start",
        "stop",
        "store",
        "sync",
        "tag",
        "turn",
        "vote",
    ]
)
#: verbs that ask about the world
READ_VERBS = frozenset(
    [
        "analyse",
        "analyze",
        "browse",
        "calc",
        "calculate",
        "can",
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
        "extract",
        "fetch",
        "find",
        "format",
        "get",
        "grep",
        "guess",
        "has",
        "inspect",
        "is",
        "list",
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
#: nouns that name something read (``order_status``, ``payment_history``, ``booking_details``)
READ_NOUNS = frozenset(
    [
        "availability",
        "balance",
        "balances",
        "count",
        "counts",
        "details",
        "detail",
        "forecast",
        "history",
        "info",
        "information",
        "price",
        "prices",
        "rate",
        "rates",
        "stats",
        "statistics",
        "status",
        "summary",
        "tracking",
    ]
)
#: a dry run or a preview acts on nothing, whatever verb it names (``delete_preview``)
DRY_RUN_WORDS = frozenset({"preview", "dry", "simulate", "simulation"})
#: a read verb that becomes a write with its particle (``check_in``, ``sign_up``)
PHRASAL_WRITES = frozenset(
    {
        ("check", "in"),
        ("check", "out"),
        ("sign", "in"),
        ("sign", "up"),
        ("log", "in"),
        ("log", "out"),
        ("turn", "on"),
        ("turn", "off"),
    }
)
_JOINERS = frozenset({"and", "or", "then"})

# The first verb of a description: "Books an appointment" / "Send an e-mail" / "Returns …".
_EN_WORD = re.compile(r"[A-Za-z]+")
# Korean verb stems, write first: 예약 (book), 취소 (cancel), 삭제 (delete), 등록 (register),
# 변경/수정 (change), 보내/전송/발송 (send), 결제/송금 (pay), 저장 (save), 생성/만들 (create),
# 주문 (order), 신청 (apply), 추가 (add), 제거 (remove), 가입 (sign up); read: 조회 (look up),
# 검색 (search), 확인 (check), 알려 (tell), 보여 (show), 계산 (calculate), 찾 (find), 읽 (read).
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
    "가입",
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
    """Effects inferred from the words of ``name`` (:func:`name_verb`), else from
    ``description``'s first verb; a description that opens with a write verb (``get_next_id``:
    "Allocate the next id") outweighs a read the name suggested. An :data:`UNKNOWN` kind
    (basis :data:`UNKNOWN`) when neither names one. Never raises."""
    said = _description_verb(description or "")
    found = name_verb(name) if name_words(name) or said is None else None
    if (
        found is not None
        and found[0] == READ
        and said is not None
        and said[0] == WRITE
        and _stems(said[1]) & WRITE_VERBS
    ):
        return Effects(WRITE, INFERRED, False, f"the description's verb {said[1]!r}")
    if found is not None:
        kind, why = found
        return Effects(kind, INFERRED, kind == READ, why)
    if said is not None:
        kind, verb = said
        return Effects(kind, INFERRED, kind == READ, f"the description's verb {verb!r}")
    return Effects(
        UNKNOWN,
        UNKNOWN,
        False,
        "neither the name nor the description has a verb known as a read or a write",
    )


def name_verb(name: str) -> tuple[str, str] | None:
    """``(kind, evidence)`` from the words of a tool's name, or ``None``. In order: a dry run or
    preview word is a read; a verb of :data:`WRITE_VERBS` anywhere, a phrasal write
    (``check_in``), or a :data:`NOUN_VERBS` word leading the name or a part after ``and``/``or``
    (``read_and_mark_read``) is a write; a read verb first or last (``stock_lookup``) or a read
    noun last (``order_status``) is a read; a Korean verb stem in the name counts as in a
    description (a Korean name is read only when its description names no verb: "주문상태" is
    a noun phrase)."""
    words = name_words(name)
    if not words:
        found = _korean_verb(name)
        return (found[0], f"the name's verb {found[1]!r}") if found else None
    for word in words:
        if word in DRY_RUN_WORDS:
            return READ, f"the name's {word!r} (a dry run acts on nothing)"
    for word in words:
        if word in WRITE_VERBS:
            return WRITE, f"the name's verb {word!r}"
    for pair in itertools.pairwise(words):
        if pair in PHRASAL_WRITES:
            return WRITE, f"the name's verb {' '.join(pair)!r}"
    leads = [words[0]] + [w for prev, w in itertools.pairwise(words) if prev in _JOINERS]
    reads_last = words[-1] in READ_VERBS or words[-1] in READ_NOUNS
    for word in leads:
        if word in NOUN_VERBS and not (word == words[0] and reads_last):
            return WRITE, f"the name's verb {word!r}"
    for word in dict.fromkeys([words[0], words[-1]]):
        if word in READ_VERBS:
            return READ, f"the name's verb {word!r}"
    if words[-1] in READ_NOUNS:
        return READ, f"the name's {words[-1]!r}"
    found = _korean_verb(name)
    return (found[0], f"the name's verb {found[1]!r}") if found else None


def _stems(word: str) -> set[str]:
    """``word`` lower-cased with and without a third-person ``s`` / ``es``."""
    low = word.lower()
    return {low, low.removesuffix("s"), low.removesuffix("es")}


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
            if stem in WRITE_VERBS or (stem != low and stem in NOUN_VERBS):  # "Books …"
                return WRITE, word
            if stem in READ_VERBS or stem == "return":
                return READ, word
    return _korean_verb(re.split(r"[.!?。]\s", first, maxsplit=1)[0])


def _korean_verb(sentence: str) -> tuple[str, str] | None:
    """Korean puts the verb last: the stem nearest the end of ``sentence`` wins ("주문 상태를
    조회한다" reads; "조회 후 취소한다" writes)."""
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
    if read_only is None and (destructive is not None or idem is not None):
        # destructiveHint and idempotentHint mean something only for a tool that is not
        # read-only (MCP 2025-06-18), and readOnlyHint's default is false: a write
        said = "destructiveHint" if destructive is not None else "idempotentHint"
        return Effects(
            WRITE, ANNOTATIONS, idem is True, f"{said} without readOnlyHint (default false)"
        )
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
