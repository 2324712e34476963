"""Keys typed in the contract list go to the highlighted contract's first field that takes
text: a tester's ``list_openings(department: Department, day: date)`` lost "2026-12-04" (the
first field was the department's select, so the keys went nowhere, silently, and ctrl+r gave
``missing:day``). A form with no text field says so, once."""

from __future__ import annotations

from textual import events
from textual.widgets import Select

from playground.tui.app import PlaygroundApp
from playground.tui.widgets.arg_form import ArgForm
from playground.tui.widgets.contract_list import ContractList
from tests.tui.helpers import capture_notifications, open_contract, settle

CLINIC = '''
import datetime as dt
from enum import Enum


class Department(Enum):
    INTERNAL = "내과"
    SKIN = "피부과"


def list_openings(department: Department, day: dt.date) -> dict:
    """진료과와 날짜로 비어 있는 예약 시간을 조회한다.

    Args:
        department: 진료과
        day: 진료 날짜 (YYYY-MM-DD)
    """
    return {"department": department.value, "day": day.isoformat(), "free": ["09:00"]}


def pick_department(department: Department) -> str:
    """진료과를 고른다.

    Args:
        department: 진료과
    """
    return department.value


__tools__ = [list_openings, pick_department]
'''


async def _typed_in_list(app, pilot, keys: str) -> None:
    app.query_one(ContractList).focus()
    await pilot.pause()
    for key in keys:
        app.post_message(events.Key(key, key))
    await pilot.pause()


async def test_keys_go_to_the_first_text_field_past_an_enum_select(tmp_tool):
    app = PlaygroundApp(tools=[str(tmp_tool(CLINIC, name="clinic.py"))], no_history=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_contract(app, pilot, "list_openings")
        fields = app.query_one(ArgForm).fields
        assert isinstance(fields[0], Select)
        await _typed_in_list(app, pilot, "2026-12-04")
        assert fields[1].value == "2026-12-04" and app.focused is fields[1]


async def test_a_form_without_a_text_field_says_where_the_keys_did_not_go(tmp_tool):
    app = PlaygroundApp(tools=[str(tmp_tool(CLINIC, name="clinic.py"))], no_history=True)
    async with app.run_test(size=(160, 48)) as pilot:
        view = await open_contract(app, pilot, "pick_department")
        notes = capture_notifications(view)
        await _typed_in_list(app, pilot, "ab")
        await settle(app, pilot)
        said = [n for n in notes if "no text field" in n]
        assert said == [
            "a was not typed anywhere: pick_department's form has no text field "
            "(enter opens its arguments)."
        ], notes
