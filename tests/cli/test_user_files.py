"""The user's files are the user's (issue 28 item 4): ``--save`` never overwrites without
``--force`` and never replaces a device or FIFO; every file is written to a temporary file in
the same folder and renamed into place, so a full disk (here: a file size limit, ``EFBIG``)
leaves the old file whole and no temporary file behind."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from playground.batch.outfiles import write_text_atomic
from playground.batch.savecase import append_line
from playground.errors import UsageError

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tools" / "shop.py"


def cli(*args: str, cwd: Path, limit_bytes: int | None = None) -> subprocess.CompletedProcess:
    """``playground ARGS`` in a real process; ``limit_bytes`` caps the size of any file it
    writes (``RLIMIT_FSIZE``: a write past it fails with ``EFBIG``, as on a full disk)."""

    def limit() -> None:
        if limit_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    env = {**os.environ, "PYTHONPATH": str(REPO), "PLAYGROUND_CACHE_DIR": str(cwd / "cache")}
    return subprocess.run(
        [sys.executable, "-m", "playground", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limit,
    )


def call_saving(target: Path, *extra: str, cwd: Path, **kw) -> subprocess.CompletedProcess:
    return cli(
        "call", "get_order_status", "order_id=HR20260604", "--tools", str(SHOP),
        "--no-history", "--format", "json", "--save", str(target), *extra, cwd=cwd, **kw,
    )  # fmt: skip


def test_save_onto_an_existing_file_is_refused_without_force_and_nothing_runs(tmp_path):
    target = tmp_path / "golden.json"
    target.write_text("my own notes\n", encoding="utf-8")
    refused = call_saving(target, cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr == f"error: {target} exists; use --force to overwrite it\n"
    assert refused.stdout == ""  # the call did not run
    assert target.read_text(encoding="utf-8") == "my own notes\n"
    forced = call_saving(target, "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    saved = json.loads(target.read_text(encoding="utf-8"))
    assert saved["golden"] == 1 and saved["tool"] == "get_order_status"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "cache") == ["golden.json"]


def test_ask_save_onto_an_existing_file_is_refused_too(tmp_path):
    target = tmp_path / "g.json"
    target.write_text("{}", encoding="utf-8")
    proc = cli(
        "ask", "주문번호 HR20260604 어디쯤이에요?", "--tools", str(SHOP), "--no-history",
        "--save", str(target), cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 2 and "exists; use --force" in proc.stderr
    assert target.read_text(encoding="utf-8") == "{}"


def test_a_fifo_is_never_replaced_even_with_force(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = call_saving(fifo, "--force", cwd=tmp_path)
    assert proc.returncode == 2
    assert (
        proc.stderr
        == f"error: {fifo} is not a regular file (a device, FIFO or socket); not writing it\n"
    )
    assert fifo.is_fifo()


def test_a_full_disk_during_a_save_leaves_the_old_file_whole(tmp_path):
    target = tmp_path / "golden.json"
    old = '{"golden": 1, "old": true}\n'
    target.write_text(old, encoding="utf-8")
    proc = call_saving(target, "--force", cwd=tmp_path, limit_bytes=1500)  # the record is larger
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"error: cannot write {target}: File too large")
    assert proc.stderr.count("\n") == 1
    assert target.read_text(encoding="utf-8") == old
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp file


def test_a_full_disk_during_a_case_append_leaves_no_half_line(tmp_path):
    cases = tmp_path / "cases.jsonl"
    old = "".join(json.dumps({"tool": "t", "args": {"n": i}}) + "\n" for i in range(20))
    cases.write_text(old, encoding="utf-8")
    code = (
        "import sys; from playground.batch.savecase import append_line\n"
        "from playground.errors import UsageError\n"
        "try:\n"
        f"    append_line({str(cases)!r}, {{'tool': 't', 'args': {{'q': 'x' * 4000}}}})\n"
        "except UsageError as exc:\n"
        "    print(exc); sys.exit(2)\n"
    )

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(old) + 100, len(old) + 100))

    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)}, preexec_fn=limit,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout.startswith(f"cannot append to {cases}: File too large")
    assert cases.read_text(encoding="utf-8") == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.jsonl"]


def test_append_line_keeps_the_other_lines_and_adds_a_missing_line_break(tmp_path):
    cases = tmp_path / "c.jsonl"
    cases.write_text('{"a": 1}', encoding="utf-8")  # no final line break
    cases.chmod(0o640)
    assert append_line(cases, {"질문": "배송"}) == 2
    assert cases.read_text(encoding="utf-8") == '{"a": 1}\n{"질문": "배송"}\n'
    assert cases.stat().st_mode & 0o777 == 0o640  # the replaced file keeps its mode
    assert append_line(tmp_path / "new.jsonl", {"b": 2}) == 1


def test_write_text_atomic_refuses_what_it_must_not_replace(tmp_path):
    existing = tmp_path / "a.txt"
    existing.write_text("mine", encoding="utf-8")
    with pytest.raises(UsageError, match="exists; use --force to overwrite it"):
        write_text_atomic(existing, "new")
    with pytest.raises(UsageError, match="is a folder"):
        write_text_atomic(tmp_path, "new", force=True)
    if Path("/dev/null").exists():
        with pytest.raises(UsageError, match="not a regular file"):
            write_text_atomic("/dev/null", "new", force=True)
    assert existing.read_text(encoding="utf-8") == "mine"
    write_text_atomic(existing, "new", force=True)
    assert existing.read_text(encoding="utf-8") == "new"


def test_the_tuis_save_asks_twice_and_never_replaces_a_fifo(tmp_path):
    from playground.tui.export_screen import save_text

    target = tmp_path / "rec.json"
    target.write_text("old", encoding="utf-8")
    assert save_text(str(target), "{}") == (
        False,
        f"{target} exists: press enter again to overwrite it",
    )
    assert target.read_text(encoding="utf-8") == "old"
    assert save_text(str(target), "{}", overwrite=True)[0]
    assert target.read_text(encoding="utf-8") == "{}\n"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    ok, message = save_text(str(fifo), "{}", overwrite=True)
    assert not ok and "not a regular file" in message and fifo.is_fifo()
