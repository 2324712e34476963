"""The repair table (seed 003 REPAIRS / can_repair) and the failure counter (seed 004)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from playground.core.record import CallRecord
from playground.loop.failures import FAILURE_LIMIT, FailureTracker, failure_message
from playground.loop.repair import REPAIRS, can_repair, reason_key, repair
from playground.sources.loading import load_registry

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def registry():
    return load_registry([REPO / "tools" / "inventory.py"])


@pytest.fixture
def plain_registry(tmp_path):
    """A table module with an enum but no FALLBACK_* constant, and a limit with exclusive bounds."""
    (tmp_path / "plain.py").write_text(
        textwrap.dedent("""
        def weather(city, days):
            return {"city": city, "days": days}

        TOOLS = {"weather": {"fn": weather, "args": {
            "city": {"type": "str", "required": True, "allowed": ["busan", "seoul"]},
            "days": {"type": "int", "required": True, "min": 1, "max": 7}}}}
    """),
        encoding="utf-8",
    )
    return load_registry([tmp_path / "plain.py"])


@pytest.mark.parametrize(
    "reason, expected",
    [
        ("args:allowed:region", True),
        ("args:range:limit", True),
        ("result:too_big", True),
        ("args:unknown_tool", True),
        ("result:empty", False),
        ("args:missing:limit", False),
        ("args:type:limit", False),
        ("transient:timeout", False),
        ("permission:PermissionError", False),
        ("raised:KeyError", False),
        ("", False),
    ],
)
def test_can_repair(reason, expected):
    assert can_repair(reason) is expected


def test_reason_key():
    assert reason_key("args:allowed:region") == "args:allowed"
    assert reason_key("result:too_big") == "result:too_big"
    assert set(REPAIRS) == {"args:allowed", "args:range", "result:too_big", "args:unknown_tool"}


def test_allowed_uses_the_module_fallback(registry):
    fix = repair(
        registry,
        "stock_lookup",
        {"sku": "KB-101", "region": "jeju", "limit": 2},
        "args:allowed:region",
    )
    assert fix.tool == "stock_lookup" and fix.args == {
        "sku": "KB-101",
        "region": "seoul",
        "limit": 2,
    }
    assert (
        fix.fixes == ["region: 'jeju' → 'seoul' (FALLBACK_REGION)"] and fix.rule == "args:allowed"
    )


def test_allowed_without_a_module_fallback_uses_the_first_allowed_value(plain_registry):
    fix = repair(plain_registry, "weather", {"city": "jeju", "days": 2}, "args:allowed:city")
    assert fix.args == {"city": "busan", "days": 2}
    assert fix.fixes == ["city: 'jeju' → 'busan' (first allowed value)"]


def test_allowed_already_at_the_fallback_has_no_fix(plain_registry):
    assert (
        repair(plain_registry, "weather", {"city": "busan", "days": 2}, "args:allowed:city") is None
    )


@pytest.mark.parametrize(
    "value, new, words", [(0, 1, "minimum 1"), (-4, 1, "minimum 1"), (30, 7, "maximum 7")]
)
def test_range_is_clamped(plain_registry, value, new, words):
    fix = repair(plain_registry, "weather", {"city": "seoul", "days": value}, "args:range:days")
    assert fix.args["days"] == new and fix.fixes == [
        f"days: {value} → {new} (clamped to the {words})"
    ]


def test_range_on_a_non_number_has_no_fix(plain_registry):
    assert (
        repair(plain_registry, "weather", {"city": "seoul", "days": "9"}, "args:range:days") is None
    )


def test_too_big_without_a_limit_moves_to_the_tool_with_one(registry):
    fix = repair(registry, "legacy_stock", {"sku": "KB-101", "region": "seoul"}, "result:too_big")
    assert fix.tool == "stock_lookup" and fix.args == {
        "sku": "KB-101",
        "region": "seoul",
        "limit": 5,
    }


def test_too_big_with_no_candidate_has_no_fix(plain_registry):
    assert repair(plain_registry, "weather", {"city": "seoul", "days": 3}, "result:too_big") is None


def test_unknown_tool_closest_name_or_none(registry):
    assert repair(registry, "legacy_stok", {}, "args:unknown_tool").tool == "legacy_stock"
    assert repair(registry, "send_email", {}, "args:unknown_tool") is None


def test_unrepairable_reasons_give_no_fix(registry):
    args = {"sku": "MN-303", "region": "daejeon", "limit": 2}
    for reason in ("result:empty", "args:missing:limit", "transient:timeout", "raised:KeyError"):
        assert repair(registry, "stock_lookup", args, reason) is None


def _failed(tool="stock_lookup", error="args:type:limit", kind="invalid_args"):
    return CallRecord(
        tool=tool, args={}, kind=kind, error=error, message="limit must be an integer."
    )


def test_tracker_counts_identical_consecutive_failures_only():
    t = FailureTracker()
    assert t.observe(_failed()) == 1
    assert t.observe(_failed()) == 2
    assert t.observe(_failed(error="args:range:limit")) == 1  # another reason starts over
    assert (
        t.observe(CallRecord(tool="stock_lookup", args={}, kind="empty", ok=True)) == 0
    )  # not a failure
    for _ in range(FAILURE_LIMIT):
        t.observe(_failed())
    assert t.reached and t.count == 3


def test_failure_message_accumulates(registry):
    rec = _failed(error="args:allowed:region")
    assert failure_message(rec, 1, 3, registry) == "limit must be an integer."
    assert "failure 2 in a row" in failure_message(rec, 2, 3, registry)
    text = failure_message(rec, 3, 3, registry)
    assert text.startswith(
        "stock_lookup failed 3 times in a row with the same error (args:allowed:region). "
        "Stop retrying the same way. Instead: 1. use one of the allowed values for 'region'"
    )
    assert "2. ask the user for a valid 'region'" in text and text.endswith(
        "Last error: limit must be an integer."
    )


def test_too_big_with_the_limit_left_out_shrinks_from_its_default_and_stops_after_three():
    """tools/flaky.py padded_search ignores its limit: every smaller limit fails the same way, so
    the third identical failure stops the episode with the accumulated message (seed 004)."""
    from playground.loop.episode import run_manual_episode
    from playground.workbench import open_playground

    flaky = Path(__file__).resolve().parents[2] / "tools" / "flaky.py"
    pg = open_playground([flaky], wire=False)
    ep = run_manual_episode(pg, "padded_search", {"keyword": "키보드"})
    assert ep.attempts == 3 and ep.gave_up and not ep.ok
    assert ep.fixes == [
        "limit: 10 → 5 (result too big; smaller limit)",
        "limit: 5 → 2 (result too big; smaller limit)",
    ]
    assert "failed 3 times in a row with the same error (result:too_big)" in ep.reply
    assert [r.error for r in ep.calls] == ["result:too_big"] * 3
