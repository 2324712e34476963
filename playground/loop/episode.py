"""The episode loop: failure as a path, not an exception (seed 003 steps 6-7, seed 004).

An explicit state machine over the nodes of docs/design.md: ``pick``, ``validate``, ``run``,
``check``, ``repair``, ``reply``, ``giveup``. The gate validates, runs and checks in one
``Gate.call``; the machine makes that call in ``validate`` and then steps through the one
:class:`~playground.core.record.CallRecord` as three steps (validate: the verdict; run: body,
cache, retries — only when the verdict passed; check: the outcome kind and reason), so a UI can
show them one at a time.

Transitions::

    pick     → validate  (a call to make)  | reply (the router answered in text)
             → giveup    (router error, or max_steps router moves without an answer)
    validate → run       (verdict passed)  | check (refused before the body)
    run      → check
    check    → giveup    (FAILURE_LIMIT identical failures in a row — always)
             → repair    (the loop repairs, REPAIRS knows the reason, fewer than MAX_ATTEMPTS
                          tries of this call, and the rule found a fix)
             manual:   → reply (ok) | giveup (empty: "nothing found"; anything else unrepaired)
             question: → validate (next call of the same move) | pick (ask the router again)
    repair   → validate
    reply, giveup: the end.

Who repairs: a manual episode (the developer picked) and a question episode with a router whose
capabilities say ``repairs="loop"`` (the offline router stands in for the model by rules, as in
seed 003) use the REPAIRS table. With ``repairs="model"`` (Gemini) the model repairs by reading
the error, as seed 004 describes; the same FAILURE_LIMIT holds across its turns.
``loop_repairs`` overrides this.

Public entry points: :func:`run_question_episode`, :func:`run_manual_episode`,
:func:`fork_episode`. None of them raises for a tool's or the router's failure.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from playground.core import outcome as oc
from playground.core.record import VALID, CallRecord
from playground.core.wire import PROVIDERS, group_for_provider, provider_views
from playground.errors import UsageError
from playground.loop import reply as replies
from playground.loop.call_ids import distinct_calls
from playground.loop.failures import FAILURE_LIMIT, FailureTracker, failure_message
from playground.loop.repair import Fix, can_repair, repair
from playground.loop.step import Node, Step
from playground.routing import korean
from playground.routing.base import FunctionCall, Move, Router, ToolResult, Turn
from playground.routing.registry import repairs_by_loop

if TYPE_CHECKING:
    from playground.workbench import Playground

#: Tries of one call (the first plus repairs) before the loop stops repairing (seed 003).
MAX_ATTEMPTS = 3
#: Router moves in one question episode before it is stopped without an answer.
DEFAULT_MAX_STEPS = 8


@dataclass
class _Checkpoint:
    """Machine state just before one attempt's ``validate`` (for :func:`fork_episode`)."""

    steps: int
    calls: int
    fixes: int
    moves: int
    changes: int
    warnings: int
    conversation: list[Turn]
    pending: list[FunctionCall]
    model_ids: list[str]
    id_warnings: list[str]
    index: int
    results: list[ToolResult]
    tracker: FailureTracker
    tries: int
    tool: Any
    args: Any
    call_id: str


