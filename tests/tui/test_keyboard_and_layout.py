"""Keyboard-first navigation, narrow terminals, the module tree, readable values and the small
wording fixes of the newcomer's try-out (items 6, 7, 8, 9, 10, 17, 18, 20, 21)."""

from __future__ import annotations

import json

import pytest

from playground.loop.step import Node, Step
from playground.tui.app import PlaygroundApp
from playground.tui.explain import evidence_detail, explanation_lines
from playground.tui.formatting import clip, contract_badges
from playground.tui.views.ask_view import ASK_EMPTY
from playground.tui.views.call_view import CallView
from playground.tui.views.steps_view import attempt_label
from playground.tui.widgets.arg_form import OTHER, ArgForm
from playground.tui.widgets.contract_list import ContractList, group_by_module, module_of
from playground.tui.widgets.record_view import RecordView
from tests.tui.helpers import SIZE, WIDE, settle


async def go_to_contract(app, pilot, name: str) -> None:
    """Reach ``name`` in the contract tree with keys only (ctrl+t, then down)."""
    await pilot.press("ctrl+t")
    await pilot.pause()
    tree = app.query_one(ContractList)
    assert app.focused is tree
    for _ in range(40):
        if tree.chosen == name:
            return
        await pilot.press("down")
    raise AssertionError(f"{name} not reached with the down key (at {tree.chosen})")


async def test_enter_on_a_contract_focuses_its_field_and_typed_korean_is_sent(tools_dir):
    """Enter on a contract of the list focuses its first field: for one whose description
    scrolls (stock_lookup), then for search_products, whose typed Korean is sent; then invalid
    JSON, not sent, blanks that record (one app; these were three tests)."""
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        # a contract whose description scrolls
        await go_to_contract(app, pilot, "stock_lookup")
        await pilot.press("enter")
        await pilot.pause()
        form = app.query_one(ArgForm)
        assert form.specs[0].name == "sku" and app.focused is form.fields[0]
        await pilot.press(*"KB-101")
        assert form.args() == {"sku": "KB-101"}
        # another contract, reached with keys only; the typed Korean is what is sent
        await go_to_contract(app, pilot, "search_products")
        await pilot.press("enter")
        await pilot.pause()
        form = app.query_one(ArgForm)
        assert [s.name for s in form.specs] == ["keyword"]
        assert app.focused is form.fields[0]
        await pilot.press(*"텀블러")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        record = app.query_one(CallView).last_record
        assert record.tool == "search_products"
        assert record.args == {"keyword": "텀블러"}
        assert record.verdict == "valid" and record.body_ran
        assert app.query_one(RecordView).fields["verdict"] == "valid"
        # arguments that are not sent (invalid JSON) blank the previous record
        rv = app.query_one(RecordView)
        assert rv.fields["verdict"] == "valid" and rv.fields["cache"] == "stored"
        editor = app.query_one("#args-editor")
        editor.set_mode("json")
        await pilot.pause()
        editor.editor.load_text('xx{ "keyword": "텀블러" }')
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert rv.fields["status"].startswith("not sent: invalid JSON")
        assert rv.fields["verdict"] == rv.fields["cache"] == rv.fields["cache_key"] == "-"
        assert rv.value_text == "" and rv.wire.texts == {}


async def test_ctrl_t_returns_to_the_contract_list_from_any_mode(tools_dir):
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        binding = next(b for b in app.BINDINGS if getattr(b, "id", None) == "focus-contracts")
        assert binding.key == "ctrl+t" and binding.description == "Contracts"
        assert "ctrl+t" in app.query_one("#contracts-col").border_title  # shown in the title
        assert isinstance(app.focused, ContractList)  # the app starts in the contract list
        await pilot.press("f2")
        await settle(app, pilot)  # the Ask tab focuses its question field after a refresh
        assert app.mode_name == "ask"
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        for _ in range(100):  # the focus follows the tab switch after a refresh: wait on it
            if app.mode_name == "call" and isinstance(app.focused, ContractList):
                break
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()
        assert app.mode_name == "call"
        assert isinstance(app.focused, ContractList)


@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
async def test_narrow_terminals_stack_the_panes_without_overlap(tools_dir, size):
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        assert app.screen.has_class("-narrow")
        await go_to_contract(app, pilot, "search_products")
        await pilot.press("enter")
        await pilot.press(*"텀블러")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        tree = app.query_one(ContractList).region
        args = app.query_one("#args-col").region
        record = app.query_one(RecordView).region
        field = app.query_one(ArgForm).fields[0].region
        run, repair = app.query_one("#run").region, app.query_one("#run-repair").region
        assert record.width >= 30 and args.width >= 30 and tree.width >= 20
        assert field.width >= 20 and field.height >= 1
        assert record.height >= 5
        for a, b in [
            (tree, args),
            (tree, record),
            (args, record),
            (field, run),
            (field, repair),
            (run, repair),
        ]:
            assert not a.overlaps(b), (a, b)
        assert app.query_one(RecordView).fields["verdict"] == "valid"


