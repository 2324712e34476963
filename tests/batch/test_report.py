"""The seed-003 tool report: measured from running a copy of the inventory tools."""

from __future__ import annotations

import csv
import json
import shutil
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.batch.report import SECTIONS, measure, render_markdown, write_report
from playground.errors import UsageError

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def copy(tmp_path, monkeypatch):
    """tools/inventory.py and fixtures/stock.csv copied to tmp_path; the tool reads the copy."""
    tools = tmp_path / "tools"
    fixtures = tmp_path / "fixtures"
    tools.mkdir()
    fixtures.mkdir()
    shutil.copy(REPO / "tools" / "inventory.py", tools / "inventory.py")
    shutil.copy(REPO / "fixtures" / "stock.csv", fixtures / "stock.csv")
    monkeypatch.setenv("PLAYGROUND_FIXTURES", str(fixtures))
    return tmp_path


def _rewrite(path: Path, keep, extra=()):
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    kept = [r for r in rows if keep(r)] + [
        dict(zip(("sku", "region", "store", "count"), e)) for e in extra
    ]
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["sku", "region", "store", "count"])
        w.writeheader()
        w.writerows(kept)


def test_figures_of_the_shipped_data(copy):
    r = measure([copy / "tools" / "inventory.py"])
    assert r["tools"] == r["probed"] == ["stock_lookup", "legacy_stock"]
    assert r["blocked_before_call"] == 0
    assert r["bad_result_reasons"] == ["empty", "range", "shape", "too_big"]
    assert r["details"]["crafted_results"]["stock_lookup"] == {
        "shape": "shape",
        "empty": "empty",
        "too_big": "too_big",
        "range": "range",
    }
    assert r["memo_second_call_runs"] == 0
    assert r["repaired"] is True and r["attempts"] == 2 and r["gave_up"] is True
    assert r["max_attempts"] == 3
    assert r["real_result_reasons"] == {"stock_lookup": "", "legacy_stock": "too_big"}
    assert r["details"]["real_result_rows"] == {"stock_lookup": 3, "legacy_stock": 7}
    assert r["probes"]["good"]["stock_lookup"] == {"sku": "KB-101", "region": "seoul", "limit": 3}
    assert r["probes"]["empty"]["args"] == {"sku": "MN-303", "region": "daejeon", "limit": 2}
    calls = r["details"]["blocked_calls"]
    assert [(c["tool"], c["verdict"]) for c in calls] == [
        ("stock_lookup", "missing:limit"),
        ("stock_lookup", "type:limit"),
        ("stock_lookup", "allowed:region"),
        ("stock_lookup", "range:limit"),
        ("stock_lookup", "unknown:unexpected_argument"),
        ("stock_lookup", "pattern:sku"),
        ("stock_lookup_unknown", "unknown_tool"),
        ("legacy_stock", "missing:region"),
        ("legacy_stock", "type:sku"),
        ("legacy_stock", "allowed:region"),
        ("legacy_stock", "unknown:unexpected_argument"),
        ("legacy_stock", "pattern:sku"),
        ("legacy_stock_unknown", "unknown_tool"),
    ]
    assert not any(c["body_ran"] for c in calls)


