"""Outcomes and their kinds: how every call ends, as a value, never an exception.

The kinds and their policies are the table in ``docs/design.md`` ("Outcome kinds"), which
comes from seed 004 (error kinds input / transient / permission / empty, each with its own signal
to the model) and seed 003 (``{"ok", "value", "error"}`` with ``args:`` / ``raised:`` /
``result:`` prefixes).

A tool module may name the kind of an exception without importing the playground: give the
exception class a ``kind`` attribute (``"transient"`` or ``"permission"``), or an HTTP
``status_code`` / ``status`` attribute; or raise one of the classes below.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from datetime import UTC
from enum import StrEnum
from typing import Any


class OutcomeKind(StrEnum):
    """The outcome kinds of docs/design.md's table. A ``StrEnum``: each member is its string value,
    so records, episodes and case files keep ``"ok"``, ``"invalid_args"``, ... in JSON and
    compare equal to those strings."""

    OK = "ok"
    EMPTY = "empty"
    INVALID_ARGS = "invalid_args"
    BAD_RESULT = "bad_result"
    TRANSIENT = "transient"
    PERMISSION = "permission"
    RAISED = "raised"
    UNKNOWN_TOOL = "unknown_tool"
    CANCELLED = "cancelled"


# Short names for the members, as the gate and the loop write them (``oc.OK``).
OK = OutcomeKind.OK
EMPTY = OutcomeKind.EMPTY
INVALID_ARGS = OutcomeKind.INVALID_ARGS
BAD_RESULT = OutcomeKind.BAD_RESULT
TRANSIENT = OutcomeKind.TRANSIENT
PERMISSION = OutcomeKind.PERMISSION
RAISED = OutcomeKind.RAISED
UNKNOWN_TOOL = OutcomeKind.UNKNOWN_TOOL
CANCELLED = OutcomeKind.CANCELLED


@dataclass(frozen=True)
class KindPolicy:
    """One row of docs/design.md's outcome table.

    ``is_error``: the model sees an error flag. ``gate_retries``: the gate retries it with
    backoff (:meth:`playground.core.gate.Gate` reads it; a timeout and a body with side effects
    are still never retried). ``repairable``: the loop may try a repair (subject to a repair rule
    existing). ``failure``: counts towards the consecutive-failure limit.
    """

    is_error: bool
    gate_retries: bool
    repairable: bool
    failure: bool


POLICIES: dict[str, KindPolicy] = {
    OK: KindPolicy(is_error=False, gate_retries=False, repairable=False, failure=False),
    EMPTY: KindPolicy(is_error=False, gate_retries=False, repairable=False, failure=False),
    INVALID_ARGS: KindPolicy(is_error=True, gate_retries=False, repairable=True, failure=True),
    BAD_RESULT: KindPolicy(is_error=True, gate_retries=False, repairable=True, failure=True),
    TRANSIENT: KindPolicy(is_error=True, gate_retries=True, repairable=False, failure=True),
    PERMISSION: KindPolicy(is_error=True, gate_retries=False, repairable=False, failure=True),
    RAISED: KindPolicy(is_error=True, gate_retries=False, repairable=False, failure=True),
    UNKNOWN_TOOL: KindPolicy(is_error=True, gate_retries=False, repairable=True, failure=True),
    # the user stopped the call (ctrl+c; issue 21 item 1): not the tool's fault, never retried
    CANCELLED: KindPolicy(is_error=True, gate_retries=False, repairable=False, failure=False),
}


@dataclass(frozen=True)
class Reason:
    """An outcome's ``error`` parsed once (docs/design.md, "Reason codes"): ``head`` (``args``,
    ``result``, ``raised``, ``transient``, ``permission``), ``code`` and ``arg``.

    ``args:allowed:region`` → ``Reason("args", "allowed", "region")``; ``result:too_big`` →
    ``Reason("result", "too_big")``; ``args:unknown_tool`` → ``Reason("args", "unknown_tool")``;
    ``""`` → ``Reason("")``.
    """

    head: str
    code: str = ""
    arg: str = ""

    @classmethod
    def parse(cls, error: str | None) -> Reason:
        """Split ``error`` at its first two colons (the argument may itself hold colons)."""
        head, _, rest = (error or "").partition(":")
        code, _, arg = rest.partition(":")
        return cls(head, code, arg)

    @property
    def key(self) -> str:
        """``head:code`` (``args:allowed``), or ``head`` alone when there is no code."""
        return f"{self.head}:{self.code}" if self.code else self.head


class ToolError(Exception):
    """Base of the small exception classes a tool may raise to name its kind."""

    kind = RAISED


class TransientToolError(ToolError):
    """A temporary fault (timeout, rate limit, 5xx): the gate retries it with backoff."""

    kind = TRANSIENT


class PermissionToolError(ToolError):
    """Not allowed (401/403): never retried; the model is told to report to the user."""

    kind = PERMISSION


@dataclass
class Outcome:
    """How a call ended: ``{ok, value, error, kind}`` plus the model-facing ``message``.

    ``ok``: true for kinds ``ok`` and ``empty`` (an empty result is not an error, seed 004).
    ``error``: a prefixed reason (``args:type:limit``, ``result:too_big``, ``raised:KeyError``,
    ``transient:timeout``, ``permission:PermissionError``) or ``""``. ``message``: what the
    model reads on failure (what, why, how to fix) or the note on an empty result.
    """

    ok: bool
    value: Any
    error: str
    kind: OutcomeKind
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def is_error(self) -> bool:
        return POLICIES[self.kind].is_error


#: How a server-side fault is spelled in an error's type, code, body or message: OpenAI's
#: ``"type": "server_error"`` and "The server had an error while processing your request",
#: Anthropic's ``api_error`` / ``overloaded_error`` (Anthropic API docs, "Errors"), HTTP's
#: "Internal Server Error", and Korean.
SERVER_ERROR_WORDS = re.compile(
    r"server[\s_-]?error|internal[\s_-]?(?:server[\s_-]?)?error|server had an error"
    r"|\bapi_error\b|\boverloaded_error\b|\boverloaded\b|서버\s?(?:오류|에러)",
    re.I,
)

#: HTTP statuses that are temporary (RFC 9110: 408 Request Timeout, 409 Conflict, 425 Too Early,
#: 429 Too Many Requests, and every 5xx).
TRANSIENT_STATUSES = frozenset({408, 409, 425, 429})

#: gRPC / Google API status names (google-genai ``APIError.status``) and their kinds, used when
#: an error carries a status name but no HTTP number.
_STATUS_NAMES = {
    "UNAVAILABLE": TRANSIENT,
    "DEADLINE_EXCEEDED": TRANSIENT,
    "RESOURCE_EXHAUSTED": TRANSIENT,
    "INTERNAL": TRANSIENT,
    "ABORTED": TRANSIENT,
    "PERMISSION_DENIED": PERMISSION,
    "UNAUTHENTICATED": PERMISSION,
}


@dataclass(frozen=True)
class Classification:
    """What an exception says about a failure: ``kind`` and ``reason`` (as in
    :func:`classify_exception`), the HTTP ``status`` it carried (or ``None``) and
    ``retry_after_s``: the delay its ``Retry-After`` (or ``retry-after-ms``) header asks for,
    in seconds, or ``None``. The gate waits that long before a retry, bounded by its time limit.
    """

    kind: OutcomeKind
    reason: str
    status: int | None = None
    retry_after_s: float | None = None


def _int_status(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 599:
        return value
    if isinstance(value, str) and value.isdigit() and 100 <= int(value) <= 599:
        return int(value)
    return None


def kind_of_status(status: int | None) -> OutcomeKind | None:
    """The kind an HTTP status alone gives: 401/403 → ``permission``; 408, 409, 425, 429 and
    5xx → ``transient`` (RFC 9110); anything else (or ``None``) → ``None``."""
    if status is None:
        return None
    if status in (401, 403):
        return PERMISSION
    if status in TRANSIENT_STATUSES or status >= 500:
        return TRANSIENT
    return None


def status_of(exc: BaseException) -> int | None:
    """The HTTP status an exception carries, or ``None``.

    Read by duck typing, without importing any client library: ``status_code`` (OpenAI and
    Anthropic ``APIStatusError``, tools' own errors), ``status`` / ``code`` (google-genai
    ``APIError.code``, aiohttp), then ``response.status_code`` / ``response.status`` (httpx
    ``HTTPStatusError``, requests ``HTTPError``). A value must be an integer 100–599 (or its
    digits); ``True`` is not a status.
    """
    for attr in ("status_code", "status", "code", "http_status"):
        found = _int_status(getattr(exc, attr, None))
        if found is not None:
            return found
    response = getattr(exc, "response", None)
    if response is not None:
        for attr in ("status_code", "status"):
            found = _int_status(getattr(response, attr, None))
            if found is not None:
                return found
    return None


def _body_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, default=str)
    if isinstance(value, bytes):
        return value[:4000].decode("utf-8", "replace")
    return str(value)[:4000]


def error_texts(exc: BaseException) -> list[str]:
    """Everything an HTTP error says about its cause, as text: its message, its ``type`` /
    ``code`` / ``error_type`` / ``status`` attributes when they are strings, its body (``body``
    of OpenAI/Anthropic errors, ``details`` / ``response_json`` of google-genai, a dict or JSON
    text) and the response's text (httpx, requests). Unreadable parts are skipped."""
    texts: list[str] = []

    def add(read: Any) -> None:
        try:
            text = read()
        except Exception:
            return
        if text:
            texts.append(text)

    add(lambda: str(exc))
    for attr in ("type", "code", "error_type", "status", "message"):
        add(lambda a=attr: v if isinstance(v := getattr(exc, a, None), str) else "")
    for attr in ("body", "details", "response_json", "error"):
        add(lambda a=attr: _body_text(getattr(exc, a, None)))
    response = getattr(exc, "response", None)
    if response is not None:
        add(lambda: _body_text(getattr(response, "text", None)))
    return texts


