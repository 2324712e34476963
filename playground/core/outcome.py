"""Outcomes and their kinds: how every call ends, as a value, never an exception.

The kinds and their policies are the table in ``../shared/DESIGN.md`` ("Outcome kinds"), which
comes from seed 004 (error kinds input / transient / permission / empty, each with its own signal
to the model) and seed 003 (``{"ok", "value", "error"}`` with ``args:`` / ``raised:`` /
``result:`` prefixes).

A tool module may name the kind of an exception without importing the playground: give the
exception class a ``kind`` attribute (``"transient"`` or ``"permission"``), or an HTTP
``status_code`` / ``status`` attribute; or raise one of the classes below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

OK = "ok"
EMPTY = "empty"
INVALID_ARGS = "invalid_args"
BAD_RESULT = "bad_result"
TRANSIENT = "transient"
PERMISSION = "permission"
RAISED = "raised"
UNKNOWN_TOOL = "unknown_tool"

KINDS = (OK, EMPTY, INVALID_ARGS, BAD_RESULT, TRANSIENT, PERMISSION, RAISED, UNKNOWN_TOOL)


@dataclass(frozen=True)
class KindPolicy:
    """One row of DESIGN.md's outcome table.

    ``is_error``: the model sees an error flag. ``gate_retries``: the gate retries it with
    backoff. ``repairable``: the loop may try a repair (subject to a repair rule existing).
    ``failure``: counts towards the consecutive-failure limit.
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
}


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
    kind: str
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def is_error(self) -> bool:
        return POLICIES[self.kind].is_error


_SERVER_ERROR_WORDS = re.compile(
    r"server error|internal error|internal server|서버 오류|서버 에러", re.I
)


def status_of(exc: BaseException) -> int | None:
    """An HTTP status carried by an exception (``status_code``, ``status``, ``code`` or
    ``response.status_code``), or ``None``."""
    for attr in ("status_code", "status", "code"):
        value = getattr(exc, attr, None)
        if isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 599:
            return value
    response = getattr(exc, "response", None)
    value = getattr(response, "status_code", None)
    if isinstance(value, int) and 100 <= value <= 599:
        return value
    return None


def classify_exception(exc: BaseException) -> tuple[str, str]:
    """Map an exception from a tool body to ``(kind, reason)``; rules from seed 004.

    * a ``kind`` attribute of ``"transient"`` / ``"permission"`` wins (duck-typed, so tool modules
      need not import the playground);
    * HTTP status: 429 and 5xx → transient; 401 and 403 → permission, except a 403 whose message
      says it is a server error → transient;
    * ``TimeoutError``, ``ConnectionError`` → transient; ``PermissionError`` → permission;
    * anything else → raised.
    ``reason`` is the exception type name, or ``http_<status>``. An exception whose attributes
    or message raise when read is ``raised`` (never an error here).
    """
    try:
        return _classify(exc)
    except Exception:  # a hostile exception object: a property or __str__ that raises
        return RAISED, type(exc).__name__


def _classify(exc: BaseException) -> tuple[str, str]:
    name = type(exc).__name__
    declared = getattr(exc, "kind", None)
    if declared in (TRANSIENT, PERMISSION):
        return declared, name
    status = status_of(exc)
    if status is not None:
        if status == 429 or status >= 500:
            return TRANSIENT, f"http_{status}"
        if status in (401, 403):
            if status == 403 and _SERVER_ERROR_WORDS.search(str(exc)):
                return TRANSIENT, "http_403_server"
            return PERMISSION, f"http_{status}"
    if isinstance(exc, (TimeoutError, ConnectionError)):
        return TRANSIENT, name
    if isinstance(exc, PermissionError):
        return PERMISSION, name
    return RAISED, name


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


def permission_message(tool: str, detail: str) -> str:
    """Model-facing text for a permission failure: do not retry, report (seed 004)."""
    return (
        f"{tool} was refused: not allowed ({detail}). Retrying will not help; do not retry. "
        "Report to the user that this action is not permitted for them."
    )


def declared_kind(exc: BaseException) -> str | None:
    """The ``kind`` attribute an exception declares, or ``None`` (also when reading it raises)."""
    try:
        kind = getattr(exc, "kind", None)
    except Exception:  # a hostile property
        return None
    return kind if isinstance(kind, str) else None


def server_refused_message(tool: str, detail: str) -> str:
    """Model-facing text when the tool's server refused the arguments (an MCP server's JSON-RPC
    invalid-params error): its message, and to fix the arguments (seed 004: input errors)."""
    return (
        f"{tool} refused these arguments ({detail}). Fix the arguments as the message says and "
        f"call {tool} again."
    )


def raised_message(tool: str, detail: str) -> str:
    """Model-facing text for a body that raised: type and message, no traceback."""
    return (
        f"{tool} failed with an error in the tool itself ({detail}). This is not caused by the "
        "arguments; do not retry the same call. Tell the user the lookup failed, or try another tool."
    )


def empty_note(tool: str) -> str:
    """The note added to an empty result (seed 002: '빈 결과에 말을 붙인다')."""
    return (
        f"Nothing matched in {tool}. This is not an error: tell the user nothing was found; "
        "try a broader or different keyword. Do not invent results."
    )