@dataclass
class Episode:
    """One question (or one hand-picked call) handled end to end; ``to_json()`` is docs/design.md's shape.

    ``question``: the user's text, ``None`` for a manual episode. ``router``: the router's name
    (``"manual"`` when the developer picked). ``calls``: the records in the order they ran.
    ``steps``: one :class:`~playground.loop.step.Step` per node visited. ``reply``: the final text.
    ``ok``: answered from a successful, non-empty result (or a router answer without failed calls).
    ``attempts``: calls made. ``fixes``: readable repair lines. ``gave_up``: ended in ``giveup``.
    ``moves``: each router move as ``Move.to_json()``. ``end``: ``answered`` | ``no_call`` (the
    router answered without calling a tool: no tool fits, or it asks the user for a value) |
    ``nothing_found`` | ``failed`` (the router answered after a failed call) | ``gave_up`` |
    ``router_error`` | ``max_steps`` | ``cancelled`` (stopped while it ran:
    :mod:`playground.loop.interrupted`). ``repairs_by``: ``loop`` or
    ``router``. ``forked_from``: ``{"step", "attempt", "args"}`` for a fork, else ``None``.
    ``tool_turns``: for each router move that called tools, the answers grouped per provider
    (:func:`tool_turn_wire`); parallel calls travel together.
    ``changes``: what the repairs changed in the request (``Fix.changes`` dicts); when an
    episode ends ``answered`` or ``nothing_found`` after such a change the reply says so
    (:func:`playground.loop.reply.repair_note`, in the question's language).
    ``warnings``: one line per router move whose calls repeated an id or had none
    (``"move 1: repeated call ids 'x' ×2: ..."``; :mod:`playground.loop.call_ids`); each such
    call's record carries its own warning too.
    """

    question: str | None
    router: str
    calls: list[CallRecord] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    reply: str = ""
    ok: bool = False
    attempts: int = 0
    fixes: list[str] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    gave_up: bool = False
    moves: list[dict[str, Any]] = field(default_factory=list)
    end: str = ""
    repairs_by: str = "loop"
    forked_from: dict[str, Any] | None = None
    max_attempts: int = MAX_ATTEMPTS
    failure_limit: int = FAILURE_LIMIT
    tool_turns: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    conversation: list[Turn] = field(default_factory=list, repr=False)
    checkpoints: dict[int, _Checkpoint] = field(default_factory=dict, repr=False)
    router_obj: Router | None = field(default=None, repr=False)
    max_steps: int = DEFAULT_MAX_STEPS

    def to_json(self) -> dict[str, Any]:
        """``{"question", "router", "calls": [record.to_json()], "steps": [{"node", "attempt",
        "tool", "args", "verdict", "body_ran", "cache", "kind", "error", "retries", "delays_ms",
        "fixes", "call", "move", "explanation", "message", "reason"}], "reply", "ok", "attempts",
        "fixes", "changes", "gave_up", "moves", "end", "repairs_by", "forked_from", "max_attempts",
        "failure_limit", "tool_turns", "warnings"}``. ``call`` / ``move`` in a step index
        ``calls`` / ``moves``; keys that do not apply to a node are ``None``. Secrets are
        redacted everywhere (:mod:`playground.core.redaction`): those of every call's arguments
        and every move's arguments, and key-looking strings."""
        from playground.core.redaction import redact, secret_values

        data = {
            "question": self.question,
            "router": self.router,
            "calls": [r.to_json() for r in self.calls],
            "steps": [step.to_json() for step in self.steps],
            "reply": self.reply,
            "ok": self.ok,
            "attempts": self.attempts,
            "fixes": list(self.fixes),
            "changes": copy.deepcopy(self.changes),
            "gave_up": self.gave_up,
            "moves": copy.deepcopy(self.moves),
            "end": self.end,
            "repairs_by": self.repairs_by,
            "forked_from": self.forked_from,
            "max_attempts": self.max_attempts,
            "failure_limit": self.failure_limit,
            "tool_turns": copy.deepcopy(self.tool_turns),
            "warnings": list(self.warnings),
        }
        secrets = set().union(
            *(secret_values(r.args) for r in self.calls), secret_values(data["moves"])
        )
        return dict(redact(data, secrets))


def tool_turn_wire(move: int, results: list[ToolResult]) -> dict[str, Any]:
    """What answers one router move on the wire, grouped as each provider requires (all the
    calls of one turn together): ``{"move", "call_ids", "wire": {"gemini": one Content with a
    function_response part per call, "anthropic": one user message with every tool_result
    block, "openai": one tool message per call}}`` (see :func:`core.wire.group_for_provider`).
    ``call_ids``: the ids the answers go back under (the model's; ``""`` for a call it gave no
    id, whose answer then carries none)."""
    views = [provider_views(res.name, res.call_id or None, res.outcome) for res in results]
    return {
        "move": move,
        "call_ids": [res.call_id for res in results],
        "wire": {provider: group_for_provider(provider, views) for provider in PROVIDERS},
    }


