"""``report --out DIR`` never overwrites without ``--force`` and never writes through a symlink
out of DIR (issue 11 item 14)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.batch.outfiles import write_files
from playground.cli.main import app
from playground.errors import UsageError

runner = CliRunner()
INVENTORY = Path(__file__).resolve().parents[2] / "tools" / "inventory.py"


def report(out: Path, *extra: str):
    return runner.invoke(
        app, ["report", "--out", str(out), "--tools", str(INVENTORY), "--format", "json", *extra]
    )


def test_report_refuses_to_overwrite_without_force(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "r"
    first = report(out)
    assert first.exit_code == 0, first.stderr
    (out / "tool_report.md").write_text("my notes", encoding="utf-8")
    again = report(out)
    assert again.exit_code == 2
    assert "exists; use --force" in again.stderr and len(again.stderr.strip().splitlines()) == 1
    assert (out / "tool_report.md").read_text(encoding="utf-8") == "my notes"
    forced = report(out, "--force")
    assert forced.exit_code == 0
    assert (out / "tool_report.md").read_text(encoding="utf-8").startswith("# Tool report")


def test_report_never_writes_through_a_link_out_of_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "r"
    out.mkdir()
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me", encoding="utf-8")
    (out / "tool_report.json").symlink_to(victim)
    for extra in ((), ("--force",)):
        result = report(out, *extra)
        assert result.exit_code == 2
        assert "symbolic link" in result.stderr
        assert victim.read_text(encoding="utf-8") == "keep me"
    assert not (out / "tool_report.md").exists()  # nothing half-written


def test_a_link_inside_the_folder_is_replaced_not_written_through(tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    inner = out / "old.json"
    inner.write_text("old", encoding="utf-8")
    (out / "a.json").symlink_to(inner)
    (path,) = write_files(out, {"a.json": "new"}, force=True)
    assert path.read_text(encoding="utf-8") == "new" and not path.is_symlink()
    assert inner.read_text(encoding="utf-8") == "old"


def test_names_must_be_plain(tmp_path):
    with pytest.raises(UsageError):
        write_files(tmp_path, {"../x": "no"})
