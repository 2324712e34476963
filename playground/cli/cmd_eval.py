"""``playground eval CASES.jsonl``: run a router on every question and judge its first move.

The engine is :mod:`playground.batch.evaluate` (metrics and case format documented there); the
JUnit writer is :mod:`playground.batch.junit`. ``--compare PATH`` (repeatable: the paths together
are the second version of the tools) runs the same cases against that version and lists the
cases that flipped, with both sets of rates side by side (seed 002: compare every schema edit
on the same questions). ``--router`` given more than once runs the same cases on each router and
prints them side by side (:mod:`playground.batch.sidebyside`; tables in
:mod:`playground.cli.render_eval`); ``--repeat N`` measures consistency, ``--jobs N`` keeps N
requests in flight, ``--resume FILE`` continues an interrupted ``--format jsonl`` run.

Exit codes: 0 done (failed cases are data); 1 a ``--min-selection`` / ``--max-false-selection``
threshold is not met (by the ``--tools`` run, and by the ``--compare`` run when given), or the
case file has malformed lines (each reported as ``line N: ...``; the other lines still run —
as ``playground check`` does); 2 the case file is missing, a tool module did not load, or
the router needs an API key and has none (eval never measures a different router silently).
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from playground.cli.common import (
    ExitCode,
    InProcessOption,
    McpConfigOption,
    McpElicitOption,
    McpHeaderOption,
    McpLogLevelOption,
    McpMaxTotalOption,
    McpOption,
    McpRootOption,
    McpServerOption,
    McpTimeoutOption,
    McpToolTimeoutOption,
    McpUrlOption,
    ToolsOption,
    boundary,
    dump_json,
    error_line,
    fail,
    finish,
    mcp_specs,
    one_line,
    open_workbench,
    tools_paths,
)
from playground.cli.html_option import HtmlOption, check_html_target, save_html
from playground.cli.router_options import (
    ApiOption,
    BaseUrlOption,
    ModelOption,
    ModeOption,
    RoutersOption,
    split_router,
)
from playground.core.untrusted import shown
from playground.errors import UsageError
from playground.routing import registry

if TYPE_CHECKING:
    from playground.routing.base import Router


#: The smallest ``--rpm`` other than 0: one request a day (a smaller one would sleep for
#: longer than ``time.sleep`` can).
MIN_RPM = 1 / 1440


def _rate_option(value: float | None) -> float | None:
    """``--min-selection`` / ``--max-false-selection``: a rate from 0 to 1 (NaN is not)."""
    if value is not None and not 0.0 <= value <= 1.0:
        raise typer.BadParameter(f"{value:g} is not a rate from 0 to 1")
    return value


def _rpm_option(value: float | None) -> float | None:
    """``--rpm``: 0 (no limit) or a finite number of requests per minute from :data:`MIN_RPM`."""
    if value is not None and not (value == 0 or MIN_RPM <= value < math.inf):
        raise typer.BadParameter(
            f"{value:g} is not 0 (no limit) or a number of requests per minute from "
            f"{MIN_RPM:.6f} (one a day) up"
        )
    return value


class EvalFormat(str, Enum):
    """``--format`` for eval: table, json (one document), jsonl (one case a line, then a
    summary line per run), junit (JUnit XML for CI)."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    junit = "junit"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _make_routers(
    values: list[str],
    model: str | None,
    mode: str | None,
    base_url: str | None,
    api: str | None,
) -> list[tuple[str, Router]]:
    """``(label, router)`` per ``--router`` (``NAME`` or ``NAME:MODEL``), all built before any
    case runs: a missing key is a usage error (exit 2) naming the variable. ``--base-url`` goes
    to the one router, or with several to those without an endpoint of their own
    (openai-compatible). Labels: ``base`` for one router (as before), else the name (``:MODEL``
    when given; ``#2``... for a repeated one)."""
    several = len(values) > 1
    built: list[tuple[str, Router]] = []
    for value in values:
        name, own_model = split_router(value)
        spec = registry.get(name)
        url = base_url if (not several or spec.needs_base_url) else None
        chosen = _make_router(name, own_model or model, mode, url, api)
        label = "base" if not several else (f"{spec.name}:{own_model}" if own_model else spec.name)
        taken = {existing for existing, _ in built}
        if label in taken:
            label = f"{label}#{sum(1 for t in taken if t.split('#')[0] == label) + 1}"
        built.append((label, chosen))
    return built