def _tool_result(call: FunctionCall, model_id: str, record: CallRecord, message: str) -> ToolResult:
    """The answer sent back to the router for ``call``, under ``model_id`` (the id the model
    gave the call, ``""`` for none): ``record``'s outcome, with the accumulated ``message`` as
    the model-facing text on failures."""
    return ToolResult(
        call_id=model_id,
        name=call.name,
        ok=record.ok,
        kind=record.kind,
        value=record.value,
        error=record.error,
        message=message or record.message,
    )


class Watch(Protocol):
    """Whoever must know where a running episode stands (a caller that keeps it when ctrl+c
    or a signal stops it: :class:`playground.loop.interrupted.RunningEpisode`). The machine
    calls :meth:`started` as it runs, :meth:`calling` as it hands a call to the gate and
    :meth:`called` when the call's record is in ``episode.calls``, and :meth:`ended` when it
    reaches ``reply`` or ``giveup``; it visits no further node once ``stopped`` is true."""

    stopped: bool

    def started(self, episode: Episode, gate: Any) -> None: ...

    def calling(self, tool: Any, args: Any, call_id: str) -> None: ...

    def called(self) -> None: ...

    def ended(self) -> None: ...


class _Unwatched:
    """The :class:`Watch` of an episode nobody watches."""

    stopped = False

    def started(self, episode: Episode, gate: Any) -> None:
        pass

    def calling(self, tool: Any, args: Any, call_id: str) -> None:
        pass

    def called(self) -> None:
        pass

    def ended(self) -> None:
        pass


