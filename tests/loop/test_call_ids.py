"""Calls keep their identity (issue 20 item 7): two calls of one model turn with the same id, or
with none, run as two distinct calls, are both answered — in order, under the ids the model
used — and are flagged on their records and on the episode.

The Gemini router is the real one; its HTTP goes to an ``httpx2.MockTransport`` answering real
Gemini API JSON, and the assertions read the request bodies the SDK really sent."""

from __future__ import annotations

from pathlib import Path

from playground.loop.call_ids import distinct_calls
from playground.loop.episode import fork_episode, run_question_episode
from playground.routing.base import FunctionCall, Move, RouterCapabilities
from playground.workbench import open_playground
from tests.routing.test_gemini import call_part, response, router_with

REPO = Path(__file__).resolve().parents[2]
INVENTORY = REPO / "tools" / "inventory.py"

SEOUL = {"sku": "KB-101", "region": "seoul", "limit": 1}
BUSAN = {"sku": "KB-101", "region": "busan", "limit": 1}


def test_duplicate_ids_in_one_turn_are_two_calls_both_answered_in_order_and_flagged():
    router, fake = router_with(
        (
            200,
            response(call_part("stock_lookup", SEOUL, "x"), call_part("stock_lookup", BUSAN, "x")),
        ),
        (200, response({"text": "서울 강남점 12개, 부산 서면점 6개 있어요."})),
    )
    pg = open_playground([INVENTORY])
    ep = run_question_episode(pg, "KB-101 서울과 부산 재고", router)

    # two distinct calls, each with its own arguments and result
    first, second = ep.calls
    assert (first.call_id, second.call_id) == ("x", "x#2")
    assert (first.args, second.args) == (SEOUL, BUSAN)
    assert first.value["rows"] == [{"store": "강남점", "count": 12}]
    assert second.value["rows"] == [{"store": "서면점", "count": 6}]
    assert first.body_ran and second.body_ran

    # flagged on both records and once on the episode
    for record in (first, second):
        assert record.warnings == [
            "call id repeated: 'x' is the id of calls 1, 2 of one model turn; this call ran as "
            f"{record.call_id!r} and its result goes back under 'x', in the order of the calls"
        ]
    assert ep.warnings == [
        "move 1: repeated call ids 'x' ×2: each call ran under its own id and was answered in "
        "order under the id the model used"
    ]
    assert ep.to_json()["warnings"] == ep.warnings

    # the next request: the model turn unchanged (the first call keeps its own arguments) and
    # one answer per call, in order, under the id the model used
    contents = fake.bodies[1]["contents"]
    assert [p["functionCall"] for p in contents[1]["parts"]] == [
        {"id": "x", "name": "stock_lookup", "args": SEOUL},
        {"id": "x", "name": "stock_lookup", "args": BUSAN},
    ]
    answers = [p["functionResponse"] for p in contents[2]["parts"]]
    assert [(a["id"], a["response"]["result"]["region"]) for a in answers] == [
        ("x", "seoul"),
        ("x", "busan"),
    ]
    assert [a["response"]["result"]["rows"][0]["store"] for a in answers] == ["강남점", "서면점"]

    # what the episode and each record show on the wire is the same: the model's id
    (turn,) = ep.tool_turns
    assert turn["call_ids"] == ["x", "x"]
    assert [b["tool_use_id"] for b in turn["wire"]["anthropic"]["content"]] == ["x", "x"]
    assert [m["tool_call_id"] for m in turn["wire"]["openai"]] == ["x", "x"]
    assert first.wire["anthropic"]["tool_use_id"] == second.wire["anthropic"]["tool_use_id"] == "x"
    assert second.wire["gemini"]["function_response"]["id"] == "x"
    assert ep.end == "answered" and ep.ok


def test_calls_without_ids_get_their_own_ids_and_are_answered_without_one():
    router, fake = router_with(
        (200, response(call_part("stock_lookup", SEOUL), call_part("stock_lookup", BUSAN))),
        (200, response({"text": "있어요."})),
    )
    pg = open_playground([INVENTORY], wire=False)
    ep = run_question_episode(pg, "KB-101 서울과 부산 재고", router)
    assert [r.call_id for r in ep.calls] == ["call#1", "call#2"]
    assert [r.args for r in ep.calls] == [SEOUL, BUSAN]
    assert ep.calls[1].warnings == [
        "call id missing: the model gave call 2 of its turn no id; it ran as 'call#2' and its "
        "result goes back without an id, in the order of the calls"
    ]
    assert ep.warnings == [
        "move 1: no id on calls 1, 2: each call ran under its own id and was answered in order "
        "under the id the model used"
    ]
    answers = [p["functionResponse"] for p in fake.bodies[1]["contents"][2]["parts"]]
    assert ["id" in a for a in answers] == [False, False]
    assert [a["response"]["result"]["region"] for a in answers] == ["seoul", "busan"]
    assert ep.tool_turns[0]["call_ids"] == ["", ""]


class TwoSameIdsThenText:
    name = "scripted"
    capabilities = RouterCapabilities(repairs="model", parallel_calls=True)

    def __init__(self) -> None:
        self.seen: list = []

    def next_move(self, conversation, declarations):
        self.seen.append(list(conversation))
        if len(self.seen) == 1:
            return Move(
                calls=[
                    FunctionCall("stock_lookup", dict(SEOUL), "dup"),
                    FunctionCall("stock_lookup", dict(BUSAN), "dup"),
                ]
            )
        return Move(text="done")


def test_a_fork_of_the_second_of_two_same_id_calls_edits_that_call_only():
    pg = open_playground([INVENTORY], wire=False)
    router = TwoSameIdsThenText()
    ep = run_question_episode(pg, "KB-101 재고", router)
    second_validate = next(
        i for i, s in enumerate(ep.steps) if s.node == "validate" and s.args == BUSAN
    )
    edited = {**BUSAN, "region": "daejeon"}
    fork = fork_episode(pg, ep, second_validate, edited, router=router)
    assert [r.args for r in fork.calls] == [SEOUL, edited]
    assert [r.call_id for r in fork.calls] == ["dup", "dup#2"]
    model_turn = router.seen[-1][1].move
    assert [c.args for c in model_turn.calls] == [SEOUL, edited]
    assert [r.call_id for r in router.seen[-1][2].results] == ["dup", "dup"]
    assert fork.warnings == ep.warnings and len(ep.warnings) == 1
    assert len(ep.tool_turns) == 1 and len(fork.tool_turns) == 1  # the original is untouched


def test_distinct_calls_keeps_good_ids_and_avoids_every_taken_one():
    calls = [
        FunctionCall("a", {}, "c1"),
        FunctionCall("b", {}, "c2"),
        FunctionCall("c", {}, "c2"),
        FunctionCall("d", {}, ""),
        FunctionCall("e", {}, "old"),
    ]
    turn = distinct_calls(calls, taken=["old", "c2#3"])
    assert [c.id for c in turn.calls] == ["c1", "c2", "c2#3.2", "call#4", "old#5"]
    assert turn.model_ids == ["c1", "c2", "c2", "", "old"]
    assert [w.split(":")[0] for w in turn.warnings] == [
        "",
        "call id repeated",
        "call id repeated",
        "call id missing",
        "call id reused",
    ]
    assert calls[2].id == "c2"  # the input is not changed
    assert distinct_calls([FunctionCall("a", {}, "k")]).summary == ""
