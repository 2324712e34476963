"""The record of a call stopped while it ran: ctrl+c, or a signal ending the playground.

The gate never returns from such a call (``KeyboardInterrupt`` / ``SystemExit`` pass through
:meth:`Gate.call`, or the TUI drops its worker), so the command line (``cli/cmd_call.py``) and
the TUI's Call view (``stop_running_call``) both build its record here, from what the gate
knew when the call started: the same call id, the contract's declared or inferred effects and
time limit, the source that ran it, and one answer to "did the body run" — ``body_ran`` is
whether the gate counted a body run of the tool since the call started, ``body_runs`` the
gate's count after it (the same field a finished call's record has: this tool's body runs in
this session). Kind ``cancelled``, message ``the call was cancelled (HOW) after N s; no
result``, and the wire JSON of that outcome, as a record the gate returns for an MCP call the
user cancelled.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from playground.core import outcome as oc
from playground.core.record import CallRecord
from playground.core.wire import provider_views

if TYPE_CHECKING:
    from playground.core.gate import Gate


def cancelled_record(
    gate: Gate, name: str, args: Any, *, call_id: str, started: float, runs_before: int, how: str
) -> CallRecord:
    """The ``cancelled`` record of the call of ``name`` with ``args`` that ``gate`` was running.

    ``call_id``: the id the call was made with (:meth:`Gate.next_call_id`). ``started``:
    :func:`time.perf_counter` when it was made. ``runs_before``: ``gate.body_runs[name]`` then.
    ``how``: what stopped it (``"ctrl+c"``, ``"the playground was ended (SIGTERM)"``).
    Never raises for an unknown ``name`` (then no contract fields are filled)."""
    from playground.core.gate import contract_effects

    seconds = time.perf_counter() - started
    message = f"the call was cancelled ({how}) after {seconds:.1f} s; no result"
    record = CallRecord(
        tool=name,
        args=args,
        call_id=call_id,
        ok=False,
        kind=str(oc.CANCELLED),
        error="cancelled",
        message=message,
        duration_ms=seconds * 1000,
    )
    contract = gate.registry.get(name)
    if contract is not None:
        runs = gate.body_runs[contract.name]
        record.body_runs = runs
        record.body_ran = runs > runs_before  # the gate counts a run as its body starts
        record.side_effects = contract_effects(contract)
        if not contract.caches:  # as the gate fills it for a call it runs
            record.side_effects["cache_skip"] = contract.cache_skip_reason
        record.timeout_s = contract.timeout_s
        source = contract.tool_source
        record.source = source.label if source is not None else "in-process"
    if gate.wire:
        outcome = oc.Outcome(False, None, "cancelled:user", oc.CANCELLED, message)
        record.wire = provider_views(name, call_id, outcome)
    return record
