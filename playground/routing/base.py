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

from playground.core.outcome import Outcome, OutcomeKind

Role = Literal["user", "model", "tool"]


@dataclass(frozen=True)
class FunctionCall:
    """One function call the router asks for.

    ``name``: the tool name (may be unknown to the registry: the gate answers ``unknown_tool``).
    ``args``: the arguments as the model wrote them (normally a dict, but anything is possible).
    ``id``: the call id used to match the function response (Gemini ``id``, Anthropic
    ``tool_use_id``, OpenAI ``tool_call_id``) as the model wrote it — ``""`` when it wrote
    none; it may repeat within a turn. The loop runs each call under an id of its own
    (:mod:`playground.loop.call_ids`) and answers under this one.
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
    ``raw``: the provider's raw content for this turn (Gemini: the model ``Content`` as JSON;
    OpenAI Responses: the output items; Chat Completions: the assistant message; Anthropic: the
    content blocks, thinking blocks and their signatures included), appended back to the
    conversation unchanged.
    ``usage``: what the provider counted for this request, ``{"input_tokens": int,
    "output_tokens": int}`` (``None``: no count, e.g. the offline router).
    ``notes``: one line per thing the provider did that the playground noticed and did not
    paper over (an OpenAI-compatible server that ignored ``tool_choice``; a retry after 429).
    """

    calls: list[FunctionCall] = field(default_factory=list)
    text: str | None = None
    explanation: dict[str, Any] | None = None
    raw: Any = None
    usage: dict[str, int] | None = None
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The move as JSON: ``{"calls": [{"name","args","id"}], "text", "explanation", "raw"}``,
        plus ``"usage"`` and ``"notes"`` when the router gave them."""
        data: dict[str, Any] = {
            "calls": [{"name": c.name, "args": c.args, "id": c.id} for c in self.calls],
            "text": self.text,
            "explanation": self.explanation,
            "raw": self.raw,
        }
        if self.usage is not None:
            data["usage"] = dict(self.usage)
        if self.notes:
            data["notes"] = list(self.notes)
        return data


@dataclass
class ToolResult:
    """The answer to one function call, as the gate produced it (provider-neutral).

    ``call_id`` / ``name``: the call answered; ``call_id`` is the id the model gave it (what
    the answer goes back under; ``""`` when it gave none — the answer then carries no id).
    Several results of one turn may share an id: they answer the calls in order. ``ok`` / ``kind`` / ``value`` / ``error`` /
    ``message``: the outcome (``message``: what the model reads — on a failure the loop's text,
    including the consecutive-failure count; on an empty result the note). Each provider's
    shape of it is built from :attr:`outcome` by :mod:`playground.core.wire`.
    """

    call_id: str
    name: str
    ok: bool
    kind: str
    value: Any
    error: str
    message: str = ""

    @property
    def outcome(self) -> Outcome:
        """The result as an :class:`~playground.core.outcome.Outcome` (for :mod:`core.wire`)."""
        kind = OutcomeKind(self.kind) if self.kind else OutcomeKind.RAISED
        return Outcome(self.ok, self.value, self.error, kind, self.message)


@dataclass
class Turn:
    """One entry of the conversation: a user question, a model move, or tool results."""

    role: Role
    text: str | None = None
    move: Move | None = None
    results: list[ToolResult] = field(default_factory=list)


def in_call_order(results: list[ToolResult], call_order: list[str]) -> list[ToolResult]:
    """``results`` in the order of the calls they answer: each takes the first position of
    ``call_order`` (the ids of the model turn's calls) not yet taken whose id is its own, so two
    calls sharing an id are answered in their order; a result whose id is not among them comes
    last, in the order given."""
    slots: dict[str, list[int]] = {}
    for position, call_id in enumerate(call_order):
        slots.setdefault(call_id, []).append(position)

    def rank(result: ToolResult) -> int:
        free = slots.get(result.call_id)
        return free.pop(0) if free else len(call_order)

    ranked = sorted(((rank(r), i, r) for i, r in enumerate(results)), key=lambda t: t[:2])
    return [r for _, _, r in ranked]


@dataclass(frozen=True)
class RouterCapabilities:
    """What a router can do; read by the UI, never inferred from the class.

    ``explains``: fills ``Move.explanation``. ``parallel_calls``: may return several calls in
    one move. ``dry_run``: has ``dry_run(conversation, declarations) -> {"method", "url",
    "headers", "body"}``, the exact request it would send next. ``modes``: function-calling
    modes it accepts, the first being the default (Gemini: AUTO, ANY, NONE, VALIDATED).
    ``repairs``: who repairs a failed call in a question episode — ``"loop"`` (the REPAIRS
    table stands in for a model, seed 003) or ``"model"`` (the model reads the error and tries
    again, seed 004). ``default_rpm``: requests per minute ``eval`` keeps to by default
    (``None``: unlimited). ``deterministic``: the same conversation always gets the same move
    (``eval --repeat N`` runs it once per case: N of N by construction). ``writes_text``: a
    model that writes free text, so it can answer an MCP server's ``sampling/createMessage``
    (:mod:`playground.routing.sampling`).
    """

    explains: bool = False
    parallel_calls: bool = False
    dry_run: bool = False
    modes: tuple[str, ...] = ()
    repairs: Literal["loop", "model"] = "loop"
    default_rpm: float | None = None
    deterministic: bool = False
    writes_text: bool = False


@runtime_checkable
class Router(Protocol):
    """Picks the next move. Backends are declared in :mod:`playground.routing.registry`."""

    name: str
    capabilities: RouterCapabilities

    def next_move(self, conversation: list[Turn], declarations: list[dict[str, Any]]) -> Move:
        """Return the next move for ``conversation`` given ``declarations``.

        ``declarations``: one dict per contract, ``{"name", "description", "parameters"}`` with
        ``parameters`` a JSON Schema object. Raises :class:`playground.errors.RouterError` when
        the router cannot answer (no key, provider HTTP error); never any other exception.
        """
        ...


@runtime_checkable
class DryRunRouter(Router, Protocol):
    """A router whose ``capabilities.dry_run`` is true: it can show its next request unsent."""

    def dry_run(
        self, conversation: list[Turn], declarations: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The exact request :meth:`next_move` would send now, without sending it or any key:
        ``{"method", "url", "headers", "body"}``. Raises :class:`playground.errors.RouterError`
        when the conversation cannot be converted."""
        ...
