"""Tools that misbehave on purpose: one tool per outcome kind, to try each by hand.

Plain Python (standard library only), importable without the playground package. The gate
classifies what a body raises (docs/design.md, "Outcome kinds"; seed 004): by a ``kind`` attribute
on the exception, by an HTTP ``status_code`` attribute (429/5xx transient, 401/403 permission,
except a 403 whose message says it is a server error), by ``PermissionError`` /
``TimeoutError`` / ``ConnectionError``, else ``raised``. The exception classes below carry
those signals without importing the playground.

| tool               | what happens                                        | expected kind |
|--------------------|-----------------------------------------------------|---------------|
| ``slow_lookup``    | sleeps ``SLOW_SECONDS`` (3 s), past its 1 s limit   | transient     |
| ``flaky_lookup``   | ``TransientToolError`` the first ``failures`` calls per item, then succeeds | ok after retries |
| ``forbidden_lookup`` | ``PermissionError``                               | permission    |
| ``empty_search``   | a valid result with no rows and a note              | empty         |
| ``broken_lookup``  | ``KeyError`` (a bug in the body)                    | raised        |
| ``http_lookup``    | ``HttpStatusError`` with ``status_code=status``     | by status     |

State: ``flaky_lookup`` counts calls per ``item_id`` in a module-level ``Counter``. That is
deliberate -- this is user code simulating a flaky upstream, not playground code -- and it is
guarded by a lock because the gate may run bodies in worker threads. ``reset_flaky()`` clears
it (tests call it; so can a user between experiments). Each import of the file (the registry
imports a fresh module per load) starts with an empty counter.
"""

import threading
import time
from collections import Counter

__demo__ = True  # a demo of faults: the TUI does not open on these tools (see the README)

SLOW_SECONDS = 3.0  # slow_lookup's sleep; its contract allows 1.0 s


class TransientToolError(Exception):
    """A temporary upstream failure; retrying later may succeed (kind ``transient``)."""

    kind = "transient"


class HttpStatusError(Exception):
    """An HTTP error from an upstream API; ``status_code`` is the HTTP status (e.g. 503)."""

    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(message)
        self.status_code = status_code


_calls: Counter = Counter()
_calls_lock = threading.Lock()


def reset_flaky() -> None:
    """Forget how many times ``flaky_lookup`` was called for each item."""
    with _calls_lock:
        _calls.clear()


def slow_lookup(item_id: str) -> dict:
    """Look up an item in a slow upstream service. Takes about 3 seconds, longer than its 1 second limit.
    Use it to see a timeout. Do not use it for real lookups.

    Args:
        item_id: item id. e.g. "A-100"
    """
    time.sleep(SLOW_SECONDS)
    return {"item_id": item_id, "found": True, "source": "slow upstream"}


def flaky_lookup(item_id: str, failures: int = 2) -> dict:
    """Look up an item in an unreliable upstream service that fails temporarily before it answers.
    The first `failures` calls for the same item_id fail with a transient error; later calls succeed.
    Use it to see retries with backoff. Do not use it for real lookups.

    Args:
        item_id: item id. e.g. "A-100"
        failures: how many calls for this item_id fail before one succeeds. 0 means never fail. e.g. 2
    """
    with _calls_lock:
        _calls[item_id] += 1
        attempt = _calls[item_id]
    if attempt <= failures:
        raise TransientToolError(
            f"upstream temporarily unavailable for {item_id} (call {attempt}; the first {failures} calls fail). "
            "Retry later."
        )
    return {"item_id": item_id, "found": True, "calls_so_far": attempt}


def forbidden_lookup(item_id: str) -> dict:
    """Look up an item the configured API key may not read. Always fails with a permission error.
    Use it to see a permission failure (no retry). Do not use it for real lookups.

    Args:
        item_id: item id. e.g. "A-100"
    """
    raise PermissionError(
        f"the API key in use may not read item {item_id} (access denied). Retrying will not help; "
        "ask an administrator for access."
    )


def empty_search(keyword: str) -> dict:
    """Search a catalogue that has nothing in it. Always returns no rows, with a note.
    Use it to see an empty (not failed) result. Do not use it for real searches.

    Args:
        keyword: search words. e.g. "keyboard"
    """
    return {
        "keyword": keyword,
        "rows": [],
        "note": "조건에 맞는 항목이 없습니다. 다른 검색어로 다시 찾아보세요 (nothing matched; try other words).",
    }


