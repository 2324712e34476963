"""Rich renderings for ``--format table``: call records, contracts, check results, episodes.

Imported lazily by the commands (Rich is not needed for ``--format json``). Every function takes
plain data or core objects and returns a Rich renderable; :func:`console` gives the stdout
console. Rich measures Hangul as double-width cells, so Korean columns line up.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import (
    Console,
    ConsoleOptions,
    ConsoleRenderable,
    Group,
    RenderableType,
    RenderHook,
    RenderResult,
)
from rich.panel import Panel
from rich.segment import Segment
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from playground.cli.common import dump_json
from playground.core.cells import REASON_CHARS, cell
from playground.core.record import VALID, verdict_of
from playground.core.untrusted import is_shown, shown
from playground.tui.formatting import KIND_STYLES

# A JSON block longer than this many characters is cut in the table view (Rich needs ~3 s per
# MB to lay it out); the note under it says how much was left out and that --format json has all.
MAX_BLOCK_CHARS = 64_000

CACHE_STYLES = {"hit": "green", "stored": "cyan", "miss": "yellow", "skip": "dim"}


#: Width in columns for tables when stdout is not a terminal (a pipe or a file) and COLUMNS is
#: unset: Rich's 80 would fold every cell of a wide table into a tall column.
PIPE_WIDTH = 120


class _Shown:
    """A renderable drawn as ``inner`` is, with the text of every segment through the rule for
    untrusted text (:func:`playground.core.untrusted.shown`); Rich's own control segments (cursor
    moves) and styles are kept. The renderings of this module apply the rule to each text they
    take from a tool or server (so the columns are laid out on the shown text); this is the
    net under them, so that a text one of them missed still reaches no terminal raw."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            if segment.control or is_shown(segment.text):
                yield segment
            else:
                yield Segment(shown(segment.text), segment.style)


