"""Failure kinds from what an HTTP error really carries (issue 11 item 8; docs/design.md "Outcome
kinds"; seed 004).

The exception classes below mimic the attribute shapes of the client libraries without importing
them: OpenAI / Anthropic ``APIStatusError`` (``status_code``, ``response``, ``body``, a message
``"Error code: 403 - {...}"``), google-genai ``APIError`` (``code``, ``status``, ``details``),
httpx ``HTTPStatusError`` and requests ``HTTPError`` (``response.status_code``,
``response.headers``, ``response.text``)."""

from __future__ import annotations

import pytest

from playground.core import outcome as oc


class Headers(dict):
    """A case-insensitive header mapping, as httpx.Headers and requests' CaseInsensitiveDict."""

    def get(self, key, default=None):
        for k, v in self.items():
            if k.lower() == key.lower():
                return v
        return default


class FakeResponse:
    def __init__(self, status_code, headers=None, text=""):
        self.status_code = status_code
        self.headers = Headers(headers or {})
        self.text = text


class OpenAIStatusError(Exception):
    """openai.APIStatusError: message 'Error code: N - {body}', status_code, response, body."""

    def __init__(self, status, body, headers=None):
        super().__init__(f"Error code: {status} - {body}")
        self.status_code = status
        self.response = FakeResponse(status, headers)
        self.body = body.get("error") if isinstance(body, dict) else body
        self.code = self.body.get("code") if isinstance(self.body, dict) else None
        self.type = self.body.get("type") if isinstance(self.body, dict) else None


class AnthropicStatusError(Exception):
    """anthropic.APIStatusError: status_code, response, body {'type': 'error', 'error': {...}}."""

    def __init__(self, status, error_type, message, headers=None):
        body = {"type": "error", "error": {"type": error_type, "message": message}}
        super().__init__(f"Error code: {status} - {body}")
        self.status_code = status
        self.response = FakeResponse(status, headers)
        self.body = body


class GenaiAPIError(Exception):
    """google.genai.errors.APIError: code (int), status (str), message, details (dict)."""

    def __init__(self, code, status, message):
        self.code, self.status, self.message = code, status, message
        self.details = {"error": {"code": code, "status": status, "message": message}}
        super().__init__(f"{code} {status}. {self.details}")


class HttpxStatusError(Exception):
    """httpx.HTTPStatusError: only request/response; the status lives on the response."""

    def __init__(self, status, text="", headers=None):
        super().__init__(f"Client error '{status}' for url 'https://api.example'")
        self.request = object()
        self.response = FakeResponse(status, headers, text)


class RequestsHTTPError(OSError):
    """requests.HTTPError (an IOError subclass): response with status_code, headers, text."""

    def __init__(self, status, text="", headers=None):
        super().__init__(f"{status} Server Error for url: https://api.example")
        self.response = FakeResponse(status, headers, text)


ISSUE_403 = OpenAIStatusError(
    403,
    {
        "error": {
            "message": "The server had an error while processing your request.",
            "type": "server_error",
            "param": None,
            "code": None,
        }
    },
)


@pytest.mark.parametrize(
    "exc, kind, reason",
    [
        # the issue's example: a 403 whose error type says server_error is temporary
        (ISSUE_403, "transient", "http_403_server"),
        (
            OpenAIStatusError(
                403,
                {
                    "error": {
                        "type": "invalid_request_error",
                        "message": "Project does not have access",
                    }
                },
            ),
            "permission",
            "http_403",
        ),
        (
            OpenAIStatusError(401, {"error": {"type": "server_error", "message": "x"}}),
            "transient",
            "http_401_server",
        ),
        (
            OpenAIStatusError(
                401, {"error": {"type": "invalid_api_key", "message": "Incorrect API key"}}
            ),
            "permission",
            "http_401",
        ),
        (
            AnthropicStatusError(403, "permission_error", "Your API key does not have permission"),
            "permission",
            "http_403",
        ),
        (
            AnthropicStatusError(403, "api_error", "An unexpected error"),
            "transient",
            "http_403_server",
        ),
        (AnthropicStatusError(529, "overloaded_error", "Overloaded"), "transient", "http_529"),
        (GenaiAPIError(403, "PERMISSION_DENIED", "denied"), "permission", "http_403"),
        (GenaiAPIError(503, "UNAVAILABLE", "The model is overloaded"), "transient", "http_503"),
        (
            HttpxStatusError(403, text='{"error": {"type": "server_error"}}'),
            "transient",
            "http_403_server",
        ),
        (HttpxStatusError(403, text="Forbidden"), "permission", "http_403"),
        (
            RequestsHTTPError(403, text="<h1>Internal Server Error</h1>"),
            "transient",
            "http_403_server",
        ),
        (RequestsHTTPError(404, text="not found"), "raised", "RequestsHTTPError"),
        (HttpxStatusError(408), "transient", "http_408"),
        (HttpxStatusError(409), "transient", "http_409"),
        (HttpxStatusError(425), "transient", "http_425"),
        (HttpxStatusError(429), "transient", "http_429"),
        (RequestsHTTPError(500), "transient", "http_500"),
        (RequestsHTTPError(502), "transient", "http_502"),
    ],
)
def test_http_errors_are_classified_from_status_type_and_body(exc, kind, reason):
    assert oc.classify_exception(exc) == (kind, reason)


