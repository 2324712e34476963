"""Issue 13 item 4: a ``raised`` record's traceback in a panel (file:line and the code line),
never in the wire JSON; ``f8`` opens ``$EDITOR +LINE FILE`` or says why it cannot."""

from __future__ import annotations

import contextlib
import json
import sys

import pytest

from playground.tui.app import PlaygroundApp
from playground.tui.editor import editor_argv, failing_frame
from playground.tui.views.call_view import CallView
from playground.tui.widgets.arg_form import ArgForm
from playground.tui.widgets.record_view import RecordView
from tests.tui.helpers import capture_notifications, settle

RAISES = '''
def price_of(item_id: str) -> dict:
    """Read an item's price. Use it to get a price. Do not use it for stock.

    Args:
        item_id: item id, e.g. "A-1"
    """
    record = {"item_id": item_id}
    return {"price": record["price"]}


__tools__ = [price_of]
'''


@pytest.mark.parametrize("in_process", ["0", "1"])
async def test_a_key_error_shows_its_traceback_and_f8_opens_the_editor_at_that_line(
    tmp_tool, tmp_path, monkeypatch, in_process
):
    monkeypatch.setenv("PLAYGROUND_IN_PROCESS", in_process)
    folder = tmp_tool(RAISES)
    log = tmp_path / "editor.log"
    editor = tmp_path / "fake-editor.py"
    editor.write_text(
        f"import sys, json\nopen({str(log)!r}, 'w').write(json.dumps(sys.argv[1:]))\n"
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    app = PlaygroundApp(tools=[str(folder / "mytools.py")])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        view = app.query_one(CallView)
        assert await view.select_contract("price_of")
        await pilot.pause()
        app.query_one(ArgForm).set_field("item_id", "A-1")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        record = view.records[-1]
        assert record.kind == "raised" and record.error == "raised:KeyError"
        assert record.source == ("in-process" if in_process == "1" else "worker")
        rv = app.query_one(RecordView)
        assert rv.frames == record.traceback and rv.frames[-1]["line"] == 9
        assert rv.frames[-1]["file"] == str(folder / "mytools.py")
        panel = str(app.query_one("#rv-traceback").render())
        assert f"{folder / 'mytools.py'}:9 in price_of" in panel
        assert 'return {"price": record["price"]}' in panel
        assert app.query_one("#rv-traceback").display
        for provider, text in rv.wire.texts.items():
            # the message names "mytools.py:9" (issue 11); the frames never reach the model
            assert str(folder / "mytools.py") not in text and "traceback" not in text, provider
            assert 'record["price"]' not in text, provider
        await pilot.press("f8")
        await pilot.pause()
        assert json.loads(log.read_text()) == ["+9", str(folder / "mytools.py")]
        seen = capture_notifications(app)
        monkeypatch.delenv("EDITOR")
        await pilot.press("f8")
        await pilot.pause()
        assert any("$EDITOR is not set" in s for s in seen)
        monkeypatch.setenv("EDITOR", f"{sys.executable} -c 'raise SystemExit(3)'")
        await pilot.press("f8")
        await pilot.pause()
        assert any("exited with status 3" in s for s in seen)
        monkeypatch.setenv("EDITOR", str(tmp_path / "no-such-editor"))
        await pilot.press("f8")
        await pilot.pause()
        assert seen[-1].startswith(f"$EDITOR ({tmp_path / 'no-such-editor'}) was not found")
        rv.show_traceback([])
        assert not app.query_one("#rv-traceback").display and rv.frames == []


def test_editor_argv_and_failing_frame():
    assert editor_argv("/x/t.py", 12, "vim") == ["vim", "+12", "/x/t.py"]
    assert editor_argv("/x/t.py", 12, "code -w") == ["code", "-w", "-g", "/x/t.py:12"]
    assert editor_argv("/x/t.py", 12, "/opt/bin/subl -w") == ["/opt/bin/subl", "-w", "/x/t.py:12"]
    assert editor_argv("/x/t.py", 12, "emacs -nw") == ["emacs", "-nw", "+12", "/x/t.py"]
    assert editor_argv("/x/t.py", 12, "  ") is None
    with pytest.raises(ValueError):
        editor_argv("/x/t.py", 12, "vim '")
    frames = [{"file": "a.py", "line": 3}, {"file": "b.py", "line": 7}]
    assert failing_frame(frames) == {"file": "b.py", "line": 7}
    assert failing_frame([]) is None


class SuspendSpy:
    """Stands in for ``App.suspend`` on a terminal that can suspend, with Textual's behaviour:
    the app resumes only when the ``with`` block ends normally (no ``finally``)."""

    def __init__(self) -> None:
        self.suspended = 0
        self.resumed = 0

    @contextlib.contextmanager
    def __call__(self):
        self.suspended += 1
        yield
        self.resumed += 1


async def test_f8_with_a_bad_editor_or_file_says_why_and_never_leaves_the_app_suspended(
    tmp_tool, tmp_path, monkeypatch
):
    folder = tmp_tool(RAISES)
    no_exec = tmp_path / "not-a-program"
    no_exec.write_text("this is not a program\n")  # executable, but exec fails (ENOEXEC)
    no_exec.chmod(0o755)
    empty_bin = tmp_path / "empty-bin"
    empty_bin.mkdir()
    app = PlaygroundApp(tools=[str(folder / "mytools.py")])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        view = app.query_one(CallView)
        assert await view.select_contract("price_of")
        await pilot.pause()
        app.query_one(ArgForm).set_field("item_id", "A-1")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        spy = SuspendSpy()
        monkeypatch.setattr(app, "suspend", spy)
        seen = capture_notifications(app)
        rv = app.query_one(RecordView)
        hint = "; set EDITOR to an editor's command (e.g. vim)"
        cases = [
            ("no-such-editor-xyz", f"$EDITOR (no-such-editor-xyz) was not found{hint}"),
            ("code -w", f"$EDITOR (code) was not found{hint}"),  # PATH without code
            (str(tmp_path), f"$EDITOR ({tmp_path}) is a folder, not a program"),
            (str(no_exec), f"$EDITOR ({no_exec}) could not start: Exec format error"),
        ]
        monkeypatch.setenv("PATH", str(empty_bin))
        for editor, message in cases:
            monkeypatch.setenv("EDITOR", editor)
            await pilot.press("f8")
            await pilot.pause()
            assert seen[-1] == message, editor
            assert spy.suspended == spy.resumed, editor  # resumed (or never suspended)
        assert spy.suspended == 1  # only the editor that passed the checks got the terminal
        # a traceback whose file is now a folder: said, nothing run
        monkeypatch.setenv("EDITOR", sys.executable)
        rv.frames = [{"file": str(tmp_path), "line": 3, "function": "f", "code": ""}]
        await pilot.press("f8")
        await pilot.pause()
        assert seen[-1] == f"cannot open {tmp_path} in $EDITOR: it is a folder"
        assert spy.suspended == spy.resumed == 1
        # and the app still answers keys
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.focused is app.query_one("#contracts")
