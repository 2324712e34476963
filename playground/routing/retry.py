"""Retrying a provider request: rate-limit answers honoured, server errors backed off (tenacity).

A provider that answers 429 says how long to wait in ``Retry-After`` (seconds, or an HTTP date;
OpenAI also sends ``retry-after-ms``); a 5xx or a dropped connection is worth a second try after
a growing pause. :func:`send_with_retries` runs one request under that policy with
`tenacity <https://tenacity.readthedocs.io>`_: a :class:`Retryable` failure is tried again (at
most :data:`MAX_ATTEMPTS` times in all), waiting the server's ``Retry-After`` when it gave one,
else an exponential backoff with jitter (0.5 s doubling, at most :data:`MAX_WAIT_S`). Every
other exception passes through at once. The routers' SDKs are built with ``max_retries=0`` so
this is the one retry policy, and the waits are reported (``waits``) instead of hidden.

Nothing here knows a provider: each router turns its SDK's exceptions into :class:`Retryable`.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential_jitter,
)

T = TypeVar("T")

#: Attempts in all (the first one included).
MAX_ATTEMPTS = 5

#: The longest single wait, in seconds (a larger ``Retry-After`` is capped to it).
MAX_WAIT_S = 60.0


class Retryable(Exception):
    """A failure worth another try: ``status`` (HTTP status, 0 for a connection failure),
    ``retry_after_s`` (the server's ``Retry-After`` in seconds, ``None`` when it gave none),
    ``message`` (one line, raised as :class:`~playground.errors.RouterError` after the last try)."""

    def __init__(self, status: int, message: str, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after_s = retry_after_s


def retry_after_seconds(headers: Mapping[str, str] | Any) -> float | None:
    """The wait a response's headers ask for, in seconds: ``retry-after-ms`` / 1000, else
    ``retry-after`` as seconds or as an HTTP date (RFC 9110 §10.2.3); ``None`` when absent or
    unreadable. ``headers``: any mapping with case-insensitive ``get`` (httpx headers)."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    parsed = email.utils.parsedate_to_datetime(value) if value else None
    if parsed is None:
        return None
    return max(0.0, parsed.timestamp() - time.time())


@dataclass
class RetryLog:
    """What the retries of one request did: ``waits`` (seconds slept before each retry, in
    order) and ``reasons`` (the failure each retry followed, one line each)."""

    waits: list[float] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)


def _wait(state: RetryCallState) -> float:
    backoff = wait_exponential_jitter(initial=0.5, max=MAX_WAIT_S, jitter=0.25)
    outcome = state.outcome
    exc = outcome.exception() if outcome is not None else None
    if isinstance(exc, Retryable) and exc.retry_after_s is not None:
        return min(exc.retry_after_s, MAX_WAIT_S)
    return float(backoff(state))


def send_with_retries(
    send: Callable[[], T],
    *,
    attempts: int = MAX_ATTEMPTS,
    sleep: Callable[[float], None] = time.sleep,
    log: RetryLog | None = None,
) -> T:
    """``send()``, tried again while it raises :class:`Retryable` (at most ``attempts`` tries
    in all; waits: the server's ``Retry-After``, else exponential backoff with jitter). Returns
    what ``send`` returns; re-raises the last :class:`Retryable` when every try failed, and any
    other exception at once. ``sleep``: injectable (tests). ``log``: filled with each wait."""

    def before_sleep(state: RetryCallState) -> None:
        if log is None or state.next_action is None:
            return
        outcome = state.outcome
        exc = outcome.exception() if outcome is not None else None
        log.waits.append(float(state.next_action.sleep))
        log.reasons.append(str(exc))

    retrying = Retrying(
        retry=retry_if_exception_type(Retryable),
        stop=stop_after_attempt(max(1, attempts)),
        wait=_wait,
        sleep=sleep,
        reraise=True,
        before_sleep=before_sleep,
    )
    return retrying(send)