def says_server_error(exc: BaseException) -> bool:
    """Whether the error's type, code, body or message says the fault is the server's
    (:data:`SERVER_ERROR_WORDS`: ``server_error``, ``"type": "server_error"``, "The server had
    an error", ``api_error``, "Internal Server Error", 서버 오류)."""
    return any(SERVER_ERROR_WORDS.search(t) for t in error_texts(exc))


def _headers_of(exc: BaseException) -> list[Any]:
    found = []
    for owner in (getattr(exc, "response", None), exc):
        headers = getattr(owner, "headers", None) if owner is not None else None
        if headers is not None:
            found.append(headers)
    return found


def _header(headers: Any, name: str) -> str | None:
    try:
        value = headers.get(name)
        if value is None and hasattr(headers, "items"):
            value = next((v for k, v in headers.items() if str(k).lower() == name), None)
    except Exception:
        return None
    return None if value is None else str(value).strip()


def retry_after_of(exc: BaseException, now: float | None = None) -> float | None:
    """The delay in seconds a ``Retry-After`` header asks for (RFC 9110 §10.2.3: seconds or an
    HTTP date), or OpenAI's ``retry-after-ms``; read from ``exc.response.headers`` or
    ``exc.headers``. ``None`` when absent or unreadable; never negative. ``now``: the epoch
    seconds to measure a date against (default: the current time)."""
    for headers in _headers_of(exc):
        ms = _header(headers, "retry-after-ms")
        if ms is not None:
            try:
                return max(0.0, float(ms) / 1000)
            except ValueError:
                pass
        value = _header(headers, "retry-after")
        if value is None:
            continue
        try:
            return max(0.0, float(value))
        except ValueError:
            pass
        from email.utils import parsedate_to_datetime  # an HTTP date: rare, ~10 ms to import

        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            continue
        if when is None:
            continue
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return max(0.0, when.timestamp() - (time.time() if now is None else now))
    return None