def _make_router(
    name: str,
    model: str | None,
    mode: str | None,
    base_url: str | None = None,
    api: str | None = None,
) -> Router:
    """One router by name, its notes on stderr; :class:`UsageError` (exit 2) without its key."""
    from playground.routing.factory import choose_router

    choice = choose_router(name, model, mode, base_url=base_url, api=api)
    for note in choice.notes:
        typer.echo(f"note: {one_line(note)}", err=True)
    return choice.router


def _progress(label: str, total: int) -> tuple[Any, Callable[..., None] | None]:
    """A Rich progress bar on stderr when it is a terminal, else nothing."""
    if not sys.stderr.isatty() or total == 0:
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = progress.add_task(label, total=total)
    return progress, lambda done, _total, _result: progress.update(task, completed=done)


def eval_cases(
    cases: Annotated[
        Path,
        typer.Argument(
            help='Eval case file (JSON Lines): {"question", "expect_tool" | null, '
            '"expect_args"} a line.',
            show_default=False,
        ),
    ],
    tools: ToolsOption = None,
    mcp: McpOption = None,
    mcp_url: McpUrlOption = None,
    mcp_header: McpHeaderOption = None,
    mcp_config: McpConfigOption = None,
    mcp_server: McpServerOption = None,
    mcp_timeout: McpTimeoutOption = None,
    mcp_max_total: McpMaxTotalOption = None,
    mcp_tool_timeout: McpToolTimeoutOption = None,
    root: McpRootOption = None,
    elicit: McpElicitOption = None,
    mcp_log_level: McpLogLevelOption = None,
    in_process: InProcessOption = False,
    router: RoutersOption = None,
    model: ModelOption = None,
    mode: ModeOption = None,
    base_url: BaseUrlOption = None,
    api: ApiOption = None,
    repeat: Annotated[
        int,
        typer.Option(
            "--repeat",
            min=1,
            help="Run each case N times and report, per question, the share of runs that made "
            "the same call (tool and arguments); flaky questions are listed.",
        ),
    ] = 1,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Requests in flight at once (429 answers are waited out as Retry-After says).",
        ),
    ] = 1,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help="The --format jsonl output of an interrupted run: its judged lines are "
            "counted, not asked again (append the new output to the same file).",
            show_default=False,
        ),
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(
            "--prices",
            help="Price file (JSON: MODEL or ROUTER:MODEL -> input_usd_per_mtok, "
            "output_usd_per_mtok) for the cost column; default ./prices.json when present. "
            "A model without a price has a blank cost.",
            show_default=False,
        ),
    ] = None,
    compare_with: Annotated[
        list[Path] | None,
        typer.Option(
            "--compare",
            help="A second version of the tools (file or folder; repeatable): run the same cases "
            "against it and list the cases that flipped.",
            show_default=False,
        ),
    ] = None,
    min_selection: Annotated[
        float | None,
        typer.Option(
            "--min-selection",
            callback=_rate_option,
            help="Exit 1 if the selection rate is below this (0..1).",
        ),
    ] = None,
    max_false_selection: Annotated[
        float | None,
        typer.Option(
            "--max-false-selection",
            callback=_rate_option,
            help="Exit 1 if the false-selection rate is above this (0..1).",
        ),
    ] = None,
    fmt: Annotated[
        EvalFormat,
        typer.Option(
            "--format", "-f", case_sensitive=False, help="table, json, jsonl or junit (JUnit XML)."
        ),
    ] = EvalFormat.table,
    rpm: Annotated[
        float | None,
        typer.Option(
            "--rpm",
            callback=_rpm_option,
            help="Requests per minute (0 = no limit). Default: the router's own (gemini 10; the "
            "offline router is never limited unless this is given).",
        ),
    ] = None,
    html: HtmlOption = None,
) -> None:
    """Judge a router's FIRST move on every question: selection rate, false-selection rate,
    wrong-tool rate, argument accuracy, per-tool precision/recall and a confusion matrix."""
    from playground.batch.compare import compare
    from playground.batch.evalstream import check_case_path, iter_case_file
    from playground.batch.evaluate import evaluate, no_case_judged, threshold_failures

    routers = list(router or [registry.DEFAULT_ROUTER])
    # jsonl streams: each result is written as it is judged
    stream = fmt is EvalFormat.jsonl and not compare_with
    # one router, one run: nothing per case is kept (flat memory over 100,000 cases)
    side_by_side = len(routers) > 1 or repeat > 1
    with boundary():
        check_html_target(html)
        if compare_with and len(routers) > 1:
            raise UsageError("--compare compares two versions of the tools on one --router")
        from playground.batch.sidebyside import load_prices

        price_file = prices if prices is not None else Path("prices.json")
        price_table = load_prices(
            price_file if prices is not None or price_file.is_file() else None
        )
        earlier = _read_resume(resume) if resume is not None else {}
        check_case_path(cases)  # missing file: UsageError → exit 2 before loading tools
        if next(iter(iter_case_file(cases)), None) is None:  # rates over no case: say so first
            raise UsageError(
                f'{cases}: no case to judge (write one JSON object a line: {{"question": ..., '
                '"expect_tool": ... | null})'
            )
        pg = open_workbench(
            tools,
            wire=False,
            in_process=in_process,
            mcp=mcp_specs(
                mcp,
                mcp_url,
                mcp_header,
                mcp_config,
                mcp_server,
                mcp_timeout,
                mcp_max_total,
                mcp_tool_timeout,
                root,
                elicit,
                mcp_log_level,
            ),
        )
        other_pg = (
            open_workbench(compare_with, wire=False, in_process=in_process)
            if compare_with
            else None
        )
        for label, target in (("--tools", pg), ("--compare", other_pg)):
            # Rates over a partly loaded tool set look plausible and are wrong: measure nothing.
            if target is not None and (target.registry.problems or not target.registry.contracts):
                fail(f"{label}: the tools did not load cleanly (see above); nothing was evaluated")
        chosen_routers = _make_routers(routers, model, mode, base_url, api)
        from playground.routing.synonyms import apply_synonyms

        for _label, chosen in chosen_routers:
            apply_synonyms(chosen, tools_paths(tools))  # synonyms.json beside the tools
        runs = [(label, pg, chosen) for label, chosen in chosen_routers]
        if other_pg is not None:
            runs.append(("compare", other_pg, chosen_routers[0][1]))
        reports = []
        for index, (label, target, chosen) in enumerate(runs):
            limit = rpm if rpm is not None else chosen.capabilities.default_rpm
            bar, callback = _progress(f"eval {label}", _count_cases(cases) * repeat)
            run = functools.partial(
                evaluate,
                target,
                _Cases(cases, iter_case_file),
                chosen,
                progress=callback,
                rpm=limit,
                label=label,
                # the page lists every case; the side-by-side table compares them
                keep_results=not stream or html is not None or side_by_side,
                on_result=_echo_result(label) if stream else None,
                on_problem=_echo_problem(label) if stream and index == 0 else None,
                jobs=jobs,
                repeat=repeat,
                resumed=earlier.get(label, []),
            )
            if bar is not None:
                with bar:
                    reports.append(run())
            else:
                reports.append(run())
            if reports[-1].interrupted:
                break
        comparison = compare(reports[0], reports[1]) if len(reports) == 2 else None
        problems = reports[0].problems
        for problem in problems:
            error_line(f"{cases}: {problem}")
        misses = {
            r.label: threshold_failures(r, min_selection, max_false_selection) for r in reports
        }
        if stream or not all(map(no_case_judged, reports)):  # rates of nothing: the error alone
            if side_by_side:
                _emit_side_by_side(fmt, reports, misses, price_table, streamed=stream)
            else:
                _emit(fmt, reports, comparison, misses, streamed=stream)
            save_html(html, functools.partial(_html_page, reports, comparison))
        from playground.cli.mcp_notes import note_list_changes

        note_list_changes(pg.registry.sources)
    if any(r.interrupted for r in reports):
        error_line("interrupted: the cases judged so far are above")
        raise typer.Exit(int(ExitCode.INTERRUPTED))
    unjudged = [why for why in map(no_case_judged, reports) if why]
    if unjudged:
        error_line(unjudged[0])
        raise typer.Exit(int(ExitCode.USAGE))
    code = ExitCode.FAILED if any(misses.values()) or problems else ExitCode.OK
    for label, why in misses.items():
        for line in why:
            error_line(f"{label}: {line}" if comparison else line)
    if other_pg is not None and other_pg.registry.problems:
        code = ExitCode.USAGE
    finish(pg, code)


