"""SourceLocation: ``Contract.source`` ("path:line") parsed once."""

from __future__ import annotations

from pathlib import Path

from playground.core.contracts import SourceLocation


def test_parse_and_text():
    where = SourceLocation.parse("/x/tools/shop.py:175")
    assert (where.path, where.line, where.file_name, str(where)) == (
        "/x/tools/shop.py",
        175,
        "shop.py",
        "/x/tools/shop.py:175",
    )
    assert SourceLocation.parse("<function f at 0x1>") == SourceLocation("<function f at 0x1>")
    assert SourceLocation.parse("C:notes") == SourceLocation("C:notes", None)
    assert str(SourceLocation.parse("")) == ""


def test_relative_only_inside_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    inside = SourceLocation(str(tmp_path / "tools" / "a.py"), 3).relative()
    assert str(inside) == str(Path("tools") / "a.py") + ":3"
    outside = SourceLocation("/elsewhere/b.py", 9)
    assert outside.relative() == outside
