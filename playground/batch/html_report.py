"""One self-contained HTML file of a run (issue 26): ``--html FILE`` of eval, check, probe,
report, ask, replay and ``history show``.

Each ``*_page`` function takes the same JSON data the command prints with ``--format json``
(fidelity: the page shows those values, never a summary in their place) and returns the page as
one string. The page is built from ``html_report.html.j2`` by Jinja2 with autoescaping on, so
every text that comes from a tool, a server or a case file (a tool description holding
``<script>``) is HTML-escaped; the page carries a Content-Security-Policy of
``default-src 'none'; img-src data:; style-src 'unsafe-inline'`` and holds no script at all, so
it makes no network request and runs nothing even if it were opened from a hostile folder.
Styles are inline, charts are inline SVG, images a tool returned are ``data:`` URIs. Episodes'
steps, records and wire JSON per provider sit in collapsible ``<details>``.

Size: a 1,000-case eval is about 0.2 MB (each case is one table row; the router's explanation
of each case is left to ``--format json``). Korean text renders with a font stack with CJK
fallbacks and a UTF-8 ``<meta charset>``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from playground.batch.outfiles import write_files
from playground.core.cells import REASON_CHARS, cell
from playground.core.untrusted import json_shown, shown
from playground.errors import UsageError

#: Series colours of the charts (base / compare / further runs).
SERIES_COLORS = ("#3b6fd6", "#d6813b", "#2f9e77", "#9b59b6", "#c0392b", "#7f8c8d")
#: The rates eval measures, in the order of ``Metrics.rates()`` and with the CLI's names.
RATE_NAMES = {
    "selection_rate": "selection rate",
    "false_selection_rate": "false-selection rate",
    "wrong_tool_rate": "wrong-tool rate",
    "asked_rate": "asked rate",
    "argument_accuracy": "argument accuracy",
}
#: Image types shown inline (an SVG is left out: it is a document, not a picture).
_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
#: Fields of a record shown as its summary lines, in order.
_RECORD_FIELDS = (
    "verdict",
    "body_ran",
    "body_runs",
    "cache",
    "kind",
    "ok",
    "error",
    "message",
    "call_id",
    "source",
    "duration_ms",
    "timeout_s",
)


def _shown_in_page(value: Any) -> Any:
    """Every value the template writes goes through the project's rule for untrusted text
    (:func:`playground.core.untrusted.shown`, docs/untrusted-text.md) before it is HTML-escaped:
    a control character is written as ``\\x1b``, a bidi override or other invisible character
    as a ``<U+202E>`` mark, so the browser shows them instead of acting on them (a right-to-left
    override would reverse what follows). What the template built itself (a macro's HTML,
    ``Markup``, which has ``__html__``) is left as it is."""
    if value is None or isinstance(value, (int, float)) or hasattr(value, "__html__"):
        return value
    return shown(value)


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).parent)),
        autoescape=True,
        finalize=_shown_in_page,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("html_report.html.j2")


def render_page(title: str, sections: Sequence[Mapping[str, Any]], subtitle: str = "") -> str:
    """The whole HTML document: ``title``, an optional ``subtitle`` line and ``sections`` (the
    dicts the ``*_section`` helpers build). Returns text (UTF-8 when written)."""
    defaults = {
        "title": "",
        "note": "",
        "collapsed": False,
        "summary": "",
        "numeric": (),
        "row_classes": None,
        "open": False,
    }
    full = [{**defaults, **s} for s in sections]
    return _template().render(title=title, subtitle=subtitle, sections=full, lang="ko").lstrip()


def write_html(path: str | Path, text: str, *, force: bool = False) -> Path:
    """Write the page to ``path`` with :func:`playground.batch.outfiles.write_files` (an existing
    file is kept unless ``force``; never written through a link out of its folder). Raises
    :class:`playground.errors.UsageError` (one line) when it cannot."""
    target = Path(path)
    if target.name in ("", ".", ".."):
        raise UsageError(f"--html {path}: give a file name")
    return write_files(target.parent, {target.name: text}, force=force)[0]


# ------------------------------------------------------------------------------ value helpers


def _json(value: Any) -> str:
    """``value`` as indented JSON for a ``<pre>`` block, with the characters the untrusted-text
    rule covers written as ``\\uXXXX`` escapes (still the same JSON: :func:`json_shown`)."""
    return json_shown(json.dumps(value, ensure_ascii=False, indent=2, default=repr))


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _pct(value: Any) -> str:
    return "-" if not isinstance(value, (int, float)) else f"{value:.1%}"


def images_in(value: Any, limit: int = 20) -> list[str]:
    """``data:`` URIs of the images inside a result value: every dict ``{"type": "image",
    "mimeType": PNG/JPEG/GIF/WebP, "data": base64}`` at any depth (an MCP image block kept with
    its data), at most ``limit``. Data that is not plain base64 is skipped."""
    found: list[str] = []

    def walk(v: Any) -> None:
        if len(found) >= limit:
            return
        if isinstance(v, dict):
            mime, data = v.get("mimeType"), v.get("data")
            if (
                v.get("type") == "image"
                and mime in _IMAGE_TYPES
                and isinstance(data, str)
                and _BASE64.fullmatch(data)
            ):
                found.append(f"data:{mime};base64,{data}")
            for item in v.values():
                walk(item)
        elif isinstance(v, list):
            for item in v:
                walk(item)

    walk(value)
    return found


# ------------------------------------------------------------------------------ sections


def summary_section(title: str, items: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    """A list of ``label: value`` lines; a value ``True``/``False`` is coloured ok/bad."""
    rows = []
    for label, value in items:
        cls = "ok" if value is True else ("bad" if value is False else "")
        rows.append((label, value if isinstance(value, str) else _short(value, 400), cls))
    return {"kind": "summary", "title": title, "items": rows}


def table_section(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    numeric: Sequence[str] = (),
    row_classes: Sequence[str] | None = None,
    collapsed_summary: str = "",
    note: str = "",
) -> dict[str, Any]:
    """A table (cells shown as text); ``collapsed_summary`` puts it in a closed ``<details>``."""
    return {
        "kind": "table",
        "title": title,
        "columns": list(columns),
        "rows": [[c if isinstance(c, str) else _short(c, 300) for c in r] for r in rows],
        "numeric": list(numeric),
        "row_classes": list(row_classes) if row_classes is not None else None,
        "collapsed": bool(collapsed_summary),
        "summary": collapsed_summary,
        "note": note,
    }


def json_section(title: str, summary: str, value: Any, *, open_: bool = False) -> dict[str, Any]:
    """A JSON value, pretty-printed, in a ``<details>`` named ``summary``."""
    return {"kind": "json", "title": title, "summary": summary, "text": _json(value), "open": open_}


def bar_chart(
    metrics: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]]
) -> dict[str, Any]:
    """Geometry of a horizontal grouped bar chart of rates in [0, 1]: one row per metric, one
    bar per series (``(name, values)``, a value ``None`` drawn as "-" with no bar). Pixels."""
    label_w, plot_w, bar_h, gap = 200, 420, 16, 10
    n = max(1, len(series))
    row_h = n * bar_h + gap
    rows = []
    for i, metric in enumerate(metrics):
        top = 6 + i * row_h
        bars = []
        for j, (name, values) in enumerate(series):
            v = values[i] if i < len(values) else None
            width = round(plot_w * max(0.0, min(1.0, v)), 1) if isinstance(v, (int, float)) else 0
            bars.append(
                {
                    "y": top + j * bar_h,
                    "h": bar_h - 2,
                    "w": width,
                    "color": SERIES_COLORS[j % len(SERIES_COLORS)],
                    "text": _pct(v),
                    "title": f"{name}: {metric} {_pct(v)}",
                }
            )
        rows.append({"label": metric, "y": top + (n * bar_h) / 2, "bars": bars})
    height = 6 + len(metrics) * row_h + 20
    grid = [{"x": label_w + plot_w * k / 4, "text": f"{k * 25}%"} for k in range(5)]
    return {
        "width": label_w + plot_w + 70,
        "height": height,
        "label_width": label_w,
        "rows": rows,
        "grid": grid,
        "legend": [
            (name, SERIES_COLORS[j % len(SERIES_COLORS)]) for j, (name, _v) in enumerate(series)
        ],
        "label": "rates: " + ", ".join(metrics),
    }


def heatmap_section(title: str, confusion: Mapping[str, Any]) -> dict[str, Any]:
    """The confusion matrix (``{"labels", "matrix": {expected: {chosen: n}}}``) as a heat map:
    labels that occur, the diagonal green, off-diagonal cells red, stronger with the count."""
    matrix: Mapping[str, Mapping[str, int]] = confusion.get("matrix") or {}
    used = {r for r, row in matrix.items() if row} | {c for row in matrix.values() for c in row}
    labels = [label for label in confusion.get("labels") or [] if label in used]
    labels += sorted(used - set(labels))
    peak = max((n for row in matrix.values() for n in row.values()), default=0) or 1
    rows = []
    for r in labels:
        cells = []
        for c in labels:
            n = (matrix.get(r) or {}).get(c, 0)
            alpha = 0.15 + 0.85 * n / peak if n else 0
            hue = "31,157,85" if r == c else "214,69,69"
            cells.append(
                {
                    "n": n,
                    "col": c,
                    "color": f"rgba({hue},{alpha:.2f})" if n else "transparent",
                    "ink": "#ffffff" if alpha > 0.55 else "inherit",
                }
            )
        rows.append({"label": r, "cells": cells})
    return {"kind": "heatmap", "title": title, "labels": labels, "rows": rows}


def record_item(
    record: Mapping[str, Any], title: str = "", *, open_: bool = False
) -> dict[str, Any]:
    """One call record (the ``--format json`` shape) as a collapsible item: its summary fields,
    the images in its value, then value, wire JSON per provider, reasons, retries, printed
    output and traceback, each in its own ``<details>``."""
    name = record.get("tool", "?")
    head = title or f"{name}({_short(record.get('args'), 120)})"
    verdict, kind = record.get("verdict"), record.get("kind")
    fields = [
        (k, _short(record[k], 400)) for k in _RECORD_FIELDS if record.get(k) not in (None, "")
    ]
    blocks: list[tuple[str, str]] = [("arguments", _json(record.get("args")))]
    if "value" in record:
        blocks.append(("value", _json(record.get("value"))))
    wire = record.get("wire")
    if isinstance(wire, Mapping):
        for provider, payload in wire.items():
            if provider != "tokens":
                tokens = (wire.get("tokens") or {}).get(provider)
                label = f"wire JSON · {provider}" + (f" (≈{tokens} tokens)" if tokens else "")
                blocks.append((label, _json(payload)))
    for key in ("reasons", "retries", "side_effects", "warnings", "traceback", "printed"):
        if record.get(key):
            value = record[key]
            blocks.append((key, value if isinstance(value, str) else _json(value)))
    ok = record.get("ok")
    return {
        "title": f"{head} → {verdict or '-'} · {kind or '-'}",
        "cls": "ok" if ok is True else ("bad" if ok is False else ""),
        "open": open_,
        "fields": fields,
        # an MCP result's image blocks, with their data, as the server sent them (record.mcp)
        "images": images_in([record.get("value"), (record.get("mcp") or {}).get("result")]),
        "blocks": blocks,
        "children": [],
    }


def records_section(title: str, items: Sequence[dict[str, Any]], note: str = "") -> dict[str, Any]:
    return {"kind": "records", "title": title, "records": list(items), "note": note}


# ------------------------------------------------------------------------------ pages


def episode_sections(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """An episode (``Episode.to_json()``): its outcome, every step with the record of its call
    (wire JSON per provider), the router's moves and the tool turns each provider would read."""
    calls = data.get("calls") or []
    sections: list[dict[str, Any]] = [
        summary_section(
            "episode",
            [
                ("question", data.get("question") or "-"),
                ("router", data.get("router") or "-"),
                ("end", data.get("end") or "-"),
                ("ok", data.get("ok")),
                ("gave up", "yes" if data.get("gave_up") else "no"),
                ("attempts", data.get("attempts")),
                ("reply", data.get("reply") or "-"),
                *(("warning", w) for w in data.get("warnings") or []),
            ],
        )
    ]
    # each call's record hangs under the last step about it (its check, else its run)
    last_step_of = {
        s["call"]: i
        for i, s in enumerate(data.get("steps") or [], start=1)
        if isinstance(s.get("call"), int) and 0 <= s["call"] < len(calls)
    }
    steps = []
    for i, step in enumerate(data.get("steps") or [], start=1):
        shown = {k: v for k, v in step.items() if k != "explanation" and v not in (None, [], "")}
        node = step.get("node", "?")
        detail = ", ".join(
            f"{k} {_short(v, 80)}" for k, v in shown.items() if k not in ("node", "call", "move")
        )
        item: dict[str, Any] = {
            "title": f"step {i} · {node}" + (f" · {detail}" if detail else ""),
            "cls": "bad" if step.get("kind") not in (None, "ok") else "",
            "open": False,
            "fields": [],
            "images": [],
            "blocks": [("step", _json(shown))],
            "children": [],
        }
        if step.get("explanation"):
            item["blocks"].append(("router's explanation", _json(step["explanation"])))
        index = step.get("call")
        if isinstance(index, int) and last_step_of.get(index) == i:
            item["children"].append(record_item(calls[index]))
        steps.append(item)
    sections.append(records_section(f"steps: {len(steps)}", steps))
    sections.append(
        records_section(
            f"calls: {len(calls)}",
            [record_item(c, f"call {i}: {c.get('tool')}") for i, c in enumerate(calls, 1)],
        )
    )
    if data.get("moves"):
        sections.append(json_section("", "router moves (raw)", data["moves"]))
    if data.get("tool_turns"):
        sections.append(json_section("", "tool turns per provider (raw)", data["tool_turns"]))
    return sections


