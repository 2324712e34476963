"""``playground history``, ``--save``, ``replay`` and saved cases: the must-shows of issue 14,
through typer's CliRunner and real subprocesses, on real SQLite files in tmp_path."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "tools"
SHOP = TOOLS / "shop.py"
QUESTION = "텀블러 주문한 거 어디쯤이에요? 주문번호 HR20260604"

runner = CliRunner()


@pytest.fixture(autouse=True)
def _fixtures(monkeypatch):
    """Copies of tools/shop.py live in tmp_path: they read the repository's fixtures."""
    monkeypatch.setenv("PLAYGROUND_FIXTURES", str(REPO / "fixtures"))


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def shop_copy(tmp_path: Path, old: str, new: str, *, start: str | None = None) -> Path:
    """A copy of tools/shop.py with ``old`` replaced by ``new`` (after ``start`` when given)."""
    text = SHOP.read_text(encoding="utf-8")
    at = text.index(start) if start else 0
    assert old in text[at:]
    text = text[:at] + text[at:].replace(old, new, 1)
    folder = tmp_path / "copy"
    folder.mkdir(exist_ok=True)
    target = folder / "shop.py"
    target.write_text(text, encoding="utf-8")
    return target


def test_a_call_is_listed_with_its_record_and_show_prints_the_same_record(tmp_path):
    db = tmp_path / "h.db"
    called = invoke(
        "call",
        "get_order_status",
        "order_id=HR20260604",
        "--tools",
        SHOP,
        "--history",
        db,
        "--format",
        "json",
    )
    assert called.exit_code == 0, called.stderr
    record = json.loads(called.stdout)
    listed = invoke("history", "--history", db, "--format", "json")
    assert listed.exit_code == 0, listed.stderr
    entries = json.loads(listed.stdout)
    assert len(entries) == 1
    entry = entries[0]
    assert entry["type"] == "call" and entry["tool"] == "get_order_status"
    assert entry["outcome"] == "ok" and entry["origin"] == "cli"
    assert entry["data"] == record
    assert entry["source"] == str(SHOP.resolve())
    assert len(entry["declaration_hashes"]["get_order_status"]) == 64
    shown = invoke("history", "show", str(entry["id"]), "--history", db, "--format", "json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)["data"] == record
    table = invoke("history", "show", str(entry["id"]), "--history", db)
    assert "get_order_status" in table.stdout and "stored" in table.stdout
    # the list filters
    assert (
        json.loads(
            invoke(
                "history", "--history", db, "--tool", "track_shipping", "--format", "json"
            ).stdout
        )
        == []
    )
    assert (
        len(
            json.loads(
                invoke(
                    "history",
                    "list",
                    "--history",
                    db,
                    "--kind",
                    "ok",
                    "--since",
                    "1h",
                    "--format",
                    "json",
                ).stdout
            )
        )
        == 1
    )
    lines = invoke("history", "--history", db, "--format", "jsonl").stdout.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["id"] == entry["id"]


def test_the_list_in_every_format_and_limit_0_for_every_entry(tmp_path):
    """The table is one aligned line per entry (what: the call or the question); --limit 0 is
    every entry; json is one array (an entry a line), jsonl one entry a line, newest first."""
    from playground.history.entries import call_entry, episode_entry
    from playground.history.store import HistoryStore

    db = tmp_path / "h.db"
    store = HistoryStore(db)
    for n in range(60):
        store.add(
            call_entry({"tool": "get_order_status", "args": {"order_id": f"HR{n}"}, "kind": "ok"})
        )
    store.add(
        episode_entry({"question": "텀블러 어디쯤이에요?", "router": "offline", "end": "answered"})
    )
    store.close()
    table = invoke("history", "--history", db)
    assert table.exit_code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["id", "time", "type", "outcome", "router", "what"]
    assert len(lines) == 2 + 50  # header, rule, the newest 50
    assert lines[2].split()[0] == "61" and lines[2].endswith("텀블러 어디쯤이에요?")
    assert lines[2].split()[3:5] == ["episode", "answered"]
    assert lines[3].split()[0] == "60" and lines[3].endswith(
        'get_order_status({"order_id": "HR59"})'
    )
    every = invoke("history", "--history", db, "--limit", "0")
    assert len(every.stdout.splitlines()) == 2 + 61
    as_json = invoke("history", "--history", db, "-n", "0", "--format", "json").stdout
    assert as_json.startswith("[\n{") and as_json.endswith("}\n]\n")
    assert [e["id"] for e in json.loads(as_json)] == list(range(61, 0, -1))
    assert len(as_json.splitlines()) == 61 + 2
    jsonl = invoke("history", "--history", db, "-n", "3", "--format", "jsonl").stdout.splitlines()
    assert [json.loads(line)["id"] for line in jsonl] == [61, 60, 59]
    assert json.loads(jsonl[1])["data"]["args"] == {"order_id": "HR59"}
    empty = tmp_path / "empty.db"
    assert invoke("history", "--history", empty, "--format", "json").stdout == "[]\n"
    assert invoke("history", "--history", empty, "--format", "jsonl").stdout == ""


def test_no_history_and_the_environment_variable(tmp_path, monkeypatch):
    db = tmp_path / "h.db"
    invoke(
        "call",
        "get_order_status",
        "order_id=HR1",
        "--tools",
        SHOP,
        "--history",
        db,
        "--no-history",
        "--format",
        "json",
    )
    assert not db.exists()
    monkeypatch.setenv("PLAYGROUND_HISTORY", str(db))
    invoke("call", "get_order_status", "order_id=HR1", "--tools", SHOP, "--format", "json")
    assert sqlite3.connect(db).execute("SELECT count(*) FROM entries").fetchone() == (1,)


def test_bad_ids_and_dates_are_one_line_usage_errors(tmp_path):
    db = tmp_path / "h.db"
    missing = invoke("history", "show", "7", "--history", db)
    assert missing.exit_code == 2 and "no history entry #7" in missing.stderr
    bad = invoke("history", "--since", "yesterday", "--history", db)
    assert bad.exit_code == 2 and "--since" in bad.stderr and len(bad.stderr.splitlines()) == 1
    clear = invoke("history", "clear", "--before", "soon", "--history", db)
    assert clear.exit_code == 2


def test_saved_case_passes_then_fails_naming_the_field_when_the_result_changes(tmp_path):
    db = tmp_path / "h.db"
    cases = tmp_path / "cases.jsonl"
    cases.write_text('{"tool": "get_order_status", "args": {"order_id": "HR1"}}', encoding="utf-8")
    invoke("call", "get_order_status", "order_id=HR20260604", "--tools", SHOP, "--history", db)
    saved = invoke("history", "save", "1", "--to", cases, "--history", db)
    assert saved.exit_code == 0, saved.stderr
    assert "line 2" in saved.stderr
    lines = cases.read_text(encoding="utf-8").splitlines()
    # appending never rewrites the other lines (the first had no final line break)
    assert lines[0] == '{"tool": "get_order_status", "args": {"order_id": "HR1"}}'
    case = json.loads(lines[1])
    assert case["expect"] == {
        "verdict": "valid",
        "kind": "ok",
        "body_ran": True,
        "cache": "stored",
        "value": case["expect"]["value"],
    }
    assert case["expect"]["value"]["status"] == "배송중"
    assert len(case["declaration_hash"]) == 64 and case["note"] == "history #1"
    passed = invoke("check", cases, "--tools", SHOP, "--format", "json")
    assert passed.exit_code == 0, passed.stdout
    changed = shop_copy(tmp_path, '"status": row["order_status"],', '"status": "배송완료",')
    failed = invoke("check", cases, "--tools", changed, "--format", "json")
    assert failed.exit_code == 1
    report = json.loads(failed.stdout)
    assert report["cases"][1]["mismatches"] == ["value.status: expected '배송중', got '배송완료'"]
    assert "notes" not in report["cases"][1]  # the declaration did not change
    # a body that now raises: the kind is named by its value, not its Python enum
    broken = shop_copy(tmp_path, '"status": row["order_status"],', '"status": 1 / 0,')
    raised = json.loads(invoke("check", cases, "--tools", broken, "--format", "json").stdout)
    assert raised["cases"][1]["mismatches"][0] == "kind: expected 'ok', got 'raised'"


def test_a_copy_saved_outside_the_repository_reads_its_data_when_run_from_it(tmp_path, monkeypatch):
    """The user's path of issue 14, without PLAYGROUND_FIXTURES: ``cp tools/shop.py /tmp/x.py``,
    edit the status text, run ``check`` from the repository. The copy finds ``./fixtures``
    (it once looked in ``/tmp/../fixtures`` and every line failed with ``kind raised``)."""
    monkeypatch.delenv("PLAYGROUND_FIXTURES")
    monkeypatch.chdir(REPO)
    db = tmp_path / "h.db"
    cases = tmp_path / "cases.jsonl"
    invoke("call", "get_order_status", "order_id=HR20260604", "--tools", SHOP, "--history", db)
    assert invoke("history", "save", "1", "--to", cases, "--history", db).exit_code == 0
    changed = shop_copy(tmp_path, '"status": row["order_status"],', '"status": "배송완료",')
    failed = invoke("check", cases, "--tools", changed, "--format", "json")
    assert failed.exit_code == 1
    case = json.loads(failed.stdout)["cases"][0]
    assert (case["kind"], case["mismatches"]) == (
        "ok",
        ["value.status: expected '배송중', got '배송완료'"],
    )
    # run from elsewhere, the copy cannot find the data: the table says why, not only the kind
    monkeypatch.chdir(tmp_path)
    table = invoke("check", cases, "--tools", changed)
    assert table.exit_code == 1
    words = " ".join(table.stdout.split())  # the table wraps its cells to the terminal width
    assert "kind: expected 'ok', got 'raised'" in words
    assert "raised FileNotFoundError: fixture file not found:" in words
    assert "(set PLAYGROUND_FIXTURES to a folder holding orders.csv)" in words


def test_a_check_line_says_when_its_contract_changed(tmp_path):
    db = tmp_path / "h.db"
    cases = tmp_path / "cases.jsonl"
    invoke("call", "get_order_status", "order_id=HR20260604", "--tools", SHOP, "--history", db)
    invoke("history", "save", "1", "--to", cases, "--history", db)
    edited = shop_copy(
        tmp_path, '"""', '"""주문 상태 조회(개정판). ', start="def get_order_status("
    )
    result = invoke("check", cases, "--tools", edited, "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["cases"][0]["notes"] == [
        "get_order_status's declaration changed since this line was written"
    ]
    assert "line 1: get_order_status's declaration changed" in result.stderr


def test_a_question_is_saved_as_an_eval_line_with_the_routers_choice(tmp_path):
    db = tmp_path / "h.db"
    cases = tmp_path / "routing.jsonl"
    asked = invoke("ask", QUESTION, "--tools", TOOLS, "--history", db, "--format", "json")
    assert asked.exit_code == 0, asked.stderr
    saved = invoke("history", "save", "1", "--to", cases, "--history", db)
    assert saved.stderr == f"saved #1 as an eval case: {cases} line 1\n"
    line = json.loads(cases.read_text(encoding="utf-8"))
    assert line == {
        "question": QUESTION,
        "expect_tool": "track_shipping",
        "expect_args": {"order_id": "HR20260604"},
        "note": "history #1",
    }
    evaluated = invoke("eval", cases, "--tools", TOOLS, "--format", "json")
    assert evaluated.exit_code == 0, evaluated.stdout


def test_golden_episode_replays_clean_then_names_the_changed_declaration(tmp_path):
    golden = tmp_path / "g.json"
    asked = invoke("ask", QUESTION, "--save", golden, "--tools", SHOP, "--format", "json")
    assert asked.exit_code == 0, asked.stderr
    doc = json.loads(golden.read_text(encoding="utf-8"))
    assert doc["golden"] == 1 and doc["type"] == "episode" and doc["question"] == QUESTION
    assert doc["data"] == json.loads(asked.stdout)
    assert set(doc["declaration_hashes"]) >= {"track_shipping", "get_order_status"}
    clean = invoke("replay", golden, "--tools", SHOP)
    assert clean.exit_code == 0, clean.stdout
    assert "1 replayed, 0 drifted" in clean.stdout
    # a copy whose track_shipping docstring no longer invites shipping questions, and whose
    # get_order_status no longer points shipping questions to it
    text = SHOP.read_text(encoding="utf-8").replace(
        "사용하지 않는다(track_shipping을 쓴다).", "사용하지 않는다."
    )
    at = text.index('"""', text.index("def track_shipping("))
    end = text.index('"""', at + 3) + 3
    edited = tmp_path / "copy" / "shop.py"
    edited.parent.mkdir()
    edited.write_text(
        text[:at]
        + '"""창고 내부 점검용 함수. 고객 문의에는 사용하지 않는다.\n\n    Args:\n'
        + '        order_id: 내부 점검 코드.\n    """'
        + text[end:],
        encoding="utf-8",
    )
    drift = invoke("replay", golden, "--tools", edited, "--format", "json")
    assert drift.exit_code == 1
    [result] = json.loads(drift.stdout)
    fields = {d["field"]: d for d in result["drift"]}
    # With neither declaration inviting the shipping question, the offline router calls nothing.
    assert fields["moves[0].tool"] == {
        "field": "moves[0].tool",
        "saved": "track_shipping",
        "now": None,
    }
    assert fields["calls"]["saved"] == 1 and fields["calls"]["now"] == 0
    assert result["causes"][0] == "track_shipping's declaration changed since this was saved"
    table = invoke("replay", golden, "--tools", edited)
    assert "likely cause: track_shipping's declaration changed since this was saved" in table.stdout
    junit = invoke("replay", golden, "--tools", edited, "--format", "junit")
    assert junit.exit_code == 1
    suite = ET.fromstring(junit.stdout)
    assert suite.get("failures") == "1"
    failure = suite.find("./testsuite/testcase/failure")
    assert failure is not None and failure.get("type") == "drift"
    assert "track_shipping's declaration changed" in failure.get("message")
    # --update accepts today's behaviour; then it replays clean against the copy
    updated = invoke("replay", golden, "--tools", edited, "--update")
    assert updated.exit_code == 0
    assert "1 replayed, 0 drifted, 1 updated" in updated.stdout
    assert invoke("replay", golden, "--tools", edited).exit_code == 0
    assert invoke("replay", golden, "--tools", SHOP).exit_code == 1


def test_call_repair_save_and_replay_of_a_manual_episode(tmp_path):
    golden = tmp_path / "manual.json"
    saved = invoke(
        "call",
        "get_order_status",
        "order_id=hr20260604",
        "--repair",
        "--save",
        golden,
        "--tools",
        SHOP,
        "--format",
        "json",
    )
    assert saved.exit_code == 0, saved.stderr
    doc = json.loads(golden.read_text(encoding="utf-8"))
    assert doc["type"] == "episode" and doc["question"] is None
    assert doc["tool"] == "get_order_status" and doc["args"] == {"order_id": "hr20260604"}
    assert list(doc["declaration_hashes"]) == ["get_order_status"]
    assert invoke("replay", golden, "--tools", SHOP).exit_code == 0


def test_replay_of_a_file_that_is_not_golden_is_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}', encoding="utf-8")
    result = invoke("replay", bad, tmp_path / "missing.json", "--tools", SHOP)
    assert result.exit_code == 2
    assert "not a golden episode" in result.stderr and "no such file" in result.stderr