class _ShowAll(RenderHook):
    """Wraps everything a console prints in :class:`_Shown`."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Shown(r) for r in renderables]


class _DataConsole(Console):
    """A Rich console whose closed pipe (``playground probe X | head -1``) ends the command as
    every other write to a closed stdout does: Rich's own ``on_broken_pipe`` exits 1 without a
    word; here stdout is pointed at ``/dev/null`` (nothing more to write) and
    ``BrokenPipeError`` is raised, which the command's boundary (or ``main.run``) turns into
    a quiet exit 0 (docs/cli.md, "Exit codes")."""

    def on_broken_pipe(self) -> None:
        from playground.cli.common import stdout_to_devnull

        self.quiet = True
        stdout_to_devnull()
        raise BrokenPipeError(32, "the reader of stdout closed it")


def console() -> Console:
    """A console on stdout (resolved at print time, so test runners capture it). Markup is off:
    tool names, paths and messages are printed as they are, never read as ``[style]`` tags, and
    every text goes through the rule for untrusted text (:class:`_Shown`). When stdout is not a
    terminal and ``COLUMNS`` is unset, tables are laid out at :data:`PIPE_WIDTH` columns
    instead of 80."""
    out = _DataConsole(highlight=False, markup=False)
    if not out.is_terminal and not os.environ.get("COLUMNS"):
        out = _DataConsole(highlight=False, markup=False, width=PIPE_WIDTH)
    out.push_render_hook(_ShowAll())
    return out


def json_block(data: Any, *, title: str | None = None) -> RenderableType:
    """``data`` as syntax-highlighted JSON (indent 2, Hangul as is), optionally in a titled panel."""
    text = dump_json(data)
    cut = len(text) - MAX_BLOCK_CHARS
    size = 0
    if cut > 0:
        size = len(text.encode("utf-8", "replace"))
        text = text[:MAX_BLOCK_CHARS]
    syntax: RenderableType = Syntax(
        text, "json", theme="ansi_dark", word_wrap=True, background_color="default"
    )
    if cut > 0:
        syntax = Group(
            syntax,
            Text(
                f"… {cut:,} more characters not shown here; --format json prints all of it "
                f"({size:,} bytes in all; redirect it to a file to keep it)",
                style="bold yellow",
            ),
        )
    if title is None:
        return syntax
    return Panel(syntax, title=shown(title), title_align="left", box=box.ROUNDED)


def kind_text(kind: str) -> Text:
    """An outcome kind in its colour (:data:`playground.tui.formatting.KIND_STYLES`: ``ok``
    green, ``invalid_args`` yellow, ``bad_result`` red, ...)."""
    return Text(kind or "-", style=KIND_STYLES.get(kind, "bold"))


def verdict_text(verdict: str) -> Text:
    """A verdict: ``valid`` (green; also for ``""`` from older files), else the reason code in yellow."""
    verdict = verdict_of(verdict)
    return Text(verdict, style="green" if verdict == VALID else "bold yellow")


def cache_text(cache: str) -> Text:
    """A cache state (``hit`` | ``miss`` | ``stored`` | ``skip``) in its colour."""
    return Text(cache or "-", style=CACHE_STYLES.get(cache, ""))


def yes_no(flag: bool) -> Text:
    """``yes`` / ``no``."""
    return Text("yes", style="green") if flag else Text("no", style="dim")


def record_view(record: Any) -> RenderableType:
    """A CallRecord (object or its ``to_json()`` dict) as a panel of fields, then the value and
    the Gemini wire JSON, syntax-highlighted.

    Fields shown: verdict, body ran + body_runs, cache + key, ok / kind / error, retries,
    duration and time limit, message, canonical args, what the body printed.
    """
    data = record if isinstance(record, Mapping) else record.to_json()
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row("verdict", verdict_text(data.get("verdict", "")))
    _add_reason_rows(grid, data.get("reasons") or [])
    ran = Text("ran", style="green") if data.get("body_ran") else Text("did not run", style="dim")
    grid.add_row("body", Text.assemble(ran, f"  (body_runs {data.get('body_runs', 0)})"))
    effects = data.get("side_effects") or {}
    grid.add_row("cache", _cache_cell(data, effects))
    if effects.get("effects"):
        grid.add_row("effects", _effects_cell(effects))
    outcome = Text.assemble(
        kind_text(data.get("kind", "")),
        f"  ok {str(bool(data.get('ok'))).lower()}",
    )
    if data.get("error"):
        outcome.append(f"  error {shown(data['error'])}", style="red")
    grid.add_row("outcome", outcome)
    for retry in data.get("retries") or []:
        r = retry if isinstance(retry, Mapping) else vars(retry)
        grid.add_row(
            "retry",
            f"attempt {r.get('attempt')} failed: {r.get('reason')}; waited {r.get('delay_ms')} ms",
        )
    timing = f"{float(data.get('duration_ms') or 0):.1f} ms"
    if data.get("timeout_s") is not None:
        timing += f"  (time limit {data['timeout_s']:g} s)"
    grid.add_row("duration", timing)
    _add_text_rows(grid, data)
    panel = Panel(grid, title=_record_title(data), title_align="left", box=box.ROUNDED)
    parts: list[RenderableType] = [panel]
    if data.get("value") is not None:
        parts.append(json_block(data["value"], title="value"))
    wire = (data.get("wire") or {}).get("gemini")
    if wire is not None:
        parts.append(json_block(wire, title="wire JSON (gemini: what the model reads)"))
    return Group(*parts)


def _add_reason_rows(grid: Table, reasons: list[Any]) -> None:
    """With more than one violation, a ``reason`` row each: its JSON path, code and message."""
    if len(reasons) > 1:  # every violation with its JSON path (issue 20 item 4)
        for reason in reasons:
            grid.add_row(
                "reason",
                Text.assemble(
                    (f"{reason.get('path') or '/'}  ", "dim"),
                    (shown(str(reason.get("code", ""))), "yellow"),
                    f"  {shown(str(reason.get('message', '')))}",
                ),
            )


def _cache_cell(data: Mapping[str, Any], effects: Mapping[str, Any]) -> Text:
    """The cache state, then (dim) its key and why the cache was skipped for side effects."""
    cache = Text.assemble(cache_text(data.get("cache", "")))
    if data.get("cache_key"):
        cache.append(f"  key {shown(data['cache_key'])}", style="dim")
    if effects.get("cache_skip"):
        cache.append(f"  {shown(effects['cache_skip'])}", style="dim")
    return cache


def _effects_cell(effects: Mapping[str, Any]) -> Text:
    """The tool's effects, how they are known (basis: evidence) and ``idempotent`` for a
    writing tool that says so."""
    said = effects["effects"]
    if effects.get("basis") not in (None, "", "unknown"):
        said += f" ({effects['basis']}: {effects.get('evidence', '')})"
    if effects.get("idempotent") and effects["effects"] != "read":
        said += ", idempotent"
    return Text(shown(said))


def effects_brief(effects: Mapping[str, Any]) -> Text:
    """A call's effects in a table cell (an episode's calls table: a question that booked
    something says so), from a record's ``side_effects`` (``{effects, basis, evidence}``) in
    :func:`effects_text`'s words and colours; ``-`` when the record carries none."""
    if not effects.get("effects"):
        return Text("-", style="dim")
    return effects_text(
        {
            "effects": shown(str(effects["effects"])),
            "effects_basis": effects.get("basis") or "unknown",
        }
    )


