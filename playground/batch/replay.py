"""Golden episodes, replay and rerun (issue 14, "Golden episodes and drift").

A golden file (``ask ... --save FILE.json``, ``call ... [--repair] --save FILE.json``) is one
JSON document, plain and diffable::

    {"golden": 1, "type": "episode" | "call", "saved": "2026-11-30T21:00:00+0000",
     "question": "..." | null, "tool": "..." | null, "args": {...} | null, "router": "offline",
     "declaration_hashes": {"track_shipping": "<sha256>", ...},
     "data": <Episode.to_json() or CallRecord.to_json()>}

``declaration_hashes`` holds every contract the run touched: for a question, every declaration
the router was shown; for a hand-picked call, the tools called. :func:`replay_file` runs the
same question or call again and compares field by field (:mod:`playground.batch.drift`); a
changed hash is named as the likely cause. :func:`rerun` does the same for a history entry.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playground.batch.drift import Drift, compare, declaration_causes
from playground.errors import UsageError
from playground.history.entries import picked_call
from playground.history.runs import contract_hashes, touched_hashes

GOLDEN_VERSION = 1
#: the deepest nesting a golden file may have: a record's values nest at most
#: ``canonical.MAX_DEPTH`` (100) levels, under the file's own few (data, calls, wire, ...)
GOLDEN_MAX_DEPTH = 160


def golden_document(
    kind: str, data: Mapping[str, Any], hashes: Mapping[str, str]
) -> dict[str, Any]:
    """The golden file's JSON for a run (``kind``: ``call`` or ``episode``)."""
    if kind == "call":
        tool, args, question = data.get("tool"), data.get("args"), None
    else:
        question = data.get("question")
        tool, args = (None, None) if question is not None else picked_call(data)
    return {
        "golden": GOLDEN_VERSION,
        "type": kind,
        "saved": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "question": question,
        "tool": tool,
        "args": args,
        "router": str(data.get("router") or ("" if kind == "call" else "manual")),
        "declaration_hashes": dict(sorted(hashes.items())),
        "data": dict(data),
    }


def write_json_atomic(path: str | Path, document: Any, *, force: bool = False) -> None:
    """Write ``document`` as indented JSON (Hangul as is) to ``path`` with
    :func:`~playground.batch.outfiles.write_text_atomic` (a temp file renamed into place, so a
    reader never sees half a file and a full disk leaves the old file whole). Raises
    :class:`UsageError` when ``path`` exists and ``force`` is false, or cannot be written."""
    from playground.batch.outfiles import write_text_atomic

    text = json.dumps(document, ensure_ascii=False, indent=2, default=repr) + "\n"
    write_text_atomic(path, text, force=force)


def save_golden(
    path: str | Path, registry: Any, kind: str, data: Mapping[str, Any], *, force: bool = False
) -> dict[str, Any]:
    """Write the golden file for a run at ``path``; returns the document written. Raises
    :class:`UsageError` when ``path`` exists and ``force`` is false."""
    document = golden_document(kind, data, touched_hashes(registry, kind, data))
    write_json_atomic(path, document, force=force)
    return document


def read_golden(path: str | Path) -> dict[str, Any]:
    """Read and check a golden file. Raises :class:`UsageError` naming the file and the
    problem (missing, not JSON, nested deeper than :data:`GOLDEN_MAX_DEPTH`, not a golden
    episode) — one line, never ``RecursionError``."""
    from playground.core.canonical import MAX_DEPTH, JsonInputError, json_depth_problem
    from playground.core.json_files import read_json_text

    p = Path(path)
    if not p.exists():
        raise UsageError(f"{p}: no such file")
    try:
        text = read_json_text(p)  # at most 16 MB
    except JsonInputError as exc:
        raise UsageError(f"{p}: {exc}") from None

    try:
        doc = json.loads(text)
    except RecursionError:
        raise UsageError(
            f"{p}: nested deeper than {GOLDEN_MAX_DEPTH} levels; not a golden file"
        ) from None
    except ValueError as exc:
        raise UsageError(f"{p}: not JSON ({' '.join(str(exc).split())[:200]})") from None
    problem = json_depth_problem(doc, GOLDEN_MAX_DEPTH)
    if problem:  # a record's values nest at most MAX_DEPTH levels, the file a few more
        raise UsageError(
            f"{p}: {problem}; not a golden file (a value in one nests at most {MAX_DEPTH})"
        )
    if not isinstance(doc, dict) or doc.get("golden") != GOLDEN_VERSION:
        raise UsageError(f'{p}: not a golden episode (no "golden": {GOLDEN_VERSION})')
    if doc.get("type") not in ("call", "episode") or not isinstance(doc.get("data"), dict):
        raise UsageError(f'{p}: "type" must be call or episode and "data" an object')
    if doc.get("type") == "call" or doc.get("question") is None:
        if not isinstance(doc.get("tool"), str) or not doc["tool"]:
            raise UsageError(f'{p}: a call or manual episode needs "tool"')
    elif not isinstance(doc.get("question"), str):
        raise UsageError(f'{p}: "question" must be a string')
    return doc


