"""Issue 23 (speed at 300 tools): the rows of tools a question leaves untouched are made once per
penalty set and shared; the touched rows are placed among them in the order a full sort gives;
the per-text caches hand out new lists. Guards of docs/performance.md's register, item 19."""

from __future__ import annotations

from playground.routing import korean
from playground.routing.offline import OfflineRouter, nearest_text
from playground.routing.scoring import (
    IDLE_PENALTY_SETS,
    ScoreRow,
    Weights,
    _idle_rows,
    _Penalties,
)


def _tool(name: str, description: str, required: list[str], props: list[str]) -> dict:
    return {
        "name": name,
        "description": description,
        "parameters": {
            "type": "object",
            "properties": {p: {"type": "string"} for p in props},
            "required": required,
        },
    }


DECLS = [
    _tool("get_order", "Look up an order by its id.", ["order_id"], ["order_id"]),
    _tool("cancel_order", "Cancel an order by its id.", ["order_id"], ["order_id"]),
    _tool(
        "track_parcel", "Where a parcel is, by tracking number.", ["tracking_no"], ["tracking_no"]
    ),
    _tool("renew_loan", "Renew a library loan.", ["loan_id", "days"], ["loan_id", "days"]),
    _tool("weather_now", "The weather now in a city.", ["city"], ["city"]),
    _tool("about", "What this shop is.", [], []),
]


def _by_name(rows: list[ScoreRow]) -> dict[str, ScoreRow]:
    return {r.name: r for r in rows}


def test_an_untouched_tool_has_one_shared_settled_row():
    router = OfflineRouter()
    first = _by_name(router.score("Where is my order HR-1001?", DECLS))
    second = _by_name(router.score("Please cancel the order HR-1002", DECLS))
    loan = first["renew_loan"]
    assert second["renew_loan"] is loan  # shared: made once for the penalty set
    missing = Weights().missing
    assert loan.to_json() == {
        "name": "renew_loan",
        "relevance": 0.0,
        "boundary_penalty": 0.0,
        "pointer_bonus": 0.0,
        "matched": [],
        "name_hits": [],
        "boundary": [],
        "pointed": [],
        "args": {},
        "arg_evidence": {},
        "missing": ["loan_id", "days"],
        "evidence_bonus": 0.0,
        "missing_penalty": 2 * missing,
        "predicate_penalty": 0.0,
        "unmatched_predicates": [],
        "deprecated_penalty": 0.0,
        "deprecated": [],
        "unsaid": [],
        "covered": [0, 0],
        "score": round(-2 * missing, 4),
        "because": [f"missing loan_id, days -{2 * missing}"],
    }
    assert first["about"].score == 0.0 and first["about"].missing == []
    # a touched tool gets its own row each question
    assert first["get_order"] is not second["get_order"]
    assert first["get_order"].relevance > 0 and first["get_order"].frozen_json is None


def test_rows_come_in_score_then_name_then_declaration_order():
    router = OfflineRouter()
    names = [d["name"] for d in DECLS]
    for question in [
        "Where is my order HR-1001?",
        "weather in Paris",
        "주문 취소해 주세요",
        "renew my library loan L-1 for 7 days",
        "nothing at all",
    ]:
        rows = router.score(question, DECLS)
        assert sorted(r.name for r in rows) == sorted(names)
        expected = sorted(rows, key=lambda r: (-r.score, r.name, names.index(r.name)))
        assert [r.name for r in rows] == [r.name for r in expected]


def test_idle_rows_are_kept_for_a_bounded_number_of_penalty_sets():
    router = OfflineRouter()
    idx = router.index(DECLS)
    for k in range(IDLE_PENALTY_SETS + 3):
        idle = _idle_rows(idx, _Penalties(0.5, 0.2 * k, 0.0, tuple(f"w{j}" for j in range(k))))
        assert [r.name for r in idle.rows] == [d["name"] for d in DECLS]
        assert idle.rows[0].unmatched_predicates == [f"w{j}" for j in range(k)]
    assert len(idx.idle) == IDLE_PENALTY_SETS


def test_cached_word_readers_hand_out_new_lists():
    tokens = korean.tokenize("주문 조회 부탁해요")
    tokens.clear()
    assert [t.stem for t in korean.tokenize("주문 조회 부탁해요")][:2] == ["주문", "조회"]
    parts = korean.split_identifier("getOrderStatus")
    parts.append("x")
    assert korean.split_identifier("getOrderStatus") == ["get", "order", "status"]


def test_nearest_tool_is_the_first_of_the_best():
    rows = [ScoreRow("b_tool", relevance=0.2), ScoreRow("a_tool", relevance=0.2)]
    assert "nearest: b_tool, words 0.2" in nearest_text(rows, [], 1.0)


def test_no_tool_is_called_nearest_when_no_tool_s_words_count():
    """A tester saw "nearest: change_cwd, words 0.0 < 1.125": the first tool listed, named
    nearest by nothing."""
    rows = [ScoreRow("change_cwd", relevance=0.0), ScoreRow("spin", relevance=0.0)]
    words = [{"word": "날씨", "stem": "날씨", "weight": 1.0}]
    text = nearest_text(rows, words, 0.75)
    assert (
        text == "no tool covers '날씨'; no tool's words count toward the question (nearest: none)"
    )