def episode_page(data: Mapping[str, Any], title: str = "") -> str:
    """The page of one episode (``ask``, ``call --repair``)."""
    question = data.get("question")
    return render_page(
        title or f"episode: {question or data.get('router', '')}", episode_sections(data)
    )


def record_page(data: Mapping[str, Any], title: str = "") -> str:
    """The page of one call record."""
    head = title or f"call {data.get('tool')}"
    return render_page(head, [records_section("record", [record_item(data, open_=True)])])


def _run_name(run: Mapping[str, Any]) -> str:
    return f"{run.get('label') or 'run'} · {run.get('router') or '?'}"


def eval_page(
    runs: Sequence[Mapping[str, Any]],
    flips: Sequence[Mapping[str, Any]] = (),
    *,
    title: str = "",
) -> str:
    """An eval (``EvalReport.to_json()`` per run: one, base and ``--compare``, or one per
    router): the rates as a chart (one series per run: before/after with ``--compare``), a
    side-by-side table of the rates (and of each case) when several runs, per-tool scores, the
    confusion matrix as a heat map, the failing questions, the flips and every case."""
    if not runs:
        raise ValueError("eval_page needs at least one run")
    base = runs[0]
    names = [_run_name(r) for r in runs]
    keys = list(RATE_NAMES)
    series = [(n, [(r.get("metrics") or {}).get(k) for k in keys]) for n, r in zip(names, runs)]
    sections: list[dict[str, Any]] = [
        _eval_summary(runs, names),
        {"kind": "chart", "title": "rates", "chart": bar_chart(list(RATE_NAMES.values()), series)},
    ]
    if len(runs) > 1:
        sections.append(_rates_side_by_side(names, series))
    for name, run in zip(names, runs):
        sections += _run_sections(run, f" ({name})" if len(runs) > 1 else "")
    if len(runs) > 1:
        sections.append(_cases_side_by_side(names, runs))
    else:
        sections.append(_every_case(base.get("results") or []))
    if len(runs) > 1 or flips:
        sections.append(_flips_section(flips))
    source = Path(str(base.get("cases_file") or "cases")).name
    return render_page(title or f"eval {source}", sections)