async def test_wide_terminal_keeps_arguments_and_record_side_by_side(tools_dir):
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        assert not app.screen.has_class("-narrow")
        args, record = app.query_one("#args-col").region, app.query_one(RecordView).region
        assert args.y == record.y and args.right <= record.x
        assert record.width >= 50 and 40 <= args.width <= 64


async def test_the_call_view_at_start_panes_focus_chain_and_ask_empty_state(tools_dir):
    """What the first screen shows and how the focus moves, on one app (these only read the
    app's state and were four tests, each an app start): the contracts grouped by module in
    load order, the focused pane highlighted, read-only panels that are no tab stops, the Ask
    view's empty state and the enum field's "other value…"."""
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        # the contracts are grouped by module in load order
        tree = app.query_one(ContractList)
        modules = [str(node.label).split()[0] for node in tree.root.children]
        assert modules == ["flaky.py", "inventory.py", "shop.py"]
        assert all(node.is_expanded for node in tree.root.children)
        shop = tree.root.children[2]
        assert [leaf.data for leaf in shop.children] == [
            "get_order_status",
            "track_shipping",
            "search_products",
            "check_stock",
        ]
        assert "4 contracts" in str(shop.label)
        assert tree.names == list(app.pg.registry.contracts)
        # opens on the first module that is not a demo of faults (flaky.py says __demo__ = True)
        assert tree.chosen == "stock_lookup" == app.query_one(CallView).shown
        # the focused pane is highlighted
        contracts_col, args_col = app.query_one("#contracts-col"), app.query_one("#args-col")
        app.query_one(ContractList).focus()
        await pilot.pause()
        lit = contracts_col.styles.border_top[1]
        dim = args_col.styles.border_top[1]
        assert lit != dim
        await pilot.press("enter")
        await pilot.pause()
        assert args_col.has_pseudo_class("focus-within")
        assert args_col.styles.border_top[1] == lit
        assert contracts_col.styles.border_top[1] == dim
        # read-only panels are not tab stops, and the first field is two tabs away
        for name in ("search_products", "stock_lookup", "get_order_status"):
            await app.query_one(CallView).select_contract(name)
            await pilot.pause()
            chain = app.screen.focus_chain
            ids = [w.id for w in chain]
            assert "contract-doc" not in ids and "record" not in ids and "arg-form" not in ids
            assert not any(isinstance(w, RecordView) for w in chain)
            # contracts → Form/JSON tabs → the first field, for every contract
            assert ids.index("arg-0") - ids.index("contracts") == 2, (name, ids)
        # Tab from the list really lands there
        app.query_one(ContractList).focus()
        await pilot.press("tab", "tab")
        assert app.focused is app.query_one(ArgForm).fields[0]
        # the Ask view's empty state, and the enum hint of a select field
        ask_record = (await app.view("ask")).query_one(RecordView)
        assert "type a customer question" in ASK_EMPTY and "enter" in ASK_EMPTY
        assert str(ask_record.query_one("#ask-rv-status").render()) == ASK_EMPTY
        assert "fill in the arguments" not in ASK_EMPTY
        await app.query_one(CallView).select_contract("stock_lookup")
        await pilot.pause()
        labels = [str(label.render()) for label in app.query_one(ArgForm).query(".arg-label")]
        assert any(text.startswith("region") for text in labels)
        select = app.query_one(ArgForm).fields[1]
        select.value = OTHER  # a legal option: "other value…" (raises when it is not one)
        await pilot.pause()
        assert app.query_one("#arg-1-other").display


def test_module_of_and_grouping(tools_dir):
    from playground.workbench import open_playground

    assert module_of("/x/tools/shop.py:175") == "shop.py"
    assert module_of("") == "(unknown module)"
    groups = group_by_module(open_playground([str(tools_dir / "shop.py")]).registry)
    assert groups == {
        "shop.py": ["get_order_status", "track_shipping", "search_products", "check_stock"]
    }


