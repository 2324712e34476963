"""The argument form: one input per parameter of the selected contract's JSON Schema.

string / integer / number / array / object → ``Input`` (typed text is sent as typed when it
does not parse, so the gate gives the verdict); boolean → ``Switch``; enum → ``Select``.
Required parameters are marked ``*``; the parameter's description (or the docstring ``Args:``
line) is the placeholder and a dim line under the field.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Label, Select, Static, Switch

from playground.core.contracts import Contract
from playground.tui.form_values import (
    BOOLEAN,
    ENUM,
    FieldSpec,
    field_specs,
    field_text,
    form_to_args,
)


class ArgForm(VerticalScroll):
    """A form generated from a contract's parameter schema; read with :meth:`args`."""

    #: The fields are the tab stops, not the scrolling container.
    can_focus = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.specs: list[FieldSpec] = []
        self.touched: set[str] = set()
        self._inputs: list[Any] = []
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
        self._inputs = []
        self.specs = field_specs(contract.parameters, contract.description) if contract else []
        if contract is None:
            await self.mount(Static("Choose a contract on the left.", classes="form-empty"))
            return
        if not self.specs:
            await self.mount(Static(f"{contract.name} takes no arguments.", classes="form-empty"))
            return
        widgets = []
        for index, spec in enumerate(self.specs):
            mark = " [b red]*[/]" if spec.required else ""
            default = f" [dim]default {spec.default!r}[/]" if spec.default is not None else ""
            hint = " [dim i]· other values: JSON tab[/]" if spec.kind == ENUM else ""
            label = Label(
                f"[b]{spec.name}[/]{mark} [dim]{spec.type_label}[/]{default}{hint}",
                classes="arg-label",
            )
            widgets.append(label)
            shown, field = self._field_widget(index, spec)
            self._inputs.append(field)
            widgets.append(shown)
            if spec.doc:
                widgets.append(Static(spec.doc, classes="arg-doc", markup=False))
        await self.mount_all(widgets)

    def _field_widget(self, index: int, spec: FieldSpec) -> tuple[Any, Any]:
        """``(widget to mount, the input widget)`` for one field."""
        wid = f"arg-{index}"
        if spec.kind == BOOLEAN:
            switch = Switch(value=spec.default is True, id=wid)
            return Horizontal(switch, Label(spec.name), classes="arg-switch"), switch
        if spec.kind == ENUM:
            options = [(str(v), v) for v in spec.choices]
            value = spec.default if spec.default in spec.choices else Select.NULL
            select = Select(options, value=value, allow_blank=True, prompt="(not set)", id=wid)
            return select, select
        field = Input(placeholder=spec.doc or spec.type_label, id=wid)
        return field, field

    @property
    def fields(self) -> list[Any]:
        """The input widgets, one per parameter, in form order."""
        return list(self._inputs)

    def _widget(self, index: int):
        return self._inputs[index]

    def values(self) -> dict[str, Any]:
        """The widgets' raw values by argument name (text, bool, or enum choice / ``None``)."""
        out: dict[str, Any] = {}
        for index, spec in enumerate(self.specs):
            widget = self._widget(index)
            if isinstance(widget, Select):
                out[spec.name] = None if widget.value is Select.NULL else widget.value
            else:
                out[spec.name] = widget.value
        return out

    def args(self) -> dict[str, Any]:
        """The argument object the form stands for (see ``form_values.form_to_args``)."""
        return form_to_args(self.specs, self.values(), self.touched)

    def set_args(self, args: dict[str, Any]) -> list[str]:
        """Show ``args`` in the fields; returns the names that have no field (not shown)."""
        known = {spec.name for spec in self.specs}
        for index, spec in enumerate(self.specs):
            widget = self._widget(index)
            value = field_text(spec, args.get(spec.name))
            if isinstance(widget, Select):
                widget.value = Select.NULL if value is None else value
            elif isinstance(widget, Switch):
                widget.value = bool(value)
                if spec.name in args:
                    self.touched.add(spec.name)
            else:
                widget.value = value
        return [name for name in args if name not in known]

    def set_field(self, name: str, text: str) -> None:
        """Set one text field by argument name (used by tests and the command palette)."""
        for index, spec in enumerate(self.specs):
            if spec.name == name:
                widget = self._widget(index)
                widget.value = text
                return
        raise KeyError(name)

    @on(Switch.Changed)
    def _switch_changed(self, event: Switch.Changed) -> None:
        if event.switch.id and event.switch.id.startswith("arg-"):
            index = int(event.switch.id.removeprefix("arg-"))
            self.touched.add(self.specs[index].name)
