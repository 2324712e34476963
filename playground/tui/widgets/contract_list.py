"""The contract list: one option per registered contract, with badges; posts ``Chosen``."""

from __future__ import annotations

from textual import on
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from playground.core.registry import Registry
from playground.tui.formatting import contract_label


class ContractList(OptionList):
    """Lists the registry's contracts; highlighting one posts :class:`ContractList.Chosen`."""

    class Chosen(Message):
        """A contract was highlighted: ``name``."""

        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def show_registry(self, registry: Registry) -> None:
        """Replace the options with ``registry``'s contracts (load order) and highlight the first."""
        self.clear_options()
        self.add_options(Option(contract_label(c), id=c.name) for c in registry.contracts.values())
        if registry.contracts:
            self.highlighted = 0

    def select_name(self, name: str) -> bool:
        """Highlight the contract called ``name``; ``False`` when it is not listed."""
        try:
            self.highlighted = self.get_option_index(name)
        except Exception:  # OptionDoesNotExist
            return False
        return True

    @property
    def chosen(self) -> str | None:
        """The highlighted contract's name, or ``None``."""
        if self.highlighted is None:
            return None
        return self.get_option_at_index(self.highlighted).id

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.Chosen(event.option.id))
