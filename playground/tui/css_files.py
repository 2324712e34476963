"""TCSS files read after the TUI's first screen (issue 13 item 6: the first screen parses only
``app.tcss``'s rules for what it shows).

``CALL_CSS``: the rest of the Call view and the classes every view shares; ``VIEWS_CSS``: the
Ask, Steps, Evaluate and History views'. Their selectors match nothing on the first screen, so
adding them restyles nothing already shown.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

CALL_CSS = Path(__file__).with_name("call.tcss")
VIEWS_CSS = Path(__file__).with_name("views.tcss")


def read_css(app: App[Any], *paths: Path) -> None:
    """Add each TCSS file of ``paths`` to ``app``'s stylesheet, in order, once per file: it is
    parsed when the next widget is styled. Raises ``OSError`` when a file cannot be read
    (they ship with the package)."""
    for path in paths:
        if not app.stylesheet.has_source(str(path)):
            css = path.read_text(encoding="utf-8")
            app.stylesheet.add_source(css, read_from=(str(path), ""), is_default_css=False)
