"""Capture the exact HTTP request an SDK sends, without sending it.

:class:`CapturingTransport` is an ``httpx2`` transport (google-genai 3.6 talks through
``httpx2``; a client built on it is given to the SDK with
``types.HttpOptions(httpx_client=...)``). It records each request -- method, URL with the key
redacted, headers with the key redacted, JSON body -- and answers ``200 {}`` so the SDK returns
normally without touching the network. Because the SDK itself builds the request, the captured
body is exactly what it would send (field names, casing, thought signatures), not a
reconstruction; it also works without a real key (give the SDK a placeholder such as
:data:`PLACEHOLDER_KEY`).

Korean text: the SDK serialises with ``json.dumps`` (``\\uXXXX`` escapes); the captured body is
parsed back, so strings hold the Hangul as is and print unescaped with ``ensure_ascii=False``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx2

from playground.core.redaction import REDACTED, redact_url

#: The key given to the SDK for a dry run; never a real key.
PLACEHOLDER_KEY = "DRY-RUN"

#: Header names (lower case) that carry credentials.
SECRET_HEADERS = frozenset({"x-goog-api-key", "x-api-key", "authorization", "proxy-authorization"})


def redact_headers(headers: Any) -> dict[str, str]:
    """Headers as a plain dict (lower-case names) with credential values ``[redacted]``
    (:data:`playground.core.redaction.REDACTED`)."""
    return {
        str(k).lower(): (REDACTED if str(k).lower() in SECRET_HEADERS else str(v))
        for k, v in dict(headers).items()
    }


@dataclass(frozen=True)
class CapturedRequest:
    """One request as the SDK built it.

    ``method``: ``"POST"``. ``url``: full URL, credentials redacted. ``headers``: lower-case
    names, credentials redacted. ``body``: the parsed JSON body (``None`` when empty; the raw
    text when it is not JSON).
    """

    method: str
    url: str
    headers: dict[str, str]
    body: Any

    def to_json(self) -> dict[str, Any]:
        """``{"method", "url", "headers", "body"}``: JSON-serialisable."""
        return {"method": self.method, "url": self.url, "headers": self.headers, "body": self.body}


@dataclass
class CapturingTransport(httpx2.BaseTransport):
    """An ``httpx2`` transport that records requests and answers ``response_json`` (200).

    ``requests``: every request seen, in order. ``response_json``: the canned answer, ``{}`` by
    default (an empty ``GenerateContentResponse``). Never opens a socket.
    """

    response_json: Any = field(default_factory=dict)
    requests: list[CapturedRequest] = field(default_factory=list)

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        content = request.read()
        body: Any = None
        if content:
            text = content.decode("utf-8", errors="replace")
            try:
                body = json.loads(text)
            except json.JSONDecodeError:
                body = text
        self.requests.append(
            CapturedRequest(
                method=request.method,
                url=redact_url(str(request.url)),
                headers=redact_headers(request.headers),
                body=body,
            )
        )
        return httpx2.Response(200, json=self.response_json, request=request)

    @property
    def last(self) -> CapturedRequest | None:
        """The most recent request, or ``None`` when nothing was sent."""
        return self.requests[-1] if self.requests else None


def capturing_client() -> tuple[httpx2.Client, CapturingTransport]:
    """A fresh ``(httpx2.Client, transport)`` pair; give the client to the SDK."""
    transport = CapturingTransport()
    return httpx2.Client(transport=transport), transport


def dry_run_request(
    send: Callable[[httpx2.Client], object], *, answer_may_fail: bool = False
) -> dict[str, Any]:
    """The request ``send`` makes, captured and never sent: ``send`` builds the SDK's client
    on the given HTTP client (with :data:`PLACEHOLDER_KEY`) and makes one call. Returns
    :meth:`CapturedRequest.to_json` (``{"method", "url", "headers", "body"}``, key redacted);
    the HTTP client is closed either way.

    ``answer_may_fail``: the canned ``200 {}`` may not parse for this SDK, so an error raised
    once the request was captured is not an error of the dry run; one raised before is a
    :class:`~playground.errors.RouterError` ("the SDK refused the request: ..."). Without it,
    what ``send`` raises propagates. Raises ``RouterError`` when ``send`` made no request."""
    from playground.errors import RouterError

    http_client, transport = capturing_client()
    try:
        try:
            send(http_client)
        except Exception as exc:
            if not answer_may_fail:
                raise
            if transport.last is None:
                raise RouterError(f"the SDK refused the request: {exc}") from None
    finally:
        http_client.close()
    captured = transport.last
    if captured is None:  # pragma: no cover - the SDKs always send one request
        raise RouterError("the SDK sent no request during the dry run")
    return captured.to_json()