class _Machine:
    """Runs one episode node by node; state lives here, results go into ``self.ep``."""

    def __init__(
        self,
        pg: Playground,
        ep: Episode,
        *,
        loop_repairs: bool,
        manual: bool,
        running: Watch | None = None,
    ) -> None:
        self.pg = pg
        self.ep = ep
        self.running: Watch = running or _Unwatched()
        self.loop_repairs = loop_repairs
        self.manual = manual
        self.tracker = FailureTracker()
        self.pending: list[FunctionCall] = []
        self.model_ids: list[str] = []  # per pending call: the id its answer goes back under
        self.id_warnings: list[str] = []  # per pending call: why its id was flagged, or ""
        self.index = 0
        self.results: list[ToolResult] = []
        self.tries = 0
        self.tool: Any = None
        self.args: Any = None
        self.call_id = ""
        self.record: CallRecord | None = None
        self.message = ""
        self.fix: Fix | None = None
        self.final: tuple[str, str, str] | None = None  # (end, reason, reply) for reply/giveup
        self.node: Node | None = Node.PICK

    # -- bookkeeping ---------------------------------------------------------------------------
    def step(self, node: Node, attempt: int | None = None, **fields: Any) -> None:
        """Record a visit of ``node`` (``fields``: :class:`Step` fields; ``retries`` /
        ``delays_ms`` default to empty lists) with the episode's fixes so far."""
        fields["retries"] = fields.get("retries") or []
        fields["delays_ms"] = fields.get("delays_ms") or []
        self.ep.steps.append(
            Step(
                node=node,
                attempt=self.ep.attempts if attempt is None else attempt,
                fixes=list(self.ep.fixes),
                **fields,
            )
        )

    def checkpoint(self) -> None:
        self.ep.checkpoints[self.ep.attempts + 1] = _Checkpoint(
            steps=len(self.ep.steps),
            calls=len(self.ep.calls),
            fixes=len(self.ep.fixes),
            moves=len(self.ep.moves),
            changes=len(self.ep.changes),
            warnings=len(self.ep.warnings),
            conversation=list(self.ep.conversation),
            pending=list(self.pending),
            model_ids=list(self.model_ids),
            id_warnings=list(self.id_warnings),
            index=self.index,
            results=list(self.results),
            tracker=copy.deepcopy(self.tracker),
            tries=self.tries,
            tool=self.tool,
            args=copy.deepcopy(self.args),
            call_id=self.call_id,
        )

    def restore(self, cp: _Checkpoint) -> None:
        self.pending, self.index, self.results = list(cp.pending), cp.index, list(cp.results)
        self.model_ids, self.id_warnings = list(cp.model_ids), list(cp.id_warnings)
        self.tracker, self.tries = copy.deepcopy(cp.tracker), cp.tries
        self.tool, self.args, self.call_id = cp.tool, copy.deepcopy(cp.args), cp.call_id
        self.ep.conversation = list(cp.conversation)

    def with_note(self, text: str, end: str) -> str:
        """``text`` plus what the repairs changed in the request, when the reply answers
        (``answered``) or says nothing was found (``nothing_found``)."""
        if end not in ("answered", "nothing_found") or not self.ep.changes:
            return text
        ko = korean.has_hangul(self.ep.question or "")
        note = replies.repair_note(self.ep.changes, ko, answered=end == "answered")
        if not note:
            return text
        body = text.rstrip()
        if body.endswith(".") and not ko:
            return body[:-1] + note + "."
        return body + note

    def run(self) -> Episode:
        self.running.started(self.ep, self.pg.gate)
        while self.node and not self.running.stopped:
            self.node = getattr(self, f"_{self.node}")()
        if not self.node:
            self.running.ended()
        return self.ep

    def begin_call(self, call: FunctionCall) -> Node | None:
        self.tool, self.args, self.call_id, self.tries = call.name, call.args, call.id, 0
        return Node.VALIDATE

    # -- nodes ---------------------------------------------------------------------------------
    def _pick(self) -> Node | None:
        router = self.ep.router_obj
        assert router is not None  # a question episode always has one (run_question_episode)
        moves_made = len(self.ep.moves)
        if moves_made >= self.ep.max_steps:
            self.final = (
                "max_steps",
                "max_steps",
                f"Stopped after {moves_made} router moves without a final answer.",
            )
            return Node.GIVEUP
        try:
            move = router.next_move(self.ep.conversation, self.pg.registry.declarations())
            if not isinstance(move, Move):
                raise TypeError(f"next_move returned {type(move).__name__}, not a Move")
        except Exception as exc:  # RouterError by protocol; anything else must not escape either
            text = str(exc).strip() or type(exc).__name__
            self.step(Node.PICK, self.ep.attempts + 1, reason="router_error", message=text)
            self.final = ("router_error", "router_error", f"The router could not answer: {text}")
            return Node.GIVEUP
        self.ep.moves.append(move.to_json())
        self.ep.conversation.append(Turn(role="model", move=move))
        move_index = len(self.ep.moves) - 1
        first = move.calls[0] if move.calls else None
        self.step(
            Node.PICK,
            self.ep.attempts + 1,
            tool=first.name if first else None,
            args=first.args if first else None,
            move=move_index,
            explanation=move.explanation,
            message=move.text,
        )
        if not move.calls:
            return Node.REPLY
        turn = distinct_calls(move.calls, taken=(r.call_id for r in self.ep.calls))
        if turn.summary:
            self.ep.warnings.append(f"move {move_index + 1}: {turn.summary}")
        self.pending, self.index, self.results = turn.calls, 0, []
        self.model_ids, self.id_warnings = turn.model_ids, turn.warnings
        return self.begin_call(self.pending[0])

    def answered_under(self, record: CallRecord) -> None:
        """In a question episode: flag ``record`` when its call's id was repeated or missing,
        and make its wire views carry the id its answer really goes back under (the model's,
        not the playground's ``x#2`` or a repair's ``x~r1``)."""
        if self.manual or self.index >= len(self.model_ids):
            return
        warning = self.id_warnings[self.index]
        if warning:
            record.warnings.append(warning)
        model_id = self.model_ids[self.index]
        if record.wire and model_id != record.call_id:
            outcome = oc.Outcome(
                record.ok, record.value, record.error, oc.OutcomeKind(record.kind), record.message
            )
            record.wire = provider_views(record.tool, model_id or None, outcome)

    def _validate(self) -> Node | None:
        self.checkpoint()
        self.tries += 1
        self.ep.attempts += 1
        call_id = self.call_id or self.pg.gate.next_call_id()  # the id the gate would give
        self.running.calling(self.tool, self.args, call_id)
        record = self.pg.gate.call(self.tool, self.args, call_id=call_id)
        self.answered_under(record)
        self.record = record
        self.ep.calls.append(record)
        self.running.called()
        call_index = len(self.ep.calls) - 1
        refused = record.verdict != VALID
        self.step(
            Node.VALIDATE,
            tool=record.tool,
            args=record.args,
            verdict=record.verdict,
            call=call_index,
            kind=record.kind if refused else None,
            error=record.error if refused else None,
            message=record.message if refused else None,
        )
        return Node.CHECK if refused else Node.RUN

    def _run(self) -> Node | None:
        r = self.record
        assert r is not None
        retries = [asdict(x) for x in r.retries]
        self.step(
            Node.RUN,
            tool=r.tool,
            args=r.args,
            verdict=r.verdict,
            body_ran=r.body_ran,
            cache=r.cache,
            retries=retries,
            delays_ms=[x["delay_ms"] for x in retries],
            call=len(self.ep.calls) - 1,
        )
        return Node.CHECK

    def _check(self) -> Node | None:
        r = self.record
        assert r is not None
        count = self.tracker.observe(r)
        if count:
            self.message = failure_message(r, count, self.tracker.limit, self.pg.registry)
        else:
            self.message = r.message
        reason = r.error or ("result:empty" if r.kind == oc.EMPTY else "")
        self.step(
            Node.CHECK,
            tool=r.tool,
            args=r.args,
            verdict=r.verdict,
            body_ran=r.body_ran,
            cache=r.cache,
            kind=r.kind,
            error=r.error,
            call=len(self.ep.calls) - 1,
            message=self.message,
            reason=reason,
        )
        if self.tracker.reached:
            self.final = ("gave_up", r.error, replies.gave_up(r, self.message, self.ep.attempts))
            return Node.GIVEUP
        why = ""
        if r.kind not in (oc.OK, oc.EMPTY):
            policy = oc.POLICIES.get(r.kind)
            if not (policy and policy.repairable):
                why = f"{r.kind} is never repaired"
            elif not can_repair(r.error):
                why = f"the repair table has no rule for {r.error}"
            elif not self.loop_repairs:
                why = "the router repairs by reading the error"
            elif self.tries >= self.ep.max_attempts:
                why = f"the attempt limit ({self.ep.max_attempts}) was reached"
            else:
                fix = repair(self.pg.registry, self.tool, self.args, r.error)
                if fix is not None:
                    self.fix = fix
                    return Node.REPAIR
                why = "the repair table found no fix here"
        if self.manual:
            if r.kind == oc.OK:
                self.final = ("answered", "", replies.answer_from(r))
                return Node.REPLY
            if r.kind == oc.EMPTY:
                # labelled as in a question episode: a reply that nothing was found, not a giveup
                self.final = ("nothing_found", "result:empty", replies.nothing_found(r))
                return Node.REPLY
            self.final = (
                "gave_up",
                r.error,
                replies.gave_up(r, f"{self.message} ({why}.)", self.ep.attempts),
            )
            return Node.GIVEUP
        # question episode: answer the router's call and go on
        self.results.append(
            _tool_result(self.pending[self.index], self.model_ids[self.index], r, self.message)
        )
        self.index += 1
        if self.index < len(self.pending):
            return self.begin_call(self.pending[self.index])
        self.ep.conversation.append(Turn(role="tool", results=list(self.results)))
        self.ep.tool_turns.append(tool_turn_wire(len(self.ep.moves), list(self.results)))
        return Node.PICK

    def _repair(self) -> Node | None:
        fix = self.fix
        assert fix is not None
        self.ep.fixes.extend(fix.fixes)
        self.ep.changes.extend(copy.deepcopy(fix.changes))
        self.step(
            Node.REPAIR,
            tool=fix.tool,
            args=fix.args,
            reason=fix.rule,
            message="; ".join(fix.fixes),
            call=len(self.ep.calls) - 1,
        )
        self.tool, self.args = fix.tool, fix.args
        if self.call_id:
            self.call_id = f"{self.call_id.split('~')[0]}~r{self.tries}"
        self.fix = None
        return Node.VALIDATE

    def _reply(self) -> Node | None:
        ep = self.ep
        if self.manual:
            end, reason, text = self.final or ("answered", "", "")
            ep.ok = end == "answered"
        else:
            move = ep.conversation[-1].move if ep.conversation else None
            text = (move.text if move else None) or ""
            last = ep.calls[-1] if ep.calls else None
            reason = ""
            if last is None or last.kind == oc.OK:
                end, ep.ok = ("answered" if last else "no_call", bool(text.strip()))
                if not text.strip():
                    text = "(the router gave an empty answer)"
            elif last.kind == oc.EMPTY:
                end, ep.ok, reason = "nothing_found", False, "result:empty"
                text = text.strip() or replies.nothing_found(last)
            else:
                end, ep.ok, reason = "failed", False, last.error
                text = text.strip() or replies.gave_up(last, last.message, ep.attempts)
        text = self.with_note(text, end)
        ep.reply, ep.end = text, end
        self.step(Node.REPLY, tool=None, message=text, reason=reason or None)
        return None

    def _giveup(self) -> Node | None:
        end, reason, text = self.final or ("gave_up", "", "Gave up.")
        text = self.with_note(text, end)
        self.ep.reply, self.ep.end, self.ep.ok, self.ep.gave_up = text, end, False, True
        self.step(
            Node.GIVEUP,
            message=text,
            reason=reason,
            error=self.record.error if self.record else None,
            tool=self.record.tool if self.record else None,
        )
        return None


