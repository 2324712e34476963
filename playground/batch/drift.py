"""Drift: what changed between two runs of the same call or question, field by field.

Used by ``history rerun`` (the entry and its rerun), ``replay`` (a golden episode and today's
run) and the TUI History diff. Compared, in this order (issue 14, "Golden episodes and drift"):

* a call record: ``tool``, ``args``, ``verdict``, ``body_ran``, ``kind``, ``error``, ``value``;
* an episode: the router's choice of each move (``moves[i].calls`` names and ``args``), the
  number of calls, then each call as above (``calls[i].kind`` ...), ``end``, ``ok``,
  ``gave_up`` and ``reply``.

Not compared: timings, call ids, cache keys, body-run counters and the cache state (they
depend on what ran before in the session, not on the tool). :func:`declaration_causes`
names each contract whose declaration hash changed — the likely cause of a drift.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from playground.core.canonical import canonical_json, shorten
from playground.core.record import verdict_of

CALL_FIELDS = ("tool", "args", "verdict", "body_ran", "kind", "error", "value")
EPISODE_FIELDS = ("end", "ok", "gave_up", "reply")


@dataclass(frozen=True)
class Drift:
    """One field that differs: ``path`` (``calls[0].kind``, ``moves[0].tool``), the ``saved``
    and ``now`` values (``None`` where the field is absent on that side)."""

    path: str
    saved: Any
    now: Any

    def text(self, limit: int = 120) -> str:
        """``calls[0].kind: 'ok' → 'bad_result'`` (each value cut to ``limit`` characters)."""
        return f"{self.path}: {_show(self.saved, limit)} → {_show(self.now, limit)}"

    def to_json(self) -> dict[str, Any]:
        """``{"field", "saved", "now"}``."""
        return {"field": self.path, "saved": self.saved, "now": self.now}


def _show(value: Any, limit: int) -> str:
    if isinstance(value, str):  # str(): an OutcomeKind shows as 'ok', not as the enum
        return shorten(repr(str(value)), limit)
    return shorten(json.dumps(value, ensure_ascii=False, default=repr), limit)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return canonical_json(a) == canonical_json(b)


def compare_calls(
    saved: Mapping[str, Any], now: Mapping[str, Any], prefix: str = ""
) -> list[Drift]:
    """The drifts between two call records (``CallRecord.to_json()`` dicts). Where ``value``
    or ``args`` are objects or arrays on both sides, each changed leaf is its own drift
    (``value.status: '배송중' → '배송완료'``)."""
    out: list[Drift] = []
    for key in CALL_FIELDS:
        a, b = saved.get(key), now.get(key)
        if key == "verdict":  # a history saved before issue 13 spelled a valid verdict ""
            a, b = verdict_of(a), verdict_of(b)
        if _same(a, b):
            continue
        if key in ("value", "args") and isinstance(a, (dict, list)) and isinstance(b, (dict, list)):
            old, new = flatten(a, f"{prefix}{key}"), flatten(b, f"{prefix}{key}")
            out.extend(
                Drift(path, old.get(path), new.get(path))
                for path in dict.fromkeys([*old, *new])
                if (path in old) != (path in new) or not _same(old.get(path), new.get(path))
            )
        else:
            out.append(Drift(f"{prefix}{key}", a, b))
    return out


def _choices(episode: Mapping[str, Any]) -> list[list[tuple[Any, Any]]]:
    out = []
    for move in episode.get("moves") or []:
        calls = move.get("calls") if isinstance(move, Mapping) else None
        out.append([(c.get("name"), c.get("args")) for c in calls or [] if isinstance(c, Mapping)])
    return out


def compare_episodes(saved: Mapping[str, Any], now: Mapping[str, Any]) -> list[Drift]:
    """The drifts between two episodes (``Episode.to_json()`` dicts)."""
    out: list[Drift] = []
    old_moves, new_moves = _choices(saved), _choices(now)
    for i in range(max(len(old_moves), len(new_moves))):
        old = old_moves[i] if i < len(old_moves) else []
        new = new_moves[i] if i < len(new_moves) else []
        old_tools, new_tools = [n for n, _ in old], [n for n, _ in new]
        if old_tools != new_tools:
            out.append(Drift(f"moves[{i}].tool", _one(old_tools) or None, _one(new_tools) or None))
        elif not _same([a for _, a in old], [a for _, a in new]):
            out.append(
                Drift(f"moves[{i}].args", _one([a for _, a in old]), _one([a for _, a in new]))
            )
    old_calls = [c for c in saved.get("calls") or [] if isinstance(c, Mapping)]
    new_calls = [c for c in now.get("calls") or [] if isinstance(c, Mapping)]
    if len(old_calls) != len(new_calls):
        out.append(Drift("calls", len(old_calls), len(new_calls)))
    for i, (a, b) in enumerate(zip(old_calls, new_calls)):
        out.extend(compare_calls(a, b, f"calls[{i}]."))
    for key in EPISODE_FIELDS:
        if not _same(saved.get(key), now.get(key)):
            out.append(Drift(key, saved.get(key), now.get(key)))
    return out


def _one(items: list[Any]) -> Any:
    """A one-item list as its item (``'track_shipping'``, not ``['track_shipping']``)."""
    return items[0] if len(items) == 1 else items


def compare(kind: str, saved: Mapping[str, Any], now: Mapping[str, Any]) -> list[Drift]:
    """:func:`compare_calls` for ``kind == "call"``, else :func:`compare_episodes`."""
    return compare_calls(saved, now) if kind == "call" else compare_episodes(saved, now)


def declaration_causes(
    saved: Mapping[str, str], now: Mapping[str, str], involved: list[str] | None = None
) -> list[str]:
    """One sentence per contract whose declaration hash differs between ``saved`` and ``now``
    (``{name: sha256}``): ``"track_shipping's declaration changed since this was saved"``, or
    ``"... is no longer registered"`` / ``"... is new since this was saved"`` (new tools only
    when they are in ``involved``). Contracts in ``involved`` (the tools the run called)
    come first."""
    involved = list(involved or [])
    first = [n for n in involved if n in saved or n in now]
    names = list(dict.fromkeys([*first, *sorted(saved), *sorted(now)]))
    out: list[str] = []
    gone = 0
    for name in names:
        old, new = saved.get(name), now.get(name)
        if old and new and old != new:
            out.append(f"{name}'s declaration changed since this was saved")
        elif old and not new:
            if name in involved:
                out.append(f"{name} is no longer registered")
            else:
                gone += 1
        elif new and not old and name in involved:
            out.append(f"{name} is new since this was saved")
    if gone:
        out.append(f"{gone} other contract{'s are' if gone > 1 else ' is'} no longer registered")
    return out


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """``{"calls[0].kind": "ok", "reply": ...}``: every leaf of ``value`` by its path (for a
    side-by-side view). Empty containers are leaves."""
    out: dict[str, Any] = {}
    if isinstance(value, Mapping) and value:
        for key, item in value.items():
            out.update(flatten(item, f"{prefix}.{key}" if prefix else str(key)))
    elif isinstance(value, list) and value:
        for i, item in enumerate(value):
            out.update(flatten(item, f"{prefix}[{i}]"))
    else:
        out[prefix] = value
    return out


#: Leaves that differ on every run (timings, call ids): left out of the side-by-side view.
VOLATILE = frozenset({"duration_ms", "call_id", "delays_ms"})


def side_by_side(
    left: Mapping[str, Any], right: Mapping[str, Any], *, skip: tuple[str, ...] = ("wire",)
) -> list[tuple[str, Any, Any, bool]]:
    """Rows ``(path, left value, right value, changed)`` over the union of both sides' leaves
    (:func:`flatten`), in the left side's order then the right's. Top-level keys in ``skip``
    (default the bulky ``wire``) and leaves named in :data:`VOLATILE` are left out."""
    a = _steady(flatten({k: v for k, v in left.items() if k not in skip}))
    b = _steady(flatten({k: v for k, v in right.items() if k not in skip}))
    rows = []
    for path in dict.fromkeys([*a, *b]):
        x, y = a.get(path), b.get(path)
        rows.append((path, x, y, (path in a) != (path in b) or not _same(x, y)))
    return rows


def _steady(leaves: dict[str, Any]) -> dict[str, Any]:
    return {
        path: value
        for path, value in leaves.items()
        if path.rsplit(".", 1)[-1].split("[", 1)[0] not in VOLATILE
    }
