"""The Anthropic router: a Claude model picks the next move (the official ``anthropic`` SDK).

``client.messages.create`` with ``tools`` as :func:`playground.core.wire.anthropic_declaration`
builds them (``{"name", "description", "input_schema"}``; ``show --provider anthropic``) and
``tool_choice`` ``{"type": "auto" | "any" | "none"}`` (Messages API, tool use). The model's
content blocks — ``thinking`` blocks with their ``signature``, ``redacted_thinking`` blocks,
``text`` and ``tool_use`` blocks — are kept in ``Move.raw`` and sent back UNCHANGED as the
assistant message (the API verifies the signatures of the thinking blocks of the last
assistant turn); the answers go back in ONE user message holding one ``tool_result`` block per
call (:func:`playground.core.wire.anthropic_block`, ``is_error`` on failures), in the order
of the calls. A forked move is written back into its ``tool_use`` blocks by position.

429 (``Retry-After`` honoured), 529 overloaded, 5xx and dropped connections are retried by
:func:`playground.routing.retry.send_with_retries` (the SDK's own retries are off; each wait
is a note). Every other failure raises :class:`~playground.errors.RouterError` with one line.
``anthropic`` and httpx2 are imported only when a request is built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from playground.core.wire import anthropic_block, anthropic_declaration
from playground.errors import RouterError, UsageError
from playground.routing.base import FunctionCall, Move, RouterCapabilities, Turn, in_call_order
from playground.routing.registry import RouterSettings, RouterSpec
from playground.routing.sdk_router import SdkErrors, SdkRouter

if TYPE_CHECKING:
    import httpx2
    from anthropic import Anthropic

DEFAULT_MODEL = "claude-haiku-4-5"
MODEL_ENV_VAR = "PLAYGROUND_ANTHROPIC_MODEL"
KEY_ENV_VARS = ("ANTHROPIC_API_KEY",)
NO_KEY_HINT = (
    "no Anthropic API key: set ANTHROPIC_API_KEY, e.g. `export ANTHROPIC_API_KEY=sk-ant-...` "
    "with a key from https://console.anthropic.com/settings/keys"
)

#: Function-calling modes and the ``tool_choice`` type each sends.
TOOL_CHOICE = {"AUTO": "auto", "ANY": "any", "NONE": "none"}
MODES = tuple(TOOL_CHOICE)

#: ``max_tokens`` of each request (required by the Messages API).
MAX_TOKENS = 1024

#: Content block types of an assistant turn (what marks a move's raw as Anthropic's).
_BLOCK_TYPES = frozenset({"text", "tool_use", "thinking", "redacted_thinking"})


def _is_blocks(raw: Any) -> bool:
    return (
        isinstance(raw, list)
        and bool(raw)
        and all(isinstance(b, dict) and b.get("type") in _BLOCK_TYPES for b in raw)
    )


def build_messages(conversation: list[Turn]) -> list[dict[str, Any]]:
    """The Messages API ``messages`` for ``conversation``: a user text -> ``{"role": "user",
    "content"}``; a model move -> ``{"role": "assistant", "content": <its blocks as they
    came>}`` (the n-th ``tool_use`` block's ``name`` / ``input`` rewritten to the n-th call
    when the loop edited it), or blocks built from its calls / text; tool results -> one user
    message of ``tool_result`` blocks in call order. Raises :class:`RouterError` for a turn
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
            if _is_blocks(move.raw):
                blocks = [dict(b) for b in move.raw]
                calls = iter(move.calls)
                for block in blocks:
                    if block.get("type") == "tool_use":
                        call = next(calls, None)
                        if call is not None:
                            block["name"], block["input"] = call.name, call.args
            else:
                blocks = [
                    {
                        "type": "tool_use",
                        "id": call.id or "toolu_local",
                        "name": call.name,
                        "input": call.args,
                    }
                    for call in move.calls
                ] or [{"type": "text", "text": move.text or ""}]
            messages.append({"role": "assistant", "content": blocks})
            last_calls = [c.id for c in move.calls]
        elif turn.role == "tool":
            if turn.results:
                content = [
                    anthropic_block(r.call_id or None, r.outcome)
                    for r in in_call_order(turn.results, last_calls)
                ]
                messages.append({"role": "user", "content": content})
        else:
            raise RouterError(f"conversation turn {index}: unknown role {turn.role!r}")
    return messages


