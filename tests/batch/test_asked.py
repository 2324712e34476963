"""The ``asked`` eval category (issue 12): the right tool, short of a value the router asks for."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from playground.batch.evalcases import ASKED, MISSED, EvalCase, judge
from playground.batch.metrics import compute_metrics
from playground.cli.main import app
from playground.routing.base import Move

REPO = Path(__file__).resolve().parents[2]


def case(tool: str | None) -> EvalCase:
    return EvalCase(line=1, question="q", expect_tool=tool)


def test_a_clarify_move_for_the_expected_tool_is_asked_not_missed():
    ask = Move(text="Which order?", explanation={"asks_for": {"tool": "t", "missing": ["id"]}})
    other = Move(text="Which order?", explanation={"asks_for": {"tool": "u", "missing": ["id"]}})
    plain = Move(text="Sorry.")
    results = [judge(case("t"), ask), judge(case("t"), other), judge(case("t"), plain)]
    assert [r.category for r in results] == [ASKED, MISSED, MISSED]
    assert results[0].reason() == "expected t; the router asked for id instead"
    assert not results[0].passed
    m = compute_metrics(results)
    assert (m.asked, m.missed, m.should_use) == (1, 2, 3)
    assert m.rates()["asked_rate"] == 1 / 3


def test_eval_json_counts_asked(tmp_path: Path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        '{"question": "텀블러 주문한 거 어디쯤이에요?", "expect_tool": "track_shipping"}\n'
        '{"question": "주문번호 HR20260604 배송 조회", "expect_tool": "track_shipping"}\n',
        encoding="utf-8",
    )
    shop = str(REPO / "tools" / "shop.py")
    result = CliRunner().invoke(app, ["eval", str(cases), "--tools", shop, "--format", "json"])
    data = json.loads(result.stdout)
    assert [r["category"] for r in data["results"]] == ["asked", "selected"]
    assert data["metrics"]["counts"]["asked"] == 1
    assert data["metrics"]["asked_rate"] == 0.5