def classify_exception(exc: BaseException) -> tuple[OutcomeKind, str]:
    """Map an exception from a tool body to ``(kind, reason)``; see :func:`classify_failure`."""
    found = classify_failure(exc)
    return found.kind, found.reason


def classify_failure(exc: BaseException) -> Classification:
    """Classify an exception from a tool body (rules from seed 004 and docs/design.md's table).

    * a ``kind`` attribute of ``"transient"`` / ``"permission"`` wins (duck-typed, so tool modules
      need not import the playground);
    * an HTTP status (:func:`status_of`): 408, 409, 425, 429 and 5xx → transient; 401 and 403 →
      permission, except when the error says the server failed (:func:`says_server_error`: the
      OpenAI ``Error code: 403 - {'error': {'type': 'server_error', ...}}``) → transient;
    * a Google status name (``UNAVAILABLE``, ``PERMISSION_DENIED``, …) without a number;
    * ``TimeoutError``, ``ConnectionError`` → transient; ``PermissionError`` → permission;
    * anything else → raised.
    ``reason`` is the exception type name, ``http_<status>`` or ``http_<status>_server``; a
    transient one carries ``retry_after_s`` from its headers. An exception whose attributes or
    message raise when read is ``raised`` (never an error here).
    """
    try:
        return _classify(exc)
    except Exception:  # a hostile exception object: a property or __str__ that raises
        return Classification(RAISED, type(exc).__name__)


def _classify(exc: BaseException) -> Classification:
    name = type(exc).__name__
    declared = getattr(exc, "kind", None)
    status = status_of(exc)
    if declared in (TRANSIENT, PERMISSION):
        kind, reason = declared, name
    elif status is not None and (
        status in TRANSIENT_STATUSES or status >= 500 or status in (401, 403)
    ):
        if status in (401, 403):
            if says_server_error(exc):
                kind, reason = TRANSIENT, f"http_{status}_server"
            else:
                kind, reason = PERMISSION, f"http_{status}"
        else:
            kind, reason = TRANSIENT, f"http_{status}"
    elif status is None and str(getattr(exc, "status", "")) in _STATUS_NAMES:
        reason = str(getattr(exc, "status", ""))
        kind = _STATUS_NAMES[reason]
    elif isinstance(exc, (TimeoutError, ConnectionError)):
        kind, reason = TRANSIENT, name
    elif isinstance(exc, PermissionError):
        kind, reason = PERMISSION, name
    else:
        return Classification(RAISED, name, status)
    retry_after = retry_after_of(exc) if kind == TRANSIENT else None
    return Classification(OutcomeKind(kind), reason, status, retry_after)