def test_rerun_records_a_new_entry_and_compares(tmp_path):
    db = tmp_path / "h.db"
    invoke("call", "get_order_status", "order_id=HR20260604", "--tools", SHOP, "--history", db)
    same = invoke("history", "rerun", "1", "--history", db, "--format", "json")
    assert same.exit_code == 0, same.stderr
    data = json.loads(same.stdout)
    assert data["entry"] == 1 and data["new_entry"] == 2 and data["same"] is True
    assert data["new"]["tool"] == "get_order_status" and data["drift"] == []
    changed = shop_copy(tmp_path, '"status": row["order_status"],', '"status": "배송완료",')
    other = invoke("history", "rerun", "1", "--history", db, "--tools", changed)
    assert other.exit_code == 0
    assert "#1 → #3: 1 field(s) changed" in other.stdout
    assert "value.status: '배송중' → '배송완료'" in other.stdout
    entries = json.loads(invoke("history", "--history", db, "--format", "json").stdout)
    assert [(e["id"], e["rerun_of"], e["origin"]) for e in entries] == [
        (3, 1, "rerun"),
        (2, 1, "rerun"),
        (1, None, "cli"),
    ]
    asked = invoke("ask", QUESTION, "--tools", SHOP, "--history", db)
    assert asked.exit_code == 0
    again = invoke("history", "rerun", "4", "--history", db, "--format", "json")
    assert json.loads(again.stdout)["same"] is True


