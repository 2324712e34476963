"""Retrying a provider request: rate-limit answers honoured, server errors backed off (tenacity).

A provider that answers 429 says how long to wait in ``Retry-After`` (seconds, or an HTTP date;
OpenAI also sends ``retry-after-ms``); a 5xx or a dropped connection is worth a second try after
a growing pause. :func:`send_with_retries` runs one request under that policy with
`tenacity <https://tenacity.readthedocs.io>`_: a :class:`Retryable` failure is tried again (at
most :data:`MAX_ATTEMPTS` times in all), waiting the server's ``Retry-After`` when it gave one,
else an exponential backoff with jitter (0.5 s doubling, at most :data:`MAX_WAIT_S`), and no
retry once ``total_s`` would be spent (:mod:`playground.routing.time_limits`). Every other
exception passes through at once. The routers' SDKs are built with ``max_retries=0`` so this is
the one retry policy, and the waits are reported instead of hidden: in ``log``, and as each
happens on the ``playground.routing`` logger at INFO (the command line prints it on stderr).

Nothing here knows a provider: each router turns its SDK's exceptions into :class:`Retryable`.
"""

from __future__ import annotations

import email.utils
import logging
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

#: Where each retry is told as it happens (INFO; the command line shows it as ``note:``).
logger = logging.getLogger("playground.routing")

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
    total_s: float | None = None,
    min_try_s: float = 0.0,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """``send()``, tried again while it raises :class:`Retryable` (at most ``attempts`` tries
    in all; waits: the server's ``Retry-After``, else exponential backoff with jitter). Returns
    what ``send`` returns; re-raises the last :class:`Retryable` when every try failed, and any
    other exception at once. ``sleep``: injectable (tests). ``log``: filled with each wait.
    ``total_s``: seconds for every try and wait together (``None``: no bound): no retry starts
    when the wait and ``min_try_s`` more seconds would pass it. Each retry is logged on
    :data:`logger` at INFO before its wait: the failure, the wait, the try and the time left."""
    started = clock()
    tries_spent = stop_after_attempt(max(1, attempts))

    def out_of_time(state: RetryCallState) -> bool:
        if total_s is None:
            return False
        return clock() - started + float(state.upcoming_sleep or 0) + min_try_s > total_s

    def before_sleep(state: RetryCallState) -> None:
        if state.next_action is None:
            return
        outcome = state.outcome
        exc = outcome.exception() if outcome is not None else None
        wait = float(state.next_action.sleep)
        budget = ""
        if total_s is not None:
            left = max(0.0, total_s - (clock() - started))
            budget = f", {left:.0f} s left of {total_s:g} s"
        logger.info(
            "%s; trying again in %.1f s (try %d of at most %d%s)",
            exc,
            wait,
            state.attempt_number + 1,
            attempts,
            budget,
        )
        if log is not None:
            log.waits.append(wait)
            log.reasons.append(str(exc))

    retrying = Retrying(
        retry=retry_if_exception_type(Retryable),
        stop=lambda state: tries_spent(state) or out_of_time(state),
        wait=_wait,
        sleep=sleep,
        reraise=True,
        before_sleep=before_sleep,
    )
    return retrying(send)