def _eval_summary(runs: Sequence[Mapping[str, Any]], names: list[str]) -> dict[str, Any]:
    """The eval page's head: the case file, the runs, the tool and case counts of the first
    run, and each run's passed-of-total (``· interrupted`` when ctrl+c cut it short)."""
    base = runs[0]
    counts = (base.get("metrics") or {}).get("counts") or {}
    return summary_section(
        "",
        [
            ("case file", base.get("cases_file") or "-"),
            ("runs", ", ".join(names)),
            ("tools", f"{len(base.get('tools') or [])}"),
            (
                "cases",
                f"{counts.get('total', 0)} ({counts.get('should_use', 0)} should-use, "
                f"{counts.get('should_not_use', 0)} should-not-use)",
            ),
            *(
                (
                    f"result ({_run_name(r)})",
                    f"{(r.get('metrics') or {}).get('counts', {}).get('passed', 0)} passed of "
                    f"{(r.get('metrics') or {}).get('counts', {}).get('total', 0)}"
                    + (" · interrupted" if r.get("interrupted") else ""),
                )
                for r in runs
            ),
        ],
    )


def _rates_side_by_side(names: list[str], series: list[tuple[str, list[Any]]]) -> dict[str, Any]:
    """The rates of several runs as one table, a column per run; with exactly two runs a
    ``Δ`` column (second minus first, in percentage points; ``-`` when either is missing)."""
    two = len(names) == 2
    cols = ["metric", *names] + (["Δ"] if two else [])
    rows = []
    for k, (_n, label) in enumerate(RATE_NAMES.items()):
        values = [s[1][k] for s in series]
        row = [label, *map(_pct, values)]
        if two:
            a, b = values
            both = isinstance(a, (int, float)) and isinstance(b, (int, float))
            row.append(f"{b - a:+.1%}" if both else "-")
        rows.append(row)
    return table_section("side by side", cols, rows, numeric=cols[1:])