def _repairs_by_loop(router: Router, loop_repairs: bool | None) -> bool:
    return loop_repairs if loop_repairs is not None else repairs_by_loop(router)


def run_question_episode(
    pg: Playground,
    question: str,
    router: Any = None,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    loop_repairs: bool | None = None,
    running: Watch | None = None,
) -> Episode:
    """Handle ``question`` end to end: the router picks, the gate answers, the loop repairs or stops.

    ``pg``: a :class:`~playground.workbench.Playground`. ``router``: a
    :class:`~playground.routing.base.Router` (default ``pg.router``). After every set of tool
    results the router is asked again; a text move ends the episode in ``reply``. ``max_steps``:
    router moves allowed (≥ 1). ``loop_repairs``: apply the REPAIRS table (default: the router's
    ``capabilities.repairs == "loop"``). A ``RouterError`` (or any router exception) ends the episode in
    ``giveup`` with ``end = "router_error"``; nothing is raised except :class:`UsageError` for a
    missing router or a ``max_steps`` below 1 (and a ``KeyboardInterrupt`` or ``SystemExit``
    that stops it: ``running``, a :class:`Watch` such as
    :class:`~playground.loop.interrupted.RunningEpisode`, then
    gives the episode as it stood).
    """
    router = router if router is not None else getattr(pg, "router", None)
    if router is None:
        raise UsageError("no router: pass one or set playground.router")
    if not isinstance(max_steps, int) or max_steps < 1:
        raise UsageError(f"max_steps must be a positive integer, got {max_steps!r}")
    by_loop = _repairs_by_loop(router, loop_repairs)
    ep = Episode(
        question=question,
        router=str(getattr(router, "name", type(router).__name__)),
        repairs_by="loop" if by_loop else "router",
        router_obj=router,
        max_steps=max_steps,
        conversation=[Turn(role="user", text=question)],
    )
    return _Machine(pg, ep, loop_repairs=by_loop, manual=False, running=running).run()


