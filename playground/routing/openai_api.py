"""The OpenAI router: a real OpenAI model picks the next move (the official ``openai`` SDK).

Two APIs, chosen with ``--api``:

* ``responses`` (the default): ``client.responses.create`` with function tools
  (``{"type": "function", "name", "description", "parameters", "strict": false}``; OpenAI
  function calling guide, Responses API). The model's output items — ``reasoning`` items
  (with their ``encrypted_content`` when the API sends it), ``function_call`` items,
  ``message`` items — are kept in ``Move.raw`` and sent back in ``input`` UNCHANGED on the next
  request, as the guide asks for reasoning models; the answers go back as one
  ``function_call_output`` item per call (``call_id``, ``output``), in the order of the calls.
* ``chat``: ``client.chat.completions.create`` with ``tools`` as
  :func:`playground.core.wire.openai_declaration` builds them; the assistant message is kept
  in ``Move.raw`` (a server's ``reasoning_content`` included) and sent back as it came; the
  answers are one ``tool`` message per call (:func:`playground.core.wire.openai_message`).
  :mod:`playground.routing.openai_compatible` speaks this API to local servers.

A forked move (the loop edited one of its calls) is written back into the raw output here, by
the call's position in the turn. Arguments the model wrote that are not JSON are handed to the
gate as the string the model wrote (the gate answers ``invalid_arguments``) with a note — never
guessed at. 429 (``Retry-After`` honoured), 5xx and dropped connections are retried by
:func:`playground.routing.sdk_router.send`; the SDK's own retries are off, so each
wait is reported in ``Move.notes``. Every other failure raises
:class:`~playground.errors.RouterError` with one line. ``openai`` and httpx2 are imported only
when a request is built.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from playground.core.wire import ProviderDeclaration, openai_declaration, openai_message
from playground.errors import RouterError, UsageError
from playground.routing.base import FunctionCall, Move, RouterCapabilities, Turn, in_call_order
from playground.routing.registry import RouterSettings, RouterSpec
from playground.routing.sdk_router import SdkErrors, SdkRouter

if TYPE_CHECKING:
    import httpx2
    from openai import OpenAI

#: The default model (``--model`` and :data:`MODEL_ENV_VAR` override it).
DEFAULT_MODEL = "gpt-5-mini"

#: The environment variable that overrides :data:`DEFAULT_MODEL`.
MODEL_ENV_VAR = "PLAYGROUND_OPENAI_MODEL"

#: Where the SDK finds the key (``openai.OpenAI``'s own default).
KEY_ENV_VARS = ("OPENAI_API_KEY",)

#: How to get a key (one line).
NO_KEY_HINT = (
    "no OpenAI API key: set OPENAI_API_KEY, e.g. `export OPENAI_API_KEY=sk-...` with a key from "
    "https://platform.openai.com/api-keys"
)

#: Function-calling modes and the ``tool_choice`` each sends (OpenAI function calling guide).
TOOL_CHOICE = {"AUTO": "auto", "ANY": "required", "NONE": "none"}
MODES = tuple(TOOL_CHOICE)

#: The APIs ``--api`` accepts; the first is the default.
APIS = ("responses", "chat")


# ------------------------------------------------------------------------------ declarations


def responses_declaration(declaration: dict[str, Any]) -> ProviderDeclaration:
    """What a Responses API request carries for one tool (``show --provider openai`` prints it):
    ``{"type": "function", "name", "description", "parameters", "strict": false}`` — the
    function of :func:`playground.core.wire.openai_declaration` (same parameters, same notes on
    what OpenAI refuses), flattened as the Responses API takes it. ``strict`` is false: strict
    mode would demand ``additionalProperties: false`` and every property required, which is
    not the tool's own schema. ``declaration``: ``{"name", "description", "parameters"}``."""
    chat = openai_declaration(declaration)
    function = chat.body["function"]
    body = {
        "type": "function",
        "name": function["name"],
        "description": function["description"],
        "parameters": function["parameters"],
        "strict": False,
    }
    return ProviderDeclaration("openai", body, list(chat.notes))