def anthropic_errors() -> SdkErrors:
    """The ``anthropic`` SDK's exception classes (its 529 overloaded is retried as a 5xx)."""
    import anthropic

    return SdkErrors(
        status=anthropic.APIStatusError,
        timeout=anthropic.APITimeoutError,
        connection=anthropic.APIConnectionError,
        base=anthropic.AnthropicError,
        provider="Anthropic",
        key_hint="check ANTHROPIC_API_KEY",
    )


class AnthropicRouter(SdkRouter):
    """A router backed by a Claude model (Messages API).

    ``model``, ``mode`` (one of :data:`MODES`), ``api_key`` (else none: :meth:`next_move`
    raises with :data:`NO_KEY_HINT`), ``base_url`` (else the SDK's), ``http_client`` (tests),
    ``max_tokens``, ``sleep`` (retries; tests). Raises :class:`UsageError` for an unknown mode.
    """

    name = "anthropic"
    provider_title = "Anthropic"
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
        api_key: str | None = None,
        base_url: str | None = None,
        http_client: httpx2.Client | None = None,
        max_tokens: int = MAX_TOKENS,
        timeout_s: float | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        super().__init__(model, mode, api_key, base_url, http_client, timeout_s, sleep)
        self.max_tokens = max_tokens

    def sdk_class(self) -> type[Anthropic]:
        """``anthropic.Anthropic``."""
        from anthropic import Anthropic

        return Anthropic

    def sdk_errors(self) -> SdkErrors:
        """The ``anthropic`` SDK's exceptions."""
        return anthropic_errors()

    def request_body(
        self, conversation: list[Turn], declarations: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The keyword arguments of ``messages.create``: ``model``, ``max_tokens``,
        ``messages``, ``tools`` and ``tool_choice`` (when there are tools)."""
        if not conversation:
            raise RouterError("the conversation is empty: ask a question first")
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": build_messages(conversation),
        }
        tools = [anthropic_declaration(d).body for d in declarations]
        if tools:
            body["tools"] = tools
            body["tool_choice"] = {"type": TOOL_CHOICE[self.mode]}
        return body

    def create(self, client: Anthropic, body: dict[str, Any]) -> Any:
        """``client.messages.create``."""
        return client.messages.create(**body)

    def move_from_response(self, response: Any) -> Move:
        """The move of a Messages answer: ``raw`` its content blocks (sent back unchanged),
        ``usage`` the API's token counts. Raises :class:`RouterError` for an answer without
        content."""
        blocks = [b.model_dump(mode="json", exclude_none=True) for b in response.content or []]
        if not blocks:
            raise RouterError(
                f"Anthropic returned no content (stop reason {getattr(response, 'stop_reason', None)})"
            )
        calls = [
            FunctionCall(
                name=str(b.get("name") or ""),
                args=b.get("input") if b.get("input") is not None else {},
                id=str(b.get("id") or ""),
            )
            for b in blocks
            if b.get("type") == "tool_use"
        ]
        usage = getattr(response, "usage", None)
        counted = None
        if usage is not None:
            counted = {
                "input_tokens": int(getattr(usage, "input_tokens", 0) or 0),
                "output_tokens": int(getattr(usage, "output_tokens", 0) or 0),
            }
        text = None
        if not calls:
            text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        return Move(calls=calls, text=text, raw=blocks, usage=counted)


def build(settings: RouterSettings) -> AnthropicRouter:
    """The registry's factory: an :class:`AnthropicRouter` for ``settings``."""
    if settings.api not in (None, "messages"):
        raise UsageError(f"unknown --api {settings.api!r}; the anthropic router speaks messages")
    return AnthropicRouter(
        model=settings.model or DEFAULT_MODEL,
        mode=settings.mode or MODES[0],
        api_key=settings.api_key,
        base_url=settings.base_url,
    )


#: The backend's declaration (registered in :data:`playground.routing.registry.BUILTIN`).
SPEC = RouterSpec(
    name=AnthropicRouter.name,
    summary="A Claude model via the anthropic SDK (Messages API; needs ANTHROPIC_API_KEY)",
    build=build,
    capabilities=AnthropicRouter.capabilities,
    key_env_vars=KEY_ENV_VARS,
    no_key_hint=NO_KEY_HINT,
    default_model=DEFAULT_MODEL,
    model_env_var=MODEL_ENV_VAR,
    declare=anthropic_declaration,
    options=frozenset({"base_url", "api"}),
)
