"""The router protocol: what picks the next move for a conversation.

A router is given the conversation so far and the declarations (what a model is shown for each
contract: ``name``, ``description``, ``parameters`` as JSON Schema) and returns a :class:`Move`:
zero or more function calls, or a text answer. Routers never run tool bodies: the loop answers
every call through the gate and appends the results to the conversation.

Capability flags follow Harlequin's adapter idea: the TUI and CLI read them to decide what to
offer (a dry run, modes, explanations) instead of testing the router's type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Role = Literal["user", "model", "tool"]


@dataclass(frozen=True)
class FunctionCall:
    """One function call the router asks for.

    ``name``: the tool name (may be unknown to the registry: the gate answers ``unknown_tool``).
    ``args``: the arguments as the model wrote them (normally a dict, but anything is possible).
    ``id``: the call id used to match the function response (Gemini ``id``, Anthropic
    ``tool_use_id``, OpenAI ``tool_call_id``).
    """

    name: str
    args: Any
    id: str


@dataclass
class Move:
    """A router's answer for one turn.

    ``calls``: function calls to run, in order (several = parallel calls in one turn).
    ``text``: the text answer, when the router answers without (more) tools.
    ``explanation``: why (offline router: per-tool scores, matched terms, boundary sentences,
    argument evidence, threshold); a JSON-serialisable dict.
    ``raw``: the provider's raw content for this turn (Gemini: the model ``Content`` as JSON),
    appended back to the conversation unchanged.
    """

    calls: list[FunctionCall] = field(default_factory=list)
    text: str | None = None
    explanation: dict[str, Any] | None = None
    raw: Any = None

    def to_json(self) -> dict[str, Any]:
        """The move as JSON: ``{"calls": [{"name","args","id"}], "text", "explanation", "raw"}``."""
        return {
            "calls": [{"name": c.name, "args": c.args, "id": c.id} for c in self.calls],
            "text": self.text,
            "explanation": self.explanation,
            "raw": self.raw,
        }


@dataclass
class ToolResult:
    """The answer to one function call, as the gate produced it.

    ``call_id`` / ``name``: the call answered. ``ok`` / ``kind`` / ``value`` / ``error``: the
    outcome. ``response``: the Gemini ``function_response.response`` payload exactly as the
    playground sends it (``{"result": ...}`` on success, ``{"error": ...}`` on failure).
    """

    call_id: str
    name: str
    ok: bool
    kind: str
    value: Any
    error: str
    response: dict[str, Any]


@dataclass
class Turn:
    """One entry of the conversation: a user question, a model move, or tool results."""

    role: Role
    text: str | None = None
    move: Move | None = None
    results: list[ToolResult] = field(default_factory=list)


@dataclass(frozen=True)
class RouterCapabilities:
    """What a router can do; read by the UI, never inferred from the class.

    ``network``: needs the network and a key. ``explains``: fills ``Move.explanation``.
    ``parallel_calls``: may return several calls in one move. ``dry_run``: can show the exact
    request it would send next. ``modes``: function-calling modes it accepts (Gemini: AUTO,
    ANY, NONE, VALIDATED).
    """

    network: bool = False
    explains: bool = False
    parallel_calls: bool = False
    dry_run: bool = False
    modes: tuple[str, ...] = ()


@runtime_checkable
class Router(Protocol):
    """Picks the next move. Implementations: ``OfflineRouter`` (default), ``GeminiRouter``."""

    name: str
    capabilities: RouterCapabilities

    def next_move(self, conversation: list[Turn], declarations: list[dict[str, Any]]) -> Move:
        """Return the next move for ``conversation`` given ``declarations``.

        ``declarations``: one dict per contract, ``{"name", "description", "parameters"}`` with
        ``parameters`` a JSON Schema object. Raises :class:`playground.errors.RouterError` when
        the router cannot answer (no key, provider HTTP error); never any other exception.
        """
        ...