def chat_tools(declarations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Chat Completions ``tools`` list: :func:`~playground.core.wire.openai_declaration`'s
    body per declaration (``{"type": "function", "function": {...}}``)."""
    return [openai_declaration(d).body for d in declarations]


# ------------------------------------------------------------------------------ conversation


def _arguments_text(args: Any) -> str:
    """Arguments as the JSON string the APIs carry (a string the model wrote stays as it is)."""
    return args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)


def parse_arguments(text: Any, name: str, notes: list[str]) -> Any:
    """The arguments of a call as the model wrote them: the JSON object of ``text``; an object
    given as such (a server that does not send a string; noted); else ``text`` unchanged with a
    note (the gate answers ``invalid_arguments`` and the model reads why)."""
    if isinstance(text, dict):
        notes.append(f"{name}: arguments came as a JSON object, not the string the API specifies")
        return text
    if text is None or text == "":
        return {}
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        notes.append(f"{name}: the model's arguments are not valid JSON: {str(text)[:120]!r}")
        return text


#: Output item types of the Responses API that a model turn holds.
_RESPONSES_ITEMS = frozenset({"function_call", "reasoning", "message"})


def _is_responses_items(raw: Any) -> bool:
    """Whether a move's ``raw`` is a list of Responses output items (another router's raw —
    Gemini's content, Anthropic's blocks — is not, and the move is rebuilt from its calls)."""
    return (
        isinstance(raw, list)
        and bool(raw)
        and all(isinstance(item, dict) and item.get("type") in _RESPONSES_ITEMS for item in raw)
    )


def responses_input(conversation: list[Turn]) -> list[dict[str, Any]]:
    """The Responses API ``input`` for ``conversation``: a user text -> ``{"role": "user",
    "content"}``; a model move -> its output items as they came (``Move.raw``; the n-th
    ``function_call`` item rewritten to the n-th call when the loop edited it), or items built
    from its calls / text when it has none; tool results -> one ``function_call_output`` per
    call, in call order (content: :func:`~playground.core.wire.openai_message`'s). Raises
    :class:`RouterError` for a turn that cannot be converted."""
    items: list[dict[str, Any]] = []
    last_calls: list[str] = []
    for index, turn in enumerate(conversation):
        if turn.role == "user":
            items.append({"role": "user", "content": turn.text or ""})
        elif turn.role == "model":
            move = turn.move
            if move is None:
                raise RouterError(f"conversation turn {index}: a model turn without a move")
            if _is_responses_items(move.raw):
                output = [dict(item) for item in move.raw]
                calls = iter(move.calls)
                for item in output:
                    if item.get("type") == "function_call":
                        call = next(calls, None)
                        if call is not None:
                            item["name"], item["arguments"] = call.name, _arguments_text(call.args)
                items.extend(output)
            else:
                for call in move.calls:
                    items.append(
                        {
                            "type": "function_call",
                            "call_id": call.id or "call_local",
                            "name": call.name,
                            "arguments": _arguments_text(call.args),
                        }
                    )
                if not move.calls:
                    items.append({"role": "assistant", "content": move.text or ""})
            last_calls = [c.id for c in move.calls]
        elif turn.role == "tool":
            for result in in_call_order(turn.results, last_calls):
                message = openai_message(result.call_id or None, result.outcome)
                items.append(
                    {
                        "type": "function_call_output",
                        "call_id": message["tool_call_id"],
                        "output": message["content"],
                    }
                )
        else:
            raise RouterError(f"conversation turn {index}: unknown role {turn.role!r}")
    return items


#: Keys of a Chat Completions response message that are not part of a request's message.
_RESPONSE_ONLY_KEYS = ("annotations",)


def chat_messages(conversation: list[Turn]) -> list[dict[str, Any]]:
    """The Chat Completions ``messages`` for ``conversation``: a user text -> ``{"role":
    "user", "content"}``; a model move -> its assistant message as it came (``Move.raw``, with
    a server's ``reasoning_content`` or ``reasoning`` kept; the response-only ``annotations``
    dropped; the n-th tool call rewritten to the n-th call when the loop edited it), or one
    built from its calls / text; tool results -> one ``tool`` message per call, in call order
    (:func:`~playground.core.wire.openai_message`). Raises :class:`RouterError` for a turn
    that cannot be converted."""
    messages: list[dict[str, Any]] = []
    last_calls: list[str] = []
    for index, turn in enumerate(conversation):
        if turn.role == "user":
            messages.append({"role": "user", "content": turn.text or ""})
        elif turn.role == "model":
            move = turn.move
            if move is None:
                raise RouterError(f"conversation turn {index}: a model turn without a move")
            raw = move.raw
            if isinstance(raw, dict) and raw.get("role") == "assistant" and "parts" not in raw:
                message = {k: v for k, v in raw.items() if k not in _RESPONSE_ONLY_KEYS}
                tool_calls = [dict(tc) for tc in message.get("tool_calls") or []]
                for tool_call, call in zip(tool_calls, move.calls):
                    function = dict(tool_call.get("function") or {})
                    function["name"], function["arguments"] = call.name, _arguments_text(call.args)
                    tool_call["function"] = function
                if tool_calls:
                    message["tool_calls"] = tool_calls
            else:
                message = {"role": "assistant", "content": move.text if not move.calls else None}
                if move.calls:
                    message["tool_calls"] = [
                        {
                            "id": call.id or "call_local",
                            "type": "function",
                            "function": {
                                "name": call.name,
                                "arguments": _arguments_text(call.args),
                            },
                        }
                        for call in move.calls
                    ]
            messages.append(message)
            last_calls = [c.id for c in move.calls]
        elif turn.role == "tool":
            for result in in_call_order(turn.results, last_calls):
                messages.append(openai_message(result.call_id or None, result.outcome))
        else:
            raise RouterError(f"conversation turn {index}: unknown role {turn.role!r}")
    return messages


# ------------------------------------------------------------------------------------ errors


def openai_errors(provider: str) -> SdkErrors:
    """The ``openai`` SDK's exception classes, its failures named after ``provider``
    (``"OpenAI"``, or a compatible server's title)."""
    import openai

    return SdkErrors(
        status=openai.APIStatusError,
        timeout=openai.APITimeoutError,
        connection=openai.APIConnectionError,
        base=openai.OpenAIError,
        provider=provider,
        key_hint="check the key",
    )


def _usage(input_tokens: Any, output_tokens: Any) -> dict[str, int] | None:
    if not isinstance(input_tokens, int) and not isinstance(output_tokens, int):
        return None
    return {"input_tokens": int(input_tokens or 0), "output_tokens": int(output_tokens or 0)}


# ------------------------------------------------------------------------------------ router


class OpenAIRouter(SdkRouter):
    """A router backed by an OpenAI model (Responses API, or Chat Completions with
    ``api="chat"``).

    ``model``: model name. ``mode``: one of :data:`MODES` (``tool_choice``). ``api``: one of
    :data:`APIS`. ``api_key``: else ``OPENAI_API_KEY``. ``base_url``: else the SDK's
    (``OPENAI_BASE_URL`` or api.openai.com). ``http_client``: an ``httpx2.Client`` for the SDK
    (tests: a mock transport). ``sleep``: what retries wait with (tests). Raises
    :class:`UsageError` for an unknown mode or API. A missing key is reported by
    :meth:`next_move`, so the router can be built and dry-run without one.
    """

    name = "openai"
    provider_title = "OpenAI"
    modes = MODES
    no_key_hint = NO_KEY_HINT
    capabilities = RouterCapabilities(
        parallel_calls=True,
        dry_run=True,
        modes=MODES,
        repairs="model",
        default_rpm=None,
        writes_text=True,
    )

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        mode: str = "AUTO",
        api: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        http_client: httpx2.Client | None = None,
        timeout_s: float | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        super().__init__(model, mode, api_key, base_url, http_client, timeout_s, sleep)
        api = api or self.apis()[0]
        if api not in self.apis():
            raise UsageError(f"unknown --api {api!r}; use one of {', '.join(self.apis())}")
        self.api = api

    @classmethod
    def apis(cls) -> tuple[str, ...]:
        """The APIs this router speaks (``--api``)."""
        return APIS

    # -- request -------------------------------------------------------------------------------
    def sdk_class(self) -> type[OpenAI]:
        """``openai.OpenAI``."""
        from openai import OpenAI

        return OpenAI

    def sdk_errors(self) -> SdkErrors:
        """The ``openai`` SDK's exceptions, named after :attr:`provider_title`."""
        return openai_errors(self.provider_title)

    def request_body(
        self, conversation: list[Turn], declarations: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The keyword arguments of the SDK call (``model``, ``input`` / ``messages``,
        ``tools``, ``tool_choice``). Raises :class:`RouterError` for an empty conversation."""
        if not conversation:
            raise RouterError("the conversation is empty: ask a question first")
        body: dict[str, Any] = {"model": self.model}
        if self.api == "responses":
            body["input"] = responses_input(conversation)
            tools = [responses_declaration(d).body for d in declarations]
        else:
            body["messages"] = chat_messages(conversation)
            tools = chat_tools(declarations)
        if tools:
            body["tools"] = tools
            body["tool_choice"] = TOOL_CHOICE[self.mode]
        return body

    def create(self, client: OpenAI, body: dict[str, Any]) -> Any:
        """``client.responses.create`` or ``client.chat.completions.create``."""
        if self.api == "responses":
            return client.responses.create(**body)
        return client.chat.completions.create(**body)

    # -- response ------------------------------------------------------------------------------
    def move_from_response(self, response: Any) -> Move:
        """The move of a Responses answer (``raw``: its output items) or a Chat Completions
        answer (``raw``: the assistant message), with ``usage`` (the API's token counts) and
        ``notes`` (anything the server did against the API's contract). Raises
        :class:`RouterError` for an answer without output or choices."""
        if self.api == "responses":
            return self._move_from_responses(response)
        return self._move_from_chat(response)

    def _move_from_responses(self, response: Any) -> Move:
        output = list(getattr(response, "output", None) or [])
        items = [item.model_dump(mode="json", exclude_none=True) for item in output]
        notes: list[str] = []
        calls = [
            FunctionCall(
                name=str(item.get("name") or ""),
                args=parse_arguments(item.get("arguments"), str(item.get("name")), notes),
                id=str(item.get("call_id") or ""),
            )
            for item in items
            if item.get("type") == "function_call"
        ]
        usage = getattr(response, "usage", None)
        counted = _usage(
            getattr(usage, "input_tokens", None), getattr(usage, "output_tokens", None)
        )
        if not items:
            status = getattr(response, "status", None)
            raise RouterError(
                f"{self.provider_title} returned no output (status {status}): not an API "
                "response; is --base-url the API's address?"
            )
        text = None
        if not calls:
            text = "".join(
                part.get("text", "")
                for item in items
                if item.get("type") == "message"
                for part in item.get("content") or []
                if part.get("type") == "output_text"
            )
        notes.extend(self.quirks(bool(calls), text))
        return Move(calls=calls, text=text, raw=items, usage=counted, notes=notes)

    def _move_from_chat(self, response: Any) -> Move:
        choices = list(getattr(response, "choices", None) or [])
        if not choices:
            raise RouterError(
                f"{self.provider_title} returned no choices (an empty response, or not the "
                "API's: is --base-url the API's address?)"
            )
        choice = choices[0]
        message = choice.message
        raw = message.model_dump(mode="json", exclude_none=True)
        notes: list[str] = []
        calls = []
        for position, tool_call in enumerate(raw.get("tool_calls") or [], start=1):
            function = tool_call.get("function") or {}
            name = str(function.get("name") or "")
            if not tool_call.get("id"):
                notes.append(f"tool call {position} ({name}) came without an id")
            calls.append(
                FunctionCall(
                    name=name,
                    args=parse_arguments(function.get("arguments"), name, notes),
                    id=str(tool_call.get("id") or ""),
                )
            )
        if calls and choice.finish_reason not in ("tool_calls", "function_call"):
            notes.append(
                f"finish_reason is {choice.finish_reason!r} although the message has tool calls"
            )
        usage = getattr(response, "usage", None)
        counted = _usage(
            getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)
        )
        text = None if calls else (raw.get("content") or "")
        notes.extend(self.quirks(bool(calls), text))
        return Move(calls=calls, text=text, raw=raw, usage=counted, notes=notes)

    def quirks(self, called: bool, text: str | None) -> list[str]:
        """What the answer shows the server did against the request: a ``tool_choice`` it
        ignored (``required`` answered with text, ``none`` answered with calls), a tool call
        written as text that the server did not parse. One line each; ``[]`` when none."""
        out = []
        if self.mode == "ANY" and not called:
            out.append(
                'the server ignored tool_choice "required": it answered with text, not a call'
            )
        if self.mode == "NONE" and called:
            out.append('the server ignored tool_choice "none": it answered with a call')
        if not called and text and _looks_like_a_call(text):
            out.append(
                "the model wrote a tool call as text that the server did not parse into "
                "tool_calls (its chat template or tool parser); nothing was run"
            )
        return out


def _looks_like_a_call(text: str) -> bool:
    """Whether ``text`` is a tool call written out (``<tool_call>``, or JSON with ``name`` and
    ``arguments`` / ``parameters``)."""
    stripped = text.strip()
    if "<tool_call>" in stripped or "<|python_tag|>" in stripped:
        return True
    start = stripped.find("{")
    if start < 0:
        return False
    try:
        value = json.loads(stripped[start : stripped.rfind("}") + 1])
    except ValueError:
        return False
    return (
        isinstance(value, dict)
        and "name" in value
        and ("arguments" in value or "parameters" in value)
    )


def settings_api(settings: RouterSettings, apis: tuple[str, ...]) -> str:
    """``settings.api`` checked against ``apis`` (``None``: the first). Raises
    :class:`UsageError` naming the choices."""
    api = settings.api or apis[0]
    if api not in apis:
        raise UsageError(f"unknown --api {api!r}; use one of {', '.join(apis)}")
    return api


def build(settings: RouterSettings) -> OpenAIRouter:
    """The registry's factory: an :class:`OpenAIRouter` for ``settings`` (model, mode, api,
    base URL, the key found in the environment — ``None`` in a dry run)."""
    return OpenAIRouter(
        model=settings.model or DEFAULT_MODEL,
        mode=settings.mode or MODES[0],
        api=settings_api(settings, APIS),
        api_key=settings.api_key,
        base_url=settings.base_url,
    )


def key_from(environ: Mapping[str, str] = os.environ) -> str | None:
    """The OpenAI key of ``environ`` (:data:`KEY_ENV_VARS`), or ``None``."""
    return SPEC.key_from(environ)


#: The backend's declaration (registered in :data:`playground.routing.registry.BUILTIN`).
SPEC = RouterSpec(
    name=OpenAIRouter.name,
    summary="An OpenAI model via the openai SDK (Responses API; --api chat; needs OPENAI_API_KEY)",
    build=build,
    capabilities=OpenAIRouter.capabilities,
    key_env_vars=KEY_ENV_VARS,
    no_key_hint=NO_KEY_HINT,
    default_model=DEFAULT_MODEL,
    model_env_var=MODEL_ENV_VAR,
    declare=responses_declaration,
    options=frozenset({"base_url", "api"}),
)
