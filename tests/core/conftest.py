"""Shared fixtures for the core tests: small tool modules written into tmp_path, a gate over
them with a fake sleep (never real sleeps), and an isolated declaration cache folder."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from playground.core.gate import Gate, RetryPolicy
from playground.core.registry import Registry
from playground.sources.loading import load_registry


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own declaration cache folder (never ~/.cache)."""
    folder = tmp_path / "decl-cache"
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def write_module(tmp_path: Path) -> Callable[[str, str], Path]:
    """``write_module(name, source)`` writes ``tmp_path/tools/<name>.py`` (dedented) and returns it."""
    folder = tmp_path / "tools"
    folder.mkdir(exist_ok=True)

    def write(name: str, source: str) -> Path:
        path = folder / f"{name}.py"
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return path

    return write


class FakeSleep:
    """Records the delays the gate asked for instead of sleeping."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def fake_sleep() -> FakeSleep:
    return FakeSleep()


@pytest.fixture
def make_gate(write_module, fake_sleep) -> Callable[..., Gate]:
    """``make_gate(source, name="mod", wire=False, **gate_kwargs)``: write one tool module, load it,
    assert it loaded without problems, and return a gate with the fake sleep and no jitter."""

    def make(source: str, name: str = "mod", wire: bool = False, **kwargs) -> Gate:
        path = write_module(name, source)
        registry: Registry = load_registry([path])
        assert registry.problems == []
        kwargs.setdefault(
            "retry", RetryPolicy(max_attempts=3, initial_s=0.2, max_s=2.0, jitter_s=0.0)
        )
        return Gate(registry, sleep=fake_sleep, wire=wire, **kwargs)

    return make


# A seed-003 style contract table used by several test files.
INVENTORY_TABLE = """
ROWS = {
    ("KB-101", "seoul"): [{"store": f"store{i}", "count": i} for i in range(7)],
    ("MN-303", "daejeon"): [],
    ("HD-404", "busan"): [{"store": "해운대점", "count": -1}],
}
CALLS = []

def stock_lookup(sku, region, limit):
    CALLS.append(limit)
    return {"sku": sku, "region": region, "rows": ROWS.get((sku, region), [])[:limit]}

def legacy_stock(sku, region):
    return {"sku": sku, "region": region, "rows": ROWS.get((sku, region), [])}

_ARGS = {
    "sku": {"type": "str", "required": True, "pattern": "^[A-Z]{2}-[0-9]{3}$", "description": "SKU. 예: KB-101"},
    "region": {"type": "str", "required": True, "allowed": ["seoul", "busan", "daejeon"]},
}
_RETURNS = {
    "keys": {"sku": "str", "region": "str", "rows": "list"},
    "rows": {"max_len": 5, "item": {"store": "str", "count": "int"}, "min": {"count": 0}},
}
TOOLS = {
    "stock_lookup": {
        "fn": stock_lookup,
        "description": "매장별 재고를 최대 limit곳까지 조회한다.",
        "args": {**_ARGS, "limit": {"type": "int", "required": True, "min": 1, "max": 5, "description": "매장 수. 예: 3"}},
        "returns": _RETURNS,
    },
    "legacy_stock": {"fn": legacy_stock, "args": _ARGS, "returns": _RETURNS},
}
"""


@pytest.fixture
def inventory_gate(make_gate) -> Gate:
    """A gate over the seed-003 table above (stock_lookup honours limit, legacy_stock does not)."""
    return make_gate(INVENTORY_TABLE, name="inventory")
