"""The Gemini router: a real model picks the next move (the only module importing google.genai).

It turns the playground's conversation (:class:`~playground.routing.base.Turn` list) into
Gemini ``contents``, shows the model one ``FunctionDeclaration`` per contract (parameters
converted by :mod:`playground.routing.gemini_schema`), calls ``models.generate_content`` with
automatic function calling disabled (the playground runs every call through its gate), and turns
the first candidate into a :class:`~playground.routing.base.Move`.

Wire rules followed (Gemini API function-calling guide and google-genai 3.6.1 ``types``):

* the model's turn is echoed back UNCHANGED (its ``Content`` JSON kept in ``Move.raw``), so
  thought signatures reach the model again as it requires for multi-turn function calling;
* the answers to one model turn travel in ONE ``Content(role="user")`` with one
  ``function_response`` part per call (``name``, ``id`` = the id the model gave the call,
  ``response``), in the order of the calls — also when the model gave two calls the same id
  (each answer matched to its call by position) or none (the answer carries no id either);
  the loop runs such calls under ids of their own and flags them
  (:mod:`playground.loop.call_ids`);
* a forked model turn (the loop edited one of its calls) is written back into the raw content
  here, by the call's position in the turn, so the loop never touches Gemini's message format.

Errors: every failure (no key, HTTP error, network error, blocked prompt, no candidate) raises
:class:`playground.errors.RouterError` with one line of text; nothing else escapes. A model the
API does not know or has shut down (HTTP 404 ``NOT_FOUND``) is named in the message with how to
choose another.

The module is the backend's one declaration (:data:`SPEC`, registered in
:mod:`playground.routing.registry`); google.genai and httpx2 are imported only when a request is
built, so reading the declaration costs nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from playground.core.wire import ProviderDeclaration, gemini_response_payload
from playground.errors import RouterError, UsageError
from playground.routing.base import (
    FunctionCall,
    Move,
    RouterCapabilities,
    ToolResult,
    Turn,
    in_call_order,
)
from playground.routing.gemini_schema import convert_declaration, map_back
from playground.routing.registry import RouterSettings, RouterSpec

if TYPE_CHECKING:
    import httpx2
    from google import genai
    from google.genai import errors as genai_errors
    from google.genai import types

#: The default model: a current stable Flash model (generally available since 2026-07-21; fast,
#: supports parallel function calling). gemini-2.5-flash, the previous default, is shut down on
#: 2026-12-01 (Gemini API deprecations page).
DEFAULT_MODEL = "gemini-3.6-flash"

#: The environment variable that overrides :data:`DEFAULT_MODEL` (``--model`` overrides both).
MODEL_ENV_VAR = "PLAYGROUND_GEMINI_MODEL"

#: Function-calling modes (``types.FunctionCallingConfigMode`` without ``MODE_UNSPECIFIED``);
#: the first is the default.
MODES = ("AUTO", "ANY", "NONE", "VALIDATED")

#: Environment variables read for the key, in the SDK's own order of precedence
#: (``google.genai._api_client.get_env_api_key``: GOOGLE_API_KEY wins when both are set).
KEY_ENV_VARS = ("GOOGLE_API_KEY", "GEMINI_API_KEY")

#: How to get a key (one line; the CLI and the TUI show it when the key is missing).
NO_KEY_HINT = (
    "no Gemini API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), e.g. `export GEMINI_API_KEY=...` "
    "with a key from https://aistudio.google.com/apikey"
)

#: What :meth:`GeminiRouter.next_move` raises without a key.
NO_KEY_MESSAGE = f"{NO_KEY_HINT}; the offline router needs no key"

#: How to choose another model (appended to "model not found" errors).
CHOOSE_MODEL_HINT = (
    f"choose another with --model NAME, {MODEL_ENV_VAR}=NAME, or 'model NAME' in the TUI "
    "command palette (ctrl+p); models: https://ai.google.dev/gemini-api/docs/models"
)


def gemini_key_from_env(environ: Mapping[str, str]) -> str | None:
    """The Gemini API key from ``environ`` (e.g. ``os.environ``), or ``None``.

    Reads :data:`KEY_ENV_VARS` in order (GOOGLE_API_KEY, then GEMINI_API_KEY, as the SDK does);
    blank values count as unset; surrounding whitespace is stripped.
    """
    return SPEC.key_from(environ)


def _function_declaration(
    declaration: dict[str, Any], *, vertex: bool
) -> tuple[types.FunctionDeclaration, list[str]]:
    """THE builder of a Gemini request's declaration for one tool (the request's
    :func:`function_declarations` and ``show``'s :func:`request_declaration` both call it):
    ``(FunctionDeclaration(name, description, parameters_json_schema), notes)`` with the
    parameters converted by :func:`~playground.routing.gemini_schema.convert_declaration` and
    its notes. Raises :class:`RouterError` for a declaration without a name."""
    from google.genai import types

    converted, notes = convert_declaration(declaration, vertex=vertex)
    name = converted["name"]
    if not isinstance(name, str) or not name:
        raise RouterError(f"a declaration has no name: {declaration!r:.80}")
    built = types.FunctionDeclaration(
        name=name,
        description=converted["description"],
        parameters_json_schema=converted["parameters"],
    )
    return built, notes


def function_declarations(
    declarations: list[dict[str, Any]], *, vertex: bool = False
) -> list[types.FunctionDeclaration]:
    """One ``FunctionDeclaration`` per declaration dict of the router, as the request sends them.

    ``declarations``: ``[{"name", "description", "parameters"}]``. Parameters go in
    ``parameters_json_schema`` after :func:`~playground.routing.gemini_schema.convert_declaration`.
    Raises :class:`RouterError` for a declaration without a name.
    """
    return [_function_declaration(d, vertex=vertex)[0] for d in declarations]


def request_declaration(
    declaration: dict[str, Any], *, vertex: bool = False
) -> ProviderDeclaration:
    """What a request of this router carries for one tool: the entry of
    ``tools[0].functionDeclarations`` in the request body, as JSON (``{"name", "description",
    "parameters_json_schema"}``; ``parameters_json_schema`` left out for a tool without
    parameters), built by the same :func:`_function_declaration` as the request itself and
    dumped as the SDK writes it into the body (``model_dump(mode="json", exclude_none=True)``).
    ``notes``: what the Gemini API cannot carry and how the copy differs from the tool's own
    schema (``"properties.code: const 7 -> enum [\"7\"]"``, ``"... dropped (not supported by
    the Gemini API)"``). ``declaration``: ``{"name", "description", "parameters"}``. Imports
    google.genai. Raises :class:`RouterError` for a declaration without a name.
    """
    built, notes = _function_declaration(declaration, vertex=vertex)
    return ProviderDeclaration("gemini", built.model_dump(mode="json", exclude_none=True), notes)


def _content_from_raw(raw: Any) -> types.Content:
    """The model ``Content`` stored in ``Move.raw`` (JSON from ``model_dump(mode="json")``).

    Validated through JSON so ``thought_signature`` is decoded as base64 (the SDK's
    ``val_json_bytes``) and re-encoded identically: the signature goes back byte for byte.
    """
    from google.genai import types

    if isinstance(raw, types.Content):
        return raw
    return types.Content.model_validate_json(json.dumps(raw, ensure_ascii=False))


def _write_calls_back(content: types.Content, calls: list[FunctionCall]) -> types.Content:
    """``content`` (a model turn's raw ``Content``) with its n-th ``function_call`` part showing
    the n-th of ``calls``' name and args — the loop edits ``Move.calls`` when it forks an
    episode. By position, not by id: two calls of one turn may share an id (the calls were
    read from these parts in order). The thought signatures and every other part stay as the
    model sent them."""
    parts = [p.function_call for p in content.parts or [] if p.function_call is not None]
    for fc, call in zip(parts, calls):
        if fc.name != call.name or (fc.args or {}) != call.args:
            fc.name, fc.args = call.name, call.args
    return content


def _content_from_move(move: Move) -> types.Content:
    """A model ``Content`` for a move that has no ``raw`` (e.g. made by another router)."""
    from google.genai import types

    parts = [
        types.Part(function_call=types.FunctionCall(name=c.name, args=c.args, id=c.id or None))
        for c in move.calls
    ]
    if not parts:
        parts = [types.Part(text=move.text or "")]
    return types.Content(role="model", parts=parts)


def _responses_content(results: list[ToolResult], call_order: list[str]) -> types.Content:
    """ONE ``Content(role="user")`` holding one ``function_response`` part per result.

    Parts follow ``call_order`` (the ids of the calls in the model's turn, ``""`` for a call
    without one): each result takes the first position not yet taken whose id is its own, so
    two calls sharing an id are answered in their order; results whose id is not among them
    come last, in the order given (:func:`~playground.routing.base.in_call_order`). A result
    with the id ``""`` is sent without an id.
    """
    from google.genai import types

    parts = [
        types.Part(
            function_response=types.FunctionResponse(
                id=result.call_id or None,
                name=result.name,
                response=gemini_response_payload(result.outcome),
            )
        )
        for result in in_call_order(results, call_order)
    ]
    return types.Content(role="user", parts=parts)


def build_contents(conversation: list[Turn]) -> list[types.Content]:
    """Gemini ``contents`` for ``conversation``.

    user text -> ``Content(role="user", parts=[text])``; a model move -> its ``raw`` unchanged
    (or built from its calls / text when ``raw`` is ``None``); tool results -> one
    ``Content(role="user")`` of ``function_response`` parts matched by id, in call order.
    Raises :class:`RouterError` for a turn that cannot be converted.
    """
    from google.genai import types

    contents: list[types.Content] = []
    last_calls: list[str] = []
    for index, turn in enumerate(conversation):
        if turn.role == "user":
            contents.append(types.Content(role="user", parts=[types.Part(text=turn.text or "")]))
        elif turn.role == "model":
            if turn.move is None:
                raise RouterError(f"conversation turn {index}: a model turn without a move")
            try:
                content = (
                    _write_calls_back(_content_from_raw(turn.move.raw), turn.move.calls)
                    if turn.move.raw is not None
                    else _content_from_move(turn.move)
                )
            except (ValueError, TypeError) as exc:  # pydantic.ValidationError is a ValueError
                first = str(exc).splitlines()[0]
                raise RouterError(
                    f"conversation turn {index}: model raw is not a Gemini Content: {first}"
                ) from None
            contents.append(content)
            last_calls = [c.id for c in turn.move.calls]
        elif turn.role == "tool":
            if turn.results:
                contents.append(_responses_content(turn.results, last_calls))
        else:
            raise RouterError(f"conversation turn {index}: unknown role {turn.role!r}")
    return contents


def _model_unavailable(code: Any, status: Any, message: str) -> bool:
    """Whether an API error says the model does not exist or was shut down (404 ``NOT_FOUND``,
    or a message naming the model as not found / not supported / shut down / deprecated)."""
    if code == 404 or str(status or "").upper() == "NOT_FOUND":
        return True
    lowered = message.lower()
    return "model" in lowered and any(
        word in lowered
        for word in ("not found", "not supported", "shut down", "no longer available", "deprecated")
    )


def _api_error_message(exc: genai_errors.APIError, model: str) -> str:
    """One line: ``Gemini API error 429 RESOURCE_EXHAUSTED: <provider message>`` (+ a hint).

    A model the API does not know or has shut down gets ``(model 'NAME' is not available: choose
    another with --model NAME, PLAYGROUND_GEMINI_MODEL=NAME or ...)``.
    """
    message = " ".join(str(exc.message or exc.details or "").split())
    status = f" {exc.status}" if exc.status else ""
    hint = ""
    if _model_unavailable(exc.code, exc.status, message):
        hint = f" (model {model!r} is not available: {CHOOSE_MODEL_HINT})"
    elif exc.code == 429:
        hint = " (rate limit or quota: wait and try again)"
    elif exc.code in (401, 403) or "API key" in message:
        hint = " (check GEMINI_API_KEY)"
    elif isinstance(exc.code, int) and exc.code >= 500:
        hint = " (server error: try again later)"
    return f"Gemini API error {exc.code}{status}: {message}{hint}"


def _no_trust_roots() -> dict[str, Any]:
    """``HttpOptions`` fields for a dry run's client: one TLS context without trust roots for
    the SDK's sync, async and websocket clients. The SDK otherwise builds three default
    contexts, loading the CA bundle each time (~60 ms of CPU apiece), for clients a dry run
    never uses: its requests go to a capturing transport and no socket is opened (and none
    could verify a server with this context)."""
    import ssl

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    return {
        "client_args": {"verify": context},
        "async_client_args": {"verify": context, "ssl": context},
    }


class GeminiRouter:
    """A router backed by Gemini ``generate_content`` (google-genai, no automatic calling).

    ``model``: model name (default :data:`DEFAULT_MODEL`). ``mode``: one of :data:`MODES`
    (``tool_config.function_calling_config.mode``). ``allowed_function_names``: restrict the
    calls (only with ``ANY`` / ``VALIDATED``, per the API). ``api_key``: else
    :func:`gemini_key_from_env` of ``os.environ``. ``http_client``: an ``httpx2.Client`` handed to
    the SDK (tests pass one with ``httpx2.MockTransport``). ``vertex``: Vertex AI instead of the
    Gemini Developer API. ``timeout_s``: seconds per request (``None``:
    :func:`~playground.routing.time_limits.request_timeout_s`, ``PLAYGROUND_ROUTER_TIMEOUT_S``;
    the SDK's own retries are off by default, so one request is the whole wait).

    Raises :class:`~playground.errors.UsageError` for an unknown mode or names given with a mode
    that ignores them. A missing key is only reported by :meth:`next_move` (``RouterError``
    with :data:`NO_KEY_MESSAGE`), so the router can be built and dry-run offline.
    """

    name = "gemini"
    capabilities = RouterCapabilities(
        explains=False,
        parallel_calls=True,
        dry_run=True,
        modes=MODES,
        repairs="model",
        default_rpm=10,
        writes_text=True,
    )

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        mode: str = "AUTO",
        allowed_function_names: list[str] | None = None,
        api_key: str | None = None,
        http_client: httpx2.Client | None = None,
        vertex: bool = False,
        timeout_s: float | None = None,
    ) -> None:
        mode_upper = str(mode).upper()
        if mode_upper not in MODES:
            raise UsageError(
                f"unknown Gemini function-calling mode {mode!r}; use one of {', '.join(MODES)}"
            )
        if allowed_function_names and mode_upper not in ("ANY", "VALIDATED"):
            raise UsageError("allowed_function_names needs mode ANY or VALIDATED")
        self.model = model
        self.mode = mode_upper
        self.allowed_function_names = (
            list(allowed_function_names) if allowed_function_names else None
        )
        self.api_key = (api_key or "").strip() or gemini_key_from_env(os.environ)
        self.http_client = http_client
        self.vertex = vertex
        if timeout_s is None:
            from playground.routing.time_limits import request_timeout_s

            timeout_s = request_timeout_s()
        self.timeout_s = timeout_s

    # -- request -------------------------------------------------------------------------------
    def _client(self, api_key: str, http_client: httpx2.Client | None) -> genai.Client:
        from google import genai
        from google.genai import types

        from playground.routing.capture import PLACEHOLDER_KEY

        options = types.HttpOptions(
            timeout=int(self.timeout_s * 1000),
            httpx_client=http_client,
            **(_no_trust_roots() if api_key == PLACEHOLDER_KEY else {}),
        )
        try:
            return genai.Client(api_key=api_key, vertexai=self.vertex, http_options=options)
        except (ValueError, TypeError) as exc:
            raise RouterError(f"cannot set up the Gemini client: {exc}") from None

    def config(self, declarations: list[dict[str, Any]]) -> types.GenerateContentConfig:
        """The ``GenerateContentConfig``: tools, automatic calling off, the mode's tool_config."""
        from google.genai import types

        decls = function_declarations(declarations, vertex=self.vertex)
        calling = types.FunctionCallingConfig(
            mode=types.FunctionCallingConfigMode(self.mode),
            allowed_function_names=self.allowed_function_names,
        )
        return types.GenerateContentConfig(
            tools=[types.Tool(function_declarations=decls)] if decls else None,
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
            tool_config=types.ToolConfig(function_calling_config=calling) if decls else None,
        )

    def _generate(
        self, client: genai.Client, conversation: list[Turn], declarations: list[dict[str, Any]]
    ) -> types.GenerateContentResponse:
        import httpx2
        from google.genai import errors as genai_errors

        contents = build_contents(conversation)
        if not contents:
            raise RouterError("the conversation is empty: ask a question first")
        config = self.config(declarations)
        try:
            return client.models.generate_content(
                model=self.model, contents=contents, config=config
            )
        except genai_errors.APIError as exc:
            raise RouterError(_api_error_message(exc, self.model)) from None
        except httpx2.TimeoutException:
            raise RouterError(
                f"Gemini did not answer within {self.timeout_s:g} s (timeout)"
            ) from None
        except httpx2.HTTPError as exc:
            raise RouterError(f"cannot reach Gemini: {type(exc).__name__}: {exc}") from None
        except (ValueError, TypeError) as exc:
            first = (str(exc).splitlines() or [""])[0]
            raise RouterError(f"Gemini request rejected by the SDK: {first}") from None

    # -- protocol ------------------------------------------------------------------------------
    def next_move(self, conversation: list[Turn], declarations: list[dict[str, Any]]) -> Move:
        """Ask Gemini for the next move (see :meth:`playground.routing.base.Router.next_move`).

        Returns ``Move(calls=[FunctionCall(name, args, id)], text=None, raw=<Content JSON>)`` when
        the model calls functions (several = parallel calls; ``id`` as the model wrote it, ``""``
        for none, possibly repeated), else ``Move(text=<text parts
        joined>, raw=...)``. Raises :class:`RouterError`: no key (:data:`NO_KEY_MESSAGE`), HTTP
        error (status + provider message), network error, blocked prompt, no candidate.
        """
        if not self.api_key:
            raise RouterError(NO_KEY_MESSAGE)
        client = self._client(self.api_key, self.http_client)
        response = self._generate(client, conversation, declarations)
        move = self._move_from_response(response, conversation)
        if not move.calls:
            return move
        # Arguments written against the Gemini copy of a schema, in the local schema's form.
        local = {d.get("name"): d.get("parameters") for d in declarations}
        calls = [replace(c, args=map_back(c.args, local.get(c.name))) for c in move.calls]
        return replace(move, calls=calls)

    def dry_run(
        self, conversation: list[Turn], declarations: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The exact request :meth:`next_move` would send now, without sending it or any key.

        The SDK builds the request with the placeholder key ``DRY-RUN`` over a
        :class:`~playground.routing.capture.CapturingTransport`. Returns ``{"method", "url",
        "headers", "body"}`` (key redacted; ``body`` parsed JSON, Korean text as is). Raises
        :class:`RouterError` when the conversation cannot be converted.
        """
        from playground.routing.capture import PLACEHOLDER_KEY, dry_run_request

        return dry_run_request(
            lambda http: self._generate(
                self._client(PLACEHOLDER_KEY, http), conversation, declarations
            )
        )

    # -- response ------------------------------------------------------------------------------
    def _move_from_response(
        self, response: types.GenerateContentResponse, conversation: list[Turn]
    ) -> Move:
        feedback = response.prompt_feedback
        if feedback is not None and feedback.block_reason is not None:
            reason = getattr(feedback.block_reason, "value", feedback.block_reason)
            detail = f": {feedback.block_reason_message}" if feedback.block_reason_message else ""
            raise RouterError(f"Gemini blocked the prompt ({reason}){detail}")
        if not response.candidates:
            raise RouterError("Gemini returned no candidates (empty response)")
        candidate = response.candidates[0]
        content = candidate.content
        if content is None or not content.parts:
            reason = getattr(candidate.finish_reason, "value", candidate.finish_reason)
            detail = f": {candidate.finish_message}" if candidate.finish_message else ""
            raise RouterError(f"Gemini returned no content (finish reason {reason}){detail}")
        if content.role is None:
            content.role = "model"

        calls: list[FunctionCall] = []
        for part in content.parts:
            call = part.function_call
            if call is None:
                continue
            calls.append(  # the model's id as is ("" for none): the loop gives each its own
                FunctionCall(
                    name=call.name or "",
                    args=call.args if call.args is not None else {},
                    id=call.id or "",
                )
            )

        raw = content.model_dump(mode="json", exclude_none=True)
        usage = _usage(response)
        if calls:
            return Move(calls=calls, text=None, raw=raw, usage=usage)
        text = "".join(p.text for p in content.parts if p.text and not p.thought)
        return Move(calls=[], text=text, raw=raw, usage=usage)


def _usage(response: types.GenerateContentResponse) -> dict[str, int] | None:
    """The API's token counts (``usage_metadata``): ``input_tokens`` = the prompt's,
    ``output_tokens`` = the candidates' plus the thoughts' (both billed as output); ``None``
    when the response has none."""
    meta = response.usage_metadata
    if meta is None:
        return None
    return {
        "input_tokens": int(meta.prompt_token_count or 0),
        "output_tokens": int(meta.candidates_token_count or 0)
        + int(meta.thoughts_token_count or 0),
    }


def build(settings: RouterSettings) -> GeminiRouter:
    """The registry's factory: a :class:`GeminiRouter` for ``settings`` (model, mode, the key
    found in the environment — ``None`` in a dry run, so no key is ever picked up for one)."""
    router = GeminiRouter(model=settings.model or DEFAULT_MODEL, mode=settings.mode or MODES[0])
    router.api_key = settings.api_key
    return router


#: The backend's declaration (registered in :data:`playground.routing.registry.BUILTIN`).
SPEC = RouterSpec(
    name=GeminiRouter.name,
    summary="A real Gemini model via google-genai (needs GEMINI_API_KEY)",
    build=build,
    capabilities=GeminiRouter.capabilities,
    key_env_vars=KEY_ENV_VARS,
    no_key_hint=NO_KEY_HINT,
    default_model=DEFAULT_MODEL,
    model_env_var=MODEL_ENV_VAR,
    declare=request_declaration,
)