def fresh_session(pg: Any, *, hold_writes: bool = False) -> Any:
    """A copy of the Playground ``pg`` whose gate has an empty cache and zero body-run counts
    (same registry, tool source and settings): a rerun or replay runs the body as the first
    call of a session did, instead of answering from this session's cache. ``hold_writes``:
    the gate runs no body of a tool that may write (``Gate.hold_writes``)."""
    from collections import Counter

    from playground.core.cache import ResultCache

    gate = dataclasses.replace(
        pg.gate, cache=ResultCache(), body_runs=Counter(), hold_writes=hold_writes
    )
    return dataclasses.replace(pg, gate=gate)


def run_again(pg: Any, kind: str, doc: Mapping[str, Any], router: Any = None) -> dict[str, Any]:
    """Run what ``doc`` describes once more on ``pg`` and return the new JSON: a call record
    (``kind == "call"``), a question episode (with ``router``) or a manual episode.

    ``doc``: ``{"question"}`` or ``{"tool", "args"}`` (a golden document or :func:`what_ran`).
    Raises :class:`UsageError` for a question without a router.
    """
    from playground.loop.episode import run_manual_episode, run_question_episode

    if kind == "call":
        record: dict[str, Any] = pg.gate.call(doc.get("tool"), doc.get("args")).to_json()
        return record
    if doc.get("question") is not None:
        if router is None:
            raise UsageError("a question needs a router to run again")
        episode: dict[str, Any] = run_question_episode(pg, str(doc["question"]), router).to_json()
        return episode
    manual: dict[str, Any] = run_manual_episode(pg, str(doc.get("tool")), doc.get("args")).to_json()
    return manual