def _read_resume(path: Path) -> dict[str, list[Any]]:
    """The judged lines of an earlier ``--format jsonl`` output, by run label. Summary,
    problem and flip lines are skipped. Raises :class:`UsageError` for a missing file or a line
    that is not JSON (one line naming it)."""
    from playground.batch.evalcases import CaseResult

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the --resume file ({exc.strerror or exc})") from None
    import json

    done: dict[str, dict[tuple[int, int], Any]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict) or "category" not in data:
                continue
            result = CaseResult.from_json(data)
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"{path}: line {number} is not an eval result line ({exc})") from None
        done.setdefault(str(data.get("run") or "base"), {})[(result.case.line, result.run)] = result
    return {label: list(results.values()) for label, results in done.items()}


def _emit_side_by_side(
    fmt: EvalFormat,
    reports: list[Any],
    misses: dict[str, list[str]],
    prices: dict[str, dict[str, float]],
    *,
    streamed: bool,
) -> None:
    from playground.batch.sidebyside import disagreements, side_by_side_json, summarize

    if fmt is EvalFormat.junit:
        from playground.batch.junit import to_junit

        typer.echo(to_junit(*reports), nl=False)
    elif fmt is EvalFormat.json:
        data = side_by_side_json(reports, prices)
        data["thresholds"] = misses
        typer.echo(dump_json(data))
    elif fmt is EvalFormat.jsonl:
        for report in reports:
            if not streamed:
                for result in report.results:
                    typer.echo(dump_json({"run": report.label, **result.to_json()}, compact=True))
            row = summarize(report, prices).to_json()
            typer.echo(
                dump_json(
                    {"run": report.label, "summary": report.metrics.to_json(), "side_by_side": row},
                    compact=True,
                )
            )
        for item in disagreements(reports):
            typer.echo(dump_json({"disagreement": item.to_json()}, compact=True))
    else:
        from playground.cli.render_eval import side_by_side_tables

        side_by_side_tables(
            reports, [summarize(r, prices) for r in reports], disagreements(reports)
        )


