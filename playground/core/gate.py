"""The gate: the single door through which every call passes (seed 003, ``call_tool``).

validate args → look up the cache → run the body (counted) → validate the result → outcome.
It never raises, whatever the body does, and it is the only place a tool body runs. Transient
failures are retried inside the gate with exponential backoff and jitter (tenacity), bounded in
attempts and total time (seed 004: "일시적 오류는 툴 실행 계층에서 지수 백오프로 ... 재시도");
a timeout is transient but not retried, so a hung body costs one time limit, not several; and a
contract that writes or whose effects are unknown is retried automatically only when declared
idempotent (its first attempt may have acted; :mod:`playground.core.effects`, issue 20 item 1).

A body runs through its contract's tool source, seen only as the
:class:`~playground.core.toolsource.ToolSource` protocol: the gate never imports
:mod:`playground.sources` (the worker, MCP servers). A contract built by hand, with a function
and no source, runs on the core's :class:`~playground.core.runner.InProcessRunner`.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from playground.core import outcome as oc
from playground.core.budget import size_warning, token_budget_from_env
from playground.core.cache import ResultCache
from playground.core.canonical import args_shape_problem, canonical_json, shorten
from playground.core.contracts import Contract
from playground.core.record import CallRecord, Retry
from playground.core.registry import Registry
from playground.core.runner import InProcessRunner
from playground.core.toolsource import BodyRun, Frame, ToolSource
from playground.core.validation import check_args, check_result, json_pointer
from playground.core.wire import provider_views, result_tokens

if TYPE_CHECKING:
    from tenacity import RetryCallState


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff for transient failures: at most ``max_attempts`` runs in all, waits of
    ``initial_s`` × 2ⁿ (capped at ``max_s``) plus up to ``jitter_s`` random seconds, and no new
    attempt once ``total_s`` seconds have passed since the first."""

    max_attempts: int = 3
    initial_s: float = 0.2
    max_s: float = 2.0
    jitter_s: float = 0.1
    total_s: float = 8.0


