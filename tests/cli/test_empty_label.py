"""An empty result is labelled the same in ``call --repair`` and ``ask`` (issue 11 item 14)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from playground.cli.main import app

TOOLS = Path(__file__).resolve().parents[2] / "tools"
runner = CliRunner()


def episode(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--tools", str(TOOLS), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


def label(ep: dict) -> tuple:
    return ep["end"], ep["gave_up"], ep["ok"], ep["steps"][-1]["node"], ep["calls"][-1]["kind"]


def test_call_repair_and_ask_label_an_empty_result_alike():
    manual = episode("call", "search_products", "keyword=zzzzqqq", "--repair")
    asked = episode("ask", "zzzzqqq 상품 검색해줘")
    assert asked["calls"] and asked["calls"][-1]["tool"] == "search_products"
    assert label(manual) == label(asked) == ("nothing_found", False, False, "reply", "empty")