class _Cases:
    """The case file, re-read lazily by each run (``source`` for the report)."""

    def __init__(self, path: Path, reader: Callable[[Path], Any]) -> None:
        self.source = str(path)
        self._path, self._reader = path, reader

    def __iter__(self) -> Any:
        return iter(self._reader(self._path))


def _html_page(reports: list[Any], comparison: Any) -> str:
    from playground.batch.html_report import eval_page

    flips = [f.to_json() for f in comparison.flips] if comparison else []
    return eval_page([r.to_json() for r in reports], flips)


def _count_cases(path: Path) -> int:
    """Lines that hold a case, counted only for a progress bar on a terminal (else 0)."""
    if not sys.stderr.isatty():
        return 0
    try:
        with path.open(encoding="utf-8-sig", errors="replace") as handle:
            return sum(1 for line in handle if line.strip() and not line.lstrip().startswith("#"))
    except OSError:
        return 0


def _echo_result(label: str) -> Callable[[Any], None]:
    def echo(result: Any) -> None:
        typer.echo(dump_json({"run": label, **result.to_json()}, compact=True))
        sys.stdout.flush()

    return echo


def _echo_problem(label: str) -> Callable[[Any], None]:
    def echo(problem: Any) -> None:
        typer.echo(dump_json({"run": label, "problem": problem.to_json()}, compact=True))

    return echo