def padded_search(keyword: str, limit: int = 10) -> dict:
    """Search a catalogue whose body ignores `limit` and always returns 8 rows, more than the 5
    its contract allows. Every smaller limit the repair loop tries fails the same way, so three
    identical failures in a row stop the episode. Do not use it for real searches.

    Args:
        keyword: search words. e.g. "keyboard"
        limit: how many rows to return at most. Leave it out to get the default (10).
    """
    return {
        "keyword": keyword,
        "rows": [{"item_id": f"A-{100 + i}", "name": f"{keyword} {i}"} for i in range(8)],
    }


def broken_lookup(item_id: str) -> dict:
    """Look up an item's price with a buggy body that reads a field the record does not have.
    Always raises KeyError. Use it to see an unexpected exception. Do not use it for real lookups.

    Args:
        item_id: item id. e.g. "A-100"
    """
    record = {"item_id": item_id, "name": "sample item"}
    return {"item_id": item_id, "price": record["price"]}  # the bug: no "price" key


_HTTP_MESSAGES = {
    401: "401 Unauthorized: the API key is missing or expired.",
    403: "403 Forbidden: the API key in use may not read item {item_id}.",
    429: "429 Too Many Requests: rate limit exceeded; retry after a short wait.",
    500: "500 Internal Server Error: the upstream service failed while reading item {item_id}.",
    502: "502 Bad Gateway: the upstream service did not answer the gateway.",
    503: "503 Service Unavailable: the upstream service is down for maintenance.",
    504: "504 Gateway Timeout: the upstream service took too long to answer.",
}


def http_lookup(item_id: str, status: int = 503, server_error: bool = False) -> dict:
    """Look up an item through an HTTP API that answers with the given status code.
    A 2xx status returns the item; any other status raises an error carrying that status_code.
    Use it to try 429, 500, 503 (temporary) and 401, 403 (permission) by hand. Do not use it for real lookups.

    Args:
        item_id: item id. e.g. "A-100"
        status: the HTTP status code the API answers with. e.g. 503, 429, 500, 401, 403, 200
        server_error: only with status 403: the 403 comes with a message saying it is a server error. e.g. true
    """
    if 200 <= status < 300:
        return {"item_id": item_id, "found": True, "http_status": status}
    if status == 403 and server_error:
        message = (
            "403 Forbidden (server error): the upstream gateway failed internally and answered 403; "
            "this is a server error, not a permission problem. Retry later."
        )
    else:
        message = _HTTP_MESSAGES.get(
            status, f"{status} HTTP error from the upstream service."
        ).format(item_id=item_id)
    raise HttpStatusError(status, message)


__tools__ = [
    slow_lookup,
    flaky_lookup,
    forbidden_lookup,
    empty_search,
    padded_search,
    broken_lookup,
    http_lookup,
]

_ITEM = {
    "type": "object",
    "properties": {"item_id": {"type": "string"}, "found": {"type": "boolean"}},
    "required": ["item_id", "found"],
}

__contracts__ = {
    "padded_search": {
        "returns": {
            "type": "object",
            "properties": {
                "keyword": {"type": "string"},
                "rows": {"type": "array", "items": {"type": "object"}},
            },
            "required": ["keyword", "rows"],
            "max_rows": 5,
            "rows_key": "rows",
        },
        "cacheable": False,
    },
    "slow_lookup": {"returns": _ITEM, "timeout_s": 1.0, "cacheable": False, "side_effects": False},
    "flaky_lookup": {"returns": _ITEM, "timeout_s": 2.0, "cacheable": False, "side_effects": False},
    "forbidden_lookup": {
        "returns": _ITEM,
        "timeout_s": 2.0,
        "cacheable": False,
        "side_effects": False,
    },
    "empty_search": {
        "returns": {
            "type": "object",
            "properties": {
                "keyword": {"type": "string"},
                "rows": {"type": "array", "items": {"type": "object"}},
                "note": {"type": "string"},
            },
            "required": ["keyword", "rows"],
            "max_rows": 5,
            "rows_key": "rows",
        },
        "timeout_s": 2.0,
        "cacheable": True,
        "side_effects": False,
    },
    "broken_lookup": {
        "returns": _ITEM,
        "timeout_s": 2.0,
        "cacheable": False,
        "side_effects": False,
    },
    "http_lookup": {"returns": _ITEM, "timeout_s": 2.0, "cacheable": False, "side_effects": False},
}