def what_ran(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """``{"question"}`` or ``{"tool", "args"}`` of a stored record or episode (for :func:`run_again`)."""
    if kind == "call":
        return {"question": None, "tool": data.get("tool"), "args": data.get("args")}
    if data.get("question") is not None:
        return {"question": data.get("question"), "tool": None, "args": None}
    tool, args = picked_call(data)
    return {"question": None, "tool": tool, "args": args}


@dataclass
class ReplayResult:
    """One golden file replayed. ``drifts``: the fields that differ; ``causes``: changed
    declarations; ``error``: why it could not run ('' when it ran); ``notes``: e.g. another
    router than saved, a tool that may write and ran or was held; ``updated``: the file was
    rewritten (``--update``); ``skipped``: why it was not replayed ('' when it was: a stored
    call of a tool that may write, not allowed: :mod:`playground.batch.write_guard`)."""

    file: str
    kind: str = ""
    label: str = ""
    drifts: list[Drift] = field(default_factory=list)
    causes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str = ""
    updated: bool = False
    seconds: float = 0.0
    now: dict[str, Any] | None = None
    skipped: str = ""

    @property
    def drifted(self) -> bool:
        return bool(self.drifts)

    @property
    def passed(self) -> bool:
        return not self.error and (not self.drifts or self.updated)

    def to_json(self) -> dict[str, Any]:
        """``{"file", "type", "label", "passed", "drift": [{"field", "saved", "now"}],
        "causes", "notes", "error", "updated", "skipped"}``."""
        return {
            "file": self.file,
            "type": self.kind,
            "label": self.label,
            "passed": self.passed,
            "drift": [d.to_json() for d in self.drifts],
            "causes": list(self.causes),
            "notes": list(self.notes),
            "error": self.error,
            "updated": self.updated,
            "skipped": self.skipped,
        }


def replay_file(
    pg: Any,
    path: str | Path,
    make_router: Callable[[str], tuple[Any, list[str]]] | None = None,
    *,
    update: bool = False,
    writes_allowed: Callable[[list[str]], bool] | None = None,
) -> ReplayResult:
    """Replay the golden file at ``path`` on ``pg`` and compare.

    ``make_router(name) -> (router, notes)`` builds the router a question was saved with
    (the CLI's router choice); a :class:`UsageError` it raises (a router without its key:
    never replayed on another one) becomes the file's ``error``. ``update``: rewrite the file
    with today's run when it drifted. ``writes_allowed(names) -> bool``: asked with the tools the
    file calls that may write (:func:`~playground.batch.write_guard.stored_writes`); when it says
    no the file is ``skipped``, and any other such tool the router picks is held by the gate;
    ``None`` runs them all. Never raises for a bad file: ``error`` says what is wrong.
    """
    from playground.batch.write_guard import described, run_notes, stored_writes

    result = ReplayResult(file=str(path))
    started = time.perf_counter()
    try:
        doc = read_golden(path)
        kind = str(doc["type"])
        result.kind = kind
        result.label = doc.get("question") or f"{doc.get('tool')}({_args_text(doc.get('args'))})"
        router = None
        if kind == "episode" and doc.get("question") is not None:
            if make_router is None:
                raise UsageError("no router to replay a question")
            router, notes = make_router(str(doc.get("router") or "offline"))
            result.notes.extend(notes)
        hold = False
        if writes_allowed is not None:
            writes = stored_writes(pg.registry, kind, {**doc["data"], "tool": doc.get("tool")})
            if writes and not writes_allowed(writes):
                result.skipped = (
                    f"not replayed: it calls {described(pg.registry, writes)}; "
                    "pass --allow-writes to replay it"
                )
                result.seconds = time.perf_counter() - started
                return result
            hold = not writes
        now = run_again(fresh_session(pg, hold_writes=hold), kind, doc, router)
        result.notes.extend(run_notes(kind, now))
        result.now = now
        result.drifts = compare(kind, doc["data"], now)
        if result.drifts:
            saved_hashes = doc.get("declaration_hashes") or {}
            current = touched_hashes(pg.registry, kind, now)
            if kind == "episode" and doc.get("question") is None:
                current = contract_hashes(pg.registry, [*saved_hashes, *current])
            involved = _called(kind, doc["data"]) + _called(kind, now)
            result.causes = declaration_causes(saved_hashes, current, involved)
            if update:
                save_golden(path, pg.registry, kind, now, force=True)  # --update consents
                result.updated = True
    except UsageError as exc:
        result.error = str(exc)
    result.seconds = time.perf_counter() - started
    return result


def _called(kind: str, data: Mapping[str, Any]) -> list[str]:
    if kind == "call":
        return [str(data.get("tool"))]
    return [str(c.get("tool")) for c in data.get("calls") or [] if isinstance(c, Mapping)]


def _args_text(args: Any) -> str:
    return json.dumps(args, ensure_ascii=False, default=repr)


@dataclass
class Rerun:
    """A history entry run again: the ``new`` JSON, the ``drifts`` from the old one and the
    ``causes`` (changed declaration hashes)."""

    kind: str
    old: dict[str, Any]
    new: dict[str, Any]
    drifts: list[Drift]
    causes: list[str]
    hashes: dict[str, str]


def rerun(
    pg: Any,
    kind: str,
    data: Mapping[str, Any],
    saved_hashes: Mapping[str, str],
    router: Any = None,
    *,
    hold_writes: bool = False,
) -> Rerun:
    """Run a stored record or episode again (same arguments or question) on a fresh cache
    (:func:`fresh_session`) and compare: the fields of :func:`compare`, after a ``source``
    drift when the two did not run on the same MCP servers (:func:`source_drifts`).
    ``hold_writes``: run no body of a tool that may write (``Gate.hold_writes``)."""
    new = run_again(fresh_session(pg, hold_writes=hold_writes), kind, what_ran(kind, data), router)
    hashes = touched_hashes(pg.registry, kind, new)
    drifts = source_drifts(kind, data, new) + compare(kind, data, new)
    causes = (
        declaration_causes(saved_hashes, hashes, _called(kind, data) + _called(kind, new))
        if drifts
        else []
    )
    return Rerun(kind, dict(data), new, drifts, causes, hashes)


def to_junit(results: list[ReplayResult], name: str = "playground replay") -> str:
    """JUnit XML (the de-facto schema Jenkins, GitLab and GitHub read): one ``<testcase>`` per
    golden file, ``<failure type="drift">`` listing each drifted field and the likely causes,
    ``<error>`` for a file that could not run."""
    suites = ET.Element("testsuites", name=name)
    suite = ET.SubElement(suites, "testsuite", name=name)
    failures = errors = skipped = 0
    for r in results:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f"replay.{Path(r.file).stem}",
            name=f"{Path(r.file).name}: {r.label}" if r.label else Path(r.file).name,
            time=f"{r.seconds:.3f}",
        )
        if r.error:
            errors += 1
            ET.SubElement(case, "error", message=r.error, type="unreadable").text = r.error
        elif r.skipped:
            skipped += 1
            ET.SubElement(case, "skipped", message=r.skipped)
        elif r.drifts and not r.updated:
            failures += 1
            first = r.causes[0] if r.causes else r.drifts[0].text(80)
            body = "\n".join([*(d.text() for d in r.drifts), *r.causes])
            ET.SubElement(case, "failure", message=first, type="drift").text = body
    total = str(len(results))
    seconds = f"{sum(r.seconds for r in results):.3f}"
    for element in (suites, suite):
        element.set("tests", total)
        element.set("failures", str(failures))
        element.set("errors", str(errors))
        element.set("skipped", str(skipped))
        element.set("time", seconds)
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


