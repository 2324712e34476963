"""The argument form: one widget per parameter of the selected contract's JSON Schema.

Per schema type (issue 13): string → an ``Input``; integer / number → an ``Input`` with a
number validator (red when the text is not a number, yet sent as typed so the gate gives the
verdict); array / object / untyped → an ``Input`` for inline JSON (validated the same way);
boolean → a ``Switch``; enum → a ``Select`` whose last option, "other value…", opens an input
for a value outside the choices. ``ctrl+n`` on a field toggles "send as null" (the argument is
sent as JSON ``null``; the label says so). Required parameters are marked ``*``; the
parameter's description (or the docstring ``Args:`` line) is the placeholder and a dim line
under the field.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.validation import Function, Integer, Number, Validator
from textual.widget import Widget
from textual.widgets import Label, Select, Static, Switch

from playground.core.untrusted import json_shown, shown
from playground.tui.form_values import (
    BOOLEAN,
    ENUM,
    INTEGER,
    JSON,
    NUMBER,
    FieldSpec,
    Typed,
    field_specs,
    field_text,
    form_to_args,
)
from playground.tui.widgets.fields import FieldInput

if TYPE_CHECKING:
    from playground.core.contracts import Contract

#: The enum ``Select``'s "other value…" option (its value).
OTHER = "\x00other"


def _is_json(text: str) -> bool:
    from playground.tui.form_values import parse_json_text

    return bool(text.strip()) and not parse_json_text(text)[1]  # bounded: deep is not JSON


def field_validators(spec: FieldSpec) -> list[Validator]:
    """The validators that colour a text field red when its text does not parse as the
    parameter's type (the text is still sent as typed)."""
    if spec.kind == INTEGER:
        return [Integer(failure_description="not an integer: sent as typed text")]
    if spec.kind == NUMBER:
        return [Number(failure_description="not a number: sent as typed text")]
    if spec.kind == JSON:
        return [Function(_is_json, "not JSON: sent as typed text")]
    return []


