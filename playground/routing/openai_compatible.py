"""The OpenAI-compatible router: a local or self-hosted model behind ``--base-url``.

Ollama (``http://127.0.0.1:11434/v1``), the llama.cpp server (``http://127.0.0.1:8080/v1``),
vLLM (``http://127.0.0.1:8000/v1``) and LM Studio (``http://127.0.0.1:1234/v1``) all speak the
Chat Completions API; this router speaks it through the official ``openai`` SDK, exactly as
:class:`playground.routing.openai_api.OpenAIRouter` does with ``--api chat`` (same messages,
same tools, same retries). Such servers differ from the API they imitate, and the differences
are reported in ``Move.notes``, never papered over
(:meth:`~playground.routing.openai_api.OpenAIRouter.quirks` and the response reading): a
``tool_choice`` the server ignored (``required`` answered with text), a tool call written as
text that the server's template did not parse, a tool call without an id, arguments sent as an
object instead of a JSON string, a ``finish_reason`` of ``stop`` beside tool calls.

No key is needed (local servers take none); ``PLAYGROUND_COMPATIBLE_API_KEY`` is sent as the
bearer token when set (a hosted vLLM behind a key). The SDK's ``OPENAI_API_KEY`` is never read:
a real OpenAI key must not travel to another server. ``--base-url`` and ``--model`` are
required (there is no default server); without ``--model`` the server's only model is used
(``GET /models``), and a server with several says which.
"""

from __future__ import annotations

import os
from typing import Any

from playground.core.wire import openai_declaration
from playground.errors import RouterError, UsageError
from playground.routing.base import Move, RouterCapabilities, Turn
from playground.routing.openai_api import MODES, OpenAIRouter, settings_api
from playground.routing.registry import RouterSettings, RouterSpec

#: The optional key variable (sent as ``Authorization: Bearer``).
KEY_ENV_VAR = "PLAYGROUND_COMPATIBLE_API_KEY"

#: What the SDK is given as the key when none is set (it refuses to build without one).
NO_KEY = "none"

#: The environment variable naming the model when ``--model`` is not given.
MODEL_ENV_VAR = "PLAYGROUND_COMPATIBLE_MODEL"

#: The environment variable naming the base URL when ``--base-url`` is not given.
BASE_URL_ENV_VAR = "PLAYGROUND_COMPATIBLE_BASE_URL"

NEEDS_BASE_URL = (
    "the openai-compatible router needs --base-url URL (Ollama: http://127.0.0.1:11434/v1, "
    "llama.cpp: http://127.0.0.1:8080/v1, vLLM: http://127.0.0.1:8000/v1, "
    f"LM Studio: http://127.0.0.1:1234/v1) or {BASE_URL_ENV_VAR}"
)
NEEDS_MODEL = (
    "the openai-compatible router needs --model NAME (the server's model name, e.g. llama3.2 "
    f"for Ollama) or {MODEL_ENV_VAR}"
)


class CompatibleRouter(OpenAIRouter):
    """:class:`~playground.routing.openai_api.OpenAIRouter` on the Chat Completions API of the
    server at ``base_url`` (required: :func:`build` raises :class:`UsageError` without one)."""

    name = "openai-compatible"
    provider_title = "OpenAI-compatible server"
    capabilities = RouterCapabilities(
        parallel_calls=True,
        dry_run=True,
        modes=MODES,
        repairs="model",
        default_rpm=None,
        writes_text=True,
    )

    @classmethod
    def apis(cls) -> tuple[str, ...]:
        """Only Chat Completions: what every such server speaks."""
        return ("chat",)

    def api_key_or_raise(self) -> str:
        """The key, or a placeholder: a local server needs none."""
        return self.api_key or NO_KEY

    def request_body(
        self, conversation: list[Turn], declarations: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """As :meth:`OpenAIRouter.request_body`; without ``--model`` (``model`` is ``""``) the
        dry run shows ``"model": ""`` and :meth:`next_move` first asks the server for it."""
        return super().request_body(conversation, declarations)

    def next_move(self, conversation: list[Turn], declarations: list[dict[str, Any]]) -> Move:
        """As :meth:`OpenAIRouter.next_move`; without ``--model`` the model is the server's
        only one (``GET /models``, asked once; llama.cpp and a single-model vLLM serve one).
        Raises :class:`RouterError` when the server serves none or several (naming them)."""
        if not self.model:
            self.model = self._only_model()
        return super().next_move(conversation, declarations)

    def _only_model(self) -> str:
        page, _notes = self.send(lambda client: client.models.list())
        served = [str(m.id) for m in getattr(page, "data", None) or []]
        if len(served) == 1:
            return served[0]
        listed = ", ".join(served[:10]) or "none"
        raise RouterError(f"{NEEDS_MODEL}; the server at {self.base_url} serves: {listed}")


def build(settings: RouterSettings) -> CompatibleRouter:
    """The registry's factory. ``settings.base_url`` else ``$PLAYGROUND_COMPATIBLE_BASE_URL``
    (required); ``settings.model`` (``""``: the server's only model, asked at the first
    request); the optional key from the environment."""
    base_url = settings.base_url or os.environ.get(BASE_URL_ENV_VAR, "").strip()
    if not base_url:
        raise UsageError(NEEDS_BASE_URL)
    return CompatibleRouter(
        model=settings.model or "",
        mode=settings.mode or MODES[0],
        api=settings_api(settings, CompatibleRouter.apis()),
        api_key=None if settings.dry_run else os.environ.get(KEY_ENV_VAR),
        base_url=base_url,
    )


#: The backend's declaration (registered in :data:`playground.routing.registry.BUILTIN`).
SPEC = RouterSpec(
    name=CompatibleRouter.name,
    summary="A local OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio): --base-url",
    build=build,
    capabilities=CompatibleRouter.capabilities,
    default_model="",
    model_env_var=MODEL_ENV_VAR,
    declare=openai_declaration,
    options=frozenset({"base_url", "api"}),
    needs_base_url=True,
    base_url_env_var=BASE_URL_ENV_VAR,
)
