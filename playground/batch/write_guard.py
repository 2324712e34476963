"""Which tools a rerun or replay would run that may write, and which ones it ran or held.

A history rerun or a golden replay runs a stored call or question again. A tool that may write
(effects ``write`` or ``unknown``: :mod:`playground.core.effects`) would act again: book a second
appointment, charge a card twice. So it runs only when the user allows it (``--allow-writes``, or
a yes on a terminal); otherwise the stored run is not run again, and a tool that the router now
picks on its own is held by the gate (``Gate.hold_writes``: kind ``permission``, error
``held:write``, the body not run). The TUI's history view asks for a second ``r`` by the same
rule (``may_write``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from playground.core.gate import HELD_WRITE


def stored_writes(registry: Any, kind: str, data: Mapping[str, Any]) -> list[str]:
    """The tools a stored record (``kind`` ``call``) or episode called, or a golden document's
    ``tool``, that are registered in ``registry`` and may write, each once, in call order."""
    names: list[Any] = [data.get("tool")]
    if kind != "call":
        names += [c.get("tool") for c in data.get("calls") or [] if isinstance(c, Mapping)]
    contracts = registry.contracts
    return [
        name
        for name in dict.fromkeys(n for n in names if isinstance(n, str))
        if name in contracts and contracts[name].side_effects
    ]


def described(registry: Any, names: list[str]) -> str:
    """``book_appointment (writes: declared, side_effects: True)``, joined by ``, ``: each tool
    with what it does and how that is known."""
    parts = []
    for name in names:
        contract = registry.contracts[name]
        how = "writes" if contract.effects == "write" else "may write, effects unknown"
        evidence = f", {contract.effects_evidence}" if contract.effects_evidence else ""
        parts.append(f"{name} ({how}: {contract.effects_basis}{evidence})")
    return ", ".join(parts)


def ran_and_held(kind: str, data: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The tools of a new run (a record or an episode's JSON) that may write and whose body ran,
    and those the gate held (``held:write``), each once, in call order."""
    calls = [data] if kind == "call" else list(data.get("calls") or [])
    ran: dict[str, None] = {}
    held: dict[str, None] = {}
    for call in calls:
        if not isinstance(call, Mapping):
            continue
        effects = (call.get("side_effects") or {}).get("effects")
        if call.get("error") == HELD_WRITE:
            held[str(call.get("tool"))] = None
        elif call.get("body_ran") and effects in ("write", "unknown"):
            ran[str(call.get("tool"))] = None
    return list(ran), list(held)


def run_notes(kind: str, data: Mapping[str, Any]) -> list[str]:
    """Plain notes for the user on what a rerun or replay did with tools that may write."""
    ran, held = ran_and_held(kind, data)
    notes = []
    if ran:
        notes.append(f"ran again, and may have written again: {', '.join(ran)}")
    if held:
        notes.append(
            f"not run (may write; the router picked it this time): {', '.join(held)}; "
            "pass --allow-writes to run it"
        )
    return notes