def test_status_comes_from_any_of_the_library_shapes():
    assert oc.status_of(ISSUE_403) == 403
    assert oc.status_of(GenaiAPIError(429, "RESOURCE_EXHAUSTED", "quota")) == 429
    assert oc.status_of(HttpxStatusError(502)) == 502
    assert oc.status_of(ValueError("no status")) is None


def test_server_error_spellings():
    for text in (
        "server_error",
        '"type": "server_error"',
        "The server had an error",
        "Server Error",
        "서버 오류",
    ):
        assert oc.says_server_error(Exception(text)), text
    assert not oc.says_server_error(Exception("forbidden: no access to this project"))


def test_a_status_name_without_a_number():
    class Grpc(Exception):
        status = "UNAVAILABLE"

    assert oc.classify_exception(Grpc("down")) == ("transient", "UNAVAILABLE")


@pytest.mark.parametrize(
    "headers, seconds",
    [
        ({"Retry-After": "7"}, 7.0),
        ({"retry-after": "1.5"}, 1.5),
        ({"retry-after-ms": "250"}, 0.25),
        ({"Retry-After": "Wed, 21 Oct 2026 07:28:10 GMT"}, 10.0),
        ({"Retry-After": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after_header(headers, seconds):
    exc = HttpxStatusError(429, headers=headers)
    now = 1792567680.0  # Wed, 21 Oct 2026 07:28:00 GMT
    assert oc.retry_after_of(exc, now=now) == seconds
    if seconds is not None and "GMT" not in str(headers):
        assert oc.classify_failure(exc).retry_after_s == seconds


GATE_TOOLS = '''
class RateLimited(Exception):
    def __init__(self, wait):
        super().__init__("Error code: 429 - rate limited")
        self.status_code = 429
        self.response = type("R", (), {"status_code": 429, "headers": {"Retry-After": wait}})()

class OpenAI403(Exception):
    status_code = 403
    body = {"type": "server_error", "message": "The server had an error"}

STATE = {"n": 0}

def limited(wait: str) -> dict:
    """Fails twice with 429 and a Retry-After header, then answers."""
    STATE["n"] += 1
    if STATE["n"] <= 2:
        raise RateLimited(wait)
    return {"ok": STATE["n"]}

def server403(q: str) -> dict:
    """Always a 403 that says server_error."""
    raise OpenAI403("Error code: 403 - {'error': {'type': 'server_error', ...}}")

__tools__ = [limited, server403]
__contracts__ = {"limited": {"side_effects": False}, "server403": {"side_effects": False}}
'''


def test_gate_waits_as_long_as_retry_after_says(make_gate, fake_sleep):
    gate = make_gate(GATE_TOOLS)
    record = gate.call("limited", {"wait": "3"})
    assert record.kind == "ok" and record.value == {"ok": 3}
    assert fake_sleep.delays == [3.0, 3.0]
    assert [r.delay_ms for r in record.retries] == [3000.0, 3000.0]


def test_retry_after_is_bounded_by_the_time_limit(make_gate, fake_sleep):
    gate = make_gate(GATE_TOOLS)
    gate.call("limited", {"wait": "3600"})
    assert fake_sleep.delays and max(fake_sleep.delays) <= gate.retry.total_s


def test_gate_retries_a_403_that_says_server_error(make_gate, fake_sleep):
    gate = make_gate(GATE_TOOLS)
    record = gate.call("server403", {"q": "x"})
    assert record.kind == "transient" and record.error == "transient:http_403_server"
    assert len(record.retries) == 2 and gate.body_runs["server403"] == 3