def _add_text_rows(grid: Table, data: Mapping[str, Any]) -> None:
    """The ``message`` (when any), the ``args`` as sent, their ``canonical`` form when it
    differs (the cache key's: keys sorted, defaults filled in), what the body ``printed`` (dim)
    and each ``warning`` (yellow)."""
    if data.get("message"):
        grid.add_row("message", Text(shown(data["message"])))
    sent = dump_json(data.get("args"), compact=True)
    grid.add_row("args", Text(sent))
    canonical = data.get("canonical_args") or ""
    if canonical and canonical != _sorted_compact(data.get("args")):
        grid.add_row("canonical", Text(canonical, style="dim"))
    if data.get("printed"):
        grid.add_row("printed", Text(shown(data["printed"].rstrip("\n")), style="dim"))
    for warning in data.get("warnings") or []:
        grid.add_row("warning", Text(shown(warning), style="yellow"))


def _sorted_compact(args: Any) -> str:
    """``args`` as compact JSON with sorted keys (Hangul kept), to tell whether the canonical
    form adds anything to what was sent."""
    try:
        return json.dumps(args, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return ""


def _record_title(data: Mapping[str, Any]) -> Text:
    """The record panel's title: call id (dim), tool (bold), ✓/✗ and the outcome kind."""
    ok = bool(data.get("ok"))
    return Text.assemble(
        (f"{data.get('call_id', '')}  ", "dim"),
        (shown(str(data.get("tool", ""))), "bold"),
        "  ",
        ("✓ " if ok else "✗ ", "green" if ok else "red"),
        kind_text(data.get("kind", "")),
    )


#: Where a sentence ends: ``.``, ``!``, ``?`` or ``。`` before white space and a character
#: that is no lowercase Latin letter (``e.g. a name`` goes on; Korean sentences end with
#: ``다.`` the same way).
_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+(?![a-z])")


def first_line(text: str) -> str:
    """A description's summary for one table cell: its first sentence, read across the lines
    the author wrapped it over (up to the first blank line), stripped; the whole first
    paragraph when it has no sentence end. A docstring's summary wrapped at 96 columns was cut
    mid-sentence ("always returns 8 rows, more than the 5")."""
    lines: list[str] = []
    for line in (text or "").splitlines():
        if line.strip():
            lines.append(line.strip())
        elif lines:
            break
    paragraph = " ".join(lines)
    end = _SENTENCE_END.search(paragraph)
    return paragraph[: end.start()] if end else paragraph


_EFFECT_STYLES = {"write": "bold red", "unknown": "bold yellow", "read": "green"}


def effects_text(row: Mapping[str, Any]) -> Text:
    """``write (inferred)`` in red, ``unknown`` in yellow, ``read (declared)`` in green: a
    contract's effects and how they are known (:mod:`playground.core.effects`), from a
    :func:`playground.cli.cmd_call.contract_summary` row."""
    kind = row.get("effects") or ("write" if row.get("side_effects") else "read")
    basis = row.get("effects_basis") or "declared"
    label = kind if basis == "unknown" else f"{kind} ({basis})"
    return Text(label, style=_EFFECT_STYLES.get(kind, ""))


def contracts_table(rows: Iterable[Mapping[str, Any]]) -> Table:
    """The ``list`` table from :func:`playground.cli.cmd_call.contract_summary` rows: the name
    with the first line of its description below it, origin, effects badge, cache, time limit
    and required args."""
    table = Table(box=box.SIMPLE_HEAD, show_lines=True)
    table.add_column("tool", overflow="fold", ratio=1, min_width=20)
    table.add_column("origin", style="dim", no_wrap=True)
    table.add_column("effects", no_wrap=True)
    table.add_column("cache", no_wrap=True)
    table.add_column("timeout", justify="right", no_wrap=True)
    table.add_column("required args", overflow="fold", max_width=24)
    for row in rows:
        effects = effects_text(row)
        tool = Text(shown(row["name"]), style="bold")
        if row["description"]:
            tool.append("\n" + shown(row["description"]), style="dim")
        table.add_row(
            tool,
            row["origin"],
            effects,
            yes_no(row["caches"]),
            f"{row['timeout_s']:g} s",
            ", ".join(row["required"]) or "-",
        )
    return table


def cacheable_text(cacheable: bool) -> Text:
    """``show``'s ``cacheable`` row: the contract's own ``cacheable`` flag, said as a
    permission (it says nothing about what is in the cache)."""
    if cacheable:
        return Text.assemble("yes", (" (the contract allows its results to be cached)", "dim"))
    return Text.assemble("no", (" (the contract sets cacheable: false)", "dim"))


def cache_use_text(caches: bool, reason: str) -> Text:
    """``show``'s ``cache`` row: whether the playground serves this tool's calls from its
    result cache (``caches``; ``reason``: why not), and that ``show`` itself cached nothing —
    the cache lives in one session (a ``call``, ``ask``, the TUI) and keeps successes only."""
    if caches:
        return Text.assemble(
            "used",
            (
                " (within one session a success is kept, and a repeat of its arguments is "
                "answered from the cache without running the body; show ran no call)",
                "dim",
            ),
        )
    return Text.assemble(
        "not used", (f" (every call runs the body: {reason})" if reason else "", "dim")
    )


def idempotent_text(summary: Mapping[str, Any]) -> Text:
    """``show``'s idempotent flag with how it is known: a read is idempotent because it is a
    read (as its effects are known: declared, annotations or inferred); a write only when it
    says so (``declared``; an MCP tool's ``idempotentHint``)."""
    if not summary.get("idempotent"):
        return yes_no(False)
    basis = str(summary.get("effects_basis") or "unknown")
    if summary.get("effects") == "read":
        how = f"a read ({basis}) repeats harmlessly"
    elif basis == "annotations":
        how = "idempotentHint: true"
    else:
        how = basis
    return Text.assemble(yes_no(True), (f"  {shown(how)}", "dim"))


def contract_view(
    summary: Mapping[str, Any],
    declaration: Mapping[str, Any],
    returns: Any,
    title: str = "as a Gemini request carries it",
    notes: Sequence[str] = (),
    cache_reason: str = "",
) -> RenderableType:
    """``show``: a provider's declaration (``title`` says whose), what that provider cannot
    carry as the tool declares it (``notes``, one line each), the returns schema and the
    flags. ``cache_reason``: why its calls are not cached (``Contract.cache_skip_reason``;
    ``""`` when they are)."""
    flags = Table.grid(padding=(0, 2))
    flags.add_column(style="bold")
    flags.add_column(overflow="fold")
    flags.add_row("origin", summary["origin"])
    flags.add_row("source", summary["source"])
    flags.add_row(
        "effects",
        Text.assemble(effects_text(summary), (f"  {summary.get('effects_evidence', '')}", "dim")),
    )
    flags.add_row("idempotent", idempotent_text(summary))
    flags.add_row("cacheable", cacheable_text(summary["cacheable"]))
    flags.add_row("cache", cache_use_text(bool(summary["caches"]), cache_reason))
    flags.add_row("time limit", f"{summary['timeout_s']:g} s")
    if isinstance(returns, Mapping):
        for key in ("max_rows", "rows_key", "max_bytes"):
            if key in returns:
                flags.add_row(key, str(returns[key]))
    parts: list[RenderableType] = [
        json_block(declaration, title=f"declaration of {summary['name']} ({title})"),
        *(
            [
                Panel(
                    Text("\n".join(shown(n) for n in notes), style="yellow"),
                    title="what this provider cannot carry as declared",
                    title_align="left",
                )
            ]
            if notes
            else []
        ),
        json_block(returns, title="returns")
        if returns is not None
        else Panel(
            Text("no returns schema declared: results are not checked", style="dim"),
            title="returns",
            title_align="left",
        ),
        Panel(flags, title="flags", title_align="left", box=box.ROUNDED),
    ]
    return Group(*parts)


def check_table(report: Mapping[str, Any]) -> RenderableType:
    """``check``: one row a case — line; pass/FAIL; the tool with its args (and, for a failed
    case, the mismatches) below it; the kind over the verdict; the cache over the body (ran or
    not, and body_runs) — then a summary line. ``report`` is ``CheckReport.to_json()``."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("line", justify="right", style="dim", no_wrap=True)
    table.add_column("", no_wrap=True, min_width=4)
    table.add_column("call", overflow="fold", ratio=1, min_width=16)
    table.add_column("kind / verdict", overflow="fold")
    table.add_column("cache / body", overflow="fold")
    for case in report["cases"]:
        passed = case["passed"]
        call = Text(
            shown(str(case.get("tool") if case.get("tool") is not None else "-")), style="bold"
        )
        # the arguments as sent (canonical_args is the cache key's form: defaults filled in)
        args = (
            dump_json(case["args"], compact=True)
            if "args" in case
            else case.get("canonical_args") or ""
        )
        if args:
            call.append("\n" + cell(args), style="dim")
        for mismatch in case["mismatches"]:
            call.append("\n" + shown(cell(mismatch, REASON_CHARS)), style="red")
        if not passed and case.get("kind") not in (None, "ok") and case.get("message"):
            # why the outcome is what it is (a FileNotFoundError in a copied module, say)
            call.append("\n" + shown(cell(str(case["message"]), REASON_CHARS)), style="dim")
        if "kind" in case:  # a record (a malformed line has none)
            outcome = Text.assemble(kind_text(case["kind"]), "\n", verdict_text(case["verdict"]))
            for reason in (case.get("reasons") or [])[1:]:  # the other violations found
                outcome.append("\n" + shown(str(reason.get("code", ""))), style="yellow")
            body = Text.assemble(
                cache_text(case["cache"]),
                "\n",
                f"{'ran' if case['body_ran'] else 'no run'} ({case['body_runs']})",
            )
        else:
            outcome, body = Text("-"), Text("-")
        table.add_row(
            str(case["line"]),
            Text("pass", style="green") if passed else Text("FAIL", style="bold red"),
            call,
            outcome,
            body,
        )
    total = report["passed"] + report["failed"]
    style = "green" if report["failed"] == 0 else "bold red"
    summary = Text(
        f"{report['passed']} passed, {report['failed']} failed, {total} cases", style=style
    )
    return Group(table, summary)


STEP_FIELDS = ("verdict", "body_ran", "cache", "kind", "error", "reason")


def step_detail(step: Mapping[str, Any]) -> Text:
    """One step's detail: the call (tool + compact args), the fields that are set among
    :data:`STEP_FIELDS`, an explanation, and the message on its own line."""
    text = Text()
    if step.get("tool"):
        text.append(shown(str(step["tool"])), style="bold")
        if step.get("args") is not None:
            text.append(" " + dump_json(step["args"], compact=True))
    fields = [
        f"{k}={dump_json(step[k], compact=True) if not isinstance(step[k], str) else shown(step[k])}"
        for k in STEP_FIELDS
        if step.get(k) not in (None, "")
    ]
    if fields:
        text.append(("\n" if text else "") + "  ".join(fields), style="cyan")
    if step.get("explanation"):
        text.append(
            ("\n" if text else "") + dump_json(step["explanation"], compact=True), style="dim"
        )
    if step.get("message"):
        text.append(("\n" if text else "") + shown(str(step["message"])), style="dim")
    return text


def episode_view(episode: Mapping[str, Any]) -> RenderableType:
    """``call --repair``: steps, the calls in the order they ran, then the reply and summary
    (docs/design.md, "Episode")."""
    steps = Table(title="steps", box=box.SIMPLE_HEAD, title_justify="left")
    steps.add_column("#", justify="right", style="dim")
    steps.add_column("node", style="bold")
    steps.add_column("attempt", justify="right")
    steps.add_column("detail", overflow="fold", ratio=1)
    for i, step in enumerate(episode.get("steps") or [], start=1):
        steps.add_row(
            str(i), str(step.get("node", "")), str(step.get("attempt", "")), step_detail(step)
        )
    calls = Table(title="calls", box=box.SIMPLE_HEAD, title_justify="left")
    calls.add_column("tool", no_wrap=True)
    for col in ("args", "verdict", "kind", "effects", "cache", "error"):
        calls.add_column(col, overflow="fold")
    for rec in episode.get("calls") or []:
        rec = rec if isinstance(rec, Mapping) else rec.to_json()
        calls.add_row(
            shown(str(rec.get("tool", ""))),
            dump_json(rec.get("args"), compact=True),
            verdict_text(rec.get("verdict", "")),
            kind_text(rec.get("kind", "")),
            effects_brief(rec.get("side_effects") or {}),
            cache_text(rec.get("cache", "")),
            rec.get("error", ""),
        )
    summary = Table.grid(padding=(0, 2))
    summary.add_column(style="bold")
    summary.add_column(overflow="fold")
    summary.add_row("ok", yes_no(bool(episode.get("ok"))))
    summary.add_row("attempts", str(episode.get("attempts", "")))
    summary.add_row("fixes", ", ".join(map(str, episode.get("fixes") or [])) or "-")
    summary.add_row("gave up", yes_no(bool(episode.get("gave_up"))))
    summary.add_row("router", str(episode.get("router", "")))
    for warning in episode.get("warnings") or []:
        summary.add_row("warning", Text(shown(str(warning)), style="yellow"))
    return Group(
        steps,
        calls,
        Panel(Text(shown(str(episode.get("reply", "")))), title="reply", title_align="left"),
        summary,
    )
