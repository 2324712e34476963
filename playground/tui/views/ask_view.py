"""Ask mode (stub, replaced below)."""
from textual.containers import Vertical
from textual.widgets import Static


class AskView(Vertical):
    def compose(self):
        yield Static("Ask")

    def set_playground(self, pg) -> None:
        self.pg = pg

    def router_changed(self, name: str, mode: str) -> None:
        pass

    def run_question(self) -> None:
        pass
