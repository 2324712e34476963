"""The TUI loads the good tool beside three import faults (issue 28, must show): a module that
sleeps at import, one with a syntax error and one running a catastrophic regular expression at
import, plus a good one — loading ends, each fault is a load problem naming its module, and the
good tool is listed and runs. The import time limit is 1 s here (the default 10 s makes the
same load take about 24 s: ``docs/worker.md``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.tui.app import PlaygroundApp
from playground.tui.views.call_view import CallView
from playground.tui.widgets.record_view import RecordView
from tests.tui.helpers import SIZE, until

MODULES = {
    "sleeper.py": "import time\ntime.sleep(3600)\n",
    "broken.py": "def f(:\n    pass\n",
    "regex.py": 'import re\nre.match(r"(a+)+$", "a" * 40 + "b")\n',
    "good.py": 'def ping() -> dict:\n    """Answer pong."""\n    return {"pong": True}\n\n\n'
    "__tools__ = [ping]\n",
}


@pytest.mark.worker_process
async def test_the_tui_loads_the_good_tool_and_names_each_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "tools"
    folder.mkdir()
    for name, text in MODULES.items():
        (folder / name).write_text(text, encoding="utf-8")
    monkeypatch.setenv("PLAYGROUND_IMPORT_TIMEOUT_S", "1")
    app = PlaygroundApp(tools=[str(folder)], in_process=False, no_history=True)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):  # state: loaded (the worker restarts are bounded)
            if app.pg is not None:
                break
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert app.pg is not None, "loading never ended"
        assert app.pg.registry.names() == ["ping"]
        named = sorted(Path(str(p).split(":")[0]).name for p in app.pg.registry.problems)
        assert named == ["broken.py", "regex.py", "sleeper.py"]
        view = app.query_one(CallView)
        await until(pilot, lambda: view.query(RecordView), "the Call view's panes")
        assert await view.select_contract("ping")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: view.last_record is not None, "the call ran")
        assert view.last_record.value == {"pong": True}
