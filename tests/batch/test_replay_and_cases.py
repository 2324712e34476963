"""Drift, golden files, JUnit output and save-as-case lines (playground.batch.drift, replay,
savecase) against the real example tools."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from playground.batch.check import check_file
from playground.batch.drift import Drift, compare_calls, compare_episodes, declaration_causes
from playground.batch.replay import ReplayResult, read_golden, replay_file, save_golden, to_junit
from playground.batch.savecase import append_line, case_for_entry, check_line
from playground.errors import UsageError
from playground.workbench import open_playground

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tools" / "shop.py"


def test_call_drift_names_each_changed_leaf():
    saved = {
        "tool": "t",
        "args": {"a": 1},
        "verdict": "",
        "body_ran": True,
        "kind": "ok",
        "error": "",
        "value": {"rows": [{"n": 1}, {"n": 2}]},
        "duration_ms": 1.0,
    }
    now = {**saved, "value": {"rows": [{"n": 1}, {"n": 3}]}, "duration_ms": 9.0}
    assert compare_calls(saved, now) == [Drift("value.rows[1].n", 2, 3)]
    assert compare_calls(saved, {**saved, "body_ran": 1}) == [Drift("body_ran", True, 1)]
    gone = compare_calls(saved, {**saved, "value": None, "kind": "raised"})
    assert [d.path for d in gone] == ["kind", "value"]


def test_episode_drift_router_choice_first():
    saved = {
        "moves": [{"calls": [{"name": "track_shipping", "args": {"order_id": "HR1"}}]}],
        "calls": [{"tool": "track_shipping", "kind": "ok"}],
        "end": "answered",
        "reply": "a",
    }
    now = {
        "moves": [{"calls": [{"name": "track_shipping", "args": {"order_id": "HR2"}}]}],
        "calls": [{"tool": "track_shipping", "kind": "ok"}],
        "end": "answered",
        "reply": "a",
    }
    assert compare_episodes(saved, now) == [
        Drift("moves[0].args", {"order_id": "HR1"}, {"order_id": "HR2"})
    ]
    assert compare_episodes(saved, {**now, "moves": [{"calls": []}]})[0] == Drift(
        "moves[0].tool", "track_shipping", None
    )


def test_declaration_causes():
    saved = {"a": "1", "b": "2", "c": "3", "d": "4"}
    now = {"a": "1", "b": "X", "e": "5"}
    assert declaration_causes(saved, now, ["c", "e"]) == [
        "c is no longer registered",
        "e is new since this was saved",
        "b's declaration changed since this was saved",
        "1 other contract is no longer registered",
    ]


def test_golden_round_trip_update_and_junit(tmp_path):
    pg = open_playground([SHOP], wire=False)
    record = pg.gate.call("get_order_status", {"order_id": "HR20260604"}).to_json()
    golden = tmp_path / "call.json"
    doc = save_golden(golden, pg.registry, "call", record)
    assert doc["tool"] == "get_order_status" and list(doc["declaration_hashes"]) == [
        "get_order_status"
    ]
    assert read_golden(golden)["data"] == record
    # the second call in the same session is a cache hit; replay runs on a fresh cache
    clean = replay_file(pg, golden)
    assert clean.passed and clean.drifts == []
    tampered = json.loads(golden.read_text(encoding="utf-8"))
    tampered["data"]["value"]["status"] = "배송완료"
    tampered["declaration_hashes"]["get_order_status"] = "0" * 64
    golden.write_text(json.dumps(tampered, ensure_ascii=False), encoding="utf-8")
    drift = replay_file(pg, golden)
    assert [d.text() for d in drift.drifts] == ["value.status: '배송완료' → '배송중'"]
    assert drift.causes == ["get_order_status's declaration changed since this was saved"]
    xml = ET.fromstring(
        to_junit([drift, ReplayResult(file="x.json", error="x.json: no such file")])
    )
    assert (xml.get("tests"), xml.get("failures"), xml.get("errors")) == ("2", "1", "1")
    failure = xml.find("./testsuite/testcase/failure")
    assert failure.get("message") == "get_order_status's declaration changed since this was saved"
    assert "value.status" in failure.text
    updated = replay_file(pg, golden, update=True)
    assert updated.updated and updated.passed
    assert replay_file(pg, golden).drifts == []


def test_read_golden_errors(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(UsageError, match="not JSON"):
        read_golden(bad)
    bad.write_text('{"golden": 1, "type": "call", "data": {}}', encoding="utf-8")
    with pytest.raises(UsageError, match='needs "tool"'):
        read_golden(bad)


def test_append_never_rewrites_other_lines(tmp_path):
    cases = tmp_path / "c.jsonl"
    original = '# my cases\n{"tool": "a"}\r\n{"tool": "b"}'  # CRLF line and no final break
    cases.write_bytes(original.encode("utf-8"))
    assert append_line(cases, {"tool": "c", "note": "한글"}) == 4
    assert append_line(cases, {"tool": "d"}) == 5
    text = cases.read_bytes().decode("utf-8")
    assert text.startswith(original + "\n")
    assert text.splitlines()[3:] == ['{"tool": "c", "note": "한글"}', '{"tool": "d"}']


def test_case_lines_and_a_changed_declaration_note(tmp_path):
    record = {
        "tool": "get_order_status",
        "args": {"order_id": "HR20260604"},
        "verdict": "",
        "kind": "ok",
        "body_ran": False,
        "cache": "hit",
        "value": {"found": True},
    }
    line = check_line(record, "f" * 64)
    assert line["expect"]["cache"] == "stored"  # a hit is what a fresh cache stores first
    with pytest.raises(UsageError, match="manual episode"):
        case_for_entry("episode", {"question": None, "steps": []}, {})
    cases = tmp_path / "c.jsonl"
    append_line(cases, {**line, "expect": {"kind": "ok", "value": {"found": True}}})
    pg = open_playground([SHOP], wire=False)
    report = check_file(pg.gate, cases)
    assert report.ok
    assert report.results[0].notes == [
        "get_order_status's declaration changed since this line was written"
    ]
    append_line(cases, {"tool": "get_order_status", "declaration_hash": 5})
    assert "declaration_hash" in check_file(pg.gate, cases).results[1].mismatches[0]


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a":', "}")])
def test_a_3000_deep_golden_file_is_one_line_error_not_a_recursion_error(
    tmp_path, opening, closing
):
    deep = opening * 3000 + ("1" if opening != "[" else "") + closing * 3000
    path = tmp_path / "deep.json"
    path.write_text(
        '{"golden": 1, "type": "call", "tool": "get_order_status", "args": {}, "data": '
        + deep
        + "}",
        encoding="utf-8",
    )
    with pytest.raises(UsageError) as caught:
        read_golden(path)
    assert str(caught.value) == f"{path}: nested deeper than 160 levels; not a golden file"
    from playground.cli.main import run

    with pytest.raises(SystemExit) as done:
        run(["replay", str(path), "--tools", str(SHOP)])
    assert done.value.code == 2
