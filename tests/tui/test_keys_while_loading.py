"""Keys typed while something the keys are for is still being built: in the contract list
while the tools load (the list has the focus from the first frame, before there is a form),
or right after moving in the list while the highlighted contract's form is being built. They
are kept and go to that form's first field once it is shown, in order, spaces included; those
no field can take are named in a toast. A question asked while the tools load runs then."""

from __future__ import annotations

from pathlib import Path

from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.widgets.arg_form import ArgForm
from playground.tui.widgets.contract_list import ContractList
from tests.tui.helpers import SIZE, settle


async def test_keys_typed_while_loading_reach_the_first_field(tools_dir, held_load):
    app = PlaygroundApp(tools=[str(tools_dir / "shop.py")], no_history=True, in_process=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.pg is None and isinstance(app.focused, ContractList)
        await pilot.press(*"HR2026 0604")  # a space after a character: part of the text
        assert app.pg is None  # still loading: nothing to put them in yet
        held_load.set()
        await settle(app, pilot)
        view = app.query_one(CallView)
        assert view.shown == "get_order_status"
        field = app.query_one(ArgForm).fields[0]
        assert field.value == "HR2026 0604" and app.focused is field


async def test_keys_no_field_takes_are_named(tmp_path: Path, held_load):
    app = PlaygroundApp(
        tools=[str(tmp_path)], no_history=True, in_process=True
    )  # no contracts at all
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.query_one(CallView)
        notes: list[str] = []
        view.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]
        await pilot.press(*"주문1")
        held_load.set()
        await settle(app, pilot)
        assert notes == [
            "Typed while the tools loaded, not used (no text field to take them): 주문1"
        ]


async def test_a_question_asked_while_loading_runs_once_the_tools_are_in(tools_dir, held_load):
    app = PlaygroundApp(tools=[str(tools_dir / "shop.py")], no_history=True, in_process=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        field = app.query_one("#question")
        field.focus()
        await pilot.press(*"HR20260604 주문 상태", "enter")
        assert app.pg is None
        reply = app.query_one("#ask-reply")
        assert str(reply.render()) == "waiting for the tools to load…"
        held_load.set()
        await settle(app, pilot)
        view = app.query_one("AskView")
        assert view.episode is not None and view.episode.question == "HR20260604 주문 상태"
        assert [call.tool for call in view.episode.calls][:1] == ["get_order_status"]


async def test_keys_typed_right_after_moving_in_the_list_reach_the_new_form(tools_dir):
    """Down, then an id typed while the highlighted contract's form is being built: the
    first keys went into the form still shown, which was then replaced ('978-0131103627'
    became '8-0131103627'). They now wait for the highlighted contract's form."""
    import asyncio

    from textual import events

    app = PlaygroundApp(tools=[str(tools_dir / "shop.py")], no_history=True, in_process=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        view = app.query_one(CallView)
        contracts = app.query_one(ContractList)
        assert view.shown == "get_order_status" and app.focused is contracts
        app.post_message(events.Key("down", None))
        for _ in range(1000):  # the cursor has moved; the new form is not built yet
            if contracts.chosen == "track_shipping":
                break
            await asyncio.sleep(0)
        assert contracts.chosen == "track_shipping" and view.shown == "get_order_status"
        for char in "CJ-12 34":
            app.post_message(events.Key(char, char))
        await settle(app, pilot)
        assert view.shown == "track_shipping"
        field = app.query_one(ArgForm).fields[0]
        assert field.value == "CJ-12 34" and app.focused is field
