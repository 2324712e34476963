"""An MCP server's ``elicitation/create`` as a form (issue 21, item 6).

:class:`ElicitScreen` is a modal built from the request's ``requestedSchema`` (MCP spec
2025-11-25, "Client features: elicitation": a flat object of primitive properties — string,
number, integer, boolean, and string enums): an ``Input`` per string or number (typed as such),
a ``Switch`` per boolean, a ``Select`` per enum (``enum`` or ``oneOf`` of ``const``/``title``).
Accept (enter on the last field, or the button), Decline or Cancel (escape) dismiss it with
``{"action", "content"}``; the client checks the content against the schema before it goes to
the server (:mod:`playground.sources.mcp_client`).

:func:`tui_elicitor` makes the callable an :class:`~playground.sources.mcp_source.McpSource` asks
from its own thread: it shows the form on the app's thread and waits for the answer.
"""

from __future__ import annotations

import concurrent.futures
from typing import Any

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Switch

from playground.core.untrusted import shown

#: Longest a form waits for a person (seconds); then the request is cancelled.
ANSWER_WAIT_S = 600.0


def _choices(prop: dict[str, Any]) -> list[tuple[str, str]]:
    """``(label, value)`` pairs of an enum property (``enum`` + ``enumNames``, or ``oneOf``)."""
    if isinstance(prop.get("oneOf"), list):
        return [
            (str(o.get("title") or o.get("const")), str(o.get("const")))
            for o in prop["oneOf"]
            if isinstance(o, dict) and "const" in o
        ]
    names = prop.get("enumNames") or prop.get("enum") or []
    return [(str(n), str(v)) for n, v in zip(names, prop.get("enum") or [], strict=False)]


def content_of(schema: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The answer's ``content`` from the widgets' ``values`` (by property name): numbers
    parsed (a text that is not one is kept as text, so the schema check names it), empty
    optional fields left out."""
    content: dict[str, Any] = {}
    for name, prop in (schema.get("properties") or {}).items():
        value = values.get(name)
        kind = prop.get("type")
        if value is None or value == "" or value is Select.BLANK:
            continue
        if kind in ("number", "integer") and isinstance(value, str):
            try:
                number = float(value)
                value = int(number) if kind == "integer" and number.is_integer() else number
            except ValueError:
                pass
        content[name] = value
    return content


class ElicitScreen(ModalScreen[dict[str, Any]]):
    """The form for one request. ``server``: its label; ``message`` and ``schema``: the
    request's. Dismissed with ``{"action": "accept", "content": {...}}``, ``{"action":
    "decline"}`` or ``{"action": "cancel"}``."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    ElicitScreen { align: center middle; }
    ElicitScreen > VerticalScroll { width: 80; height: auto; max-height: 90%;
        border: thick $accent; padding: 1 2; background: $surface; }
    ElicitScreen Horizontal { height: auto; }
    ElicitScreen .field-label { margin-top: 1; }
    """

    def __init__(self, server: str, message: str, schema: Any) -> None:
        super().__init__()
        self.server, self.message = server, message
        self.schema: dict[str, Any] = schema if isinstance(schema, dict) else {}

    def compose(self) -> ComposeResult:
        required = set(self.schema.get("required") or [])
        with VerticalScroll(id="elicit-form"):
            yield Label(shown(f"{self.server} asks: {self.message}"), id="elicit-message")
            for name, prop in (self.schema.get("properties") or {}).items():
                title = str(prop.get("title") or name) + (" *" if name in required else "")
                help_text = str(prop.get("description") or "")
                yield Label(shown(f"{title}  {help_text}".rstrip()), classes="field-label")
                yield self._widget(name, prop)
            with Horizontal():
                yield Button("Accept", id="elicit-accept", variant="primary")
                yield Button("Decline", id="elicit-decline")
                yield Button("Cancel", id="elicit-cancel")

    def _widget(self, name: str, prop: dict[str, Any]) -> Any:
        wid = f"elicit-{name}"
        if prop.get("type") == "boolean":
            return Switch(value=bool(prop.get("default", False)), id=wid, name=name)
        choices = _choices(prop)
        if choices:
            return Select(choices, id=wid, name=name, allow_blank=True)
        default = "" if prop.get("default") is None else str(prop.get("default"))
        if prop.get("type") == "integer":
            return Input(value=default, id=wid, name=name, type="integer")
        if prop.get("type") == "number":
            return Input(value=default, id=wid, name=name, type="number")
        return Input(value=default, id=wid, name=name)

    def values(self) -> dict[str, Any]:
        """Each field's value by property name (text, number text, bool or choice)."""
        found: dict[str, Any] = {}
        for widget in self.query("Input, Switch, Select"):
            if widget.name:
                found[widget.name] = getattr(widget, "value", None)
        return found

    @on(Button.Pressed, "#elicit-accept")
    @on(Input.Submitted)
    def accept(self) -> None:
        self.dismiss({"action": "accept", "content": content_of(self.schema, self.values())})

    @on(Button.Pressed, "#elicit-decline")
    def decline(self) -> None:
        self.dismiss({"action": "decline"})

    @on(Button.Pressed, "#elicit-cancel")
    def action_cancel(self) -> None:
        self.dismiss({"action": "cancel"})


def tui_elicitor(app: App[Any], server: str) -> Any:
    """The elicitor for ``server``'s source: called on the source's thread with ``(message,
    requestedSchema)``, it shows :class:`ElicitScreen` on the app's thread and returns the
    answer (``{"action": "cancel"}`` when nobody answers within :data:`ANSWER_WAIT_S` or the
    app is closing)."""

    def elicit(message: str, schema: Any) -> dict[str, Any]:
        answer: concurrent.futures.Future[dict[str, Any]] = concurrent.futures.Future()

        def show() -> None:
            app.push_screen(
                ElicitScreen(server, message, schema),
                lambda result: answer.set_result(result or {"action": "cancel"}),
            )

        try:
            app.call_from_thread(show)
            return answer.result(ANSWER_WAIT_S)
        except Exception:
            return {"action": "cancel"}

    return elicit
