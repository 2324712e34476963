"""What a run stores: the declaration hashes it touched, its tool source and MCP servers.

:func:`record_run` is what the CLI and the TUI call after each call or episode.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from playground.history.entries import call_entry, episode_entry, picked_call
from playground.history.store import HistoryStore


def contract_hashes(registry: Any, names: Iterable[str] | None = None) -> dict[str, str]:
    """``{name: Contract.declaration_hash()}`` for ``names`` that are registered (default:
    every contract of ``registry``), sorted by name."""
    wanted = list(registry.contracts) if names is None else list(names)
    out: dict[str, str] = {}
    for name in sorted(set(wanted)):
        contract = registry.get(name) if isinstance(name, str) else None
        if contract is not None:
            out[name] = contract.declaration_hash()
    return out


def touched_hashes(registry: Any, kind: str, data: Mapping[str, Any]) -> dict[str, str]:
    """The declaration hashes of the contracts a run touched: for a question episode every
    contract (the router was shown every declaration); for a call or a manual episode the
    tools it called (and the one picked)."""
    if kind == "episode" and data.get("question") is not None:
        return contract_hashes(registry)
    names = [c.get("tool") for c in data.get("calls") or [] if isinstance(c, Mapping)]
    names.append(picked_call(data)[0] if kind == "episode" else data.get("tool"))
    return contract_hashes(registry, [n for n in names if isinstance(n, str)])


def record_run(
    store: HistoryStore | None,
    registry: Any,
    kind: str,
    data: Mapping[str, Any],
    *,
    source: str = "",
    origin: str = "",
    rerun_of: int | None = None,
    mcp: Iterable[Mapping[str, Any]] = (),
) -> int | None:
    """Store one call record (``kind == "call"``) or episode with the declaration hashes it
    touched (:func:`touched_hashes`); ``mcp``: the MCP servers it used (:attr:`Entry.mcp`).
    Returns the entry id, ``None`` when history is off or the write failed (a notice says
    why). Never raises."""
    if store is None or not store.enabled:
        return None
    hashes = touched_hashes(registry, kind, data)
    build = call_entry if kind == "call" else episode_entry
    return store.add(build(data, hashes, source=source, origin=origin, rerun_of=rerun_of, mcp=mcp))


def mcp_sources(sources: Any) -> list[dict[str, Any]]:
    """What a history entry keeps of the MCP servers a run used, to reconnect them on
    ``history rerun``: never a header value, an ``env`` value or a key. ``sources``:
    ``Registry.sources`` (an MCP source has ``label`` ``mcp:NAME`` and ``spec``, a
    :class:`~playground.sources.mcp_config.McpServerSpec`).

    One dict per MCP server, in the order they were given: ``{"name", "mcp": "COMMAND ARG...",
    "cwd"}`` for ``--mcp`` (the directory it started in), ``{"name", "mcp_url",
    "header_names": [...]}`` for ``--mcp-url`` (the names of its headers only), ``{"name",
    "mcp_config": ABSOLUTE PATH, "server"}`` for an entry of an ``mcpServers`` file (read
    again on rerun, so its ``env`` and headers never enter the history). Sources that are not
    MCP servers are left out."""
    out: list[dict[str, Any]] = []
    for source in sources:
        spec = getattr(source, "spec", None)
        if spec is None or not str(getattr(source, "label", "")).startswith("mcp:"):
            continue
        if spec.origin == "--mcp":
            out.append(
                {
                    "name": spec.name,
                    "mcp": shlex.join([spec.command, *spec.args]),
                    "cwd": spec.cwd or os.getcwd(),
                }
            )
        elif spec.origin == "--mcp-url":
            out.append(
                {"name": spec.name, "mcp_url": spec.url, "header_names": sorted(spec.headers)}
            )
        else:
            out.append(
                {
                    "name": spec.name,
                    "mcp_config": str(Path(spec.origin).resolve()),
                    "server": spec.name,
                }
            )
    return out


def source_text(paths: Iterable[str | Path]) -> str:
    """The tool source of a run as stored: the absolute module paths joined by ``os.pathsep``."""
    return os.pathsep.join(str(Path(p).resolve()) for p in paths)
