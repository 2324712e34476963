"""Tool sources: where tool bodies run (DESIGN.md, "tool source").

A tool source loads contracts and runs one body at a time for the gate. The gate, the cache, the
body-run counts, records and outcomes stay in the playground process and are the same whatever
the source: a Python module imported in a worker process (the default), the same module in this
process (``--in-process``, for debuggers), or an MCP server (stdio or Streamable HTTP).

Everything a source returns is plain data that can cross a process boundary: a body's exception
arrives as a :class:`RaisedError` (already classified into an outcome kind), never as a live
exception object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from playground.core.contracts import Contract
    from playground.core.registry import LoadProblem


@dataclass(frozen=True)
class Frame:
    """One frame of a traceback: ``file``, ``line`` (1-based), ``function`` and the ``code`` line."""

    file: str
    line: int
    function: str
    code: str = ""


@dataclass(frozen=True)
class RaisedError:
    """An exception a body raised, described as data.

    ``type_name``: the exception class name (``"KeyError"``). ``text``: ``"Type: message"`` on
    one line (``outcome.exception_text``). ``kind`` / ``reason``: the outcome kind and reason the
    source classified it as (``outcome.classify_exception``: ``transient`` / ``permission`` /
    ``raised`` …). ``frames``: the tool's own frames, innermost last (never sent to a model).
    ``retry_after_s``: a ``Retry-After`` the error carried, in seconds, or ``None``.
    ``details``: anything else a source wants to keep (JSON-compatible).
    """

    type_name: str
    text: str
    kind: str
    reason: str
    frames: tuple[Frame, ...] = ()
    retry_after_s: float | None = None
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class BodyRun:
    """What one run of a body did.

    ``value``: the returned value (JSON-compatible once it crossed a process boundary).
    ``error``: the exception as data, or ``None``. ``timed_out``: the body passed its time limit
    (and was stopped, where the source can stop it). ``stopped``: why the source itself ended the
    run (e.g. ``"exit code 3"``, ``"SIGSEGV"``, ``"server closed the connection"``), or ``""``.
    ``output``: what the body printed (stdout, stderr, fd 1/2, child processes; server stderr),
    cut to a bounded size. ``duration_ms``: wall time of the body in ms.
    """

    value: Any = None
    error: RaisedError | None = None
    timed_out: bool = False
    stopped: str = ""
    output: str = ""
    duration_ms: float = 0.0


@dataclass
class LoadResult:
    """What loading a source gave: ``contracts`` (in load order) and ``problems`` (never raised)."""

    contracts: list[Contract] = field(default_factory=list)
    problems: list[LoadProblem] = field(default_factory=list)


@runtime_checkable
class ToolSource(Protocol):
    """A place where tool bodies run.

    ``label``: how the source is shown to the user (``"tools/shop.py"``, ``"mcp:shop"``).
    ``load()`` imports / connects and returns the contracts and load problems; it never raises
    for a faulty tool module or server (those are problems). ``call(contract, args, timeout_s)``
    runs one body with already validated, normalised ``args`` and returns a :class:`BodyRun`;
    it never raises and returns within ``timeout_s`` plus a short grace. ``reload()`` drops
    everything loaded and loads again. ``close()`` ends worker processes and connections; it is
    safe to call twice.
    """

    label: str

    def load(self) -> LoadResult: ...

    def call(self, contract: Contract, args: dict[str, Any], timeout_s: float) -> BodyRun: ...

    def reload(self) -> LoadResult: ...

    def close(self) -> None: ...