def test_the_report_works_from_declarations_not_names(tmp_path):
    """Tools the report has never heard of: every figure comes from their contracts."""
    (tmp_path / "books.py").write_text(
        textwrap.dedent(
            """
            SHELVES = {("dune", "a"): [{"title": "Dune", "copies": 2}] * 8}

            def find_books(word, shelf, limit):
                return {"word": word, "hits": SHELVES.get((word, shelf), [])[:limit]}

            def dump_books(word, shelf):
                return {"word": word, "hits": SHELVES.get((word, shelf), [])}

            def note(text: str) -> str:
                "Not probed: its result declares no limit."
                return text

            __tools__ = [note]
            ARGS = {
                "word": {"type": "str", "required": True, "pattern": "^[a-z]+$",
                         "description": "a word. e.g. dune"},
                "shelf": {"type": "str", "required": True, "allowed": ["a", "b"]},
            }
            HIT = {"type": "object", "required": ["title", "copies"],
                   "properties": {"title": {"type": "string"},
                                  "copies": {"type": "integer", "minimum": 1}}}
            RETURNS = {"type": "object", "required": ["word", "hits"], "rows_key": "hits",
                       "max_rows": 4,
                       "properties": {"word": {"type": "string"},
                                      "hits": {"type": "array", "items": HIT}}}
            LIMIT = {"type": "int", "required": True, "min": 1, "max": 4, "description": "e.g. 2"}
            TOOLS = {
                "find_books": {"fn": find_books, "args": {**ARGS, "limit": LIMIT},
                               "returns": RETURNS},
                "dump_books": {"fn": dump_books, "args": ARGS, "returns": RETURNS},
            }
            """
        ),
        encoding="utf-8",
    )
    r = measure([tmp_path / "books.py"])
    assert r["probed"] == ["find_books", "dump_books"] and "note" in r["tools"]
    assert r["blocked_before_call"] == 0
    assert r["probes"]["good"]["find_books"] == {"word": "dune", "shelf": "a", "limit": 2}
    assert r["real_result_reasons"] == {"find_books": "", "dump_books": "too_big"}
    assert r["bad_result_reasons"] == ["empty", "range", "shape", "too_big"]
    assert r["memo_second_call_runs"] == 0
    assert r["repaired"] is True and r["attempts"] == 2
    assert r["probes"]["empty"] == {
        "tool": "find_books",
        "args": {"word": "dune", "shelf": "b", "limit": 2},
    }
    assert r["gave_up"] is True
    assert ("find_books", "range:limit") in [
        (c["tool"], c["verdict"]) for c in r["details"]["blocked_calls"]
    ]


def test_changed_data_changes_the_figures(copy):
    stock = copy / "fixtures" / "stock.csv"
    seoul_kb = []

    def keep(row):
        if row["sku"] == "KB-101" and row["region"] == "seoul":
            seoul_kb.append(row)
            return len(seoul_kb) <= 3  # drop the rows that made legacy_stock too big
        return True

    _rewrite(stock, keep, extra=[("MN-303", "daejeon", "둔산점", "4")])
    r = measure([copy / "tools" / "inventory.py"])
    assert r["gave_up"] is False  # the empty probe now has a row
    assert r["real_result_reasons"]["legacy_stock"] == ""
    assert r["details"]["real_result_rows"]["legacy_stock"] == 3
    assert r["repaired"] is True and r["attempts"] == 2


def test_region_fallback_follows_the_module(copy):
    module = copy / "tools" / "inventory.py"
    module.write_text(
        module.read_text(encoding="utf-8").replace(
            "FALLBACK_REGION = REGIONS[0]", "FALLBACK_REGION = REGIONS[1]"
        ),
        encoding="utf-8",
    )
    r = measure([module])
    assert r["details"]["repair_fixes"] == ["region: 'unlisted' → 'busan' (FALLBACK_REGION)"]


def test_written_files_have_the_four_sections_in_order(copy):
    r = measure([copy / "tools" / "inventory.py"])
    json_path, md_path = write_report(r, copy / "out")
    assert json.loads(json_path.read_text(encoding="utf-8"))["attempts"] == 2
    md = md_path.read_text(encoding="utf-8")
    positions = [md.index(h) for h in SECTIONS]
    assert positions == sorted(positions)
    last = md[positions[3] :]
    assert "MAX_ATTEMPTS = 3" in last and "blocked_before_call = 0" in md
    assert md == render_markdown(r)


def test_report_needs_a_tool_with_result_limits(tmp_path):
    (tmp_path / "other.py").write_text(
        "def f(x: int) -> int:\n    return x\n__tools__ = [f]\n", encoding="utf-8"
    )
    with pytest.raises(UsageError, match="declares max_rows or max_bytes; none found in"):
        measure([tmp_path / "other.py"])


def test_report_command_writes_both_files(copy):
    from playground.cli.main import app

    out = copy / "report"
    result = CliRunner().invoke(
        app,
        [
            "report",
            "--tools",
            str(copy / "tools" / "inventory.py"),
            "--out",
            str(out),
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["blocked_before_call"] == 0 and data["files"] == [
        str(out / "tool_report.json"),
        str(out / "tool_report.md"),
    ]
    assert (out / "tool_report.md").read_text(encoding="utf-8").count("## ") == 4
    bad = CliRunner().invoke(app, ["report", "--tools", str(copy / "missing.py")])
    assert (
        bad.exit_code == 2
        and bad.stderr.startswith("error: ")
        and len(bad.stderr.strip().splitlines()) == 1
    )
