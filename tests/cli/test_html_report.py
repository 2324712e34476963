"""``--html FILE`` (issue 26 item 2): one self-contained page of a run, parsed back with
``html.parser`` and checked for structure, values, no external reference, escaping and size."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.batch import html_report
from playground.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "fixtures" / "routing_cases.jsonl"
SHOP = ROOT / "tools" / "shop.py"
runner = CliRunner()


class Page(HTMLParser):
    """Every start tag with its attributes, the text of the page, and the text of each table."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.tables: list[list[list[str]]] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self._row = []
            self.tables[-1].append(self._row)
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)

    def all(self, tag: str) -> list[dict[str, str | None]]:
        return [attrs for t, attrs in self.tags if t == tag]

    @property
    def plain(self) -> str:
        return "".join(self.text)


def assert_self_contained(page: Page) -> None:
    """No script, no external reference: every src/href is a data: URI or a fragment."""
    assert page.all("script") == []
    for _tag, attrs in page.tags:
        for name in ("src", "href", "action", "srcset"):
            value = attrs.get(name)
            if value is not None:
                assert value.startswith(("data:", "#")), value
    metas = page.all("meta")
    assert {"charset": "utf-8"} in metas
    csp = next(m for m in metas if m.get("http-equiv") == "Content-Security-Policy")
    assert csp["content"].startswith("default-src 'none'")


def run(args: list[str]):
    result = runner.invoke(app, args)
    return result


