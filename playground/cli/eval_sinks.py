"""Where ``playground eval`` puts each judged case as it arrives, so that nothing per case is
kept in memory once it is written (100,000 cases in flat memory, in every output format).

One sink per output format of a single run (one ``--router``, no ``--repeat``, ``--compare``
or ``--html``, which need every result at the end):

* :class:`TableSink` (``--format table``, the default) prints the run's title line at once
  and each failing question as a row the moment it is judged; the rates, per-tool and
  confusion tables follow from the running totals (:class:`~playground.batch.evalstream.
  MetricsTally`) when the run ends.
* :class:`JsonSink` (``--format json``) writes each result's JSON, indented as it sits in the
  document, to an anonymous temporary file; at the end the document is written with the same
  keys, order and indentation as :meth:`EvalReport.to_json` dumped whole, the results copied
  from the file.
* :class:`JunitSink` (``--format junit``) does the same with each ``<testcase>`` element; the
  counts in the ``<testsuites>``/``<testsuite>`` attributes come from running totals.

The jsonl format needs no sink (each line is written as judged; :mod:`playground.cli.cmd_eval`).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from playground.cli.common import dump_json
from playground.core.cells import REASON_CHARS, cell
from playground.core.untrusted import shown

if TYPE_CHECKING:
    from playground.batch.evalcases import CaseResult
    from playground.batch.evaluate import EvalReport

#: Columns of a streamed failing-question row: line, expected, chosen (the question and the
#: reason take what is left, folded).
_FAIL_COLUMNS = (("line", 6), ("expected", 18), ("chosen", 18))

#: The placeholder the whole document is dumped with in place of the results list.
_RESULTS_MARK = "\x00results\x00"


class EvalSink:
    """Receives each judged case (:meth:`add`) and writes the output at the end (:meth:`finish`)."""

    def start(self, source: str, router: str, tools: list[str]) -> None:
        """Called once before the first case (the run's title is known)."""

    def add(self, result: CaseResult) -> None:
        """Write (or spool) one judged case; nothing of it is kept in memory."""
        raise NotImplementedError

    def finish(self, report: EvalReport, misses: dict[str, list[str]]) -> None:
        """Write the rest of the output for ``report`` (whose ``results`` are empty)."""
        raise NotImplementedError

    def close(self) -> None:
        """Let go of what the sink holds (a spool file); safe to call twice, and after a run
        that ended before :meth:`finish` (an error, ctrl+c)."""
        spool = getattr(self, "spool", None)
        if spool is not None:
            spool.close()


class TableSink(EvalSink):
    """Failing questions printed as judged; the summary tables at the end (see the module)."""

    def __init__(self) -> None:
        from playground.cli.render import console

        self.console = console()
        self.failed = 0

    def start(self, source: str, router: str, tools: list[str]) -> None:
        from pathlib import Path

        from rich.text import Text

        name = Path(source).name or "cases"
        title = f"eval {name} · router {router} · {len(tools)} tools"
        self.console.print(Text(title, style="bold"))

    def add(self, result: CaseResult) -> None:
        if result.passed:
            return
        from rich import box
        from rich.table import Table

        if not self.failed:
            self.console.print("failing questions, as judged:", style="bold")
        # one table a row, every column of fixed share: the rows line up under one header
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, show_header=not self.failed)
        for name, width in _FAIL_COLUMNS:
            table.add_column(name, width=width, overflow="fold", justify="left")
        fixed = sum(width for _, width in _FAIL_COLUMNS) + 2 * (len(_FAIL_COLUMNS) + 2)
        rest = max(20, (self.console.width - fixed) // 2)
        table.add_column("question", width=rest, overflow="fold")
        table.add_column("why", width=rest, overflow="fold")
        table.add_row(
            str(result.case.line),
            result.case.expect_tool or "(none)",
            result.choice,
            shown(cell(result.case.question)),
            shown(cell(result.reason(), REASON_CHARS)),
        )
        self.console.print(table)
        self.failed += 1
        sys.stdout.flush()

    def finish(self, report: EvalReport, misses: dict[str, list[str]]) -> None:
        from playground.cli.eval_tables import print_tables

        print_tables([report], None, streamed_failures=self.failed)


class JsonSink(EvalSink):
    """``--format json``: results spooled to a temporary file, the document written at the end."""

    def __init__(self) -> None:
        self.spool = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (closed in finish)
        self.count = 0

    def add(self, result: CaseResult) -> None:
        text = dump_json(result.to_json()).replace("\n", "\n    ")
        self.spool.write((",\n    " if self.count else "\n    ") + text)
        self.count += 1

    def finish(self, report: EvalReport, misses: dict[str, list[str]]) -> None:
        data = report.to_json()
        data["results"] = _RESULTS_MARK
        data["thresholds"] = misses
        head, tail = dump_json(data).split(f'"{_dumped_mark()}"', 1)
        out = sys.stdout
        out.write(head + "[")
        self.spool.seek(0)
        shutil.copyfileobj(self.spool, out)
        out.write(("\n  ]" if self.count else "]") + tail + "\n")
        out.flush()
        self.spool.close()


def _dumped_mark() -> str:
    """:data:`_RESULTS_MARK` as :func:`dump_json` writes it inside quotes."""
    return dump_json(_RESULTS_MARK)[1:-1]


class JunitSink(EvalSink):
    """``--format junit``: ``<testcase>`` elements spooled, the counts from running totals."""

    def __init__(self) -> None:
        self.spool = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (closed in finish)
        self.counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        self.seconds = 0.0

    def add(self, result: CaseResult) -> None:
        from playground.batch.junit import testcase_element

        element, kind = testcase_element(result)
        ET.indent(element, level=2)
        self.spool.write("    " + shown(ET.tostring(element, encoding="unicode")) + "\n")
        self.counts["tests"] += 1
        plural = {"failure": "failures", "error": "errors", "skipped": "skipped"}.get(kind)
        if plural:
            self.counts[plural] += 1
        self.seconds += result.duration_ms / 1000

    def finish(self, report: EvalReport, misses: dict[str, list[str]]) -> None:
        from playground.batch.junit import suite_element

        root = ET.Element("testsuites", name="playground eval")
        suite = suite_element(report)  # properties and malformed lines; no results
        for key, value in self.counts.items():
            suite.set(key, str(int(suite.get(key, "0")) + value))
        suite.set("time", f"{float(suite.get('time', '0')) + self.seconds:.3f}")
        root.append(suite)
        for key in self.counts:
            root.set(key, suite.get(key, "0"))
        root.set("time", suite.get("time", "0.000"))
        ET.indent(root)
        text = shown(ET.tostring(root, encoding="unicode"))
        # the spooled cases go where the whole tree puts them: after the properties, before
        # the malformed lines' test cases
        cut = text.index("</properties>") + len("</properties>\n")
        out = sys.stdout
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n' + text[:cut])
        self.spool.seek(0)
        shutil.copyfileobj(self.spool, out)
        out.write(text[cut:] + "\n")
        out.flush()
        self.spool.close()


def sink_for(fmt: str) -> EvalSink | None:
    """The sink for an output format's single run (``None`` for jsonl, which streams itself)."""
    return {"table": TableSink, "json": JsonSink, "junit": JunitSink}.get(fmt, lambda: None)()
