"""An episode stopped while it ran (ctrl+c, SIGTERM or SIGHUP ending the playground), kept as
what happened: the calls it made so far, then the running call as ``cancelled``.

A caller that must keep an episode whatever ends it hands a :class:`RunningEpisode` to
:func:`playground.loop.episode.run_question_episode` (or ``run_manual_episode``,
``fork_episode``) and, when the run is cut short, calls :meth:`RunningEpisode.stop`: from the
thread the exception came out on (``playground ask``), or from a signal handler on another
thread than the episode's (the TUI). The episode it returns is the usual shape
(docs/records.md, "Episode") with ``end`` ``"cancelled"``, ``gave_up`` true and a last
``giveup`` step whose ``reason`` is ``"cancelled"``; the running call, if one ran, is the last
of ``calls``, its record as the command line's ``call`` keeps a stopped call
(:func:`playground.core.cancelled.cancelled_record`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from playground.core.record import CallRecord
from playground.loop.step import Node, Step

if TYPE_CHECKING:
    from playground.core.gate import Gate
    from playground.loop.episode import Episode

#: The ``end`` (and the ``giveup`` step's ``reason``) of an episode stopped while it ran.
CANCELLED = "cancelled"


@dataclass(frozen=True)
class RunningCall:
    """The call an episode is waiting on: ``tool``, ``args``, ``call_id``, when it started
    (``time.perf_counter()``), the contract's body runs before it and its source's label."""

    tool: str
    args: Any
    call_id: str
    started: float
    runs_before: int
    source: str


class RunningEpisode:
    """Where a running episode can be read from (set by the loop's machine as it runs).

    ``episode``: the :class:`~playground.loop.episode.Episode` being built (``None`` before
    the run starts). ``call``: the call the gate is running now (``None`` between calls).
    ``finished``: the machine reached ``reply`` or ``giveup``. ``stopped``: :meth:`stop` was
    called; the machine then visits no further node (a call running then still returns)."""

    def __init__(self) -> None:
        self.episode: Episode | None = None
        self.call: RunningCall | None = None
        self.finished = False
        self.stopped = False
        self._gate: Gate | None = None

    def started(self, episode: Episode, gate: Any) -> None:
        """The machine starts ``episode`` on ``gate`` (a :class:`~playground.core.gate.Gate`,
        whose body counts tell whether the running call's body had started)."""
        self.episode, self._gate, self.finished = episode, gate, False

    def calling(self, tool: Any, args: Any, call_id: str) -> None:
        """The machine hands ``tool`` (as the router named it) with ``args`` to the gate."""
        gate = self._gate
        name = str(tool)
        contract = gate.registry.get(name) if gate is not None else None
        source = getattr(contract, "tool_source", None)
        self.call = RunningCall(
            tool=name,
            args=args,
            call_id=call_id,
            started=time.perf_counter(),
            runs_before=gate.body_runs[name] if gate is not None else 0,
            source=str(getattr(source, "label", "") or ("in-process" if contract else "")),
        )

    def called(self) -> None:
        """The running call's record is in the episode's ``calls``."""
        self.call = None

    def ended(self) -> None:
        """The machine reached ``reply`` or ``giveup``."""
        self.finished = True

    def stop(self, how: str) -> Episode | None:
        """Stop the episode where it stands and return it as kept: the one the machine
        finished, as it is; else the calls made so far, the running one as ``cancelled``
        (``the call was cancelled (HOW) after N s; no result``) and a ``giveup`` step, the
        reply ``The episode was cancelled (HOW) after N call(s); no reply.`` ``how``: what
        stopped it (``"ctrl+c"``, ``"the playground was ended (SIGTERM)"``). ``None`` when no
        episode has started. Never raises for the state it finds; call it once."""
        self.stopped = True
        ep = self.episode
        if ep is None:
            return None
        if self.finished:
            return ep
        calls, running = list(ep.calls), self.call
        if running is not None and not (calls and calls[-1].call_id == running.call_id):
            calls.append(self._cancelled_record(running, how))  # else: its record just came
        last = calls[-1] if running is not None else None
        reply = f"The episode was cancelled ({how}) after {len(calls)} call(s); no reply."
        step = Step(
            node=Node.GIVEUP,
            attempt=len(calls),
            tool=last.tool if last else None,
            args=last.args if last else None,
            kind=last.kind if last else None,
            error=last.error if last else None,
            call=len(calls) - 1 if last else None,
            message=reply,
            reason=CANCELLED,
            fixes=list(ep.fixes),
        )
        return replace(
            ep,
            calls=calls,
            steps=[*ep.steps, step],
            reply=reply,
            ok=False,
            gave_up=True,
            end=CANCELLED,
            attempts=len(calls),
            fixes=list(ep.fixes),
            moves=list(ep.moves),
            changes=list(ep.changes),
            tool_turns=list(ep.tool_turns),
            warnings=list(ep.warnings),
        )

    def _cancelled_record(self, running: RunningCall, how: str) -> CallRecord:
        from playground.core.cancelled import cancelled_record

        if self._gate is None:  # never: a call runs only once started() gave the gate
            return CallRecord(
                tool=running.tool,
                args=running.args,
                call_id=running.call_id,
                kind=CANCELLED,
                error=CANCELLED,
                message=f"the call was cancelled ({how}); no result",
            )
        return cancelled_record(
            self._gate,
            running.tool,
            running.args,
            call_id=running.call_id,
            started=running.started,
            runs_before=running.runs_before,
            how=how,
        )
