"""Arguments as a form or as raw JSON: two tabs kept in sync; the active tab is what is sent.

The tabs are ``Form`` and ``JSON`` (``f6`` in the Call view switches them). Switching Form → JSON writes the form's arguments into the editor; JSON → Form fills the fields
from the editor when it holds valid JSON (else the editor text is kept and a message says why).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import TabbedContent, TabPane

from playground.tui.form_values import args_to_json_text, parse_json_text
from playground.tui.widgets.arg_form import ArgForm

if TYPE_CHECKING:
    from playground.core.contracts import Contract
    from playground.tui.widgets.json_editor import JsonEditor

FORM, JSON = "form", "json"


class ArgsEditor(Vertical):
    """The arguments of the next call: ``Form`` and ``JSON`` tabs."""

    class Problem(Message):
        """Something the user should see (invalid JSON when switching tabs): ``text``."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: The active tab as of the last switch: the form is filled from the editor only when
        #: the JSON tab is left (not when the Form tab opens at start).
        self._tab = FORM

    def compose(self) -> ComposeResult:
        # imported here: the TUI's first screen shows no editor (TextArea and tree-sitter are
        # imported after it, when the Call view mounts this widget: issue 13 item 6)
        from playground.tui.widgets.json_editor import JsonEditor, json_language

        with TabbedContent(initial=FORM, id="args-tabs"):
            with TabPane("Form", id=FORM):
                yield ArgForm(id="arg-form")
            with TabPane("JSON", id=JSON):
                yield JsonEditor(
                    "{}", language=json_language(), id="args-json", show_line_numbers=True
                )

    @property
    def form(self) -> ArgForm:
        return self.query_one(ArgForm)

    @property
    def editor(self) -> JsonEditor:
        """The JSON tab's editor."""
        return cast("JsonEditor", self.query_one("#args-json"))

    @property
    def mode(self) -> str:
        """``"form"`` or ``"json"``: the active tab (what :meth:`current_args` reads)."""
        return self.query_one("#args-tabs", TabbedContent).active or FORM

    def set_mode(self, mode: str) -> None:
        """Activate the ``form`` or ``json`` tab (syncing as a tab click does)."""
        self.query_one("#args-tabs", TabbedContent).active = mode

    async def show_contract(self, contract: Contract | None) -> None:
        """A fresh form for ``contract`` and ``{}`` in the editor."""
        await self.form.show_contract(contract)
        self.editor.load_text("{}")

    def current_args(self) -> tuple[bool, Any, str]:
        """``(ok, args, problem)``: the arguments of the active tab. With the JSON tab, invalid
        JSON gives ``(False, None, "invalid JSON: line L col C: ...")``; any valid JSON value
        is returned (a non-object is for the gate to judge: ``shape``)."""
        if self.mode == JSON:
            value, problem = parse_json_text(self.editor.text)
            if problem:
                return False, None, f"invalid JSON in the editor: {problem}"
            return True, value, ""
        return True, self.form.args(), ""

    def set_args(self, args: Any) -> None:
        """Show ``args`` in both tabs (the form shows only an object's known fields)."""
        self.editor.load_text(args_to_json_text(args))
        if isinstance(args, dict):
            self.form.set_args(args)

    @on(TabbedContent.TabActivated, "#args-tabs")
    def _sync(self, event: TabbedContent.TabActivated) -> None:
        event.stop()
        previous, self._tab = self._tab, event.pane.id or FORM
        if event.pane.id == JSON:
            self.editor.load_text(args_to_json_text(self.form.args()))
            return
        if previous != JSON:  # the Form tab opening at start
            return
        value, problem = parse_json_text(self.editor.text)
        if problem:
            self.post_message(
                self.Problem(
                    f"the JSON tab holds invalid JSON ({problem}); the form was not changed"
                )
            )
        elif not isinstance(value, dict):
            self.post_message(
                self.Problem("the JSON tab holds a non-object; the form shows objects only")
            )
        else:
            extra = self.form.set_args(value)
            if extra:
                self.post_message(
                    self.Problem(f"not in the form (kept only in JSON): {', '.join(extra)}")
                )
