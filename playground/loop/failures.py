"""The consecutive-failure limit and the message that accumulates context (seed 004).

Seed 004, "무한 루프 방지": two lines of defence. (1) A hard limit in the application: count
consecutive failures of the same tool with the same reason and stop at the limit (예: 3회) —
deterministic, not left to the model. (2) The error message states the chances used and, at the
limit, says to stop retrying the same way and what to do instead ("3회 연속 같은 오류입니다
(InvalidDateFormat). 같은 방식의 재시도는 중단하세요. 대신: 1. ... 2. 사용자에게 ... 질문하세요.").

A failure is any outcome kind whose policy has ``failure`` set (docs/design.md, "Outcome kinds"):
``invalid_args``, ``bad_result``, ``transient``, ``permission``, ``raised``, ``unknown_tool``.
``ok`` resets the count; ``empty`` is not a failure and also resets it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playground.core.outcome import POLICIES, Reason
from playground.core.record import CallRecord
from playground.core.registry import Registry

#: Identical consecutive failures (same tool, same reason) that stop an episode (seed 004: 3).
FAILURE_LIMIT = 3


def is_failure(kind: str) -> bool:
    """Whether an outcome ``kind`` counts towards the limit (docs/design.md's last column)."""
    policy = POLICIES.get(kind)
    return bool(policy and policy.failure)


@dataclass
class FailureTracker:
    """Counts identical consecutive failures across one episode (across router turns too).

    ``limit``: the count that stops the episode. ``last``: ``(tool, error)`` of the current run
    of failures. ``count``: its length. ``history``: every ``(tool, error)`` seen, in order.
    """

    limit: int = FAILURE_LIMIT
    last: tuple[str, str] | None = None
    count: int = 0
    history: list[tuple[str, str]] = field(default_factory=list)

    def observe(self, record: CallRecord) -> int:
        """Count ``record``; returns the length of the current run of identical failures (0 after a success)."""
        if not is_failure(record.kind):
            self.last, self.count = None, 0
            return 0
        key = (record.tool, record.error)
        self.history.append(key)
        if key == self.last:
            self.count += 1
        else:
            self.last, self.count = key, 1
        return self.count

    @property
    def reached(self) -> bool:
        """True once ``count`` has reached ``limit``: the episode must stop."""
        return self.count >= self.limit


def _alternatives(registry: Registry | None, record: CallRecord) -> list[str]:
    """Concrete other approaches for the message at the limit."""
    reason = Reason.parse(record.error)
    head, code, arg = reason.head, reason.code, reason.arg
    ideas: list[str] = []
    contract = registry.get(record.tool) if registry is not None else None
    if head == "args" and arg and contract is not None:
        schema = (contract.parameters.get("properties") or {}).get(arg, {})
        if schema.get("enum"):
            ideas.append(
                f"use one of the allowed values for {arg!r}: {', '.join(map(str, schema['enum']))}"
            )
        ideas.append(f"ask the user for a valid {arg!r} instead of guessing it")
    elif head == "args" and code == "unknown_tool" and registry is not None:
        ideas.append(f"call one of the registered tools: {', '.join(registry.names())}")
    elif head == "result":
        ideas.append("use another tool that honours a limit, or ask for fewer rows")
    elif head == "transient":
        ideas.append("tell the user the service is busy and to try again later")
    elif head == "permission":
        ideas.append("report to the user that this action is not permitted")
    if registry is not None and contract is not None and head not in ("transient", "permission"):
        others = [n for n in registry.names() if n != record.tool]
        if others:
            ideas.append(f"try another tool ({', '.join(others[:5])})")
    ideas.append("answer the user with what is known and say what could not be done")
    return ideas


def failure_message(
    record: CallRecord, count: int, limit: int = FAILURE_LIMIT, registry: Registry | None = None
) -> str:
    """The message the model reads for a failed call, with the count accumulated (seed 004).

    ``count`` 1: the record's own message. ``count`` 2..limit-1: that message plus how many
    identical failures in a row so far and how many remain. ``count`` ≥ ``limit``: "failed N
    times in a row with the same error (reason). Stop retrying the same way. Instead: 1. …
    2. …", then the last message.
    """
    base = record.message or record.error
    if count <= 1:
        return base
    if count < limit:
        return (
            f"{base} (This is failure {count} in a row with the same error {record.error}; "
            f"the episode stops after {limit}.)"
        )
    ideas = _alternatives(registry, record)
    numbered = " ".join(
        f"{i}. {idea}" + (" or" if i < len(ideas) else ".") for i, idea in enumerate(ideas, 1)
    )
    return (
        f"{record.tool} failed {count} times in a row with the same error ({record.error}). "
        f"Stop retrying the same way. Instead: {numbered} Last error: {base}"
    )
