"""What the TUI's first screen leaves for later (issue 13 item 6): when a fresh interpreter has
drawn the app's first screen it has not imported the engine modules, the JSON editor, the
history store or rich's emoji table (each was measured at 2-9 ms of the first screen;
``bench/bench_tui.py`` times it), and the kind styles still cover every outcome kind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from playground.core.outcome import OutcomeKind
from playground.tui.formatting import KIND_STYLES

REPO = Path(__file__).resolve().parents[2]

#: Modules the first screen must not import (they load after it, with the tools or on use).
DEFERRED = (
    "playground.core.outcome",
    "playground.core.contracts",
    "playground.core.registry",
    "playground.core.record",
    "playground.history.store",
    "playground.routing.base",
    "playground.tui.widgets.json_editor",
    "playground.tui.widgets.args_editor",
    "playground.tui.widgets.arg_form",
    "playground.tui.widgets.record_view",
    "textual.widgets._text_area",
    "sqlite3",
    "rich._emoji_codes",
)


#: Runs the app headless (80x24) in a fresh interpreter; prints the DEFERRED modules imported
#: by the time the first screen is drawn (the moment ``bench/bench_tui.py`` times).
SCRIPT = r"""
import json, sys
from pathlib import Path
import playground.tui.app as app_module
from playground.tui.app import PlaygroundApp
deferred = set(json.loads(sys.argv[1]))
seen = []
class FirstScreen(PlaygroundApp):
    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))  # a -c script has no file
    def on_mount(self):
        super().on_mount()
        self.call_after_refresh(self.first)
    def first(self):
        seen.extend(sorted(deferred & set(sys.modules)))
        self.exit()
FirstScreen(tools=[sys.argv[2]], no_history=True).run(headless=True, size=(80, 24))
print(json.dumps(seen))
"""


def test_the_first_screen_leaves_the_engine_and_the_editor_for_later(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(DEFERRED), str(tmp_path)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_kind_styles_cover_every_outcome_kind_and_look_up_by_member() -> None:
    assert set(KIND_STYLES) == {kind.value for kind in OutcomeKind}
    assert KIND_STYLES[OutcomeKind.RAISED] == "bold red"
    assert KIND_STYLES.get(OutcomeKind.OK) == "bold green"


#: Runs the app headless (160x48) on ./tools until the contract list and the first form are
#: drawn (the moment ``bench/bench_first_screen.py`` times); prints the LATER modules imported
#: by then, and whether the router's module was imported afterwards.
USEFUL = r"""
import json, sys
from pathlib import Path
import playground.tui.app as app_module
from playground.tui.app import PlaygroundApp
from playground.tui.widgets.arg_form import ArgForm
from playground.tui.widgets.contract_list import ContractList
later = json.loads(sys.argv[1])
out = {}
class Useful(PlaygroundApp):
    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))
    def on_mount(self):
        super().on_mount()
        self._watch = self.set_interval(0.01, self._check)
    def _check(self):
        forms, lists = self.query(ArgForm), self.query(ContractList)
        if "shown" not in out:
            if forms and forms.first().fields and lists and lists.first().root.children:
                self.call_after_refresh(self._shown)
                out["shown"] = None
        elif out["shown"] is not None and "playground.routing.offline" in sys.modules:
            out["router_after"] = True
            self.exit()
    def _shown(self):
        out["shown"] = sorted(m for m in later if m in sys.modules)
Useful(tools=[sys.argv[2]], no_history=True, in_process=False).run(
    headless=True, size=(160, 48)
)
print(json.dumps(out))
"""


def test_the_list_and_first_form_come_before_the_router_editor_jsonschema_pydantic() -> None:
    later = ["playground.routing.offline", "textual.widgets._text_area", "jsonschema", "pydantic"]
    out = subprocess.run(
        [sys.executable, "-c", USEFUL, json.dumps(later), str(REPO / "tools")],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    # none is imported by the useful first screen; the router's module (and the JSON
    # editor's before it) follows it (prewarm)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"shown": [], "router_after": True}
