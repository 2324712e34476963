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
        #: The JSON tab's text until its editor is built (:attr:`editor`).
        self._json_text = "{}"

    def compose(self) -> ComposeResult:
        with TabbedContent(initial=FORM, id="args-tabs"):
            with TabPane("Form", id=FORM):
                yield ArgForm(id="arg-form")
            # the editor (a TextArea with tree-sitter's JSON highlighting) is built when first
            # asked for (:attr:`editor`): the first screen shows the Form tab
            yield TabPane("JSON", id=JSON)

    @property
    def form(self) -> ArgForm:
        return self.query_one(ArgForm)

    @property
    def editor(self) -> JsonEditor:
        """The JSON tab's editor, built (with :attr:`json_text`) and mounted in the JSON tab
        the first time it is asked for."""
        found = self.query("#args-json")
        if found:
            return cast("JsonEditor", found.first())
        from playground.tui.widgets.json_editor import JsonEditor, json_language

        editor = JsonEditor(
            self._json_text, language=json_language(), id="args-json", show_line_numbers=True
        )
        self.query_one(f"#{JSON}", TabPane).mount(editor)
        return editor

    @property
    def json_text(self) -> str:
        """The JSON tab's text (the editor's once it is built)."""
        found = self.query("#args-json")
        return cast("JsonEditor", found.first()).text if found else self._json_text

    def load_json(self, text: str) -> None:
        """Put ``text`` in the JSON tab (its editor's undo history starts again)."""
        found = self.query("#args-json")
        if found:
            cast("JsonEditor", found.first()).load_text(text)
        else:
            self._json_text = text

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
        self.load_json("{}")

    def current_args(self) -> tuple[bool, Any, str]:
        """``(ok, args, problem)``: the arguments of the active tab. With the JSON tab, invalid
        JSON gives ``(False, None, "invalid JSON: line L col C: ...")``; any valid JSON value
        is returned (a non-object is for the gate to judge: ``shape``)."""
        if self.mode == JSON:
            value, problem = parse_json_text(self.json_text)
            if problem:
                return False, None, f"invalid JSON in the editor: {problem}"
            return True, value, ""
        return True, self.form.args(), ""

    def set_args(self, args: Any) -> None:
        """Show ``args`` in both tabs (the form shows only an object's known fields)."""
        self.load_json(args_to_json_text(args))
        if isinstance(args, dict):
            self.form.set_args(args)

    @on(TabbedContent.TabActivated, "#args-tabs")
    def _sync(self, event: TabbedContent.TabActivated) -> None:
        event.stop()
        previous, self._tab = self._tab, event.pane.id or FORM
        if event.pane.id == JSON:
            self.load_json(args_to_json_text(self.form.args()))
            self.editor  # noqa: B018 - built now that its tab is shown
            return
        if previous != JSON:  # the Form tab opening at start
            return
        value, problem = parse_json_text(self.json_text)
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
