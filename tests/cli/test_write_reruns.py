"""``history rerun`` and ``replay`` never run a tool that may write again unless the user says so
(``--allow-writes``; a terminal may ask): real ``playground`` subprocesses on a clinic module whose
``book_appointment`` appends to a JSON file (the tester's /tmp/try26-files/clinic, issue 26
item 1)."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from playground.batch.replay import rerun
from playground.workbench import open_playground
from tests.playground_cli import run_playground

CLINIC = Path(__file__).parent / "clinic"
QUESTION = "김하늘 환자 피부과 2026-12-09 14:00 예약 잡아 주세요"
ARGS = {"patient_name": "김하늘", "department": "피부과", "day": "2026-12-09", "time": "14:00"}
WHY = "book_appointment (writes: inferred, the name's verb 'book')"


def playground(tmp_path: Path, *args: object) -> subprocess.CompletedProcess[str]:
    """``playground ARGS`` with stdin from /dev/null (not a terminal: nobody to ask)."""
    env = {"CLINIC_DB": str(tmp_path / "db.json"), "PLAYGROUND_IN_PROCESS": "1"}
    return run_playground(*args, env=env)


def bookings(tmp_path: Path) -> int:
    return len(json.loads((tmp_path / "db.json").read_text(encoding="utf-8")))


def test_a_rerun_of_a_write_runs_only_with_allow_writes_and_says_so(tmp_path):
    db = tmp_path / "h.db"
    args = [f"{k}={v}" for k, v in ARGS.items()]
    made = playground(
        tmp_path, "call", "book_appointment", *args, "--tools", CLINIC, "--history", db
    )
    assert made.returncode == 0, made.stderr
    assert bookings(tmp_path) == 1
    refused = playground(tmp_path, "history", "rerun", "1", "--history", db)
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        f"error: #1 was not rerun: it calls {WHY}; pass --allow-writes to run it again"
    )
    assert bookings(tmp_path) == 1  # nothing ran, nothing recorded
    listed = playground(tmp_path, "history", "--history", db, "--format", "json")
    assert [e["id"] for e in json.loads(listed.stdout)] == [1]
    allowed = playground(tmp_path, "history", "rerun", "1", "--history", db, "--allow-writes")
    assert allowed.returncode == 0, allowed.stderr
    assert "note: ran again, and may have written again: book_appointment" in allowed.stderr
    assert "#1 → #2: 1 field(s) changed" in allowed.stdout
    assert bookings(tmp_path) == 2


def test_a_golden_question_that_booked_is_skipped_in_replay_unless_allowed(tmp_path):
    golden = tmp_path / "g.json"
    asked = playground(
        tmp_path, "ask", QUESTION, "--tools", CLINIC, "--save", golden, "--no-history"
    )
    assert asked.returncode == 0, asked.stderr
    assert bookings(tmp_path) == 1
    skipped = playground(tmp_path, "replay", golden, "--tools", CLINIC, "--format", "json")
    assert skipped.returncode == 0, skipped.stderr
    [result] = json.loads(skipped.stdout)
    assert result["skipped"] == f"not replayed: it calls {WHY}; pass --allow-writes to replay it"
    assert result["passed"] is True and result["drift"] == []
    assert f"note: {golden}: not replayed: it calls {WHY}" in skipped.stderr
    junit = playground(tmp_path, "replay", golden, "--tools", CLINIC, "--format", "junit")
    suite = ET.fromstring(junit.stdout)
    assert suite.get("skipped") == "1" and suite.get("failures") == "0"
    assert suite.find("./testsuite/testcase/skipped") is not None
    table = playground(tmp_path, "replay", golden, "--tools", CLINIC)
    assert "0 replayed, 0 drifted, 1 skipped" in table.stdout
    assert bookings(tmp_path) == 1  # three replays, no new booking
    ran = playground(tmp_path, "replay", golden, "--tools", CLINIC, "--allow-writes")
    assert ran.returncode == 1  # it booked again: booked 1 → 2 is drift
    assert f"note: {golden}: ran again, and may have written again: book_appointment" in ran.stderr
    assert "calls[0].value.booked: 1 → 2" in ran.stdout
    assert bookings(tmp_path) == 2


def test_a_write_the_router_picks_only_on_the_rerun_is_held(tmp_path, monkeypatch):
    """A stored run that called no write: the gate holds any write it calls this time."""
    monkeypatch.setenv("CLINIC_DB", str(tmp_path / "db.json"))
    pg = open_playground([CLINIC], in_process=True)
    try:
        stored = {"tool": "book_appointment", "args": ARGS}
        again = rerun(pg, "call", stored, {}, hold_writes=True)
    finally:
        pg.close()
    new = again.new
    assert (new["kind"], new["error"], new["body_ran"]) == ("permission", "held:write", False)
    assert new["side_effects"]["effects"] == "write"
    assert not (tmp_path / "db.json").exists()