def run_manual_episode(
    pg: Playground, tool: str, args: Any, running: Watch | None = None
) -> Episode:
    """Run one hand-picked call as an episode with repairs (``call NAME ... --repair``).

    The developer is the ``pick`` node (step explanation ``"picked by the developer"``); the
    REPAIRS table fixes what it can for up to MAX_ATTEMPTS tries; FAILURE_LIMIT identical
    failures stop it. Ends in ``reply`` (ok: the answer from the first row) or ``giveup``
    (an empty result: "nothing found"; an unrepaired failure: the reason and the message).
    Never raises (but for what stops it: see ``running`` in :func:`run_question_episode`).
    """
    ep = Episode(question=None, router="manual", repairs_by="loop")
    machine = _Machine(pg, ep, loop_repairs=True, manual=True, running=running)
    machine.step(Node.PICK, 1, tool=tool, args=args, explanation={"picked_by": "developer"})
    machine.tool, machine.args, machine.call_id = tool, args, pg.gate.next_call_id()
    machine.node = Node.VALIDATE
    return machine.run()


def _edit_last_move(ep: Episode, position: int, name: str, args: Any) -> None:
    """Make the model turn being forked show the edited call (the ``position``-th of its
    ``calls``; by position, since two calls may share an id) so the router reads what really
    ran (a router that echoes its provider's raw turn back — Gemini — writes the calls into
    that raw content itself, by position, when it builds its request)."""
    for i in range(len(ep.conversation) - 1, -1, -1):
        turn = ep.conversation[i]
        if turn.role != "model" or turn.move is None:
            continue
        move = turn.move
        calls = [
            FunctionCall(name, copy.deepcopy(args), c.id) if i == position else c
            for i, c in enumerate(move.calls)
        ]
        ep.conversation[i] = Turn(role="model", move=replace(move, calls=calls))
        return


