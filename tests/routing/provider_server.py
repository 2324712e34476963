"""A local HTTP server speaking three providers' APIs with canned answers (stdlib only).

Run: ``python provider_server.py [--delay-ms N] [--log FILE]``; prints ``PORT <n>`` on its first
line, then serves on 127.0.0.1 until killed. Endpoints (shapes from the providers' documented
examples):

* ``POST /v1/responses`` — OpenAI Responses API: a ``reasoning`` item (with
  ``encrypted_content``) before ``function_call`` items (``call_id``, ``arguments`` as a JSON
  string), or a ``message`` item with ``output_text``; ``usage.input_tokens/output_tokens``.
* ``POST /v1/chat/completions`` — Chat Completions: ``choices[0].message.tool_calls`` with
  ``finish_reason: "tool_calls"``, or ``content``; ``usage.prompt_tokens/completion_tokens``.
* ``POST /v1/messages`` — Anthropic Messages API: a ``thinking`` block with a ``signature``,
  ``text`` and ``tool_use`` blocks, ``stop_reason: "tool_use"``; or a ``text`` block.

Which answer a question gets (markers in the question text):

* after a tool result: a text answer quoting the result;
* ``[text]``: a text answer; ``[parallel]``: two calls of the chosen tool in one turn;
* ``[malformed]``: the arguments string is not JSON (OpenAI APIs);
* ``[500]``: HTTP 500 every time; ``[429]``: HTTP 429 with ``Retry-After: 1`` on the first two
  requests for that question, then the normal answer; ``[429fast]``: the same with
  ``Retry-After: 0``;
* ``[flaky]``: a call on the 1st, 3rd, ... request for that question, a text answer on the
  others (a model that changes its mind between runs);
* ``[ignore-choice]``: a text answer even when ``tool_choice`` asks for a call (the quirk of
  some local servers);
* otherwise a call of the tool whose name and description share the most character bigrams with
  the question (no tool when none shares more than two), its required string parameters filled
  with the first token holding a digit and its integer parameters with the first number.

``--log FILE``: every request body is appended to FILE as one JSON line (``{"path", "body"}``).
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SIGNATURE = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"
ENCRYPTED = "gAAAAABoISQ24OyVRYbkYfukdsCC3rrcYz2JLzkjgn4fC"

_counts: dict[str, int] = {}
_lock = threading.Lock()


@functools.lru_cache(maxsize=4096)
def _bigrams(text: str) -> frozenset[str]:
    words = re.findall(r"\w+", text.lower().replace("_", " "))
    return frozenset(w[i : i + 2] for w in words for i in range(len(w) - 1))


def choose(question: str, tools: list[dict[str, Any]]) -> tuple[str, dict[str, Any]] | None:
    """The tool a question calls and its arguments, or ``None`` (a text answer)."""
    asked = _bigrams(question)
    best, score = None, 2
    for tool in tools:
        words = _bigrams(f"{tool['name']} {tool.get('description') or ''}")
        overlap = len(asked & words)
        if overlap > score:
            best, score = tool, overlap
    if best is None:
        return None
    schema = best.get("parameters") or best.get("input_schema") or {}
    props = schema.get("properties") or {}
    args: dict[str, Any] = {}
    ids = re.findall(r"[A-Za-z0-9-]*\d[A-Za-z0-9-]*", question)
    numbers = re.findall(r"\b\d+\b", question)
    for name in schema.get("required") or []:
        kind = (props.get(name) or {}).get("type")
        if kind == "integer" and numbers:
            args[name] = int(numbers[0])
        elif kind == "string" and ids:
            args[name] = ids[0]
    return best["name"], args


def _tools(body: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for tool in body.get("tools") or []:
        out.append(tool.get("function", tool))  # chat: {"function": {...}}; others flat
    return out


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the SDKs reuse their connections
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms delayed ACK
    delay_s = 0.0
    log_path = ""

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/v1/models":  # OpenAI "List models"
            self._send(
                200,
                {
                    "object": "list",
                    "data": [
                        {"id": "canned-model", "object": "model", "created": 0, "owned_by": "test"}
                    ],
                },
            )
        else:
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        path = self.path.split("?")[0]
        if self.log_path:
            with _lock, open(self.log_path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"path": path, "body": body}, ensure_ascii=False) + "\n")
        if self.delay_s:
            time.sleep(self.delay_s)
        api = {
            "/v1/responses": "responses",
            "/v1/chat/completions": "chat",
            "/v1/messages": "anthropic",
        }.get(path)
        if api is None:
            self._send(404, {"error": {"message": f"no route {path}", "type": "not_found"}})
            return
        question, answered = _last_question(api, body)
        if "[500]" in question and not answered:
            self._send(500, _error(api, "internal server error", "server_error"))
            return
        for marker, wait in (("[429]", "1"), ("[429fast]", "0")):
            if marker in question and not answered:
                with _lock:
                    _counts[question] = _counts.get(question, 0) + 1
                    n = _counts[question]
                if n <= 2:
                    self._send(
                        429,
                        _error(api, "Rate limit reached; try again later", "rate_limit_error"),
                        {"retry-after": wait},
                    )
                    return
        self._send(200, answer(api, body, question, answered))


def _error(api: str, message: str, kind: str) -> dict[str, Any]:
    if api == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "code": None}}


def _last_question(api: str, body: dict[str, Any]) -> tuple[str, str | None]:
    """(the last user question, the last tool result's text when it came after it)."""
    question, answered = "", None
    if api == "responses":
        for item in body.get("input") or []:
            if item.get("role") == "user":
                question, answered = str(item.get("content")), None
            elif item.get("type") == "function_call_output":
                answered = str(item.get("output"))
    elif api == "chat":
        for message in body.get("messages") or []:
            if message.get("role") == "user":
                question, answered = str(message.get("content")), None
            elif message.get("role") == "tool":
                answered = str(message.get("content"))
    else:
        for message in body.get("messages") or []:
            content = message.get("content")
            if message.get("role") != "user":
                continue
            if isinstance(content, str):
                question, answered = content, None
            else:
                results = [b for b in content if b.get("type") == "tool_result"]
                if results:
                    answered = str(results[-1].get("content"))
    return question, answered


def answer(api: str, body: dict[str, Any], question: str, answered: str | None) -> dict[str, Any]:
    """The canned 200 answer."""
    model = body.get("model", "test-model")
    tools = _tools(body)
    picked = None
    flip = False
    if "[flaky]" in question and answered is None:
        with _lock:
            _counts[question] = _counts.get(question, 0) + 1
            flip = _counts[question] % 2 == 0
    if (
        answered is None
        and not flip
        and "[text]" not in question
        and "[ignore-choice]" not in question
    ):
        picked = choose(question, tools)
    text = f"Done: {answered}" if answered is not None else "I can answer without a tool."
    calls: list[tuple[str, str, str]] = []  # (id, name, arguments JSON)
    if picked is not None:
        name, args = picked
        arguments = json.dumps(args, ensure_ascii=False)
        if "[malformed]" in question:
            arguments = '{"order_id": "HR1'  # cut short: not JSON
        calls.append(("call_1", name, arguments))
        if "[parallel]" in question:
            calls.append(("call_2", name, arguments))
    tokens_in = 20 + len(json.dumps(body, separators=(",", ":"))) // 40
    if api == "responses":
        output: list[dict[str, Any]] = [
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": ENCRYPTED}
        ]
        for i, (cid, name, arguments) in enumerate(calls, start=1):
            output.append(
                {
                    "type": "function_call",
                    "id": f"fc_{i}",
                    "call_id": cid,
                    "name": name,
                    "arguments": arguments,
                    "status": "completed",
                }
            )
        if not calls:
            output.append(
                {
                    "type": "message",
                    "id": "msg_1",
                    "status": "completed",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": text, "annotations": []}],
                }
            )
        return {
            "id": "resp_1",
            "object": "response",
            "created_at": 1741476542,
            "status": "completed",
            "model": model,
            "output": output,
            "usage": {
                "input_tokens": tokens_in,
                "output_tokens": 17,
                "total_tokens": tokens_in + 17,
            },
        }
    if api == "chat":
        message: dict[str, Any] = {"role": "assistant", "content": None if calls else text}
        if calls:
            message["tool_calls"] = [
                {"id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}
                for cid, name, arguments in calls
            ]
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1741570283,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if calls else "stop",
                }
            ],
            "usage": {
                "prompt_tokens": tokens_in,
                "completion_tokens": 17,
                "total_tokens": tokens_in + 17,
            },
        }
    content: list[dict[str, Any]] = [
        {"type": "thinking", "thinking": "The user wants a tool.", "signature": SIGNATURE}
    ]
    for cid, name, arguments in calls:
        content.append(
            {"type": "tool_use", "id": f"toolu_{cid}", "name": name, "input": json.loads(arguments)}
            if arguments.endswith("}")
            else {"type": "tool_use", "id": f"toolu_{cid}", "name": name, "input": {}}
        )
    if not calls:
        content.append({"type": "text", "text": text})
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": tokens_in, "output_tokens": 17},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay-ms", type=float, default=0.0)
    parser.add_argument("--log", default="")
    options = parser.parse_args()
    Handler.delay_s = options.delay_ms / 1000
    Handler.log_path = options.log
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
