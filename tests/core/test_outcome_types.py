"""Outcome kinds as an enum, reason codes parsed once, and the policy table driving retries."""

from __future__ import annotations

import json
from dataclasses import replace

from test_gate import BODIES

from playground.core import outcome as oc
from playground.core.outcome import OutcomeKind, Reason


def test_kinds_are_their_strings_in_json_and_comparisons():
    assert OutcomeKind.INVALID_ARGS == "invalid_args" and oc.OK is OutcomeKind.OK
    assert json.dumps({"kind": OutcomeKind.BAD_RESULT}) == '{"kind": "bad_result"}'
    assert f"{OutcomeKind.EMPTY}" == "empty"
    assert set(oc.POLICIES) == set(OutcomeKind)


def test_reason_codes_parse_once():
    assert Reason.parse("args:allowed:region") == Reason("args", "allowed", "region")
    assert Reason.parse("args:allowed:region").key == "args:allowed"
    assert Reason.parse("result:too_big") == Reason("result", "too_big", "")
    assert Reason.parse("args:pattern:a:b").arg == "a:b"
    assert Reason.parse("").key == "" and Reason.parse(None) == Reason("")
    assert Reason.parse("args:unknown_tool").key == "args:unknown_tool"


def test_the_policy_table_decides_which_kinds_the_gate_retries(make_gate, fake_sleep, monkeypatch):
    gate = make_gate(BODIES)
    assert gate.call("fail", {"mode": "permission"}).body_runs == 1  # permission: never retried
    retrying = replace(oc.POLICIES[OutcomeKind.PERMISSION], gate_retries=True)
    monkeypatch.setitem(oc.POLICIES, OutcomeKind.PERMISSION, retrying)
    record = gate.call("fail", {"mode": "permission"})
    assert record.kind == "permission" and len(record.retries) == 2
    assert gate.body_runs["fail"] == 4  # 1 before + 3 attempts now
