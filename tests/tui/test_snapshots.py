"""Issue 13 item 8: snapshot tests (pytest-textual-snapshot) of the Call view's main state at
80×24 and 160×48: the shop tools loaded, tool bodies in-process (not about isolation), history
off, state in a temp ``XDG_STATE_HOME`` (conftest). Refresh with ``--snapshot-update`` after a
deliberate layout change and review the SVGs under ``tests/tui/__snapshots__``."""

from __future__ import annotations

import pytest
from conftest import TOOLS, settle

from playground.tui.app import PlaygroundApp


def make_app() -> PlaygroundApp:
    return PlaygroundApp(tools=[str(TOOLS / "shop.py")], in_process=True, no_history=True)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_call_view_with_the_shop_loaded(snap_compare, size):
    async def loaded(pilot):
        await settle(pilot.app, pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=loaded)