# -- MCP servers of a history entry ----------------------------------------------------------


def mcp_specs_for(
    stored: list[Mapping[str, Any]], headers: list[str] | None = None
) -> tuple[list[Any], list[str]]:
    """The :class:`~playground.sources.mcp_config.McpServerSpec` values to reconnect the MCP
    servers of a history entry (``stored``: :func:`~playground.history.runs.mcp_sources`),
    and notes for the user.

    ``headers``: ``--mcp-header "Name: value"`` given again for the ``--mcp-url`` servers (the
    history never kept their values); a server that had headers and gets none is connected
    without them, with a note naming them. A ``--mcp`` command starts in the directory it
    first started in (when it still exists). Raises :class:`UsageError` for a config file that
    is gone or no longer names the server, a malformed header, or headers for an entry that
    used no ``--mcp-url`` server."""
    from playground.sources.mcp_config import config_specs, http_spec, parse_header, stdio_spec

    header_map = dict(parse_header(h) for h in headers or [])
    taken: set[str] = set()
    specs: list[Any] = []
    notes: list[str] = []
    for item in stored:
        if isinstance(item.get("mcp_config"), str):
            found = [
                s for s in config_specs(item["mcp_config"], set()) if s.name == item.get("server")
            ]
            if not found:
                raise UsageError(
                    f"{item['mcp_config']}: no MCP server {item.get('server')!r} in it any more"
                )
            taken.add(found[0].name)
            specs.append(found[0])
        elif isinstance(item.get("mcp"), str):
            spec = stdio_spec(item["mcp"], taken)
            cwd = item.get("cwd")
            if isinstance(cwd, str) and cwd != os.getcwd() and Path(cwd).is_dir():
                spec = dataclasses.replace(spec, cwd=cwd)
            specs.append(spec)
        elif isinstance(item.get("mcp_url"), str):
            names = [n for n in item.get("header_names") or [] if isinstance(n, str)]
            missing = [n for n in names if n not in header_map]
            if missing:
                notes.append(
                    f"{item['mcp_url']} was called with the header(s) {', '.join(missing)}; their "
                    'values are never stored: pass --mcp-header "NAME: value" again'
                )
            specs.append(http_spec(item["mcp_url"], header_map, taken))
    if header_map and not any(isinstance(item.get("mcp_url"), str) for item in stored):
        raise UsageError("--mcp-header applies to --mcp-url servers; this entry used none")
    return specs, notes


def ran_on(kind: str, data: Mapping[str, Any]) -> list[str]:
    """The tool sources a record or episode's calls ran on (their ``source`` field, e.g.
    ``mcp:shop``, ``worker``), each once, in order."""
    calls = (
        [data] if kind == "call" else [c for c in data.get("calls") or [] if isinstance(c, Mapping)]
    )
    return list(dict.fromkeys(str(c.get("source")) for c in calls if c.get("source")))


def source_drifts(kind: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Drift]:
    """A drift ``source`` when a run and its rerun did not run on the same MCP servers (a call
    on ``mcp:shop`` rerun on ``worker`` says so); ``worker`` vs ``in-process`` is not one."""
    before, after = ran_on(kind, old), ran_on(kind, new)
    servers_before = [s for s in before if s.startswith("mcp:")]
    servers_after = [s for s in after if s.startswith("mcp:")]
    if servers_before == servers_after:
        return []
    return [Drift("source", ", ".join(before), ", ".join(after))]