async def test_badges_time_limit_only_when_not_default_and_table_not_red(tools_dir, tmp_tool):
    from playground.workbench import open_playground

    reg = open_playground([str(tools_dir)]).registry
    assert ("2s", "black on cyan") in contract_badges(reg.get("search_products"))
    table = dict(contract_badges(reg.get("stock_lookup")))
    assert "table" in table and "red" not in table["table"]
    folder = tmp_tool('''
        def ping(host: str) -> dict:
            """Ping a host. host: the host name"""
            return {"host": host}

        __tools__ = [ping]
        ''')
    app = PlaygroundApp(tools=[str(folder)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert contract_badges(app.pg.registry.get("ping")) == []  # default 5 s: no badge
        assert app.sub_title.startswith("1 contract ·")  # singular
        head = app.query_one("#contract-head")
        assert head.region.height == 2  # name line + one source line, no wrap
        assert "limit 5 s" in str(head.render())


def test_clip_leaves_no_space_before_the_ellipsis():
    text = "상품ID로 현재 재고 수량을 확인한다"
    for width in range(6, 30):
        out = clip(text, width)
        assert not out.endswith(" …") and (out == text or out.endswith("…"))
        from rich.cells import cell_len

        assert cell_len(out) <= width
    assert clip("short", 10) == "short"


def test_attempt_labels():
    assert attempt_label(Step(Node.PICK, 1, tool="track_shipping")) == "1"
    assert attempt_label(Step(Node.PICK, 1, tool=None)) == "-"
    assert attempt_label(Step(Node.VALIDATE, 2, tool="x")) == "2"
    assert attempt_label(Step(Node.REPLY, 0)) == "-"
    assert attempt_label(Step(Node.GIVEUP, 3)) == "-"


async def ask(app, pilot, question: str) -> None:
    await pilot.press("f2")
    await pilot.pause()
    field = app.query_one("#question")
    field.value = question  # typing is tested elsewhere (Korean into the form and Ask)
    field.focus()
    await pilot.press("enter")
    await settle(app, pilot)


async def test_steps_view_numbers_from_one_and_forks_only_the_selected_episodes_call(tools_dir):
    app = PlaygroundApp(tools=[str(tools_dir)])
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await ask(app, pilot, "HR20260601 택배 어디쯤인가요?")
        await ask(app, pilot, "에어프라이어 재고 있어요?")
        # the explanation values are readable JSON, not Python's repr (the later moves' text is
        # the loop's reply, not the TUI's rendering)
        choice = (await app.view("ask")).texts["choice"].split("\nmove ")[0]
        assert (
            "kept: 에어프라이어 · dropped: 재고 (matched stock_lookup description), 있어요 (stopword)"
            in choice
        )
        assert "{'" not in choice and "None" not in choice and "True" not in choice
        await ask(app, pilot, "안녕하세요")
        await pilot.press("f3")
        await settle(app, pilot)
        steps = await app.view("steps")
        editor = steps.query_one("#fork-args")
        table = steps.query_one("#steps-table")
        assert steps.current == 2 and steps.episode.end == "no_call"
        # the greeting made no call: the editor is empty and disabled, not episode #2's args
        assert editor.text == "" and editor.disabled and not steps.fork_enabled
        await pilot.press("e")
        await pilot.pause()
        assert steps.cursor == len(steps.episode.steps) - 1
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        assert [r[0] for r in rows] == [str(i + 1) for i in range(len(rows))]  # 1-based
        assert [r[1] for r in rows] == ["pick", "reply"]
        assert [r[2] for r in rows] == ["-", "-"]  # no attempt 0
        assert "ok: yes" in str(steps.query_one("#episode-summary").render())
        assert "True" not in str(steps.query_one("#episode-summary").render())
        # episode #2: the validate step's args; reply shows the last call's args
        steps.show_episode(1)
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        episode = steps.episode
        assert steps.query_one("#steps-status").render()
        last_call_args = episode.calls[-1].args
        assert json.loads(editor.text) == last_call_args and not editor.disabled
        steps.select_step(1)
        assert json.loads(editor.text) == episode.steps[1].args
        # every column fits the table's width at 160 columns
        widths = sum(col.get_render_width(table) for col in table.columns.values())
        assert widths <= table.scrollable_content_region.width
        # e works for the first episode too
        steps.show_episode(0)
        await pilot.pause()
        assert steps.cursor == 0
        steps.query_one("#steps-table").focus()
        await pilot.press("e")
        await pilot.pause()
        assert steps.cursor == len(steps.episodes[0].steps) - 1


def test_explanation_values_are_readable_json_not_python_repr():
    """The explanation in the Ask view is checked in
    :func:`test_steps_view_numbers_from_one_and_forks_only_the_selected_episodes_call`, which
    asks the same question."""
    assert evidence_detail({"a": True, "b": None}) == '{"a": true, "b": null}'
    assert evidence_detail("plain") == "plain"
    lines = explanation_lines(
        {
            "tools": [
                {
                    "name": "t",
                    "score": 1.0,
                    "arg_evidence": {"on": {"text": True, "rule": "boolean", "detail": None}},
                }
            ],
            "chosen": "t",
        }
    )
    assert "arg on = true (boolean: )" in lines