@dataclass
class Gate:
    """Runs calls for one registry; holds the cache and the per-contract body-run counts.

    ``sleep`` and ``clock`` are injectable (tests use a fake clock, never real sleeps).
    ``wire``: build provider views for every record (imports google-genai on first use).
    ``token_budget``: approximate tokens of result JSON over which an ok result gets a warning on
    its record (:mod:`playground.core.budget`; default 25,000 or ``PLAYGROUND_TOKEN_BUDGET``).
    ``hold_writes``: never run the body of a contract that may write (effects ``write`` or
    ``unknown``): such a call ends ``permission`` with the error ``held:write`` and the body does
    not run (a rerun or replay without ``--allow-writes``: :mod:`playground.batch.write_guard`).
    """

    registry: Registry
    cache: ResultCache = field(default_factory=ResultCache)
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    wire: bool = True
    body_runs: Counter[str] = field(default_factory=Counter)
    token_budget: int = field(default_factory=token_budget_from_env)
    hold_writes: bool = False
    _call_seq: int = 0
    _local: ToolSource | None = None

    def next_call_id(self) -> str:
        """A fresh local call id (``call_1``, ``call_2``, …) for calls typed by hand."""
        self._call_seq += 1
        return f"call_{self._call_seq}"

    def call(self, name: Any, args: Any, call_id: str | None = None) -> CallRecord:
        """Run one call through the gate and return its :class:`CallRecord`; never raises.

        ``name``: the tool name (anything: a non-string is an unknown tool). ``args``: the
        arguments as received (any JSON value; a non-object gives the verdict ``shape``).
        """
        started = time.perf_counter()
        call_id = call_id or self.next_call_id()
        try:
            record, outcome = self._call(name, args, call_id)
        except BaseException as exc:  # the gate itself must never raise  # pragma: no cover
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise  # ctrl+c, or SIGTERM / SIGHUP ending the playground (``__main__``)
            record = CallRecord(tool=str(name), args=args, call_id=call_id)
            outcome = oc.Outcome(
                False,
                None,
                f"raised:{type(exc).__name__}",
                oc.RAISED,
                oc.raised_message(str(name), oc.exception_text(exc)),
            )
        # the kind as plain text: records are data (an enum shows as <OutcomeKind.OK: ...> in repr)
        record.ok, record.kind, record.error = outcome.ok, str(outcome.kind), outcome.error
        record.value, record.message = outcome.value, outcome.message
        if self.wire:
            record.wire = provider_views(record.tool, call_id, outcome)
        if outcome.ok:
            warning = size_warning(record.tool, result_tokens(outcome), self.token_budget)
            if warning:
                record.warnings.append(warning)
        record.duration_ms = (time.perf_counter() - started) * 1000
        return record

    def _call(self, name: Any, args: Any, call_id: str) -> tuple[CallRecord, oc.Outcome]:
        tool = name if isinstance(name, str) else canonical_json(name)
        record = CallRecord(tool=tool, args=args, call_id=call_id)
        contract = self.registry.get(tool) if isinstance(name, str) else None
        if contract is None:
            record.canonical_args = _refused_args_text(args)
            record.verdict = "unknown_tool"
            return record, self._unknown_tool(tool)
        record.timeout_s = contract.timeout_s
        record.side_effects = contract_effects(contract)
        record.body_runs = self.body_runs[contract.name]
        verdict = check_args(contract, args)
        if not verdict.ok:
            record.canonical_args = _refused_args_text(args)
            record.verdict = verdict.code
            record.reasons = [r.to_json() for r in verdict.reasons]
            return record, oc.Outcome(
                False, None, f"args:{verdict.code}", oc.INVALID_ARGS, verdict.message
            )
        call_args = verdict.args  # as sent (issue 20 item 2); key_args only make the cache key
        record.canonical_args = canonical_json(verdict.key_args, keep_floats=True)
        if contract.caches:
            record.cache_key = self.cache.key(
                contract.name, verdict.key_args, record.canonical_args
            )
            hit, cached = self.cache.lookup(record.cache_key)
            if hit:
                record.cache = "hit"
                served = oc.Outcome(True, cached, "", oc.OK, "")
                blocks = self.cache.content_of(record.cache_key)
                if blocks is not None:  # the wire carries what the server sent the first time
                    served.details["content"] = blocks
                return record, served
        else:
            record.side_effects["cache_skip"] = contract.cache_skip_reason
        if self.hold_writes and contract.side_effects:
            return record, _held_write(contract)
        outcome = self._run_with_retries(contract, call_args, record)
        if contract.side_effects and record.body_ran:  # it may have changed what reads return
            forgotten = self.cache.forget_values()
            if forgotten:
                how = "writes" if contract.effects == "write" else "may write (effects unknown)"
                record.warnings.append(
                    f"{contract.name} {how} and ran: {forgotten} cached "
                    f"result{'s' if forgotten != 1 else ''} forgotten, so the next reads run again."
                )
        if contract.caches:
            if outcome.kind == oc.OK:
                self.cache.store(record.cache_key, outcome.value, outcome.details.get("content"))
                record.cache = "stored"
            else:
                record.cache = "miss"
        return record, outcome

    def _unknown_tool(self, tool: str) -> oc.Outcome:
        names = self.registry.names()
        close = get_close_matches(tool, names, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        message = (
            f"There is no tool named {tool!r}.{hint} The registered tools are: "
            f"{', '.join(names) or '(none)'}. Call one of them by its exact name."
        )
        return oc.Outcome(False, None, "args:unknown_tool", oc.UNKNOWN_TOOL, message)

    def _run_once(self, contract: Contract, args: dict[str, Any], record: CallRecord) -> oc.Outcome:
        self.body_runs[contract.name] += 1
        record.body_ran = True
        # counted as it starts: a call stopped mid-body (ctrl+c, a cancel) still shows this run
        record.body_runs = self.body_runs[contract.name]
        source = contract.tool_source
        if source is None:  # a contract built by hand: its fn runs in this process
            if self._local is None:
                self._local = InProcessRunner()
            source = self._local
        record.source = source.label
        run = source.call(contract, args, contract.timeout_s)
        if run.output:
            record.printed += run.output
        record.warnings.extend(run.notes)  # what the source cleaned up after the body
        if run.error is not None and run.error.frames:
            record.traceback = [dataclasses.asdict(f) for f in run.error.frames]
        out = self._outcome_of(contract, run)
        record.warnings += run.warnings
        if run.protocol:  # an MCP call: the result as sent, progress, version (issue 21)
            record.mcp = run.protocol
            content = run.protocol.get("result", {}).get("content")
            if content is not None and out.ok:
                out.details["content"] = content  # the blocks each provider's wire carries
        if out.kind == oc.INVALID_ARGS:
            record.verdict = out.error.removeprefix("args:")
            if run.error is not None and run.error.details.get("before_body"):
                # the argument did not become its annotated type: the body never ran
                self.body_runs[contract.name] -= 1
                record.body_runs = self.body_runs[contract.name]
                record.body_ran = False
                path = str(run.error.details.get("path") or "")
                pointer = json_pointer([p for p in path.split(".") if p])
                record.reasons.append(
                    {"code": record.verdict, "path": pointer, "message": run.error.text}
                )
        return out

    def _outcome_of(self, contract: Contract, run: BodyRun) -> oc.Outcome:
        name = contract.name
        if run.cancelled:
            detail = run.stopped or "cancelled"
            return oc.Outcome(
                False, None, "cancelled:user", oc.CANCELLED, oc.cancelled_message(name, detail)
            )
        if run.timed_out:
            detail = f"no answer within its time limit of {contract.timeout_s:g} s"
            if run.stopped:
                detail += f"; the body was {run.stopped}"
            msg = oc.transient_message(name, detail, 1)
            return oc.Outcome(
                False,
                None,
                "transient:timeout",
                oc.TRANSIENT,
                msg,
                {"timeout": True, "detail": detail},
            )
        if run.error is not None:
            err = run.error
            kind, reason, text = err.kind, err.reason, err.text
            if kind == oc.TRANSIENT:
                msg = oc.transient_message(name, text, 1)
                details: dict[str, Any] = {"detail": text}
                if err.retry_after_s is not None:
                    details["retry_after_s"] = err.retry_after_s
                return oc.Outcome(False, None, f"transient:{reason}", oc.TRANSIENT, msg, details)
            if kind == oc.INVALID_ARGS and reason != "invalid_params":
                # the tool refused its input (``kind = "invalid_args"``) or an argument did
                # not convert to its annotated type: the model can fix the call
                return oc.Outcome(
                    False,
                    None,
                    f"args:{reason}",
                    oc.INVALID_ARGS,
                    oc.tool_refused_message(name, reason, text),
                )
            if kind == oc.PERMISSION:
                return oc.Outcome(
                    False,
                    None,
                    f"permission:{reason}",
                    oc.PERMISSION,
                    oc.permission_message(name, text),
                )
            if (
                kind == oc.INVALID_ARGS
            ):  # the tool's own MCP server refused (JSON-RPC invalid params)
                return oc.Outcome(
                    False,
                    None,
                    "args:server",
                    oc.INVALID_ARGS,
                    oc.server_refused_message(name, text),
                )
            if err.reason == "isError":  # an MCP server's own error result, as it sent it
                server_text = str(err.details.get("text", text))
                return oc.Outcome(False, None, "raised:isError", oc.RAISED, server_text)
            return oc.Outcome(
                False, None, f"raised:{err.type_name}", oc.RAISED, _raised_text(name, err)
            )
        if run.refused:
            message = run.refused_message + _bad_result_hint(run.refused)
            return oc.Outcome(False, None, f"result:{run.refused}", oc.BAD_RESULT, message)
        check = check_result(contract, run.value)
        if check.reason == "empty":
            return oc.Outcome(
                True, check.value, "", oc.EMPTY, oc.empty_note(name), {"result_reason": "empty"}
            )
        if check.reason:
            message = check.message + _bad_result_hint(check.reason)
            return oc.Outcome(False, check.value, f"result:{check.reason}", oc.BAD_RESULT, message)
        return oc.Outcome(True, check.value, "", oc.OK, "")

    def _run_with_retries(
        self, contract: Contract, args: dict[str, Any], record: CallRecord
    ) -> oc.Outcome:
        policy = self.retry
        start = self.clock()

        def retryable(out: oc.Outcome) -> bool:
            # The kinds the outcome table marks gate_retries (transient). A body that may write
            # (a payment, an e-mail) is re-run behind the model's back only when declared
            # idempotent: the first attempt may have acted before it failed.
            return (
                oc.POLICIES[out.kind].gate_retries
                and not out.details.get("timeout")
                and bool(contract.idempotent)
            )

        first = self._run_once(contract, args, record)
        if retryable(first) and policy.max_attempts > 1:
            result = self._retry_after(contract, args, record, first, start, retryable)
        else:  # most calls: no retry machinery is built
            result = first
        if result.kind == oc.TRANSIENT:
            attempts = len(record.retries) + 1
            detail = result.details.get("detail", result.error)
            if not contract.idempotent and not result.details.get("timeout"):
                why = "it writes" if contract.effects == "write" else "its effects are unknown"
                result.message = oc.unsure_write_message(contract.name, detail, why)
            else:
                result.message = oc.transient_message(contract.name, detail, attempts)
        return result

    def _retry_after(
        self,
        contract: Contract,
        args: dict[str, Any],
        record: CallRecord,
        first: oc.Outcome,
        start: float,
        retryable: Callable[[oc.Outcome], bool],
    ) -> oc.Outcome:
        """Retry a retryable first outcome with tenacity (``first`` is its attempt 1; tenacity
        is imported here, on the first retry, not by every command that loads the gate)."""
        from tenacity import (
            Retrying,
            retry_if_result,
            stop_after_attempt,
            wait_exponential_jitter,
        )

        policy = self.retry
        pending = [first]

        def attempt() -> oc.Outcome:
            return pending.pop() if pending else self._run_once(contract, args, record)

        def out_of_time(state: RetryCallState) -> bool:
            return self.clock() - start >= policy.total_s

        def note_retry(state: RetryCallState) -> None:
            last = state.outcome.result() if state.outcome else None
            delay = state.next_action.sleep if state.next_action else 0.0
            record.retries.append(
                Retry(state.attempt_number, last.error if last else "", round(delay * 1000, 1))
            )

        backoff = wait_exponential_jitter(
            initial=policy.initial_s, max=policy.max_s, jitter=policy.jitter_s
        )

        def wait(state: RetryCallState) -> float:
            # A Retry-After header (outcome.retry_after_of) replaces the backoff, bounded by
            # the time left of ``total_s``.
            last = state.outcome.result() if state.outcome else None
            asked = last.details.get("retry_after_s") if last else None
            if asked is None:
                return float(backoff(state))
            return max(0.0, min(float(asked), policy.total_s - (self.clock() - start)))

        def last_outcome(state: RetryCallState) -> oc.Outcome:
            # tenacity calls this only after an attempt, so ``state.outcome`` is set
            assert state.outcome is not None
            return cast(oc.Outcome, state.outcome.result())

        retrying = Retrying(
            # tenacity annotates stop_base.__or__ for stop_base only; the stop_any it builds
            # calls any callable (its own StopBaseT), and out_of_time reads the gate's clock.
            stop=stop_after_attempt(max(1, policy.max_attempts)) | out_of_time,  # type: ignore[operator]
            wait=wait,
            retry=retry_if_result(retryable),
            sleep=self.sleep,
            before_sleep=note_retry,
            retry_error_callback=last_outcome,
            reraise=False,
        )
        result: oc.Outcome = retrying(attempt)
        return result


HELD_WRITE = "held:write"


def _held_write(contract: Contract) -> oc.Outcome:
    """The outcome of a call whose body was not run because it may write (``hold_writes``)."""
    how = "writes" if contract.effects == "write" else "may write (its effects are unknown)"
    why = f"; {contract.effects_evidence}" if contract.effects_evidence else ""
    return oc.Outcome(
        False,
        None,
        HELD_WRITE,
        oc.PERMISSION,
        f"{contract.name} {how} ({contract.effects_basis}{why}) and was not run: a rerun or "
        "replay runs a tool that may write only when the user allows it (--allow-writes).",
    )


def contract_effects(contract: Contract) -> dict[str, Any]:
    """The record's ``side_effects`` for ``contract``: ``{effects, basis, evidence,
    idempotent, cache_skip}`` (``cache_skip`` filled in by the gate when it skips the cache)."""
    return {
        "effects": contract.effects,
        "basis": contract.effects_basis,
        "evidence": contract.effects_evidence,
        "idempotent": bool(contract.idempotent),
        "cache_skip": "",
    }


def _refused_args_text(args: Any) -> str:
    """``canonical_args`` of a refused call (an unknown tool, arguments the gate refused): ``""``
    — the arguments were never made canonical, and ``args`` already keeps them, so a refused
    value is kept once per record (issue 28 item 7) — except for arguments JSON cannot carry
    (a cycle, a huge integer, a non-string key), shown by their ``repr`` cut to 2,000
    characters (:func:`_shown`), as ``args`` then has no JSON form."""
    return _shown(args) if args_shape_problem(args) else ""


def _shown(args: Any) -> str:
    """``repr`` of arguments that cannot be canonical JSON, cut to 2,000 characters (``""``
    when even ``repr`` refuses, e.g. an integer over 4,300 digits)."""
    try:
        return shorten(repr(args), 2000)
    except (ValueError, RecursionError):
        return ""


def _raised_text(name: str, err: Any) -> str:
    """The model's message for a body that failed without a kind of its own: the exception it
    raised, or how its process ended when it raised none (``details["process_ended"]``)."""
    ended = err.details.get("process_ended")
    if ended:
        return oc.process_ended_message(name, str(ended), str(err.details.get("while")))
    return oc.raised_message(name, err.text, _where(err.frames))


def _where(frames: tuple[Frame, ...]) -> str:
    """``file.py:12`` of the innermost tool frame (where the exception came from), or ``""``."""
    if not frames:
        return ""
    last = frames[-1]
    return f"{Path(last.file).name}:{last.line}"


def _bad_result_hint(reason: str) -> str:
    if reason == "too_big":
        return " Ask for fewer rows (a smaller limit) or use a tool that honours a limit."
    if reason == "not_serializable":
        return " The tool must return JSON data; fix the tool."
    return " The tool broke its declared contract; do not trust this value."
