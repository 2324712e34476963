"""Steps (stub)."""
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static


class StepsView(Vertical):
    class EpisodeShown(Message):
        pass

    def compose(self):
        yield Static("Steps")

    def set_playground(self, pg) -> None:
        self.pg = pg

    def run_manual(self, tool, args) -> None:
        pass

    def action_to_end(self) -> None:
        pass