def fork_episode(
    pg: Playground,
    episode: Episode,
    step_index: int,
    new_args: Any,
    *,
    router: Router | None = None,
    running: Watch | None = None,
) -> Episode:
    """Run ``episode`` again from the attempt of ``steps[step_index]`` with ``new_args``.

    Everything before that attempt is copied (steps, calls, fixes, moves, the conversation and
    the failure count); the attempt runs with the same tool and ``new_args`` and the machine
    continues (repairs, further router moves). A ``repair`` step forks the attempt it prepared;
    a ``reply`` or ``giveup`` step forks the last attempt (edit the last call and run it again).
    Returns a new :class:`Episode` with ``forked_from = {"step", "attempt", "args"}``; the
    original is not changed. ``router``: for question episodes (default: the episode's router,
    then ``pg.router``). ``running``: as in :func:`run_question_episode`. Raises
    :class:`UsageError` for a step index out of range or a step that made no call (a text
    answer, a router error).
    """
    if not isinstance(step_index, int) or not 0 <= step_index < len(episode.steps):
        raise UsageError(f"step {step_index!r} is out of range (0..{len(episode.steps) - 1})")
    step = episode.steps[step_index]
    attempt = step.attempt + (1 if step.node == Node.REPAIR else 0)
    cp = episode.checkpoints.get(attempt)
    if cp is None:
        raise UsageError(f"step {step_index} ({step.node}) made no call to fork from")
    manual = episode.question is None
    ep = replace(
        episode,
        calls=list(episode.calls[: cp.calls]),
        steps=copy.deepcopy(episode.steps[: cp.steps]),
        fixes=list(episode.fixes[: cp.fixes]),
        changes=copy.deepcopy(episode.changes[: cp.changes]),
        moves=copy.deepcopy(episode.moves[: cp.moves]),
        warnings=list(episode.warnings[: cp.warnings]),
        tool_turns=copy.deepcopy([t for t in episode.tool_turns if t["move"] < cp.moves]),
        reply="",
        ok=False,
        gave_up=False,
        end="",
        attempts=attempt - 1,
        forked_from={"step": step_index, "attempt": attempt, "args": copy.deepcopy(new_args)},
        checkpoints={k: v for k, v in episode.checkpoints.items() if k < attempt},
        router_obj=router or episode.router_obj or getattr(pg, "router", None),
    )
    if not manual and ep.router_obj is None:
        raise UsageError("no router to continue the forked question episode")
    machine = _Machine(pg, ep, loop_repairs=ep.repairs_by == "loop", manual=manual, running=running)
    machine.restore(cp)
    machine.args = copy.deepcopy(new_args)
    if not manual and machine.index < len(machine.pending):
        old = machine.pending[machine.index]
        machine.pending[machine.index] = FunctionCall(
            name=machine.tool, args=machine.args, id=old.id
        )
        _edit_last_move(ep, machine.index, machine.tool, machine.args)
    machine.node = Node.VALIDATE
    return machine.run()
