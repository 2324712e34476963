"""An MCP server's ``sampling/createMessage`` answered by the selected router (issue 21, item 6).

A server may ask its client for a model completion (MCP spec 2025-11-25, "Client features:
sampling"). The playground answers with the router the command or the TUI selected: the
request's messages become a conversation (``user`` → a user turn, ``assistant`` → a model turn
with that text) and the router's :meth:`~playground.routing.base.Router.next_move` is asked with
no tool declarations; its text is the answer ``{"role": "assistant", "content": {"type":
"text", "text"}, "model", "stopReason": "endTurn"}``.

Refused (:class:`~playground.sources.mcp_client.SamplingRefused`, a one-line reason the server
receives as the JSON-RPC error message):

* a router whose ``capabilities.writes_text`` is false (the offline router picks tools by
  matching words; it cannot write free text);
* a message with a block other than text (image, audio, tool use): the router's request is
  built from text turns only;
* a router error (no key, HTTP error), or a move with calls or no text.

What the routers' requests cannot carry is said, not hidden: ``systemPrompt``, ``maxTokens``,
``temperature``, ``stopSequences`` and ``modelPreferences`` are not sent; each present one is
listed in the answer's ``_meta`` (``playground/notSent``) and so in the record's exchange.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from playground.errors import RouterError
from playground.routing.base import Move, Router, Turn
from playground.sources.mcp_client import SamplingRefused

#: Request fields the routers' requests have no place for (sent nowhere, listed in ``_meta``).
NOT_SENT = ("systemPrompt", "maxTokens", "temperature", "stopSequences", "modelPreferences")
#: The model routers, named in a refusal so the user knows what to pick.
MODEL_ROUTERS = "openai, anthropic, gemini or openai-compatible"


def _text_of(message: dict[str, Any], index: int) -> str:
    """The text of one sampling message (a block or a list of blocks); raises
    :class:`SamplingRefused` for any block that is not text."""
    content = message.get("content")
    blocks = content if isinstance(content, list) else [content]
    texts = []
    for block in blocks:
        kind = block.get("type") if isinstance(block, dict) else type(block).__name__
        if kind != "text" or not isinstance(block, dict):
            raise SamplingRefused(
                f"message {index} holds a {kind} block; the playground sends the router text "
                "messages only"
            )
        texts.append(str(block.get("text", "")))
    return "\n".join(texts)


def conversation_of(request: dict[str, Any]) -> list[Turn]:
    """The router conversation for a ``sampling/createMessage`` request's params (JSON by
    alias): one turn per message, in order. Raises :class:`SamplingRefused` for a message
    that is not text or a role other than ``user`` / ``assistant``."""
    turns: list[Turn] = []
    for index, message in enumerate(request.get("messages") or []):
        text = _text_of(message, index)
        role = message.get("role")
        if role == "user":
            turns.append(Turn("user", text=text))
        elif role == "assistant":
            turns.append(Turn("model", move=Move(text=text)))
        else:
            raise SamplingRefused(f"message {index} has the role {role!r}")
    if not turns or turns[-1].role != "user":
        raise SamplingRefused("the request's last message is not the user's")
    return turns


class RouterSampler:
    """Answers sampling requests with the router ``current()`` returns at each request (so the
    TUI's router choice follows). Callable as a
    :data:`~playground.sources.mcp_client.Sampler`; ``label`` names the router and model."""

    def __init__(self, current: Callable[[], Router]) -> None:
        self.current = current

    @property
    def label(self) -> str:
        router = self.current()
        model = getattr(router, "model", "")
        return f"router {router.name}" + (f" (model {model})" if model else "")

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        router = self.current()
        if not router.capabilities.writes_text:
            raise SamplingRefused(
                f"the {router.name} router cannot write free text (it picks tools by matching "
                f"words); pick a model router ({MODEL_ROUTERS}) with --router or in the TUI"
            )
        turns = conversation_of(request)
        try:
            move = router.next_move(turns, [])
        except RouterError as exc:
            raise SamplingRefused(f"the {router.name} router failed: {exc}") from None
        if move.calls or not move.text:
            raise SamplingRefused(f"the {router.name} router answered without text")
        answer: dict[str, Any] = {
            "role": "assistant",
            "content": {"type": "text", "text": move.text},
            "model": str(getattr(router, "model", "") or router.name),
            "stopReason": "endTurn",
        }
        not_sent = [key for key in NOT_SENT if key in request]
        if not_sent:
            answer["_meta"] = {"playground/notSent": not_sent}
        return answer


def answer_sampling_with(sources: Iterable[Any], current: Callable[[], Router]) -> None:
    """Let the router ``current()`` returns answer the sampling requests of every MCP source
    among ``sources`` (those with a ``sampler`` attribute)."""
    sampler = RouterSampler(current)
    for source in sources:
        if hasattr(source, "sampler"):
            source.sampler = sampler