def _run_sections(run: Mapping[str, Any], suffix: str) -> list[dict[str, Any]]:
    """One run's sections (their titles end in ``suffix``, the run's name when several): the
    per-tool scores of the tools that were expected or chosen, the confusion matrix, the
    failing questions, then its malformed case lines and warnings."""
    metrics = run.get("metrics") or {}
    scores = [s for s in metrics.get("per_tool") or [] if s.get("tp") or s.get("fp") or s.get("fn")]
    sections = [
        table_section(
            f"per tool{suffix}",
            ["tool", "precision", "recall", "tp", "fp", "fn"],
            [
                [
                    s["tool"],
                    _pct(s.get("precision")),
                    _pct(s.get("recall")),
                    s["tp"],
                    s["fp"],
                    s["fn"],
                ]
                for s in scores
            ],
            numeric=["precision", "recall", "tp", "fp", "fn"],
        ),
        heatmap_section(f"confusion matrix{suffix}", metrics.get("confusion") or {}),
    ]
    failing = [r for r in run.get("results") or [] if not r.get("passed")]
    sections.append(
        table_section(
            f"failing questions{suffix}: {len(failing)}",
            ["line", "question", "expected", "chosen", "why"],
            [_case_row(r) for r in failing],
            numeric=["line"],
            row_classes=["bad"] * len(failing),
        )
    )
    for problem in run.get("problems") or []:
        sections.append(summary_section("", [("malformed line", _short(problem, 300))]))
    if run.get("warnings"):
        sections.append(summary_section("", [("warning", w) for w in run["warnings"]]))
    return sections


