"""One step of an episode: the node the loop visited and what it saw there (docs/design.md, "Episode").

:class:`Node` names the nodes of the loop's state machine; :class:`Step` is one visit, written by
:mod:`playground.loop.episode` and read by the TUI's step-through. ``Step.to_json()`` is the
``steps`` item of an episode's ``--format json`` (keys in this order; ``None`` where a key does
not apply to the node).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any


class Node(StrEnum):
    """The loop's nodes (a ``StrEnum``: JSON keeps ``"pick"``, ``"validate"``, ...)."""

    PICK = "pick"
    VALIDATE = "validate"
    RUN = "run"
    CHECK = "check"
    REPAIR = "repair"
    REPLY = "reply"
    GIVEUP = "giveup"


@dataclass
class Step:
    """One node visited.

    ``attempt``: the call attempt it belongs to (1-based; for ``reply``/``giveup`` the calls made
    so far). ``tool`` / ``args``: the call (or the router's first call for ``pick``). ``verdict``,
    ``body_ran``, ``cache``, ``kind``, ``error``: from the call record. ``retries``: the gate's
    retries (``{"attempt", "reason", "delay_ms"}``) and ``delays_ms`` their waits in ms.
    ``call`` / ``move``: indexes into the episode's ``calls`` / ``moves``. ``explanation``: the
    router's (``pick``). ``message``: the model-facing text, the reply or the router's text.
    ``reason``: the reason code or end reason. ``fixes``: the episode's repair lines so far.
    """

    node: Node
    attempt: int
    tool: Any = None
    args: Any = None
    verdict: str | None = None
    body_ran: bool | None = None
    cache: str | None = None
    kind: str | None = None
    error: str | None = None
    retries: list[dict[str, Any]] = field(default_factory=list)
    delays_ms: list[float] = field(default_factory=list)
    call: int | None = None
    move: int | None = None
    explanation: dict[str, Any] | None = None
    message: str | None = None
    reason: str | None = None
    fixes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{"node", "attempt", "tool", "args", "verdict", "body_ran", "cache", "kind", "error",
        "retries", "delays_ms", "call", "move", "explanation", "message", "reason", "fixes"}``
        (a deep copy)."""
        return {f.name: copy.deepcopy(getattr(self, f.name)) for f in fields(self)}