@pytest.fixture(autouse=True)
def _no_history(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_HISTORY", "off")


def test_eval_html_has_rates_chart_heat_map_and_every_case(tmp_path):
    out = tmp_path / "eval.html"
    result = run(["eval", str(CASES), "--tools", str(SHOP), "--format", "json", "--html", str(out)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    page = Page(out.read_text(encoding="utf-8"))
    assert_self_contained(page)
    # one bar per rate, titled with the rate the JSON gives
    titles = [t for t in page.text if t.startswith("base · offline: ")]
    assert len(page.all("rect")) == 5 == len(titles)
    assert f"base · offline: selection rate {data['metrics']['selection_rate']:.1%}" in titles
    heat = next(t for t in page.tables if t and t[0] and t[0][0] == "expected ↓ · chosen →")
    header = heat[0][1:]
    matrix = data["metrics"]["confusion"]["matrix"]
    for row in heat[1:]:
        for col, cell in zip(header, row[1:]):
            assert cell == (
                str(matrix.get(row[0], {}).get(col)) if matrix.get(row[0], {}).get(col) else "·"
            )
    every = page.tables[-1]
    assert len(every) - 1 == len(data["results"]) == 63
    assert "텀블러 주문한 거 어디쯤이에요? 주문번호 HR20260604" in page.plain
    assert "wrote " in result.stderr


def test_eval_compare_html_shows_before_after_and_flips(tmp_path):
    edited = tmp_path / "shop_edited.py"
    edited.write_text(SHOP.read_text(encoding="utf-8").replace("어디쯤", "XXXX"), encoding="utf-8")
    out = tmp_path / "cmp.html"
    result = run(
        [
            "eval",
            str(CASES),
            "--tools",
            str(SHOP),
            "--compare",
            str(edited),
            "-f",
            "json",
            "--html",
            str(out),
        ]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    page = Page(out.read_text(encoding="utf-8"))
    assert_self_contained(page)
    assert len(page.all("rect")) == 10  # before and after for each of the 5 rates
    side = next(t for t in page.tables if t[0][:2] == ["metric", "base · offline"])
    assert side[0][-1] == "Δ"
    sel = next(r for r in side if r[0] == "selection rate")
    rates = {r["metric"]: r for r in data["rates"]}["selection_rate"]
    assert sel[1:] == [f"{rates['base']:.1%}", f"{rates['other']:.1%}", f"{rates['delta']:+.1%}"]
    flips = next(
        t
        for t in page.tables
        if t[0] == ["line", "question", "expected", "before", "after", "flip"]
    )
    assert len(flips) - 1 == len(data["flips"]) > 0
    assert flips[1][-1] == data["flips"][0]["direction"]


def test_ask_html_shows_every_step_and_its_wire_json(tmp_path):
    out = tmp_path / "ep.html"
    question = "텀블러 주문한 거 어디쯤이에요? 주문번호 HR20260604"
    result = run(["ask", question, "--tools", str(SHOP), "-f", "json", "--html", str(out)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    page = Page(out.read_text(encoding="utf-8"))
    assert_self_contained(page)
    summaries = [t for t in page.text if t.startswith("step ")]
    assert len(summaries) == len(data["steps"]) == 6
    assert [s.split(" · ")[1] for s in summaries] == [s["node"] for s in data["steps"]]
    for provider in ("gemini", "anthropic", "openai"):
        assert any(t.startswith(f"wire JSON · {provider}") for t in page.text)
    anthropic = json.dumps(data["calls"][0]["wire"]["anthropic"], ensure_ascii=False, indent=2)
    assert anthropic in page.plain  # the wire JSON itself, not a summary
    assert data["reply"] in page.plain


def test_text_from_a_tool_is_escaped_never_run(tmp_path):
    tool = tmp_path / "evil.py"
    tool.write_text(
        "def evil_lookup(item: str) -> dict:\n"
        '    """Looks up an item. <script>alert("desc")</script>\n\n'
        '    Args:\n        item: the item <img src=x onerror=alert(1)>\n    """\n'
        '    return {"note": "</pre><script>alert(1)</script>", "item": item}\n\n'
        "__tools__ = [evil_lookup]\n",
        encoding="utf-8",
    )
    out = tmp_path / "evil.html"
    result = run(
        ["ask", "look up item <b>x</b>", "--tools", str(tool), "-f", "json", "--html", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    page = Page(text)
    assert_self_contained(page)
    assert page.all("img") == [] and page.all("b") == []
    assert "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "</pre><script>alert(1)</script>" in page.plain  # shown as text
    assert "look up item <b>x</b>" in page.plain


def test_existing_file_is_kept(tmp_path):
    out = tmp_path / "eval.html"
    out.write_text("mine", encoding="utf-8")
    result = run(["eval", str(CASES), "--tools", str(SHOP), "--html", str(out)])
    assert result.exit_code == 2
    # eval has no --force: the message does not send the user to one
    assert result.stderr.strip() == f"error: {out} exists; give another file name (it is kept)"
    assert out.read_text(encoding="utf-8") == "mine"
    folder = run(["eval", str(CASES), "--tools", str(SHOP), "--html", str(tmp_path)])
    assert folder.exit_code == 2 and len(folder.stderr.strip().splitlines()) == 1


def test_a_thousand_case_eval_is_under_two_megabytes():
    """1,000 cases in the shape eval reports them (the real run's results, repeated)."""
    from playground.batch.evalcases import EvalCase  # noqa: F401  (shape owner)

    result = run(["eval", str(CASES), "--tools", str(SHOP), "-f", "json"])
    report = json.loads(result.stdout)
    results = [
        {**r, "line": i + 1, "passed": i % 7 != 0, "reason": "chose another tool" * (i % 7 == 0)}
        for i, r in enumerate((report["results"] * 16)[:1000])
    ]
    page = html_report.eval_page([{**report, "results": results}])
    size = len(page.encode("utf-8"))
    assert size <= 2 * 1024 * 1024, size
    parsed = Page(page)
    assert len(parsed.tables[-1]) - 1 == 1000


def test_images_in_a_result_are_inline_data_uris():
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    record = {
        "tool": "chart",
        "args": {},
        "verdict": "valid",
        "ok": True,
        "kind": "ok",
        "value": [
            "a chart",
            {"type": "image", "mimeType": "image/png", "data": png},
            {"type": "image", "mimeType": "image/png", "data": '" onerror="alert(1)'},
            {"type": "image", "mimeType": "image/svg+xml", "data": png},
        ],
    }
    page = Page(html_report.record_page(record))
    assert_self_contained(page)
    assert [i["src"] for i in page.all("img")] == [f"data:image/png;base64,{png}"]


def test_check_probe_report_replay_and_history_pages(tmp_path, monkeypatch):
    checks = tmp_path / "check.html"
    result = run(
        [
            "check",
            str(ROOT / "fixtures" / "shop_checks.jsonl"),
            "--tools",
            str(SHOP),
            "-f",
            "json",
            "--html",
            str(checks),
        ]
    )
    data = json.loads(result.stdout)
    page = Page(checks.read_text(encoding="utf-8"))
    assert_self_contained(page)
    lines = [t for t in page.text if t.startswith("line ")]
    assert len(lines) == len(data["cases"])

    probe = tmp_path / "probe.html"
    result = run(["probe", "check_stock", "--tools", str(SHOP), "-f", "json", "--html", str(probe)])
    data = json.loads(result.stdout)
    page = Page(probe.read_text(encoding="utf-8"))
    inputs = next(t for t in page.tables if t[0][0] == "case")
    assert [r[0] for r in inputs[1:]] == [c["name"] for c in data["cases"]]

    report = tmp_path / "report.html"
    inventory = ROOT / "tools" / "inventory.py"
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    result = run(
        [
            "report",
            "--out",
            str(tmp_path / "r"),
            "--tools",
            str(inventory),
            "-f",
            "json",
            "--html",
            str(report),
        ]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    page = Page(report.read_text(encoding="utf-8"))
    assert (
        f"{data['memo_second_call_runs']}" in page.plain and "memo_second_call_runs" in page.plain
    )

    golden = tmp_path / "g.json"
    history = tmp_path / "h.sqlite"
    question = "텀블러 주문한 거 어디쯤이에요? 주문번호 HR20260604"
    result = run(
        ["ask", question, "--tools", str(SHOP), "--save", str(golden), "--history", str(history)]
    )
    assert result.exit_code == 0, result.stderr
    replayed = tmp_path / "replay.html"
    result = run(["replay", str(golden), "--tools", str(SHOP), "--html", str(replayed)])
    assert result.exit_code == 0, result.stderr
    page = Page(replayed.read_text(encoding="utf-8"))
    assert any(t.endswith("→ same") and question in t for t in page.text)

    shown = tmp_path / "history.html"
    result = run(["history", "show", "1", "--history", str(history), "--html", str(shown)])
    assert result.exit_code == 0, result.stderr
    page = Page(shown.read_text(encoding="utf-8"))
    assert_self_contained(page)
    assert question in page.plain and any(t.startswith("step 6 · reply") for t in page.text)


def test_a_streamed_eval_page_still_lists_every_case(tmp_path):
    out = tmp_path / "stream.html"
    result = run(["eval", str(CASES), "--tools", str(SHOP), "-f", "jsonl", "--html", str(out)])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    judged = [line for line in lines if "question" in line]
    assert len(judged) == 63  # each result written once, as it was judged
    page = Page(out.read_text(encoding="utf-8"))
    assert [row[1] for row in page.tables[-1][1:]] == [r["question"] for r in judged]
