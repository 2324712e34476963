"""Compiled tool modules cached by the hash of their source (``playground.sources.code_cache``):
an unchanged module is read back, not compiled; any edit is compiled again (even one that keeps
the file's size and second, which Python's own ``__pycache__`` would load stale); a corrupt or
unwritable cache only means compiling."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import playground.sources.code_cache as code_cache
from playground.sources.loading import load_registry
from playground.sources.tool_modules import SourceOnlyLoader

TOOL = '''
def limit_of(plan: str) -> int:
    """The request limit of a plan.

    Args:
        plan: the plan's name
    """
    return {LIMIT}


__tools__ = [limit_of]
'''


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths compiled from source (the cache's misses)."""
    seen: list[str] = []
    original = SourceOnlyLoader._compile

    def noted(self, source: bytes, path: str):
        seen.append(path)
        return original(self, source, path)

    monkeypatch.setattr(SourceOnlyLoader, "_compile", noted)
    return seen


def _limit(folder: Path) -> object:
    registry = load_registry([folder], in_process=True)
    try:
        return registry.contracts["limit_of"].fn("pro")
    finally:
        registry.close()


def test_an_unchanged_module_is_read_back_and_an_edit_of_the_same_size_is_not(
    write_module, compiles, isolated_cache: Path
):
    path = write_module("plans", TOOL.replace("{LIMIT}", "100"))
    assert _limit(path.parent) == 100
    assert compiles == [str(path)]
    assert _limit(path.parent) == 100  # read back: not compiled again
    assert compiles == [str(path)]
    stat = path.stat()
    path.write_text(path.read_text().replace("100", "900"))  # same size, same second
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size
    assert _limit(path.parent) == 900
    assert compiles == [str(path), str(path)]
    # one file per module: the version edited away is removed
    assert len(list((isolated_cache / "code").glob("*.code"))) == 1


def test_a_corrupt_or_foreign_cache_file_is_compiled_over(
    write_module, compiles, isolated_cache: Path
):
    path = write_module("plans", TOOL.replace("{LIMIT}", "7"))
    assert _limit(path.parent) == 7
    (cached,) = (isolated_cache / "code").glob("*.code")
    cached.write_bytes(cached.read_bytes()[:40] + b"\x00garbage")
    assert _limit(path.parent) == 7
    (cached,) = (isolated_cache / "code").glob("*.code")
    # another interpreter's file (another magic number) is not read either
    cached.write_bytes(b"\x00\x00\x00\x00" + cached.read_bytes()[4:])
    assert _limit(path.parent) == 7
    assert compiles == [str(path)] * 3


def test_the_same_source_at_another_path_is_its_own_code(write_module, tmp_path: Path):
    """Tracebacks and f8 name the file the code came from."""
    first = write_module("plans", TOOL.replace("{LIMIT}", "1"))
    other = tmp_path / "elsewhere"
    other.mkdir()
    second = other / "plans.py"
    second.write_bytes(first.read_bytes())
    for path in (first, second):
        registry = load_registry([path.parent], in_process=True)
        try:
            assert registry.contracts["limit_of"].fn.__code__.co_filename == str(path)
        finally:
            registry.close()


def test_an_unwritable_cache_folder_only_means_compiling(
    write_module, compiles, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(blocker))
    path = write_module("plans", TOOL.replace("{LIMIT}", "3"))
    assert _limit(path.parent) == 3
    assert _limit(path.parent) == 3
    assert compiles == [str(path), str(path)]


def test_a_syntax_error_is_the_module_s_load_problem_and_nothing_is_stored(
    write_module, isolated_cache: Path
):
    path = write_module("broken", "def limit_of(:\n    pass\n")
    registry = load_registry([path.parent], in_process=True)
    try:
        assert not registry.contracts
        assert any("SyntaxError" in str(p) or "syntax" in str(p) for p in registry.problems)
    finally:
        registry.close()
    assert not list((isolated_cache / "code").glob("*.code"))


def test_the_header_names_the_interpreter_the_hash_and_the_path() -> None:
    header = code_cache._header(b"12345678", "/tmp/t.py")
    assert header.startswith(code_cache.importlib.util.MAGIC_NUMBER)
    assert b"12345678" in header and header.endswith(b"/tmp/t.py")
