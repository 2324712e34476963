"""``playground show TOOL``'s cache rows say what each means (issue 25, item 5): ``cacheable``
is the contract's permission, ``cache`` whether the playground serves its calls from the cache
and why not — never "cacheable yes … cached no" read as a contradiction."""

from __future__ import annotations

from pathlib import Path

from tests.in_process_cli import run_in_process

TOOLS = '''
def ship_order(order_id: str) -> dict:
    """Ship an order.

    Args:
        order_id: the order id, e.g. "HR20260604".
    """
    return {}


__tools__ = [ship_order]
__contracts__ = {"ship_order": {"side_effects": True}}
'''


def _rows(*args: str) -> dict[str, str]:
    done = run_in_process("show", *args, env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    rows = {}
    for line in done.stdout.splitlines():
        cells = line.strip("│ ").split(None, 1)
        if len(cells) == 2 and cells[0] in ("cacheable", "cache"):
            rows[cells[0]] = cells[1].strip()
    return rows


def test_a_cached_read_says_the_cache_is_used_and_that_show_cached_nothing() -> None:
    assert _rows("get_order_status") == {
        "cacheable": "yes (the contract allows its results to be cached)",
        "cache": "used (within one session a success is kept, and a repeat of its arguments is "
        "answered from the cache without running the body; show ran no call)",
    }


def test_a_write_allowed_to_cache_says_why_the_cache_is_not_used(tmp_path: Path) -> None:
    (tmp_path / "ship.py").write_text(TOOLS, encoding="utf-8")
    rows = _rows("ship_order", "--tools", str(tmp_path / "ship.py"))
    assert rows["cacheable"] == "yes (the contract allows its results to be cached)"
    assert rows["cache"] == (
        "not used (every call runs the body: it writes (declared: side_effects: True); a write "
        "is never served from the cache)"
    )


def test_a_contract_that_forbids_caching_says_so_in_both_rows() -> None:
    assert _rows("slow_lookup") == {
        "cacheable": "no (the contract sets cacheable: false)",
        "cache": "not used (every call runs the body: declared cacheable: False)",
    }