def exception_text(exc: BaseException, limit: int = 300) -> str:
    """``"Type: message"`` on one line, cut to ``limit`` characters; never a traceback.

    An exception whose ``__str__`` itself raises (or returns a non-string) is shown as
    ``Type: <unprintable message>``, so a broken exception class still names its own type.
    """
    try:
        text = str(exc)
    except BaseException:  # a user-defined __str__ may raise anything
        text = "<unprintable message>"
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def transient_message(tool: str, detail: str, attempts: int) -> str:
    """Model-facing text for a transient failure after the gate's retries (seed 004)."""
    return (
        f"{tool} failed temporarily ({detail}) and still failed after {attempts} attempt(s). "
        "This is a temporary problem, not a problem with the arguments: tell the user the "
        "service is busy and to try again shortly. Do not retry now."
    )


def unsure_write_message(tool: str, detail: str, why: str) -> str:
    """Model-facing text for a transient failure of a tool that may have acted before it
    failed (a write, or unknown effects, not declared idempotent): it ran once and was not
    retried, and whether it acted is unknown (seed 004; issue 20 item 1)."""
    return (
        f"{tool} failed temporarily ({detail}). It ran once and was not retried automatically "
        f"because {why} and is not declared idempotent: it may have acted before it failed. "
        "Do not retry now; tell the user it is not known whether it happened, and to check "
        "before anyone tries it again."
    )


def cancelled_message(tool: str, detail: str) -> str:
    """Model-facing text for a call the user cancelled while it ran (issue 21, item 1)."""
    return (
        f"{tool} was cancelled by the user while it ran ({detail}). There is no result; do not "
        "retry unless the user asks again."
    )


def permission_message(tool: str, detail: str) -> str:
    """Model-facing text for a permission failure: do not retry, report (seed 004)."""
    return (
        f"{tool} was refused: not allowed ({detail}). Retrying will not help; do not retry. "
        "Report to the user that this action is not permitted for them."
    )


def server_refused_message(tool: str, detail: str) -> str:
    """Model-facing text when the tool's server refused the arguments (an MCP server's JSON-RPC
    invalid-params error): its message, and to fix the arguments (seed 004: input errors)."""
    return (
        f"{tool} refused these arguments ({detail}). Fix the arguments as the message says and "
        f"call {tool} again."
    )


def raised_message(tool: str, detail: str, where: str = "") -> str:
    """Model-facing text for a body that raised: the exception (``Type: message``) and where it
    came from (``where``: the tool's ``file.py:line``), no traceback. It does not claim the
    arguments were or were not the cause: the playground cannot know."""
    at = f" at {where}" if where else ""
    return (
        f"{tool} failed: it raised {detail}{at}. Do not repeat the same call unchanged; if an "
        "argument looks wrong, fix it, otherwise tell the user the tool failed or try another tool."
    )


def process_ended_message(tool: str, how: str, while_doing: str = "running the body") -> str:
    """Model-facing text for a body whose process ended under it (``os._exit``, a segfault, a
    signal: ``how`` is ``exit code 9`` or ``SIGSEGV``): it raised nothing, so no exception is
    named; the error code stays ``raised:WorkerExited``."""
    return (
        f"{tool} failed: it raised no exception; the process running it ended ({how}) while "
        f"{while_doing}. Do not repeat the same call unchanged: tell the user the tool failed "
        "or try another tool."
    )


def tool_refused_message(tool: str, reason: str, detail: str) -> str:
    """Model-facing text for an ``invalid_args`` found where the body runs: the tool refused
    its input (``reason`` ``tool`` / ``tool:<arg>``, issue 11 item 3) or an argument did not
    convert to its annotated type (``type:<path>``, item 1). ``detail``: the tool's message."""
    head, _, arg = reason.partition(":")
    about = f" argument {arg!r}" if arg else " arguments"
    if head == "type":
        return f"{tool} could not use the{about}: {detail}. Fix that value and call {tool} again."
    return f"{tool} refused the{about}: {detail}. Fix the arguments and call {tool} again."


def empty_note(tool: str) -> str:
    """The note added to an empty result (seed 002: '빈 결과에 말을 붙인다')."""
    return (
        f"Nothing matched in {tool}. This is not an error: tell the user nothing was found; "
        "try a broader or different keyword. Do not invent results."
    )
