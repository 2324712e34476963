"""The call record: everything the gate saw for one call (docs/design.md, "Call record")."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

VALID = "valid"
"""The verdict of arguments the gate accepted (issue 13 item 2: one spelling everywhere; case
files written before it may still say ``""``, which :func:`verdict_of` reads as valid)."""


def verdict_of(code: str | None) -> str:
    """The verdict spelled for a record: ``"valid"`` for an empty reason code (``""`` or ``None``,
    the validator's and old files' way of saying valid), else the code itself (``"type:limit"``)."""
    return code or VALID


@dataclass
class Retry:
    """One retry of a transient failure: ``attempt`` (1-based, the attempt that failed),
    ``reason`` and ``delay_ms`` (the backoff slept before the next attempt, in ms)."""

    attempt: int
    reason: str
    delay_ms: float


@dataclass
class CallRecord:
    """One call through the gate; ``to_json()`` is the ``--format json`` shape of docs/design.md.

    ``args``: as given (any JSON value). ``canonical_args``: canonical JSON of the normalised
    args; ``""`` for a refused call (an unknown tool, arguments the gate refused: ``args``
    keeps them, once), or the ``repr`` of arguments JSON cannot carry. ``verdict``: ``"valid"`` (:data:`VALID`) or a reason code without the ``args:`` prefix. ``body_ran``: the
    body ran for this call; ``body_runs``: this contract's total runs so far in this gate.
    ``cache``: ``hit`` | ``miss`` | ``stored`` | ``skip``. ``side_effects`` (docs/design.md):
    the tool's effects and how they are known, ``{effects: read|write|unknown, basis:
    declared|annotations|inferred|unknown, evidence, idempotent, cache_skip}`` where
    ``cache_skip`` says why a valid call was not cached (``""`` when it was cacheable;
    :mod:`playground.core.effects`). ``reasons``: every violation the validator found,
    ``{code, path, message}`` with ``path`` a JSON Pointer into the arguments (``""`` for the
    whole object); ``verdict`` is the first of them (``[]`` when valid). ``duration_ms``: wall time of the whole
    call in ms. ``wire``: provider views (``gemini``, ``anthropic``, ``openai``, ``tokens``).
    Extra fields: ``call_id``, ``message`` (what the model reads on failure, or the empty note),
    ``cache_key``, ``retries``, ``timeout_s``, ``printed`` (what the body printed: stdout, stderr,
    fd 1/2, child processes; bounded, with the full size noted), ``traceback`` (a ``raised``
    body's own frames ``{file, line, function, code}``, innermost last; never in wire JSON),
    ``source`` (the tool source that ran the body: ``worker``, ``in-process``, ``mcp:...``). ``warnings``
    (notes that do not fail the call, e.g. a result over the token budget:
    :mod:`playground.core.budget`). ``mcp``: for an MCP tool, what the protocol carried
    (issue 21): ``server``, ``protocolVersion``, ``result`` (the ``tools/call`` result exactly as
    sent: every content block with its data, annotations, ``_meta``, ``structuredContent``),
    ``progress`` (each ``notifications/progress`` as ``{progress, total, message, at_ms}``),
    ``timeout_s`` / ``max_total_s`` and ``cancelled`` (``notifications/cancelled`` sent, and why).
    """

    tool: str
    args: Any
    canonical_args: str = ""
    verdict: str = VALID
    body_ran: bool = False
    body_runs: int = 0
    cache: str = "skip"
    ok: bool = False
    kind: str = ""
    error: str = ""
    value: Any = None
    duration_ms: float = 0.0
    wire: dict[str, Any] = field(default_factory=dict)
    call_id: str = ""
    message: str = ""
    cache_key: str = ""
    retries: list[Retry] = field(default_factory=list)
    timeout_s: float | None = None
    printed: str = ""
    traceback: list[dict[str, Any]] = field(default_factory=list)
    source: str = ""
    warnings: list[str] = field(default_factory=list)
    reasons: list[dict[str, str]] = field(default_factory=list)
    side_effects: dict[str, Any] = field(default_factory=dict)
    mcp: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (the field order of docs/design.md first), with secrets
        redacted in every field (:func:`playground.core.redaction.redact_record`: values under
        names such as ``password`` or ``api_key`` and key-looking strings become
        ``"[redacted]"``; the body got the real values)."""
        from playground.core.redaction import redact_record

        data = asdict(self)
        data["duration_ms"] = round(self.duration_ms, 3)
        if not self.mcp:  # only MCP calls carry it
            del data["mcp"]
        return redact_record(data, self.args)
