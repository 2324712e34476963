"""``playground lint``: seed 002's schema advice as findings (rules in :mod:`playground.batch.lint`).

Exit codes: 0 no error (warnings and info alone pass); 1 an error, or a warning with
``--strict``; 2 a tool module did not load (or an unknown ``--only`` name).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from playground.cli.common import (
    ExitCode,
    FormatOption,
    OutputFormat,
    boundary,
    emit_json,
    emit_json_lines,
    fail,
    finish,
)
from playground.cli.source_options import NO_SOURCES, ToolSourceOptions, tool_source_options
from playground.core.registry import unknown_tool_message

SEVERITY_STYLES = {"error": "bold red", "warning": "yellow", "info": "cyan"}

if TYPE_CHECKING:
    from playground.batch.lint_base import Finding


@tool_source_options()
def lint(
    sources: ToolSourceOptions = NO_SOURCES,
    strict: Annotated[
        bool, typer.Option("--strict", help="Exit 1 on warnings too (info never fails).")
    ] = False,
    only: Annotated[
        str | None,
        typer.Option(
            "--only", help="Lint one tool (overlap still judged against all).", show_default=False
        ),
    ] = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Check tool schemas against the tool-design rules (names: verb + object, no versions, one job; boundary
    sentences; constraints in prose that belong in the schema; optional arguments; declared and
    minimal returns; empty-result notes; the 10 / 30 tool-count thresholds) and against each
    provider's rules (gemini-*, anthropic-*, openai-*: what the API refuses, and as info what
    strict: true would refuse). Fixes fit the source: the code, the TOOLS table, or what to ask
    of an MCP server's author."""
    from playground.batch.lint import lint_contract, lint_exit_code, lint_registry, summarize
    from playground.batch.lint_base import RULES

    with boundary():
        pg = sources.open(wire=False)
        registry = pg.registry
        if only is not None:
            if only not in registry:
                fail(unknown_tool_message(only, registry.names()))
            findings = lint_contract(registry, only)
        else:
            findings = lint_registry(registry)
        counts = summarize(findings)
        if fmt is OutputFormat.json:
            emit_json(
                {
                    "tools": registry.names(),
                    "summary": counts,
                    "findings": [f.to_json() for f in findings],
                    "rules": {
                        rule: {"severity": sev, "summary": text, "source": src}
                        for rule, (sev, text, src) in RULES.items()
                    },
                },
                fmt,
            )
        elif fmt is OutputFormat.jsonl:
            emit_json_lines(f.to_json() for f in findings)
        else:
            _print_table(
                findings,
                counts,
                len(registry) if only is None else 1,
                loaded_cleanly=not registry.problems,
            )
    finish(pg, ExitCode.FAILED if lint_exit_code(findings, strict) else ExitCode.OK)


def _print_table(
    findings: list[Finding], counts: dict[str, int], n_tools: int, loaded_cleanly: bool = True
) -> None:
    """The findings table and a summary line; "clean" only when there were no findings AND
    every tool module loaded (a tool set that failed to load is not clean)."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from playground.cli.render import console as make_console
    from playground.core.contracts import SourceLocation

    console = make_console()  # markup off; 120 columns when piped
    if findings:
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_lines=False)
        table.add_column("severity", no_wrap=True)
        table.add_column("rule", no_wrap=True)
        table.add_column("where", overflow="fold", max_width=34)
        table.add_column("finding", overflow="fold", ratio=1)
        for f, same in folded(findings):
            if len(same) == 1:
                where = Text(f.location, style="bold")
                where.append("\n" + str(SourceLocation.parse(f.source).relative()), style="dim")
            else:  # the same words for several tools: one row naming them all
                where = Text(f"{len(same)} tools, the same finding", style="bold")
                where.append("\n" + ", ".join(g.location for g in same), style="dim")
            body = Text(f.message)
            body.append("\n→ " + f.suggestion, style="green")
            table.add_row(
                Text(f.severity, style=SEVERITY_STYLES.get(f.severity, "")), f.rule, where, body
            )
        console.print(table)
    summary = (
        f"{n_tools} tool(s): {counts['error']} error(s), {counts['warning']} warning(s), "
        f"{counts['info']} info"
    )
    if not loaded_cleanly:
        summary += " — the tools did not load cleanly (see the errors above)"
    elif not findings:
        summary += " — clean"
    style = (
        "bold red"
        if counts["error"] or not loaded_cleanly
        else ("yellow" if counts["warning"] else "green")
    )
    console.print(Group(Text(summary, style=style)))


def folded(findings: list[Finding]) -> list[tuple[Finding, list[Finding]]]:
    """The findings with each group of identical ones (the same severity, rule, message and
    suggestion; they differ only in where) as one: ``(the first, every one of the group)``,
    in the order the first of each group came. The table shows a group once, naming each
    place; ``--format json`` / ``jsonl`` keep every finding."""
    groups: dict[tuple[str, str, str, str], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.severity, f.rule, f.message, f.suggestion), []).append(f)
    return [(same[0], same) for same in groups.values()]


def register(app: typer.Typer) -> None:
    """Add ``lint`` to ``app``."""
    app.command("lint")(lint)