class ArgForm(VerticalScroll):
    """A form generated from a contract's parameter schema; read with :meth:`args`."""

    BINDINGS = [Binding("ctrl+n", "toggle_null", "Null", id="arg-null")]

    #: The fields are the tab stops, not the scrolling container.
    can_focus = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.specs: list[FieldSpec] = []
        self.touched: set[str] = set()
        self.nulls: set[str] = set()
        self._inputs: list[Any] = []
        self._others: dict[int, FieldInput] = {}
        self._labels: list[Label] = []
        self._lock = asyncio.Lock()

    def compose(self) -> ComposeResult:
        yield Static("Choose a contract on the left.", classes="form-empty")

    async def show_contract(self, contract: Contract | None) -> None:
        """Rebuild the fields for ``contract`` (``None``: an empty form); calls are serialised."""
        async with self._lock:
            await self._rebuild(contract)

    async def _rebuild(self, contract: Contract | None) -> None:
        await self.remove_children()
        self.touched = set()
        self.nulls = set()
        self._inputs = []
        self._others = {}
        self._labels = []
        self.specs = field_specs(contract.parameters, contract.description) if contract else []
        if contract is None:
            await self.mount(Static("Choose a contract on the left.", classes="form-empty"))
            return
        if not self.specs:
            await self.mount(
                Static(
                    f"{shown(contract.name)} takes no arguments.",
                    classes="form-empty",
                    markup=False,
                )
            )
            return
        widgets: list[Widget] = []
        for index, spec in enumerate(self.specs):
            label = Label(self._label_text(spec), classes="arg-label")
            self._labels.append(label)
            widgets.append(label)
            outer, field = self._field_widget(index, spec)
            self._inputs.append(field)
            widgets.append(outer)
            if spec.doc:
                widgets.append(Static(shown(spec.doc), classes="arg-doc", markup=False))
        await self.mount_all(widgets)

    def _label_text(self, spec: FieldSpec) -> Content:
        """The field's label: its name, ``*`` when required, its type, its default and the
        null mark; the schema's texts as they are shown (:func:`shown`), never as markup."""
        parts: list[str | tuple[str, str]] = [(shown(spec.name), "bold")]
        if spec.required:
            parts += [" ", ("*", "bold red")]
        parts += [" ", (shown(spec.type_label), "dim")]
        if spec.default is not None:
            parts += [" ", (f"default {shown(repr(spec.default))}", "dim")]
        if spec.name in self.nulls:
            parts += [" ", (" null ", "bold reverse"), " ", ("ctrl+n: undo", "dim")]
        return Content.assemble(*parts)

    def _field_widget(self, index: int, spec: FieldSpec) -> tuple[Widget, Any]:
        """``(widget to mount, the input widget)`` for one field."""
        wid = f"arg-{index}"
        if spec.kind == BOOLEAN:
            switch = Switch(value=spec.default is True, id=wid)
            return Horizontal(
                switch, Label(shown(spec.name), markup=False), classes="arg-switch"
            ), switch
        if spec.kind == ENUM:
            options: list[tuple[str, Any]] = [
                (
                    shown(v)
                    if isinstance(v, str)
                    else json_shown(json.dumps(v, ensure_ascii=False)),
                    v,
                )
                for v in spec.choices
            ]
            options.append(("other value…", OTHER))
            value = spec.default if spec.default in spec.choices else Select.NULL
            select: Select[Any] = Select(
                options, value=value, allow_blank=True, prompt="(not set)", id=wid
            )
            other = FieldInput(
                placeholder="a value outside the choices (sent as typed)",
                id=f"{wid}-other",
                classes="arg-other",
            )
            other.display = False
            self._others[index] = other
            return Horizontal(select, other, classes="arg-enum"), select
        field = FieldInput(
            placeholder=shown(spec.doc or spec.type_label),
            id=wid,
            validators=field_validators(spec),
            valid_empty=True,
        )
        return field, field

    @property
    def fields(self) -> list[Any]:
        """The input widgets, one per parameter, in form order."""
        return list(self._inputs)

    def _widget(self, index: int) -> Any:
        return self._inputs[index]

    def values(self) -> dict[str, Any]:
        """The widgets' raw values by argument name: text, bool, an enum choice, ``None`` (enum
        not set) or :class:`~playground.tui.form_values.Typed` (enum "other value…")."""
        out: dict[str, Any] = {}
        for index, spec in enumerate(self.specs):
            widget = self._widget(index)
            if isinstance(widget, Select):
                if widget.value == OTHER:
                    out[spec.name] = Typed(self._others[index].value)
                else:
                    out[spec.name] = None if widget.value is Select.NULL else widget.value
            else:
                out[spec.name] = widget.value
        return out

    def args(self) -> dict[str, Any]:
        """The argument object the form stands for (see ``form_values.form_to_args``)."""
        return form_to_args(self.specs, self.values(), self.touched, self.nulls)

    def set_args(self, args: dict[str, Any]) -> list[str]:
        """Show ``args`` in the fields (``null`` values as "send as null"); returns the names
        the form cannot show (no field, or a value that is not ``true``/``false`` for a
        switch: the switch is left as it was, never flipped)."""
        known = {spec.name for spec in self.specs}
        self.nulls = {name for name in known if name in args and args[name] is None}
        unshown = [name for name in args if name not in known]
        for index, spec in enumerate(self.specs):
            widget = self._widget(index)
            value = field_text(spec, args.get(spec.name))
            if isinstance(widget, Select):
                if isinstance(value, Typed):
                    widget.value = OTHER
                    self._others[index].value = value.text
                else:
                    widget.value = Select.NULL if value is None else value
            elif isinstance(widget, Switch):
                self._set_switch(widget, spec, args, unshown)
            else:
                widget.value = value
            self._labels[index].update(self._label_text(spec))
        return unshown

    def _set_switch(
        self, widget: Switch, spec: FieldSpec, args: dict[str, Any], unshown: list[str]
    ) -> None:
        """A boolean's switch for ``args``: its value when it is a bool (then sent), its
        default when it is left out (then not sent); any other value stays unshown."""
        if spec.name not in args:
            widget.value = spec.default is True
            self.touched.discard(spec.name)
        elif isinstance(args[spec.name], bool):
            widget.value = args[spec.name]
            self.touched.add(spec.name)
        elif args[spec.name] is not None:  # "예", 1: a switch shows only true or false
            unshown.append(spec.name)

    def set_field(self, name: str, text: str) -> None:
        """Set one text field by argument name (used by tests and the command palette)."""
        for index, spec in enumerate(self.specs):
            if spec.name == name:
                widget = self._widget(index)
                widget.value = text
                return
        raise KeyError(name)

    def index_of(self, widget: Any) -> int | None:
        """The parameter index of a field widget (or its "other value" input), else ``None``."""
        wid = getattr(widget, "id", None) or ""
        if not wid.startswith("arg-"):
            return None
        head = wid.removeprefix("arg-").removesuffix("-other")
        return int(head) if head.isdigit() and int(head) < len(self.specs) else None

    def toggle_null(self, name: str) -> bool:
        """Toggle "send as null" for argument ``name``; returns whether it is now null."""
        index = [spec.name for spec in self.specs].index(name)
        self.nulls ^= {name}
        self._labels[index].update(self._label_text(self.specs[index]))
        return name in self.nulls

    def action_toggle_null(self) -> None:
        """``ctrl+n``: toggle "send as null" for the focused field."""
        index = self.index_of(self.app.focused)
        if index is None:
            self.notify("Focus a field first (ctrl+n sends it as null).", severity="warning")
            return
        self.toggle_null(self.specs[index].name)

    @on(Switch.Changed)
    def _switch_changed(self, event: Switch.Changed) -> None:
        index = self.index_of(event.switch)
        if index is not None:
            self.touched.add(self.specs[index].name)

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        index = self.index_of(event.select)
        if index is None or index not in self._others:
            return
        other = self._others[index]
        other.display = event.value == OTHER
        if event.value == OTHER and event.select.has_focus:
            other.focus()
