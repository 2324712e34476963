"""Tool sources: where tool bodies run (docs/design.md, "tool source").

A tool source loads contracts and runs one body at a time for the gate. The gate, the cache, the
body-run counts, records and outcomes stay in the playground process and are the same whatever
the source: a Python module imported in a worker process (the default), the same module in this
process (``--in-process``, for debuggers), or an MCP server (stdio or Streamable HTTP).

Everything a source returns is plain data that can cross a process boundary: a body's exception
arrives as a :class:`RaisedError` (already classified into an outcome kind), never as a live
exception object.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from playground.core.contracts import Contract


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
    cut to :data:`PRINTED_LIMIT` characters with a note of the full size. ``duration_ms``: wall
    time of the body in ms. ``refused`` / ``refused_message``: a result reason
    (``not_serializable``, ``too_big``) when the source refused the value before it could cross
    to the playground (then ``value`` is ``None``), and the model-facing sentence saying why.
    ``cancelled``: the user cancelled the run (ctrl+c; the source told the server, e.g. MCP's
    ``notifications/cancelled``). ``warnings``: notes for the record that do not fail the call.
    ``protocol``: what a protocol source keeps in the record's ``mcp`` field (the MCP result as
    sent, progress, the negotiated version; :mod:`playground.sources.mcp_source`), else ``{}``.
    ``notes``: what the source cleaned up after the body, one sentence each (child processes
    ended, the working directory or environment restored, late output dropped); the gate adds
    them to the record's ``warnings``.
    """

    value: Any = None
    error: RaisedError | None = None
    timed_out: bool = False
    stopped: str = ""
    output: str = ""
    duration_ms: float = 0.0
    refused: str = ""
    refused_message: str = ""
    cancelled: bool = False
    warnings: list[str] = field(default_factory=list)
    protocol: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


#: at most this many characters of a body's printed output are kept in a record
PRINTED_LIMIT = 64_000

_PACKAGE_DIR = str(Path(__file__).resolve().parents[1])


def bounded_output(text: str, total_bytes: int | None = None) -> str:
    """``text`` cut to :data:`PRINTED_LIMIT` characters, with ``… [N bytes printed in all]``
    appended when something was left out (``total_bytes``: the full size in bytes when the
    caller read only the start of it)."""
    cut = len(text) > PRINTED_LIMIT
    if not cut and (total_bytes is None or total_bytes <= len(text.encode("utf-8", "replace"))):
        return text
    size = total_bytes if total_bytes is not None else len(text.encode("utf-8", "replace"))
    return text[:PRINTED_LIMIT] + f"\n… [{size:,} bytes printed in all]"


def tool_frames(exc: BaseException, limit: int = 30) -> tuple[Frame, ...]:
    """The frames of ``exc``'s traceback that belong to the tool (the playground's own frames
    are left out), innermost last, at most ``limit`` of them (the innermost ones)."""
    frames = []
    for entry in traceback.extract_tb(exc.__traceback__):
        if entry.filename.startswith(_PACKAGE_DIR):
            continue
        frames.append(Frame(entry.filename, entry.lineno or 0, entry.name, entry.line or ""))
    return tuple(frames[-limit:])


def raised_error(exc: BaseException) -> RaisedError:
    """``exc`` described as data: its type, one-line text, outcome kind and reason
    (``outcome.classify_failure``, seed 004), the delay a ``Retry-After`` header it carried asks
    for (seconds), and its frames."""
    from playground.core import outcome as oc

    if getattr(type(exc), "kind", None) == "invalid_args":
        # the tool says its input was wrong (issue 11 item 3): ``kind = "invalid_args"`` on the
        # exception class, optionally ``arg = "name"``; the verdict is ``tool:<arg>`` or ``tool``
        arg = getattr(exc, "arg", None)
        return RaisedError(
            type_name=type(exc).__name__,
            text=str(exc) or type(exc).__name__,
            kind="invalid_args",
            reason=f"tool:{arg}" if isinstance(arg, str) and arg else "tool",
            frames=tool_frames(exc),
        )
    found = oc.classify_failure(exc)
    return RaisedError(
        type_name=type(exc).__name__,
        text=oc.exception_text(exc),
        kind=found.kind,
        reason=found.reason,
        frames=tool_frames(exc),
        retry_after_s=found.retry_after_s,
    )


def conversion_error(exc: Exception) -> RaisedError:
    """A validated argument that could not become its annotated type
    (:class:`playground.core.convert.ArgConversionError`), as an ``invalid_args`` error whose
    reason is ``type:<field path>``; ``details["before_body"]`` says the body did not run."""
    path = getattr(exc, "path", "")
    return RaisedError(
        type_name=type(exc).__name__,
        text=str(exc),
        kind="invalid_args",
        reason=f"type:{path}" if path else "type",
        details={"before_body": True, "path": path},  # the body never ran
    )


@dataclass(frozen=True)
class LoadProblem:
    """One thing that could not be loaded: ``where`` (a path or ``path:line``) and ``message``."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class LoadResult:
    """What loading a source gave: ``contracts`` (in load order), ``problems`` (never raised;
    the CLI exits 2 for one) and ``warnings`` (a fault that did not stop the source working,
    such as an MCP server writing a log line to stdout: said, but the command succeeds)."""

    contracts: list[Contract] = field(default_factory=list)
    problems: list[LoadProblem] = field(default_factory=list)
    warnings: list[LoadProblem] = field(default_factory=list)


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