def _every_case(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Every case of a single run, collapsed: passed rows ``ok``, failed ones ``bad``."""
    return table_section(
        "",
        ["line", "question", "expected", "chosen", "why"],
        [_case_row(r) for r in results],
        numeric=["line"],
        row_classes=["ok" if r.get("passed") else "bad" for r in results],
        collapsed_summary=f"every case: {len(results)}",
    )


def _flips_section(flips: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The cases that flipped between two runs (``pass->fail`` rows ``bad``), or a note that
    none did."""
    return table_section(
        f"flipped cases: {len(flips)}",
        ["line", "question", "expected", "before", "after", "flip"],
        [
            [
                f.get("line"),
                cell(f.get("question")),
                f.get("expect_tool") or "(none)",
                f.get("before"),
                f.get("after"),
                f.get("direction"),
            ]
            for f in flips
        ],
        numeric=["line"],
        row_classes=["bad" if f.get("direction") == "pass->fail" else "ok" for f in flips],
        note="" if flips else "no case flipped between the runs",
    )


def _case_row(r: Mapping[str, Any]) -> list[Any]:
    why = r.get("reason") or r.get("error") or ""
    return [
        r.get("line"),
        cell(r.get("question")),
        r.get("expect_tool") or "(none)",
        r.get("chosen") or "-",
        cell(why, REASON_CHARS),
    ]


def _cases_side_by_side(names: Sequence[str], runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    by_line = [{r.get("line"): r for r in run.get("results") or []} for run in runs]
    lines = sorted({line for table in by_line for line in table if line is not None})
    rows, classes = [], []
    for line in lines:
        first = next(t[line] for t in by_line if line in t)
        cells: list[Any] = [line, cell(first.get("question")), first.get("expect_tool") or "(none)"]
        passed = []
        for table in by_line:
            r = table.get(line)
            passed.append(bool(r and r.get("passed")))
            cells.append(
                "-" if r is None else f"{r.get('chosen') or '-'} {'✓' if r.get('passed') else '✗'}"
            )
        rows.append(cells)
        classes.append("ok" if all(passed) else ("bad" if not any(passed) else "warn"))
    return table_section(
        "",
        ["line", "question", "expected", *names],
        rows,
        numeric=["line"],
        row_classes=classes,
        collapsed_summary=f"every case side by side: {len(rows)}",
    )


def check_page(data: Mapping[str, Any]) -> str:
    """``check``'s report (``{"file", "cases": [record + line, passed, mismatches], "passed",
    "failed"}``): a summary, the failing cases, then every case with its record."""
    cases = data.get("cases") or []
    items = []
    for c in cases:
        item = record_item(
            c, f"line {c.get('line')}: {c.get('tool')}({_short(c.get('args'), 100)})"
        )
        item["cls"] = "ok" if c.get("passed") else "bad"
        item["open"] = not c.get("passed")
        if c.get("mismatches"):
            item["blocks"].insert(0, ("mismatches", _json(c["mismatches"])))
            item["fields"].insert(0, ("mismatches", _short(c["mismatches"], 400)))
        items.append(item)
    sections = [
        summary_section(
            "",
            [
                ("case file", data.get("file") or "-"),
                ("passed", f"{data.get('passed', 0)}"),
                ("failed", f"{data.get('failed', 0)}"),
            ],
        ),
        {
            "kind": "chart",
            "title": "",
            "chart": bar_chart(
                ["passed"], [("cases", [data.get("passed", 0) / len(cases) if cases else None])]
            ),
        },
        records_section(f"cases: {len(cases)}", items),
    ]
    return render_page(f"check {Path(str(data.get('file') or 'cases')).name}", sections)


def probe_page(data: Mapping[str, Any]) -> str:
    """``probe``'s report (``ProbeReport.to_json()``): every derived input, its verdict and
    whether the body ran."""
    cases = data.get("cases") or []
    rows = [
        [
            c.get("name"),
            _short(c.get("args"), 200),
            c.get("expected"),
            c.get("verdict"),
            c.get("kind") or "-",
            "yes" if c.get("body_ran") else "no",
            c.get("body_runs"),
            "ok" if c.get("ok") else f"FAIL {c.get('problem') or ''}".strip(),
        ]
        for c in cases
    ]
    sections = [
        summary_section(
            "",
            [
                ("tool", data.get("tool") or "-"),
                ("ok", data.get("ok")),
                ("cases", f"{data.get('total', len(cases))}"),
                ("problems", f"{data.get('problems', 0)}"),
                *(("warning", w) for w in data.get("warnings") or []),
            ],
        ),
        table_section(
            "inputs",
            ["case", "args", "expected", "verdict", "kind", "ran", "body runs", ""],
            rows,
            numeric=["body runs"],
            row_classes=["ok" if c.get("ok") else "bad" for c in cases],
        ),
        json_section("", "every case (raw)", cases),
    ]
    return render_page(f"probe {data.get('tool')}", sections)


def report_page(data: Mapping[str, Any]) -> str:
    """``report``'s figures (seed 003's ``tool_report.json``), each as a line, then the JSON."""
    items = []
    for key, value in data.items():
        if isinstance(value, dict):
            shown = ", ".join(f"{k}: {v or 'valid'}" for k, v in value.items())
        elif isinstance(value, list):
            shown = ", ".join(map(str, value))
        else:
            shown = str(value)
        items.append((key, shown))
    return render_page(
        "tool report", [summary_section("", items), json_section("", "tool_report.json", data)]
    )


def replay_page(results: Sequence[Mapping[str, Any]]) -> str:
    """``replay``'s results (``ReplayResult.to_json()`` per golden file: ``{"file", "label",
    "drift": [...], "causes", "error", "updated", ...}``): same, drifted (each drift and its
    likely cause) or an error."""
    sections = []
    drifted = 0
    for r in results:
        drifts = r.get("drift") or []
        if r.get("error"):
            state, cls = f"error: {r['error']}", "bad"
        elif drifts and not r.get("updated"):
            state, cls = "DRIFT", "bad"
            drifted += 1
        else:
            state, cls = ("updated" if r.get("updated") else "same"), "ok"
        item = {
            "title": f"{r.get('file')}: {r.get('label') or ''} → {state}",
            "cls": cls,
            "open": cls == "bad",
            "fields": [("likely cause", c) for c in r.get("causes") or []],
            "images": [],
            "blocks": [("drifts", _json(drifts)), ("result (raw)", _json(r))],
            "children": [],
        }
        sections.append(item)
    return render_page(
        "replay",
        [
            summary_section("", [("replayed", f"{len(results)}"), ("drifted", f"{drifted}")]),
            records_section("golden files", sections),
        ],
    )


def history_page(entry: Mapping[str, Any]) -> str:
    """One history entry (``Entry.to_json()``): its header, then its record or episode."""
    data = entry.get("data") or {}
    head = [
        (k, entry[k])
        for k in ("id", "time", "type", "router", "source", "rerun_of")
        if entry.get(k) not in (None, "")
    ]
    body = (
        [records_section("record", [record_item(data, open_=True)])]
        if entry.get("type") == "call"
        else episode_sections(data)
    )
    return render_page(f"history #{entry.get('id')}", [summary_section("", head), *body])
