"""Calls keep their identity: one id per call of a model turn (issue 20 item 7).

A model may give two calls of one turn the same id, or give a call none. The loop then runs each
call under an id no other call of the episode has — the first call with an id keeps it, a later
one with the same id gets ``<id>#<position>`` (``x#2``: the turn's second call), a call without
an id gets ``call#<position>`` — and every call involved is flagged: a warning on its record and
one line on the episode. The answers still go back under the ids the model used (``x`` twice,
or none), one per call, in the order of the calls — the providers match answers to calls by
that id and by order (Gemini: one ``function_response`` part per call, in the calls' order;
Anthropic: ``tool_result`` blocks in the order of the ``tool_use`` blocks; OpenAI: one ``tool``
message per ``tool_call``).

Pure functions over :class:`~playground.routing.base.FunctionCall`; no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from playground.routing.base import FunctionCall


@dataclass(frozen=True)
class DistinctCalls:
    """The calls of one model turn, each under its own id.

    ``calls``: the model's calls in order, each with an id no other call of the episode has
    (unchanged when the model's id already was). ``model_ids``: the id the model wrote for each
    call (``""`` when it wrote none) — what its answer goes back under. ``warnings``: per call,
    why its id was flagged (``""`` when it was not). ``summary``: one line for the episode
    (``""`` when no id was repeated or missing).
    """

    calls: list[FunctionCall]
    model_ids: list[str]
    warnings: list[str] = field(default_factory=list)
    summary: str = ""


def distinct_calls(calls: list[FunctionCall], taken: Iterable[str] = ()) -> DistinctCalls:
    """Give every call of one model turn its own id (see the module docstring).

    ``calls``: the turn's calls as the router returned them. ``taken``: ids already used by
    earlier calls of the episode (the new ids avoid them too). Returns :class:`DistinctCalls`;
    the input is not changed. Never raises.
    """
    model_ids = [c.id if isinstance(c.id, str) else "" for c in calls]
    counts = Counter(i for i in model_ids if i)
    used = set(taken)
    kept: set[str] = set()
    out: list[FunctionCall] = []
    warnings: list[str] = []
    for position, (call, model_id) in enumerate(zip(calls, model_ids), start=1):
        repeated = bool(model_id) and counts[model_id] > 1
        if model_id and model_id not in kept and model_id not in used:
            new_id = model_id
        else:
            new_id = _fresh(f"{model_id or 'call'}#{position}", used)
        kept.add(model_id)
        used.add(new_id)
        out.append(call if new_id == call.id else replace(call, id=new_id))
        if not model_id:
            warnings.append(
                f"call id missing: the model gave call {position} of its turn no id; it ran as "
                f"{new_id!r} and its result goes back without an id, in the order of the calls"
            )
        elif repeated:
            where = ", ".join(str(p) for p, i in enumerate(model_ids, start=1) if i == model_id)
            warnings.append(
                f"call id repeated: {model_id!r} is the id of calls {where} of one model turn; "
                f"this call ran as {new_id!r} and its result goes back under {model_id!r}, "
                "in the order of the calls"
            )
        elif new_id != model_id:
            warnings.append(
                f"call id reused: {model_id!r} is the id of an earlier call of this episode; "
                f"this call ran as {new_id!r} and its result goes back under {model_id!r}"
            )
        else:
            warnings.append("")
    reused = [i for i, w in zip(model_ids, warnings) if w.startswith("call id reused")]
    return DistinctCalls(out, model_ids, warnings, _summary(model_ids, counts, reused))


def _fresh(candidate: str, used: set[str]) -> str:
    """``candidate``, or ``candidate.2``, ``candidate.3`` … when already used."""
    new_id, n = candidate, 1
    while new_id in used:
        n += 1
        new_id = f"{candidate}.{n}"
    return new_id


def _summary(model_ids: list[str], counts: Counter[str], reused: list[str]) -> str:
    parts = []
    repeated = [f"{i!r} ×{n}" for i, n in counts.items() if n > 1]
    if repeated:
        parts.append("repeated call ids " + ", ".join(repeated))
    missing = [str(p) for p, i in enumerate(model_ids, start=1) if not i]
    if missing:
        parts.append(f"no id on call{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    if reused:
        parts.append("ids of earlier calls reused: " + ", ".join(repr(i) for i in reused))
    if not parts:
        return ""
    return (
        "; ".join(parts) + ": each call ran under its own id and was answered in order under "
        "the id the model used"
    )
