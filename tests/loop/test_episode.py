"""The episode loop: steps, repairs, the failure limit, empty results, transient, routers, forks."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from playground.errors import RouterError, UsageError
from playground.loop.episode import (
    MAX_ATTEMPTS,
    fork_episode,
    run_manual_episode,
    run_question_episode,
)
from playground.loop.step import Node
from playground.routing.base import FunctionCall, Move, RouterCapabilities
from playground.workbench import open_playground

REPO = Path(__file__).resolve().parents[2]
INVENTORY = REPO / "tools" / "inventory.py"
FLAKY = REPO / "tools" / "flaky.py"


@pytest.fixture
def pg():
    return open_playground([INVENTORY], wire=False)


class ScriptedRouter:
    """A fake router: returns the scripted moves in order and records what it was shown."""

    name = "scripted"

    def __init__(self, moves, repairs="loop"):
        self.moves = list(moves)
        self.seen = []
        self.capabilities = RouterCapabilities(repairs=repairs)

    def next_move(self, conversation, declarations):
        self.seen.append(list(conversation))
        item = self.moves.pop(0) if len(self.moves) > 1 else self.moves[0]
        if isinstance(item, Exception):
            raise item
        return item() if callable(item) else item


def call_move(name, args, call_id="c1"):
    return Move(
        calls=[FunctionCall(name=name, args=dict(args), id=call_id)], explanation={"chosen": name}
    )


def nodes(ep):
    return [(s["node"], s["attempt"]) for s in ep.to_json()["steps"]]


# ---- manual episodes ---------------------------------------------------------------------------


def test_region_not_allowed_is_repaired_to_the_module_fallback(pg):
    ep = run_manual_episode(pg, "stock_lookup", {"sku": "KB-101", "region": "jeju", "limit": 2})
    data = ep.to_json()
    assert data["ok"] is True and data["gave_up"] is False and data["attempts"] == 2
    assert data["fixes"] == ["region: 'jeju' → 'seoul' (FALLBACK_REGION)"]
    assert nodes(ep) == [
        ("pick", 1),
        ("validate", 1),
        ("check", 1),
        ("repair", 1),
        ("validate", 2),
        ("run", 2),
        ("check", 2),
        ("reply", 2),
    ]
    first, second = data["steps"][1], data["steps"][4]
    assert (
        first["verdict"] == "allowed:region"
        and first["kind"] == "invalid_args"
        and first["call"] == 0
    )
    assert (
        second["verdict"] == "valid" and second["args"]["region"] == "seoul" and second["call"] == 1
    )
    assert [c["verdict"] for c in data["calls"]] == ["allowed:region", "valid"]
    assert data["calls"][0]["body_ran"] is False and data["calls"][1]["body_ran"] is True
    assert data["reply"] == (
        "stock_lookup returned 2 row(s); first: store=강남점, count=12 "
        "(jeju is not an allowed region; showed seoul instead)."
    )
    assert data["changes"] == [
        {"kind": "substituted", "arg": "region", "old": "jeju", "new": "seoul"}
    ]
    assert data["steps"][3]["fixes"] == data["fixes"] and data["steps"][1]["fixes"] == []
    assert all(s["node"] in set(Node) for s in data["steps"])
    json.dumps(data, ensure_ascii=False)  # JSON-ready


def test_every_step_has_the_same_keys(pg):
    data = run_manual_episode(
        pg, "stock_lookup", {"sku": "KB-101", "region": "jeju", "limit": 2}
    ).to_json()
    keys = {tuple(sorted(s)) for s in data["steps"]}
    assert len(keys) == 1
    assert {
        "node",
        "attempt",
        "tool",
        "args",
        "verdict",
        "body_ran",
        "cache",
        "kind",
        "error",
        "retries",
        "delays_ms",
        "fixes",
        "call",
        "move",
        "explanation",
        "message",
    } <= set(keys.pop())


def test_legacy_too_big_switches_to_stock_lookup_with_its_maximum_limit(pg):
    ep = run_manual_episode(pg, "legacy_stock", {"sku": "KB-101", "region": "seoul"})
    assert ep.ok and ep.attempts == 2
    assert [c.error for c in ep.calls] == ["result:too_big", ""]
    assert ep.calls[1].tool == "stock_lookup" and ep.calls[1].args == {
        "sku": "KB-101",
        "region": "seoul",
        "limit": 5,
    }
    assert ep.fixes == [
        "tool: 'legacy_stock' → 'stock_lookup' with limit=5 "
        "(legacy_stock has no limit; stock_lookup's limit maximum)"
    ]


def test_limit_out_of_range_is_clamped(pg):
    ep = run_manual_episode(pg, "stock_lookup", {"sku": "KB-101", "region": "busan", "limit": 40})
    assert ep.ok and ep.fixes == ["limit: 40 → 5 (clamped to the maximum 5)"]
    assert len(ep.calls[1].value["rows"]) == 3


def test_unknown_tool_goes_to_the_closest_name(pg):
    ep = run_manual_episode(pg, "stock_lokup", {"sku": "KB-101", "region": "busan", "limit": 1})
    assert ep.ok and ep.calls[0].kind == "unknown_tool" and ep.calls[1].tool == "stock_lookup"
    assert ep.fixes == ["tool: 'stock_lokup' → 'stock_lookup' (closest registered name)"]


def test_empty_result_says_nothing_found_and_is_not_repaired(pg):
    ep = run_manual_episode(pg, "stock_lookup", {"sku": "MN-303", "region": "daejeon", "limit": 3})
    data = ep.to_json()
    # labelled as ask labels it (issue 11 item 14): a reply that nothing was found, not a giveup
    assert data["ok"] is False and data["gave_up"] is False and data["end"] == "nothing_found"
    assert data["attempts"] == 1 and data["fixes"] == []
    assert [s["node"] for s in data["steps"]][-1] == "reply"
    assert "repair" not in [s["node"] for s in data["steps"]]
    assert data["reply"].startswith("Nothing was found: stock_lookup matched nothing")
    assert "강남점" not in data["reply"] and "row" not in data["reply"]
    assert data["calls"][0]["kind"] == "empty"


def test_unrepairable_argument_gives_up_with_the_reason(pg):
    ep = run_manual_episode(pg, "stock_lookup", {"sku": "KB-101", "region": "seoul"})
    assert ep.gave_up and ep.attempts == 1 and ep.fixes == []
    assert "missing:limit" in ep.reply and "not repaired" not in ep.reply
    assert "no rule for args:missing:limit" in ep.reply


@pytest.fixture
def stubborn(tmp_path):
    """A tool that ignores its limit, so every repair still gives result:too_big."""
    (tmp_path / "stubborn.py").write_text(
        textwrap.dedent('''
        def many_rows(limit: int) -> dict:
            """Rows, ignoring the limit.

            Args:
                limit: rows wanted
            """
            return {"rows": [{"n": i} for i in range(8)]}

        __tools__ = [many_rows]
        __contracts__ = {"many_rows": {"returns": {"type": "object", "max_rows": 2}, "cacheable": False}}
    '''),
        encoding="utf-8",
    )
    return open_playground([tmp_path / "stubborn.py"], wire=False)


def test_three_identical_failures_stop_the_episode_with_the_accumulated_message(stubborn):
    ep = run_manual_episode(stubborn, "many_rows", {"limit": 8})
    data = ep.to_json()
    assert data["gave_up"] is True and data["ok"] is False and data["attempts"] == 3
    assert [c["error"] for c in data["calls"]] == ["result:too_big"] * 3
    assert data["fixes"] == [
        "limit: 8 → 2 (result too big; smaller limit)",
        "limit: 2 → 1 (result too big; smaller limit)",
    ]
    checks = [s["message"] for s in data["steps"] if s["node"] == "check"]
    assert "failure 2 in a row" in checks[1]
    assert checks[2].startswith(
        "many_rows failed 3 times in a row with the same error (result:too_big). "
        "Stop retrying the same way. Instead: 1."
    )
    assert data["steps"][-1]["node"] == "giveup" and "3 times in a row" in data["reply"]
    assert MAX_ATTEMPTS == 3


def test_slow_lookup_is_transient_and_not_repaired():
    pg = open_playground([FLAKY], wire=False)
    ep = run_manual_episode(pg, "slow_lookup", {"item_id": "A-100"})
    check = next(s for s in ep.to_json()["steps"] if s["node"] == "check")
    assert check["kind"] == "transient" and check["error"] == "transient:timeout"
    assert ep.calls[0].kind == "transient" and ep.attempts == 1 and ep.gave_up and ep.fixes == []
    assert "transient is never repaired" in ep.reply


# ---- question episodes -------------------------------------------------------------------------


def test_router_sending_the_same_bad_call_is_stopped_after_three(pg):
    bad = {"sku": "KB-101", "region": "seoul", "limit": "3"}  # type:limit, no repair rule
    router = ScriptedRouter([lambda: call_move("stock_lookup", bad)])
    ep = run_question_episode(pg, "KB-101 서울 재고?", router)
    assert ep.gave_up and ep.end == "gave_up" and ep.attempts == 3 and len(ep.moves) == 3
    assert [c.verdict for c in ep.calls] == ["type:limit"] * 3
    # the model was told the count on the second failure
    second_result = router.seen[2][-1].results[0]
    assert "failure 2 in a row" in second_result.message
    assert "stock_lookup failed 3 times in a row with the same error (args:type:limit)" in ep.reply
    assert "ask the user for a valid 'limit'" in ep.reply


def test_network_router_repairs_by_reading_the_error_and_the_limit_holds(pg):
    bad = {"sku": "KB-101", "region": "jeju", "limit": 2}
    router = ScriptedRouter([lambda: call_move("stock_lookup", bad)], repairs="model")
    ep = run_question_episode(pg, "제주 재고?", router)
    assert ep.repairs_by == "router" and ep.fixes == [] and ep.gave_up and ep.attempts == 3
    assert "use one of the allowed values for 'region': seoul, busan, daejeon" in ep.reply


def test_offline_style_router_gets_loop_repairs_then_answers(pg):
    router = ScriptedRouter(
        [
            call_move("stock_lookup", {"sku": "KB-101", "region": "jeju", "limit": 2}),
            Move(text="강남점에 12개 있습니다."),
        ]
    )
    ep = run_question_episode(pg, "제주 KB-101 재고?", router)
    assert ep.ok and ep.end == "answered" and ep.attempts == 2
    # the router's answer is about seoul, not the jeju asked for: the reply says so
    assert (
        ep.reply
        == "강남점에 12개 있습니다. (jeju는 허용되지 않는 region 값이라 seoul 기준으로 대신 안내해 드립니다)"
    )
    assert ep.fixes == ["region: 'jeju' → 'seoul' (FALLBACK_REGION)"]
    result = router.seen[1][-1].results[0]
    assert result.call_id == "c1" and result.kind == "ok" and result.value["region"] == "seoul"
    picks = [s for s in ep.to_json()["steps"] if s["node"] == "pick"]
    assert picks[0]["move"] == 0 and picks[0]["explanation"] == {"chosen": "stock_lookup"}
    assert ep.to_json()["moves"][1]["text"] == "강남점에 12개 있습니다."


def test_empty_result_in_a_question_episode_is_not_ok_and_not_repaired(pg):
    router = ScriptedRouter(
        [
            call_move("stock_lookup", {"sku": "MN-303", "region": "daejeon", "limit": 2}),
            Move(text=""),
        ]
    )
    ep = run_question_episode(pg, "MN-303 대전?", router)
    assert not ep.ok and ep.end == "nothing_found" and ep.fixes == [] and ep.attempts == 1
    assert ep.reply.startswith("Nothing was found")
    assert router.seen[1][-1].results[0].value["rows"] == []


def test_router_error_mid_episode_ends_with_a_clear_reply(pg):
    router = ScriptedRouter(
        [
            call_move("stock_lookup", {"sku": "KB-101", "region": "busan", "limit": 1}),
            RouterError("Gemini API error 503 UNAVAILABLE: overloaded"),
        ]
    )
    ep = run_question_episode(pg, "KB-101 부산?", router)
    assert ep.end == "router_error" and ep.gave_up and not ep.ok and ep.attempts == 1
    assert ep.reply == "The router could not answer: Gemini API error 503 UNAVAILABLE: overloaded"
    assert ep.to_json()["steps"][-1]["node"] == "giveup"


def test_a_router_that_never_answers_stops_at_max_steps(pg):
    router = ScriptedRouter(
        [lambda: call_move("stock_lookup", {"sku": "KB-101", "region": "busan", "limit": 1})]
    )
    ep = run_question_episode(pg, "?", router, max_steps=4)
    assert ep.end == "max_steps" and len(ep.moves) == 4 and ep.attempts == 4 and ep.gave_up
    assert [c.cache for c in ep.calls] == ["stored", "hit", "hit", "hit"]
    with pytest.raises(UsageError):
        run_question_episode(pg, "?", router, max_steps=0)


# ---- forks -------------------------------------------------------------------------------------


def test_fork_a_manual_episode_keeps_the_original(pg):
    ep = run_manual_episode(pg, "stock_lookup", {"sku": "KB-101", "region": "jeju", "limit": 2})
    before = ep.to_json()
    forked = fork_episode(pg, ep, 0, {"sku": "MS-202", "region": "busan", "limit": 1})
    assert ep.to_json() == before
    assert forked.forked_from == {
        "step": 0,
        "attempt": 1,
        "args": {"sku": "MS-202", "region": "busan", "limit": 1},
    }
    assert forked.ok and forked.attempts == 1 and forked.fixes == []
    assert forked.reply == "stock_lookup returned 1 row(s); first: store=서면점, count=9."
    # fork at the repair step: redo attempt 2 with other arguments, history kept
    again = fork_episode(pg, ep, 3, {"sku": "MN-303", "region": "daejeon", "limit": 1})
    assert (
        again.attempts == 2
        and again.calls[0].verdict == "allowed:region"
        and again.end == "nothing_found"
    )
    with pytest.raises(UsageError):
        fork_episode(pg, ep, 99, {})
    last = fork_episode(
        pg, ep, len(ep.steps) - 1, {"sku": "KB-101", "region": "daejeon", "limit": 1}
    )
    assert (
        last.forked_from["attempt"] == 2
        and last.attempts == 2
        and last.calls[1].args["region"] == "daejeon"
    )


def test_fork_refuses_a_step_without_a_call(pg):
    ep = run_question_episode(pg, "?", ScriptedRouter([Move(text="no tool needed")]))
    assert ep.ok and ep.attempts == 0 and ep.end == "no_call"
    with pytest.raises(UsageError, match="made no call"):
        fork_episode(pg, ep, 0, {})


def test_fork_a_question_episode_shows_the_router_the_edited_call(pg):
    router = ScriptedRouter(
        [
            call_move("stock_lookup", {"sku": "KB-101", "region": "seoul", "limit": "3"}),
            Move(text="done"),
        ],
        repairs="model",
    )
    ep = run_question_episode(pg, "재고?", router)
    assert ep.to_json()["calls"][0]["verdict"] == "type:limit"
    router2 = ScriptedRouter([Move(text="fixed")], repairs="model")
    forked = fork_episode(
        pg, ep, 1, {"sku": "KB-101", "region": "seoul", "limit": 3}, router=router2
    )
    assert forked.ok and forked.reply == "fixed" and forked.attempts == 1
    shown = router2.seen[0]
    assert shown[1].move.calls[0].args == {"sku": "KB-101", "region": "seoul", "limit": 3}
    assert shown[2].results[0].kind == "ok"
    assert ep.reply == "done" and len(ep.moves) == 2  # the original is untouched


def test_loop_and_batch_do_not_import_ui_libraries():
    code = (
        "import sys, playground.loop.episode, playground.loop.repair, playground.loop.failures, "
        "playground.loop.reply, playground.batch.report, playground.routing.factory; "
        "print([m for m in ('textual', 'typer', 'rich') if m in sys.modules])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert out.stdout.strip() == "[]"
