"""What loading tools remembers across commands so that a command starts fast (issue 9,
performance): facts about the installed packages per environment stamp
(``declcache.remembered``), defaults found valid against their own schema
(``contracts.check_signature`` + ``schemacache``), and that a warm load of ./tools in a fresh
interpreter imports neither jsonschema nor pydantic."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from playground.core import declcache, schemacache
from playground.core.contracts import check_signature
from playground.errors import LoadError

REPO = Path(__file__).resolve().parents[2]


def test_remembered_computes_once_per_environment_stamp(isolated_cache: Path):
    calls: list[int] = []

    def compute() -> str:
        calls.append(1)
        return "jsonschema=4.0\n하나"

    assert declcache.remembered("fact", compute) == "jsonschema=4.0\n하나"
    assert declcache.remembered("fact", compute) == "jsonschema=4.0\n하나"
    assert len(calls) == 1
    files = list((isolated_cache / "env").glob("fact-*"))
    assert [f.name for f in files] == [f"fact-{declcache.environment_stamp()}"]


def test_a_new_stamp_recomputes_and_keeps_the_newest_files(
    isolated_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    site = tmp_path / "site-packages"
    site.mkdir()
    monkeypatch.setattr(declcache, "_PACKAGE_PATH", (str(site), *declcache._PACKAGE_PATH))
    values = iter(["old", "new"])
    assert declcache.remembered("fact", lambda: next(values)) == "old"
    before = declcache.environment_stamp()
    (site / "newpkg-1.0.dist-info").mkdir()  # what installing a package does to the folder
    os.utime(site, ns=(1, 1))  # a modification time that certainly differs
    assert declcache.environment_stamp() != before
    assert declcache.remembered("fact", lambda: next(values)) == "new"
    assert len(list((isolated_cache / "env").glob("fact-*"))) == 2

    def written_at(second: int) -> None:  # the order of writes, whatever the clock's grain
        path = isolated_cache / "env" / f"fact-{declcache.environment_stamp()}"
        os.utime(path, ns=(second * 10**9, second * 10**9))

    os.utime(isolated_cache / "env" / f"fact-{before}", ns=(10**9, 10**9))
    written_at(2)
    for n in range(3, 3 + declcache.KEPT_STAMPS):  # more upgrades: the oldest files go
        os.utime(site, ns=(n, n))
        declcache.remembered("fact", lambda n=n: f"v{n}")
        written_at(n)
    files = list((isolated_cache / "env").glob("fact-*"))
    assert len(files) == declcache.KEPT_STAMPS
    assert f"fact-{before}" not in {f.name for f in files}


def test_two_environments_sharing_the_cache_keep_each_others_file(
    isolated_cache: Path, monkeypatch: pytest.MonkeyPatch
):
    """Two virtualenvs with one cache folder, started in turn: each computes its fact once."""
    calls: list[str] = []

    def run_in(stamp: str) -> str:
        monkeypatch.setattr(declcache, "environment_stamp", lambda: stamp)
        return declcache.remembered("fact", lambda: calls.append(stamp) or f"in {stamp}")

    for _ in range(3):
        assert run_in("venv-a") == "in venv-a"
        assert run_in("venv-b") == "in venv-b"
    assert calls == ["venv-a", "venv-b"]


def test_a_tool_folder_put_on_sys_path_later_keeps_the_stamp(
    isolated_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The worker puts the tool folders on ``sys.path``; the playground process does not. Both
    must read the same remembered file, not remove each other's on every start."""
    before = declcache.environment_stamp()
    tools = tmp_path / "tools"
    tools.mkdir()
    monkeypatch.syspath_prepend(str(tools))
    (tools / "new_tool.py").write_text("")  # what editing the tools does to the folder
    assert declcache.environment_stamp() == before
    values = iter(["first", "again"])
    assert declcache.remembered("fact", lambda: next(values)) == "first"
    assert declcache.remembered("fact", lambda: next(values)) == "first"


def test_an_unwritable_cache_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(blocker))
    assert declcache.remembered("fact", lambda: "value") == "value"


def _with_default(default: object):
    def tool(limit: int = default) -> dict:  # type: ignore[assignment]
        return {"limit": limit}

    return tool


PARAMS = {
    "type": "object",
    "properties": {"limit": {"type": "integer", "minimum": 1, "maximum": 5}},
    "required": [],
}


def test_a_valid_default_is_remembered_and_an_invalid_one_never(isolated_cache: Path):
    check_signature(_with_default(3), "tool", PARAMS)
    own = {**PARAMS["properties"]["limit"], "$defs": {}}
    key = schemacache.schema_key({"schema": own, "value": 3}, against="own schema")
    assert key is not None and schemacache.known_valid(key)
    # the same text as a metaschema key is another key (the two checks never mix)
    assert schemacache.schema_key({"schema": own, "value": 3}) != key
    for bad in (9, 9):  # refused every time, never remembered
        with pytest.raises(LoadError, match=r"its default 9 fails its own schema"):
            check_signature(_with_default(bad), "tool", PARAMS)
    bad_key = schemacache.schema_key({"schema": own, "value": 9}, against="own schema")
    assert bad_key is not None and not schemacache.known_valid(bad_key)


PROBE = r"""
import json, sys
from playground.sources.tool_modules import collect_contracts
found = collect_contracts(["tools"])
print(json.dumps({"contracts": len(found.contracts), "problems": len(found.problems),
                  "jsonschema": "jsonschema" in sys.modules, "pydantic": "pydantic" in sys.modules}))
"""


def test_a_warm_load_of_the_bundled_tools_imports_no_jsonschema_or_pydantic(
    isolated_cache: Path,
):
    env = {**os.environ, "PYTHONPATH": str(REPO), "PLAYGROUND_CACHE_DIR": str(isolated_cache)}

    def probe() -> dict:
        out = subprocess.run(
            [sys.executable, "-c", PROBE], cwd=REPO, env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr[-500:]
        return json.loads(out.stdout)

    cold = probe()  # fills the caches (declarations, schema checks, checked defaults)
    warm = probe()
    assert cold["contracts"] == warm["contracts"] > 0 and warm["problems"] == 0
    assert (warm["jsonschema"], warm["pydantic"]) == (False, False)
