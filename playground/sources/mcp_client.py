"""The client side of MCP that a tool test needs (issue 21, item 6): roots, elicitation and
sampling, as the callbacks a ``ClientSession`` takes.

* Roots (``roots/list``): the folders given with ``--root DIR`` (repeatable), as ``file://``
  URIs (MCP spec 2025-11-25, "Client features: roots"). Without ``--root`` the client does not
  declare the roots capability: a server that reads roots replaces the folders it was started
  with by them (the reference filesystem server does), so offering the working directory
  unasked changed what the server under test allows.
* Elicitation (``elicitation/create``): answered from the ``--elicit FILE`` JSON —
  ``{"action": "accept" | "decline" | "cancel", "content": {...}}`` or just the content object
  (accepted) — after checking the content against the request's ``requestedSchema`` with
  jsonschema; without a file, or when the content does not fit, the request is declined. In
  the TUI an ``elicitor`` (a form built from ``requestedSchema``) answers instead. Each
  request and its answer become a note (:attr:`ClientFeatures.notes`).
* Sampling (``sampling/createMessage``): answered by the ``sampler`` the command sets (the
  selected router: :mod:`playground.routing.sampling`), run in a thread so the connection keeps
  reading; with no sampler, or when it raises :class:`SamplingRefused`, refused with a JSON-RPC
  error whose message says why. Each request and its answer (or refusal) is an exchange
  (``on_exchange``) and a note.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playground.sources.mcp_config import McpServerSpec

#: What answers ``sampling/createMessage``: the request's params as JSON (by alias) in, the
#: ``CreateMessageResult`` as JSON out; raises :class:`SamplingRefused`. An optional
#: ``label`` attribute names it (``router openai (model gpt-5-mini)``).
Sampler = Callable[[dict[str, Any]], dict[str, Any]]

#: What answers ``elicitation/create`` for a person (the TUI's form): ``(message,
#: requestedSchema)`` in, ``{"action": "accept" | "decline" | "cancel", "content": {...}}`` out;
#: called in a thread of its own, it may block until the person answers.
Elicitor = Callable[[str, Any], dict[str, Any]]

#: Why sampling is refused when the command selected no router that could answer.
NO_SAMPLER = (
    "no model router answers for this command (call, check and probe select none); use ask "
    "or eval with --router openai, anthropic, gemini or openai-compatible, or pick one of "
    "those routers in the TUI"
)


class SamplingRefused(Exception):
    """A sampler cannot answer this request; the message (one line) goes to the server."""


@dataclass
class ClientFeatures:
    """The callbacks for one server. ``spec``: its roots and elicitation answers. ``note``:
    called with one line per server request answered (for the record and the MCP log).
    ``sampler``: returns the current :data:`Sampler` or ``None`` (read at each request, so a
    router chosen later answers). ``on_exchange``: called with ``{"method", "request",
    "answer" | "refused", "by"}`` for each sampling request. ``elicitor``: returns the current
    :data:`Elicitor` or ``None``. ``on_wait(True)`` / ``on_wait(False)``: a person is being
    asked (the call's time limit waits) / has answered."""

    spec: McpServerSpec
    note: Callable[[str], None] = print
    notes: list[str] = field(default_factory=list)
    sampler: Callable[[], Sampler | None] = lambda: None
    on_exchange: Callable[[dict[str, Any]], None] = lambda exchange: None
    elicitor: Callable[[], Elicitor | None] = lambda: None
    on_wait: Callable[[bool], None] = lambda waiting: None

    def root_folders(self) -> list[str]:
        """The folders offered as roots: the ``--root`` values (none: no roots capability)."""
        return list(self.spec.roots)

    def _say(self, text: str) -> None:
        self.notes.append(text)
        self.note(text)

    async def list_roots(self, context: Any) -> Any:
        import mcp.types as types

        roots = [
            types.Root.model_validate(
                {"uri": Path(folder).as_uri(), "name": Path(folder).name or folder}
            )
            for folder in self.root_folders()
        ]
        return types.ListRootsResult(roots=roots)

    async def elicit(self, context: Any, params: Any) -> Any:
        """``elicitation/create``: answered by the ``elicitor`` (the TUI's form) when one is
        set, else from ``--elicit FILE``, else declined; accepted content must fit the
        request's ``requestedSchema``."""
        import mcp.types as types

        message = str(getattr(params, "message", "") or "")
        schema = getattr(params, "requested_schema", None)
        asked = f"the server asked for input (elicitation: {message[:200]!r})"
        elicitor = self.elicitor()
        if elicitor is not None:
            self.on_wait(True)  # the user's time is not the server's: the limit waits
            try:
                answer: Any = await asyncio.to_thread(elicitor, message, schema)
            finally:
                self.on_wait(False)
            where = "the form"
        elif not self.spec.elicit_file:
            self._say(f"{asked}; declined: no --elicit FILE gives an answer")
            return types.ElicitResult(action="decline")
        else:
            from playground.core.json_files import read_json_file

            try:  # read again at each request (edited meanwhile); bounded in size and depth
                answer = read_json_file(self.spec.elicit_file)
            except ValueError as exc:  # JsonInputError: one line
                self._say(f"{asked}; declined: --elicit {self.spec.elicit_file} unreadable ({exc})")
                return types.ElicitResult(action="decline")
            where = f"--elicit {self.spec.elicit_file}"
        if isinstance(answer, dict) and answer.get("action") in ("accept", "decline", "cancel"):
            action, content = answer["action"], answer.get("content")
        else:
            action, content = "accept", answer
        if action == "accept":
            problem = _schema_problem(schema, content)
            if problem:
                self._say(f"{asked}; declined: the content from {where} {problem}")
                return types.ElicitResult(action="decline")
            self._say(f"{asked}; accepted with {json.dumps(content, ensure_ascii=False)[:200]}")
            return types.ElicitResult(action="accept", content=content)
        self._say(f"{asked}; answered {action} (from {where})")
        return types.ElicitResult(action=action)

    async def sample(self, context: Any, params: Any) -> Any:
        """``sampling/createMessage``: the sampler's answer, or an error saying why not."""
        import mcp.types as types

        request = params.model_dump(mode="json", by_alias=True, exclude_none=True)
        exchange: dict[str, Any] = {"method": "sampling/createMessage", "request": request}
        sampler = self.sampler()
        if sampler is None:
            return self._refuse(exchange, NO_SAMPLER)
        exchange["by"] = str(getattr(sampler, "label", "") or "")
        try:
            answer = await asyncio.to_thread(sampler, request)
            result = types.CreateMessageResult.model_validate(answer)
        except SamplingRefused as exc:
            return self._refuse(exchange, str(exc))
        except Exception as exc:  # a sampler that breaks is a refusal, never a crash
            return self._refuse(exchange, f"{type(exc).__name__}: {exc}")
        exchange["answer"] = answer
        self.on_exchange(exchange)
        text = answer.get("content", {}).get("text", "")
        self._say(
            f"the server asked for a model completion (sampling/createMessage); answered by "
            f"{exchange['by'] or 'the router'}: {str(text)[:200]!r}"
        )
        return result

    def _refuse(self, exchange: dict[str, Any], why: str) -> Any:
        import mcp.types as types

        text = f"sampling/createMessage refused: {why}"
        exchange["refused"] = text
        self.on_exchange(exchange)
        self._say(f"the server asked for a model completion; {text}")
        return types.ErrorData(code=types.INVALID_REQUEST, message=text)


def _schema_problem(schema: Any, content: Any) -> str:
    """``""`` when ``content`` fits ``schema`` (jsonschema), else why not (one line)."""
    if not isinstance(content, dict):
        return "is not an object"
    if not isinstance(schema, dict):
        return ""
    import jsonschema

    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema).iter_errors(content)
    )
    if error is None:
        return ""
    where = "/".join(str(p) for p in error.absolute_path) or "(root)"
    return f"does not fit the requested schema at {where}: {error.message}"
