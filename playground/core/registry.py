"""The registry: the contracts of a session by name, in load order, and the sources they run in.

The gate looks contracts up here. Loading never stops at the first bad tool: each problem (a
module that fails to import, a duplicate name, a malformed contract) is kept as a
:class:`~playground.core.toolsource.LoadProblem` naming the place, and the rest still loads;
callers decide what a problem means (the CLI prints each on stderr and exits 2 after doing its
work). The registry only knows the :class:`~playground.core.toolsource.ToolSource` protocol;
the sources themselves (tool modules in this process or a worker, MCP servers) live in
:mod:`playground.sources`, which fills registries (:func:`playground.sources.loading.load_registry`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from playground.core.contracts import Contract
from playground.core.toolsource import LoadProblem, ToolSource


@dataclass
class Registry:
    """Contracts by name, in load order, plus the problems met while loading (a command that
    loads them exits 2) and the warnings (said, but no failure: :class:`LoadResult`)."""

    contracts: dict[str, Contract] = field(default_factory=dict)
    problems: list[LoadProblem] = field(default_factory=list)
    warnings: list[LoadProblem] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)
    sources: list[ToolSource] = field(default_factory=list)

    def add_source(self, source: ToolSource) -> None:
        """Load ``source`` and register its contracts (each calls back into ``source``) and
        its load problems. A source that raises while loading (a bug, not a faulty tool)
        becomes one problem naming the source."""
        self.sources.append(source)
        try:
            result = source.load()
        except Exception as exc:  # pragma: no cover - sources report problems as data
            self.problems.append(
                LoadProblem(source.label, f"could not load: {type(exc).__name__}: {exc}")
            )
            return
        for contract in result.contracts:
            contract.tool_source = source
            self.add(contract)
        self.problems.extend(result.problems)
        self.warnings.extend(result.warnings)

    def close(self) -> None:
        """Close every source (ends worker processes and connections); safe to call twice."""
        for source in self.sources:
            source.close()

    def __contains__(self, name: object) -> bool:
        return name in self.contracts

    def __len__(self) -> int:
        return len(self.contracts)

    def names(self) -> list[str]:
        """Registered names in load order."""
        return list(self.contracts)

    def get(self, name: str) -> Contract | None:
        """The contract called ``name``, or ``None``."""
        return self.contracts.get(name)

    def declarations(self) -> list[dict[str, Any]]:
        """Provider-neutral declarations ``{"name", "description", "parameters"}`` of all contracts."""
        return [c.declaration() for c in self.contracts.values()]

    def add(self, contract: Contract) -> None:
        """Register ``contract``; a name registered twice is a :class:`LoadProblem` naming both places."""
        if not isinstance(contract.name, str) or not contract.name:
            self.problems.append(LoadProblem(contract.source, "a contract needs a non-empty name"))
            return
        existing = self.contracts.get(contract.name)
        if existing is not None:
            self.problems.append(
                LoadProblem(
                    contract.source,
                    f"tool name {contract.name!r} is registered twice: first at {existing.source}, "
                    f"again at {contract.source}; the second was not loaded (rename one)",
                )
            )
            return
        self.contracts[contract.name] = contract


def close_names(name: str, names: Iterable[str], n: int = 3) -> list[str]:
    """The names of ``names`` that look like ``name``, best first (at most ``n``): compared
    (``difflib`` ratio ≥ 0.5) with case, spaces, ``-``, ``_`` and ``.`` ignored, so
    ``searchcatalog``, ``search catalog`` and ``Search-Catalog`` all find ``search_catalog``."""
    by_key: dict[str, str] = {}
    for registered in names:
        by_key.setdefault(_spelling_key(registered), registered)
    found = get_close_matches(_spelling_key(name), list(by_key), n=n, cutoff=0.5)
    return [by_key[key] for key in found]


def _spelling_key(name: str) -> str:
    """``name`` casefolded, without the separators people spell differently (``_ - . space``)."""
    return "".join(c for c in name.casefold() if c not in "_-. ")


def unknown_tool_message(name: str, names: Iterable[str]) -> str:
    """``no tool named 'x'; did you mean: a, b`` (or ``registered: ...`` listing every name
    when none is close; ``(none loaded)`` when there is none)."""
    names = list(names)
    close = close_names(name, names)
    if close:
        return f"no tool named {name!r}; did you mean: {', '.join(close)}"
    return f"no tool named {name!r}; registered: {', '.join(names) or '(none loaded)'}"
