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

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from playground.cli.common import (
    CiFormat,
    CiFormatOption,
    ExitCode,
    boundary,
    dump_json,
    error_line,
    fail,
    finish,
    one_line,
    open_workbench,
    tools_paths,
)
from playground.cli.eval_options import (
    CasesArgument,
    CompareOption,
    JobsOption,
    MaxFalseSelectionOption,
    MinSelectionOption,
    PricesOption,
    RepeatOption,
    ResumeOption,
    RpmOption,
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
from playground.cli.source_options import NO_SOURCES, ToolSourceOptions, tool_source_options
from playground.core.untrusted import shown
from playground.errors import UsageError
from playground.routing import registry

if TYPE_CHECKING:
    from playground.routing.base import Router


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


@tool_source_options()
def eval_cases(
    cases: CasesArgument,
    sources: ToolSourceOptions = NO_SOURCES,
    router: RoutersOption = None,
    model: ModelOption = None,
    mode: ModeOption = None,
    base_url: BaseUrlOption = None,
    api: ApiOption = None,
    repeat: RepeatOption = 1,
    jobs: JobsOption = 1,
    resume: ResumeOption = None,
    prices: PricesOption = None,
    compare_with: CompareOption = None,
    min_selection: MinSelectionOption = None,
    max_false_selection: MaxFalseSelectionOption = None,
    fmt: CiFormatOption = CiFormat.table,
    rpm: RpmOption = None,
    html: HtmlOption = None,
) -> None:
    """Judge a router's FIRST move on every question: selection rate, false-selection rate,
    wrong-tool rate, argument accuracy, per-tool precision/recall and a confusion matrix."""
    from playground.batch.evaluate import no_case_judged

    routers = list(router or [registry.DEFAULT_ROUTER])
    # jsonl streams: each result is written as it is judged
    stream = fmt is CiFormat.jsonl and not compare_with
    # one router, one run: nothing per case is kept (flat memory over 100,000 cases)
    side_by_side = len(routers) > 1 or repeat > 1
    # table, json and junit of one run: each case written (or spooled) as judged, not kept
    from playground.cli.eval_sinks import sink_for

    sink = sink_for(fmt.value) if not (stream or compare_with or side_by_side or html) else None
    with boundary(), _closed_after(sink):
        _check_usage(html, compare_with, routers)
        price_table = _price_table(prices)
        earlier = _read_resume(resume) if resume is not None else {}
        _check_cases(cases)
        pg, other_pg = _open_workbenches(sources, compare_with)
        runs = _runs(pg, other_pg, _make_routers(routers, model, mode, base_url, api), sources)
        reports = _run_evaluations(
            runs,
            cases,
            sink=sink,
            stream=stream,
            # the page lists every case; the side-by-side table compares them
            keep_results=not (stream or sink) or html is not None or side_by_side,
            rpm=rpm,
            jobs=jobs,
            repeat=repeat,
            earlier=earlier,
        )
        comparison, problems, misses = _judge(reports, cases, min_selection, max_false_selection)
        if stream or not all(map(no_case_judged, reports)):  # rates of nothing: the error alone
            output = _Output(fmt, sink, html, price_table, stream, side_by_side)
            _write_outputs(output, reports, comparison, misses)
        from playground.cli.mcp_notes import note_list_changes

        note_list_changes(pg.registry.sources)
    _exit_when_cut_short(reports)
    finish(pg, _exit_code(misses, problems, comparison, other_pg))


def _check_usage(html: Path | None, compare_with: list[Path] | None, routers: list[str]) -> None:
    """Raise :class:`UsageError` (exit 2) before anything runs: an ``--html`` path that exists
    or is a folder (:func:`playground.cli.html_option.check_html_target`), or ``--compare``
    with several routers."""
    check_html_target(html)
    if compare_with and len(routers) > 1:
        raise UsageError("--compare compares two versions of the tools on one --router")


@dataclass(frozen=True)
class _Output:
    """Where and how the finished runs are written: ``fmt`` on stdout (or through ``sink``, or
    streamed already when ``stream``), side by side when ``side_by_side``, and an HTML page when
    ``html`` names a file; ``prices`` fills the cost column."""

    fmt: CiFormat
    sink: Any
    html: Path | None
    prices: Any
    stream: bool
    side_by_side: bool


def _write_outputs(
    output: _Output, reports: list[Any], comparison: Any, misses: dict[str, list[str]]
) -> None:
    """Write the runs as ``output`` says: the side-by-side tables (several routers or
    ``--repeat``), else the sink's finish (one run), else the plain rendering (:func:`_emit`);
    then the ``--html`` page when asked."""
    if output.side_by_side:
        _emit_side_by_side(output.fmt, reports, misses, output.prices, streamed=output.stream)
    elif output.sink is not None:
        output.sink.finish(reports[0], misses)
    else:
        _emit(output.fmt, reports, comparison, misses, streamed=output.stream)
    save_html(output.html, functools.partial(_html_page, reports, comparison))


def _judge(
    reports: list[Any],
    cases: Path,
    min_selection: float | None,
    max_false_selection: float | None,
) -> tuple[Any, list[Any], dict[str, list[str]]]:
    """``(comparison, problems, misses)`` of the finished runs: the flips between the two runs
    of ``--compare`` (else ``None``), the case file's malformed lines (each printed now as
    ``CASES: line N: ...``) and, by run label, the rates that missed ``--min-selection`` /
    ``--max-false-selection`` (:func:`playground.batch.evaluate.threshold_failures`)."""
    from playground.batch.compare import compare
    from playground.batch.evaluate import threshold_failures

    comparison = compare(reports[0], reports[1]) if len(reports) == 2 else None
    problems = reports[0].problems
    for problem in problems:
        error_line(f"{cases}: {problem}")
    misses = {r.label: threshold_failures(r, min_selection, max_false_selection) for r in reports}
    return comparison, problems, misses


def _open_workbenches(sources: ToolSourceOptions, compare_with: list[Path] | None) -> Any:
    """``(playground, compare playground or None)``: the ``--tools`` (and sources) workbench
    and the ``--compare`` one, both without the wire; exit 2 when either did not load cleanly
    (:func:`_require_clean_loads`)."""
    pg = sources.open(wire=False)
    other_pg = (
        open_workbench(compare_with, wire=False, in_process=sources.in_process)
        if compare_with
        else None
    )
    _require_clean_loads(pg, other_pg)
    return pg, other_pg


def _runs(
    pg: Any, other_pg: Any, chosen_routers: list[tuple[str, Router]], sources: ToolSourceOptions
) -> list[tuple[str, Any, Any]]:
    """The ``(label, playground, router)`` runs: one per router on the tools, then (with
    ``--compare``) the first router on the other tools, labelled ``compare``. Each router first
    takes the ``synonyms.json`` beside the tools
    (:func:`playground.routing.synonyms.apply_synonyms`)."""
    from playground.routing.synonyms import apply_synonyms

    for _label, chosen in chosen_routers:
        apply_synonyms(chosen, tools_paths(sources.tools))  # synonyms.json beside the tools
    runs = [(label, pg, chosen) for label, chosen in chosen_routers]
    if other_pg is not None:
        runs.append(("compare", other_pg, chosen_routers[0][1]))
    return runs


def _exit_when_cut_short(reports: list[Any]) -> None:
    """Exit 130 when ctrl+c interrupted a run (saying how many cases were done), or 2 when no
    case was judged (:func:`playground.batch.evaluate.no_case_judged` says why)."""
    from playground.batch.evaluate import no_case_judged

    if any(r.interrupted for r in reports):
        done = sum(r.metrics.total for r in reports)
        error_line(
            f"interrupted after {done:,} case{'s' if done != 1 else ''} "
            "(the cases done so far are above)"
        )
        raise typer.Exit(int(ExitCode.INTERRUPTED))
    unjudged = [why for why in map(no_case_judged, reports) if why]
    if unjudged:
        error_line(unjudged[0])
        raise typer.Exit(int(ExitCode.USAGE))


def _run_evaluations(
    runs: list[tuple[str, Any, Any]],
    cases: Path,
    *,
    sink: Any,
    stream: bool,
    keep_results: bool,
    rpm: float | None,
    jobs: int,
    repeat: int,
    earlier: dict[str, list[Any]],
) -> list[Any]:
    """Evaluate each ``(label, playground, router)`` of ``runs`` on ``cases`` in turn (with a
    progress bar on a terminal), each result streamed (``stream``) or handed to ``sink``;
    stops after a run that ctrl+c interrupted. Returns the reports."""
    from playground.batch.evalstream import iter_case_file
    from playground.batch.evaluate import evaluate

    reports: list[Any] = []
    for index, (label, target, chosen) in enumerate(runs):
        limit = rpm if rpm is not None else chosen.capabilities.default_rpm
        bar, callback = _progress(f"eval {label}", _count_cases(cases) * repeat)
        if sink is not None:
            sink.start(str(cases), str(getattr(chosen, "name", "")), target.registry.names())
        run = functools.partial(
            evaluate,
            target,
            _Cases(cases, iter_case_file),
            chosen,
            progress=callback,
            rpm=limit,
            label=label,
            keep_results=keep_results,
            on_result=_echo_result(label) if stream else (sink.add if sink else None),
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
    return reports


def _exit_code(
    misses: dict[str, list[str]], problems: list[Any], comparison: Any, other_pg: Any
) -> ExitCode:
    """Print each rate that missed its floor; the exit code: 1 for a miss or a malformed case
    line, 2 when the ``--compare`` tools had load problems, else 0."""
    code = ExitCode.FAILED if any(misses.values()) or problems else ExitCode.OK
    for label, why in misses.items():
        for line in why:
            error_line(f"{label}: {line}" if comparison else line)
    if other_pg is not None and other_pg.registry.problems:
        code = ExitCode.USAGE
    return code


def _price_table(prices: Path | None) -> Any:
    """The price table of ``--prices FILE``, else of ./prices.json when it exists, else none
    (:func:`playground.batch.sidebyside.load_prices`)."""
    from playground.batch.sidebyside import load_prices

    price_file = prices if prices is not None else Path("prices.json")
    return load_prices(price_file if prices is not None or price_file.is_file() else None)


def _check_cases(cases: Path) -> None:
    """Raise :class:`UsageError` for a missing case file or one without a case, before any tool
    is loaded (rates over no case: say so first)."""
    from playground.batch.caselines import checked_case_path
    from playground.batch.evalstream import iter_case_file

    checked_case_path(cases)
    if next(iter(iter_case_file(cases)), None) is None:
        raise UsageError(
            f'{cases}: no case to judge (write one JSON object a line: {{"question": ..., '
            '"expect_tool": ... | null})'
        )


def _require_clean_loads(pg: Any, other_pg: Any) -> None:
    """Fail (exit 2) when the tools (or the ``--compare`` tools) did not load cleanly: rates
    over a partly loaded tool set look plausible and are wrong, so nothing is measured."""
    for label, target in (("--tools", pg), ("--compare", other_pg)):
        if target is not None and (target.registry.problems or not target.registry.contracts):
            fail(f"{label}: the tools did not load cleanly (see above); nothing was evaluated")


def _read_resume(path: Path) -> dict[str, list[Any]]:
    """The judged lines of an earlier ``--format jsonl`` output, by run label. Summary,
    problem and flip lines are skipped. Raises :class:`UsageError` for a missing file or a line
    that is not JSON (one line naming it)."""
    from playground.batch.evalcases import CaseResult
    from playground.core.json_files import open_for_reading

    try:
        with open_for_reading(path) as handle:  # a FIFO with no writer: empty, not a hang
            text = handle.read().decode("utf-8")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the --resume file ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: the --resume file is not UTF-8 text ({exc.reason})") from None
    from playground.core.canonical import MAX_DEPTH
    from playground.core.json_files import load_json

    done: dict[str, dict[tuple[int, int], Any]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:  # a result line nests its case's values (at most MAX_DEPTH) a few levels down
            data = load_json(line, MAX_DEPTH + 10)
            if not isinstance(data, dict) or "category" not in data:
                continue
            result = CaseResult.from_json(data)
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"{path}: line {number} is not an eval result line ({exc})") from None
        done.setdefault(str(data.get("run") or "base"), {})[(result.case.line, result.run)] = result
    return {label: list(results.values()) for label, results in done.items()}


def _emit_side_by_side(
    fmt: CiFormat,
    reports: list[Any],
    misses: dict[str, list[str]],
    prices: dict[str, dict[str, float]],
    *,
    streamed: bool,
) -> None:
    from playground.batch.sidebyside import disagreements, side_by_side_json, summarize

    if fmt is CiFormat.junit:
        from playground.batch.junit import to_junit

        typer.echo(to_junit(*reports), nl=False)
    elif fmt is CiFormat.json:
        data = side_by_side_json(reports, prices)
        data["thresholds"] = misses
        typer.echo(dump_json(data))
    elif fmt is CiFormat.jsonl:
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


@contextlib.contextmanager
def _closed_after(sink: Any) -> Iterator[None]:
    """Close ``sink`` (an :class:`~playground.cli.eval_sinks.EvalSink`, or ``None``) when the
    block ends, whether or not the run reached its ``finish`` (an error, ctrl+c)."""
    try:
        yield
    finally:
        if sink is not None:
            sink.close()


def _count_cases(path: Path) -> int:
    """Lines that hold a case, counted only for a progress bar on a terminal (else 0)."""
    if not sys.stderr.isatty():
        return 0
    from playground.batch.caselines import case_file_lines

    try:  # the reader of the run itself: a huge line is skipped, never held whole
        return sum(1 for _ in case_file_lines(path))
    except UsageError:
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
    fmt: CiFormat,
    reports: list[Any],
    comparison: Any,
    misses: dict[str, list[str]],
    *,
    streamed: bool = False,
) -> None:
    if fmt is CiFormat.junit:
        from playground.batch.junit import to_junit

        # XML 1.0 cannot carry C0 controls, and none may reach a terminal: the rule's escapes
        typer.echo(shown(to_junit(*reports)), nl=False)
    elif fmt is CiFormat.json:
        data = comparison.to_json() if comparison else reports[0].to_json()
        data["thresholds"] = misses
        typer.echo(dump_json(data))
    elif fmt is CiFormat.jsonl:
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
        from playground.cli.eval_tables import print_tables

        print_tables(reports, comparison)


def register(app: typer.Typer) -> None:
    """Add ``eval`` to ``app``."""
    app.command("eval")(eval_cases)
