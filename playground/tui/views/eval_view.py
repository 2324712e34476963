"""Evaluate (stub)."""
from textual.containers import Vertical
from textual.widgets import Static


class EvalView(Vertical):
    def compose(self):
        yield Static("Evaluate")

    def set_playground(self, pg) -> None:
        self.pg = pg

    def run_evaluation(self) -> None:
        pass