def _emit(
    fmt: EvalFormat,
    reports: list[Any],
    comparison: Any,
    misses: dict[str, list[str]],
    *,
    streamed: bool = False,
) -> None:
    if fmt is EvalFormat.junit:
        from playground.batch.junit import to_junit

        # XML 1.0 cannot carry C0 controls, and none may reach a terminal: the rule's escapes
        typer.echo(shown(to_junit(*reports)), nl=False)
    elif fmt is EvalFormat.json:
        data = comparison.to_json() if comparison else reports[0].to_json()
        data["thresholds"] = misses
        typer.echo(dump_json(data))
    elif fmt is EvalFormat.jsonl:
        for report in reports:
            if not streamed:  # a streamed run already wrote its results and problems
                for result in report.results:
                    typer.echo(dump_json({"run": report.label, **result.to_json()}, compact=True))
                for problem in report.problems:
                    typer.echo(
                        dump_json({"run": report.label, "problem": problem.to_json()}, compact=True)
                    )
            typer.echo(
                dump_json({"run": report.label, "summary": report.metrics.to_json()}, compact=True)
            )
        if comparison:
            for flip in comparison.flips:
                typer.echo(dump_json({"flip": flip.to_json()}, compact=True))
    else:
        _print_tables(reports, comparison)


def _print_tables(reports: list[Any], comparison: Any) -> None:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from playground.cli.render import console as make_console

    console = make_console()  # markup off; 120 columns when piped
    base = reports[0]
    m = base.metrics
    console.print(
        Text(
            f"eval {Path(base.source).name or 'cases'} · router {base.router} · "
            f"{len(base.tools)} tools · {m.total} cases ({m.should_use} should-use, "
            f"{m.should_not_use} should-not-use)",
            style="bold",
        )
    )

    rates = Table(title="rates", box=box.SIMPLE_HEAD, title_justify="left")
    rates.add_column("metric")
    names = {
        "selection_rate": "selection rate",
        "false_selection_rate": "false-selection rate",
        "wrong_tool_rate": "wrong-tool rate",
        "asked_rate": "asked rate (right tool, asked for a value)",
        "argument_accuracy": "argument accuracy",
    }
    fractions = {
        "selection_rate": (m.selected, m.should_use),
        "false_selection_rate": (m.false_selected, m.should_not_use),
        "wrong_tool_rate": (m.wrong_tool, m.should_use),
        "asked_rate": (m.asked, m.should_use),
        "argument_accuracy": (m.args_matched, m.args_checked),
    }
    if comparison:
        rates.add_column("base", justify="right")
        rates.add_column("compare", justify="right")
        rates.add_column("Δ", justify="right")
        for row in comparison.rates_side_by_side():
            delta = row["delta"]
            rates.add_row(
                names[row["metric"]],
                _pct(row["base"]),
                _pct(row["other"]),
                "-" if delta is None else f"{delta:+.1%}",
            )
    else:
        rates.add_column("rate", justify="right")
        rates.add_column("count", justify="right")
        for key, value in m.rates().items():
            num, den = fractions[key]
            rates.add_row(names[key], _pct(value), f"{num}/{den}")
    console.print(rates)

    for report in reports:
        suffix = f" ({report.label})" if comparison else ""
        scores = [sc for sc in report.metrics.per_tool.values() if sc.tp or sc.fp or sc.fn]
        idle = len(report.metrics.per_tool) - len(scores)
        per_tool = Table(
            title=f"per tool{suffix}",
            box=box.SIMPLE_HEAD,
            title_justify="left",
            caption=f"{idle} loaded tool(s) neither expected nor chosen" if idle else None,
        )
        for col in ("tool", "precision", "recall", "tp", "fp", "fn"):
            per_tool.add_column(col, justify="left" if col == "tool" else "right")
        for score in scores:
            per_tool.add_row(
                score.tool,
                _pct(score.precision),
                _pct(score.recall),
                str(score.tp),
                str(score.fp),
                str(score.fn),
            )
        console.print(per_tool)

        matrix = report.metrics.confusion
        used = {r for r, row in matrix.items() if row} | {c for row in matrix.values() for c in row}
        labels = [label for label in report.metrics.labels if label in used]
        confusion = Table(
            title=f"confusion: expected (rows) × chosen first (columns, numbered as the rows){suffix}",
            box=box.SIMPLE_HEAD,
            title_justify="left",
        )
        confusion.add_column("expected")
        for i, _label in enumerate(labels, start=1):
            confusion.add_column(f"[{i}]", justify="right")
        for i, row_label in enumerate(labels, start=1):
            row = matrix.get(row_label, {})
            cells = []
            for col in labels:
                n = row.get(col, 0)
                style = "green" if col == row_label and n else ("red" if n else "dim")
                cells.append(Text(str(n) if n else "·", style=style))
            confusion.add_row(f"[{i}] {row_label}", *cells)
        console.print(confusion)

        failures = report.failures
        if failures:
            table = Table(
                title=f"failing questions{suffix}: {len(failures)}",
                box=box.SIMPLE_HEAD,
                title_justify="left",
            )
            table.add_column("line", justify="right", style="dim")
            table.add_column("question", ratio=2, overflow="fold")
            table.add_column("expected")
            table.add_column("chosen")
            table.add_column("why", ratio=2, overflow="fold")
            for r in failures:
                table.add_row(
                    str(r.case.line),
                    r.case.question,
                    r.case.expect_tool or "(none)",
                    r.choice,
                    r.reason(),
                )
            console.print(table)
        for warning in report.warnings:
            console.print(Text(f"warning: {warning}", style="yellow"))

    if comparison:
        if comparison.flips:
            flips = Table(
                title=f"flipped cases: {len(comparison.flips)}",
                box=box.SIMPLE_HEAD,
                title_justify="left",
            )
            flips.add_column("line", justify="right", style="dim")
            flips.add_column("question", ratio=2, overflow="fold")
            flips.add_column("expected")
            flips.add_column("base")
            flips.add_column("compare")
            flips.add_column("flip")
            for f in comparison.flips:
                style = "red" if f.direction == "pass->fail" else "green"
                flips.add_row(
                    str(f.case.line),
                    f.case.question,
                    f.case.expect_tool or "(none)",
                    f.before,
                    f.after,
                    Text(f.direction, style=style),
                )
            console.print(flips)
        else:
            console.print(Text("no case flipped between the two versions", style="dim"))

    if base.problems:
        problems = Table(title="malformed case lines", box=box.SIMPLE_HEAD, title_justify="left")
        problems.add_column("line", justify="right")
        problems.add_column("problem", overflow="fold")
        for p in base.problems:
            problems.add_row(str(p.line), p.message)
        console.print(problems)
    summary = f"{m.passed} passed, {m.total - m.passed} failed"
    if m.errors or m.skipped:
        summary += f" ({m.errors} router errors, {m.skipped} skipped)"
    console.print(Text(summary, style="green" if m.passed == m.total else "bold"))


def register(app: typer.Typer) -> None:
    """Add ``eval`` to ``app``."""
    app.command("eval")(eval_cases)