def test_clear(tmp_path):
    db = tmp_path / "h.db"
    for _ in range(2):
        invoke("call", "get_order_status", "order_id=HR1", "--tools", SHOP, "--history", db)
    assert invoke("history", "clear", "--before", "2000-01-01", "--history", db).stdout.startswith(
        "deleted 0 entries"
    )
    assert invoke("history", "clear", "--history", db).stdout.startswith("deleted 2 entries")
    assert json.loads(invoke("history", "--history", db, "--format", "json").stdout) == []


# --- real processes -------------------------------------------------------------------------


def run_cli(*args, cwd=None, env=None):
    return subprocess.Popen(
        [sys.executable, "-m", "playground", *map(str, args)],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


#: Starts ``N`` ``playground call`` processes that write one history file at the same moment:
#: the command line is imported once, then forked (a process with one thread), so each child
#: costs its call, not a Python start and the imports (about 0.35 s of CPU each, 7 s for 20);
#: every child waits on a pipe until all are forked, so the twenty calls really overlap. Each
#: child's output goes to ``OUT/<i>.json`` and its error output to ``OUT/<i>.err``; prints the
#: children's exit codes as JSON.
FORK_CALLS = r"""
import json, os, sys
import playground.cli.cmd_call, playground.workbench  # what a call imports, before the fork
from playground.cli.main import run
n, out, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
go_read, go_write = os.pipe()
children = []
for i in range(n):
    pid = os.fork()
    if pid == 0:
        os.close(go_write)
        os.read(go_read, 1)  # released when the parent closes its end: all start together
        for fd, suffix in ((1, "json"), (2, "err")):
            os.dup2(os.open(f"{out}/{i}.{suffix}", os.O_WRONLY | os.O_CREAT, 0o600), fd)
        sys.argv = ["playground", "call", "get_order_status", f"order_id=HR2026{i:04d}", *rest]
        run()  # ends this process with the command's exit code
    children.append(pid)
os.close(go_write)
print(json.dumps([os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children]))
"""


def test_twenty_concurrent_call_processes_lose_nothing(tmp_path):
    db, out = tmp_path / "h.db", tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "PYTHONPATH": str(REPO), "PLAYGROUND_HISTORY": str(db)}
    done = subprocess.run(
        [sys.executable, "-c", FORK_CALLS, "20", str(out)]
        + ["--tools", str(SHOP), "--format", "json", "--in-process"],  # the history is under test
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    errors = [(out / f"{i}.err").read_text() for i in range(20)]
    assert json.loads(done.stdout) == [0] * 20, [e for e in errors if e]
    printed = [json.loads((out / f"{i}.json").read_text()) for i in range(20)]
    assert [r["args"]["order_id"] for r in printed] == [f"HR2026{i:04d}" for i in range(20)]
    rows = sqlite3.connect(db).execute("SELECT data FROM bodies").fetchall()
    assert len(rows) == 20
    assert sorted(json.loads(r[0])["args"]["order_id"] for r in rows) == [
        f"HR2026{i:04d}" for i in range(20)
    ]


def test_default_file_is_in_the_working_directory_and_private(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PLAYGROUND_HISTORY"}
    env["PYTHONPATH"] = str(REPO)
    proc = run_cli(
        "call", "get_order_status", "order_id=HR1", "--tools", SHOP, cwd=tmp_path, env=env
    )
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    db = tmp_path / ".playground" / "history.db"
    assert db.exists() and (db.stat().st_mode & 0o777) == 0o600


def test_a_history_file_that_is_not_ours_is_refused_and_the_call_still_works(tmp_path):
    db = tmp_path / "h.db"
    db.write_text("garbage " * 100, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PLAYGROUND_HISTORY": str(db)}
    proc = run_cli(
        "call", "get_order_status", "order_id=HR1", "--tools", SHOP, "--format", "json", env=env
    )
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and json.loads(out)["tool"] == "get_order_status"
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "not a playground history (not a SQLite file)" in notes[0]
    assert db.read_text(encoding="utf-8") == "garbage " * 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.db"]


def test_history_listing_of_a_text_file_is_refused_and_the_file_unchanged(tmp_path):
    notes_txt = tmp_path / "notes.txt"
    notes_txt.write_text("장보기: 우유, 계란\n", encoding="utf-8")
    before = notes_txt.stat()
    for argv in (
        ("history", "--history", str(notes_txt)),
        ("history", "show", "1", "--history", str(notes_txt)),
        ("history", "clear", "--history", str(notes_txt)),
    ):
        proc = run_cli(*argv)
        _out, err = proc.communicate(timeout=60)
        assert proc.returncode == 2, (argv, err)
        assert err.count("\n") == 1 and err.startswith("error: ")
        assert "notes.txt is not a playground history (not a SQLite file)" in err
    assert notes_txt.read_text(encoding="utf-8") == "장보기: 우유, 계란\n"
    assert notes_txt.stat().st_mtime_ns == before.st_mtime_ns
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("where", ["unwritable-file", "read-only-folder"])
def test_history_that_cannot_be_written_never_fails_the_command(tmp_path, where):
    if where == "read-only-folder":
        if os.geteuid() == 0:
            pytest.skip("root writes into read-only folders")
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o500)
        target = folder / ".playground" / "history.db"
    else:
        target = Path("/proc/playground-history.db")  # not creatable, even by root
    env = {**os.environ, "PYTHONPATH": str(REPO), "PLAYGROUND_HISTORY": str(target)}
    try:
        proc = run_cli(
            "call", "get_order_status", "order_id=HR1", "--tools", SHOP, "--format", "json", env=env
        )
        out, err = proc.communicate(timeout=60)
    finally:
        if where == "read-only-folder":
            (tmp_path / "ro").chmod(0o700)
    assert proc.returncode == 0 and json.loads(out)["kind"] == "ok"
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and notes[0].startswith("note: history is off for this run")


# -- rerun of an entry that ran on MCP servers (real servers: fixtures/mcp_shop_server.py) --------


def _db_bytes(db: Path) -> bytes:
    """The history file and its WAL, as bytes (to look for a secret anywhere in them)."""
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def test_rerun_reconnects_the_stdio_mcp_server_it_ran_on(tmp_path, monkeypatch):
    from tests.mcp.servers import SHOP_SERVER, read_log
    from tests.zygote import forked_line

    db, log = tmp_path / "h.db", tmp_path / "calls.jsonl"
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-key-never-stored")
    line = forked_line(SHOP_SERVER, "--log", str(log))
    called = invoke(
        "call", "get_order_status", "order_id=HR20260604", "--mcp", line, "--history", db
    )
    assert called.exit_code == 0, called.stderr
    asked = invoke("ask", QUESTION, "--mcp", line, "--history", db, "--format", "json")
    assert asked.exit_code == 0, asked.stderr
    assert len(read_log(log)) == 2
    entry = json.loads(invoke("history", "show", "1", "--history", db, "--format", "json").stdout)
    assert entry["source"] == "MCP server haru-shop"
    assert entry["mcp"] == [{"name": "haru-shop", "mcp": line, "cwd": os.getcwd()}]
    monkeypatch.chdir(tmp_path)  # a rerun from elsewhere starts the server where it first ran
    again = invoke("history", "rerun", "1", "--history", db, "--format", "json")
    assert again.exit_code == 0, again.stderr
    result = json.loads(again.stdout)
    assert result["ran_on"] == {"old": ["mcp:haru-shop"], "new": ["mcp:haru-shop"]}
    assert result["same"] is True and result["new"]["source"] == "mcp:haru-shop"
    assert [c["tool"] for c in read_log(log)][2] == "get_order_status"
    header = invoke("history", "rerun", "1", "--history", db, "--mcp-header", "X-Key: v")
    assert header.exit_code == 2 and "this entry used none" in header.stderr
    table = invoke("history", "rerun", "2", "--history", db)
    assert "#2 → #4 on mcp:haru-shop: the same" in table.stdout
    assert len(read_log(log)) == 4
    new = json.loads(invoke("history", "show", "3", "--history", db, "--format", "json").stdout)
    assert new["rerun_of"] == 1 and new["mcp"] == entry["mcp"]
    assert new["source"] == "MCP server haru-shop"  # ./tools was not loaded
    assert b"gemini-key-never-stored" not in _db_bytes(db)


def test_rerun_reconnects_an_http_server_and_asks_for_its_headers_again(tmp_path):
    from tests.mcp.servers import http_shop_server, read_log

    log, db = tmp_path / "calls.jsonl", tmp_path / "h.db"
    with http_shop_server(log) as url:
        header = "Authorization: Bearer header-value-never-stored"
        called = invoke(
            "call", "track_shipping", "order_id=HR20260604", "--mcp-url", url,
            "--mcp-header", header, "--history", db,
        )  # fmt: skip
        assert called.exit_code == 0, called.stderr
        entry = json.loads(invoke("history", "show", "1", "--history", db, "-f", "json").stdout)
        assert entry["mcp"] == [
            {"name": "haru-shop", "mcp_url": url, "header_names": ["Authorization"]}
        ]
        shown = " ".join(invoke("history", "show", "1", "--history", db).stdout.split())
        # (words compared: the line wraps at the console's width)
        assert f"MCP server haru-shop: {url} (headers Authorization: values not stored)" in shown
        bare = invoke("history", "rerun", "1", "--history", db, "--format", "json")
        assert bare.exit_code == 0, bare.stderr
        assert "header(s) Authorization" in bare.stderr and "--mcp-header" in bare.stderr
        assert json.loads(bare.stdout)["ran_on"]["new"] == ["mcp:haru-shop"]
        given = invoke(
            "history", "rerun", "1", "--history", db, "--mcp-header", header, "-f", "json"
        )
        assert given.exit_code == 0 and json.loads(given.stdout)["same"] is True
        logged = read_log(log)
        assert [("authorization" in c["headers"]) for c in logged] == [True, False, True]
        assert b"header-value-never-stored" not in _db_bytes(db)


def test_rerun_reads_the_mcp_config_file_again_and_never_stores_its_env(tmp_path):
    from tests.mcp.servers import SHOP_SERVER, read_log
    from tests.zygote import forked_entry

    log, db, config = tmp_path / "calls.jsonl", tmp_path / "h.db", tmp_path / "mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "shop": {
                        **forked_entry(SHOP_SERVER, "--log", str(log)),
                        "env": {"SHOP_TOKEN": "env-value-never-stored"},
                    }
                }
            }
        ),
        encoding="utf-8",
    )
    called = invoke(
        "call", "check_stock", "product_id=P008", "--mcp-config", config,
        "--mcp-server", "shop", "--history", db,
    )  # fmt: skip
    assert called.exit_code == 0, called.stderr
    entry = json.loads(invoke("history", "show", "1", "--history", db, "-f", "json").stdout)
    assert entry["mcp"] == [{"name": "shop", "mcp_config": str(config.resolve()), "server": "shop"}]
    again = invoke("history", "rerun", "1", "--history", db, "--format", "json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["ran_on"]["new"] == ["mcp:shop"]
    assert len(read_log(log)) == 2
    assert b"env-value-never-stored" not in _db_bytes(db)
    config.write_text('{"mcpServers": {}}', encoding="utf-8")
    gone = invoke("history", "rerun", "1", "--history", db)
    assert gone.exit_code == 2 and "no MCP server 'shop'" in gone.stderr


def test_a_rerun_that_left_the_mcp_server_is_a_source_drift():
    from playground.batch.replay import source_drifts

    old = {"tool": "t", "source": "mcp:shop"}
    assert source_drifts("call", old, {"tool": "t", "source": "mcp:shop"}) == []
    moved = source_drifts("call", old, {"tool": "t", "source": "worker"})
    assert [d.to_json() for d in moved] == [
        {"field": "source", "saved": "mcp:shop", "now": "worker"}
    ]
    assert source_drifts("call", {"source": "worker"}, {"source": "in-process"}) == []


def test_on_a_terminal_the_list_is_cut_to_its_width_keeping_the_rerun_mark(tmp_path):
    """Hangul counts two cells; the text is cut with … and '(rerun of #N)' stays; colour codes
    come from Rich and take no width. The rows stream from the store, sized by its shape."""
    from rich.cells import cell_len
    from rich.console import Console

    from playground.cli.cmd_history import _table_blocks
    from playground.history.entries import call_entry, episode_entry
    from playground.history.queries import Query
    from playground.history.store import HistoryStore

    store = HistoryStore(tmp_path / "h.db")
    store.add(call_entry({"tool": "check_stock", "args": {}, "kind": "invalid_args"}))
    episode = {"question": "텀블러 " * 20, "router": "offline", "end": "answered"}
    store.add(episode_entry(episode, rerun_of=1))
    shape = store.summary_shape(Query(limit=None))
    assert shape == (2, {("episode", "answered", "offline"), ("call", "invalid_args", "")})
    plain = Console(width=90, force_terminal=True, no_color=True)
    lines = "\n".join(_table_blocks(store.summary_pages(Query(limit=None)), shape, plain)).split(
        "\n"
    )
    assert all(cell_len(line) <= 90 for line in lines)
    assert lines[2].endswith("…  (rerun of #1)") and "텀블러 텀블러" in lines[2]
    assert lines[3].split()[3:] == ["call", "invalid_args", "-", "check_stock({})"]
    color = Console(width=90, force_terminal=True, color_system="standard")
    coloured = "\n".join(_table_blocks(store.summary_pages(Query(limit=None)), shape, color))
    coloured = coloured.split("\n")
    assert "\x1b[" in coloured[3] and coloured[3].endswith("check_stock({})")
    assert coloured[3].index("check_stock") > lines[3].index("check_stock")  # codes, same cells
    assert store.summary_shape(Query(tool="nothing")) == (0, set())


def test_a_drift_shows_an_outcome_kind_as_its_value():
    """A rerun's fresh record holds OutcomeKind members; the drift text shows 'unknown_tool'."""
    from playground.batch.drift import compare
    from playground.core.outcome import OutcomeKind

    saved = {"tool": "t", "kind": "ok"}
    now = {"tool": "t", "kind": OutcomeKind.UNKNOWN_TOOL}
    assert [d.text() for d in compare("call", saved, now)] == ["kind: 'ok' → 'unknown_tool'"]


def test_a_body_that_changes_directory_in_process_keeps_the_history_where_it_was(tmp_path):
    """A tester's --in-process body did os.chdir("/"): the history went to
    /.playground/history.db. The default file is fixed before the body runs."""
    (tmp_path / "moving.py").write_text(
        "import os\n"
        "def move(to: str) -> str:\n"
        '    """Change the working directory.\n\n    Args:\n        to: a folder.\n    """\n'
        "    os.chdir(to)\n"
        "    return to\n"
        "move.side_effects = True\n"
        "__tools__ = [move]\n",
        encoding="utf-8",
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PLAYGROUND_HISTORY"}
    done = subprocess.run(
        [sys.executable, "-m", "playground", "call", "move", f"to={elsewhere}"]
        + ["--tools", "moving.py", "--in-process", "--format", "json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == str(elsewhere)
    assert not (elsewhere / ".playground").exists()
    conn = sqlite3.connect(tmp_path / ".playground" / "history.db")
    try:
        assert [r[0] for r in conn.execute("SELECT tool FROM entries")] == ["move"]
    finally:
        conn.close()
