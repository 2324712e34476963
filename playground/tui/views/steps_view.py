"""The step-through: an episode as a list of steps (node, attempt, tool, kind), revealed one at
a time (``n`` next, ``p`` back, ``e`` run to the end), the selected step's state and call, and a
fork: edit the arguments at any step and replay from there (``loop.episode.fork_episode``).

Every episode is kept (the original plus its forks) in :attr:`StepsView.episodes`. An episode
opens at step 1; how it ended (its end, ``ok`` and reply) is shown only once the last step is
revealed, so stepping through is not spoiled by the ending.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import var
from textual.widgets import Button, DataTable, Label, OptionList, Static, TabbedContent, TextArea
from textual.widgets.option_list import Option

from playground.core.untrusted import shown
from playground.loop.step import Node, Step
from playground.tui.daemon_thread import in_daemon_thread
from playground.tui.form_values import args_to_json_text, parse_json_text
from playground.tui.formatting import KIND_STYLES, plain, pretty_json
from playground.tui.signal_exit import EpisodeSlot
from playground.tui.widgets.json_editor import JsonEditor
from playground.tui.widgets.record_view import RecordView

if TYPE_CHECKING:
    from playground.loop.episode import Episode
    from playground.workbench import Playground

#: The steps table's columns ("try": the attempt number; see :func:`attempt_label`).
COLUMNS = ("#", "node", "try", "tool", "kind", "verdict", "cache")


def attempt_label(step: Step) -> str:
    """The attempt a step belongs to, as shown (1-based, as ``loop.episode`` counts them).

    ``loop.episode`` stamps every step with an attempt number, but a ``reply``/``giveup`` step
    carries the count of calls made so far (``0`` after a text-only move) and a ``pick`` that
    chose no tool names an attempt that never happens: those show ``-``."""
    node = step.node
    if node in ("reply", "giveup") or (node == "pick" and not step.tool):
        return "-"
    attempt = step.attempt
    return "-" if attempt in (None, 0) else str(attempt)


def ok_words(ok: Any) -> str:
    """An episode's ``ok`` flag in words: ``yes`` / ``no``."""
    return "yes" if ok else "no"


def step_state_lines(step: Step) -> list[tuple[str, str]]:
    """``(label, value)`` rows describing one step of ``Episode.steps``."""
    retries = step.retries
    retry_text = "; ".join(
        f"attempt {r.get('attempt')}: {r.get('reason')}, waited {r.get('delay_ms')} ms"
        for r in retries
    )
    body = step.body_ran
    return [
        ("node", str(step.node)),
        ("attempt", attempt_label(step)),
        ("tool", str(step.tool or "-")),
        ("args", args_to_json_text(step.args) if step.args is not None else "-"),
        (
            "verdict",
            step.verdict or ("valid" if step.node in ("run", "check") else "-"),
        ),
        ("body ran", "-" if body is None else ("yes" if body else "no")),
        ("cache", step.cache or "-"),
        ("kind", step.kind or "-"),
        ("error", step.error or "-"),
        ("retries", retry_text or "none"),
        ("delays", ", ".join(f"{d} ms" for d in step.delays_ms) or "-"),
        ("fixes", "; ".join(step.fixes) or "none"),
        ("reason", step.reason or "-"),
        ("message", step.message or "-"),
    ]


class StepsView(Vertical):
    """Episodes (original + forks), their steps, the selected step, and the fork editor."""

    BINDINGS = [
        Binding("n", "step_next", "Next", id="step-next"),
        Binding("p", "step_back", "Back", id="step-back"),
        Binding("e", "to_end", "End", id="step-end"),
        Binding("ctrl+f", "fork", "Fork", id="step-fork"),
        Binding("f7", "wire_tab", "Wire", id="steps-wire-tab", priority=True),
    ]

    #: The selected step made a call, so it can be forked: the fork editor and button are
    #: enabled only then.
    fork_enabled: var[bool] = var(False)

    #: The loaded tools (bound to the app's workbench): manual episodes and forks run on it.
    pg: var[Playground | None] = var(None, init=False, always_update=True)

    #: The widget focused when the Steps tab opens (keyboard first).
    FIRST_FOCUS = "#steps-table"

    class EpisodeDone(Message):
        """A manual episode or a fork finished in the worker: ``episode``, ``label``, ``start``
        (the step to reveal up to), or ``error``."""

        def __init__(self, episode: Any, label: str, start: int = 0, error: str = "") -> None:
            super().__init__()
            self.episode = episode
            self.label = label
            self.start = start
            self.error = error

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.episodes: list[Any] = []
        self.labels: list[str] = []
        self.current = -1
        self.cursor = 0  # the last revealed step of the current episode
        self.selected = 0  # the step whose state is shown
        self.state_text = ""
        #: The manual episode or fork the worker runs now, kept when a signal ends the app.
        self.episode_slot = EpisodeSlot()

    def compose(self) -> ComposeResult:
        yield Static(
            "No episode yet: ask a question (F2) or use 'Run with repair' in the Call view.",
            id="steps-status",
            classes="status",
        )
        with Horizontal(id="steps-body"):
            with Vertical(id="steps-left"):
                yield Label("Episodes (original + forks)", classes="section")
                yield OptionList(id="episodes")
                yield Label("Steps   n next · p back · e to end", classes="section")
                yield DataTable(id="steps-table", cursor_type="row", zebra_stripes=True)
                yield Static("", id="episode-summary", markup=False)
            with VerticalScroll(id="steps-right") as right:
                right.can_focus = False  # read-only except the fork editor and button
                yield Label("Selected step", classes="section")
                yield Static("-", id="step-state")
                yield Label(
                    "Arguments for a fork (edit, then ctrl+f)", id="fork-label", classes="section"
                )
                yield JsonEditor("{}", id="fork-args")
                yield Button("Replay from here (fork)  ctrl+f", id="fork")
                yield Label("The step's call", classes="section")
                yield RecordView(prefix="st-rv", id="step-record", empty_text="No step selected.")

    def on_mount(self) -> None:
        self.query_one("#steps-table", DataTable).add_columns(*COLUMNS)

    def watch_fork_enabled(self, enabled: bool) -> None:
        self.query_one("#fork-args", TextArea).disabled = not enabled
        self.query_one("#fork", Button).disabled = not enabled

    # -- state down ------------------------------------------------------------------------------
    def add_episode(self, episode: Any, label: str | None = None, start: int = 0) -> None:
        """Keep ``episode``, list it and show it with steps revealed up to ``start``."""
        self.episodes.append(episode)
        if label is None:
            who = f"ask ({episode.router})" if episode.question is not None else "manual"
            label = f"{who}: {episode.question or (episode.steps[0].tool if episode.steps else '')}"
        label = f"#{len(self.episodes)} {label}"
        self.labels.append(label)
        self.query_one("#episodes", OptionList).add_option(
            Option(plain(label), id=str(len(self.episodes) - 1))
        )
        self.show_episode(len(self.episodes) - 1, start)

    def show_episode(self, index: int, start: int = 0) -> None:
        """Show episode ``index`` with its steps revealed up to ``start``."""
        self.current = index
        episode = self.episodes[index]
        self.cursor = max(0, min(start, len(episode.steps) - 1))
        options = self.query_one("#episodes", OptionList)
        if options.highlighted != index:
            options.highlighted = index
        self._render_steps()

    def _show_summary(self) -> None:
        """The episode summary; its ending (end, ok, attempts, reply) only once the last step
        is revealed."""
        episode = self.episode
        if episode is None:
            return
        at_end = self.cursor >= len(episode.steps) - 1
        summary = [
            f"question: {episode.question}" if episode.question is not None else "manual call",
            f"router: {episode.router} · repairs by {episode.repairs_by}"
            + (f" · attempts {episode.attempts}" if at_end else ""),
        ]
        if episode.forked_from:
            summary.append(
                f"forked at step {episode.forked_from['step'] + 1} (attempt "
                f"{episode.forked_from['attempt']}) with {args_to_json_text(episode.forked_from['args'])}"
            )
        summary.extend(f"warning: {w}" for w in getattr(episode, "warnings", []))
        if at_end:
            summary.append(f"end: {episode.end} (ok: {ok_words(episode.ok)})")
            summary.append(f"reply: {episode.reply}")
        else:
            summary.append(f"{len(episode.steps)} steps: n next, e to the end to see how it ends")
        self.query_one("#episode-summary", Static).update(plain("\n".join(summary)))

    @property
    def episode(self) -> Any:
        return self.episodes[self.current] if 0 <= self.current < len(self.episodes) else None

    def _render_steps(self) -> None:
        table = self.query_one("#steps-table", DataTable)
        table.clear()
        episode = self.episode
        if episode is None:
            return
        for i, step in enumerate(episode.steps[: self.cursor + 1]):
            kind = step.kind or ""
            table.add_row(
                str(i + 1),
                step.node,
                attempt_label(step),
                plain(step.tool or ""),
                plain(kind, style=KIND_STYLES.get(kind, "")),
                plain(step.verdict or ""),
                plain(step.cache or ""),
                key=str(i),
            )
        table.move_cursor(row=self.cursor)
        self.select_step(self.cursor)
        self._show_summary()

    def select_step(self, index: int) -> None:
        """Show step ``index``'s state, its call (wire JSON per provider) and its arguments."""
        episode = self.episode
        if episode is None or not 0 <= index < len(episode.steps):
            return
        self.selected = index
        step = episode.steps[index]
        rows = step_state_lines(step)
        self.state_text = "\n".join(f"{k}: {v}" for k, v in rows)
        text = Text()
        for label, value in rows:
            text.append(f"{label:>9} ", style="dim")
            style = (
                KIND_STYLES.get(value, "")
                if label == "kind"
                else ("bold" if label == "node" else "")
            )
            text.append(f"{shown(value)}\n", style=style)
        self.query_one("#step-state", Static).update(text)
        record_view = self.query_one(RecordView)
        call = step.call
        if isinstance(call, int) and 0 <= call < len(episode.calls):
            record_view.show_record(episode.calls[call])
        else:
            record_view.clear("This step made no call.")
        self._show_fork_args(episode, step)
        total = len(episode.steps)
        self.query_one("#steps-status", Static).update(
            plain(
                f"step {index + 1}/{total} ({step.node}) · revealed {self.cursor + 1}/{total} · "
                "ctrl+f forks from this step"
            )
        )

    def _show_fork_args(self, episode: Any, step: Step) -> None:
        """Put the selected step's arguments in the fork editor: the step's own ``args``; for a
        ``reply``/``giveup`` step the last call's (``fork_episode`` re-runs the last attempt
        there); none (editor cleared and disabled) when the episode made no call."""
        editor = self.query_one("#fork-args", TextArea)
        label = self.query_one("#fork-label", Label)
        args = step.args
        note = "edit, then ctrl+f"
        if args is None and step.node in ("reply", "giveup") and episode.calls:
            args = episode.calls[-1].args
            note = "the last call's; edit, then ctrl+f to run it again"
        self.fork_enabled = args is not None
        editor.load_text(args_to_json_text(args) if args is not None else "")
        label.update(
            f"Arguments for a fork ({note})"
            if self.fork_enabled
            else "Arguments for a fork: this step made no call (nothing to fork)"
        )

    def exportables(self) -> dict[str, tuple[str, str]]:
        """What can be copied or saved: the selected step's wire JSON tab and record, and the
        whole episode (``--format json`` shape): ``{label: (text, file name)}``."""
        episode = self.episode
        if episode is None:
            return {}
        out: dict[str, tuple[str, str]] = {}
        step = episode.steps[self.selected] if self.selected < len(episode.steps) else None
        call = step.call if step is not None else None
        if isinstance(call, int) and 0 <= call < len(episode.calls):
            record = episode.calls[call]
            wire = self.query_one(RecordView).wire
            provider = (wire.query_one(TabbedContent).active or "").rsplit("-", 1)[-1]
            if provider in wire.texts:
                out[f"wire JSON ({provider})"] = (
                    wire.texts[provider],
                    f"{record.tool}.{provider}.json",
                )
            out["record"] = (pretty_json(record.to_json()), f"{record.tool}.record.json")
        out["episode"] = (pretty_json(episode.to_json()), f"episode-{self.current + 1}.json")
        return out

    def action_wire_tab(self) -> None:
        """``f7``: show the next provider's wire JSON of the step's call."""
        self.query_one(RecordView).wire.next_tab()

    # -- actions --------------------------------------------------------------------------------
    def action_step_next(self) -> None:
        """Reveal and select the next step."""
        if self.episode is not None and self.cursor < len(self.episode.steps) - 1:
            self.cursor += 1
            self._render_steps()

    def action_step_back(self) -> None:
        """Hide the last revealed step and select the one before."""
        if self.episode is not None and self.cursor > 0:
            self.cursor -= 1
            self._render_steps()

    def action_to_end(self) -> None:
        """Reveal every step and select the last."""
        if self.episode is not None:
            self.cursor = len(self.episode.steps) - 1
            self._render_steps()

    def action_fork(self) -> None:
        """Replay the current episode from the selected step with the edited arguments."""
        episode = self.episode
        if episode is None or self.pg is None:
            self.notify("No episode to fork.", severity="warning")
            return
        if not self.fork_enabled:
            self.notify("The selected step made no call: nothing to fork.", severity="warning")
            return
        value, problem = parse_json_text(self.query_one("#fork-args", TextArea).text)
        if problem:
            self.notify(
                f"invalid JSON in the fork arguments: {problem}",
                title="Not forked",
                severity="error",
            )
            return
        self._fork_worker(self.pg, episode, self.current, self.selected, value)

    def run_manual(self, tool: str, args: Any) -> None:
        """Run ``tool`` with ``args`` as a manual episode with repairs (in a worker), then show it."""
        if self.pg is None:
            self.notify("The tools are still loading.", severity="warning")
            return
        self.query_one("#steps-status", Static).update(plain(f"running {tool} with repair…"))
        self._manual_worker(self.pg, tool, args)

    def cancel_episode(self) -> bool:
        """ctrl+c: stop the running episode (a run with repair, a fork) and add it as it
        stood, ``end`` ``cancelled`` (kept in the history as the others). ``False`` when none
        runs."""
        from playground.tui.signal_exit import stop_episode

        episode = stop_episode(self.episode_slot, self.pg, "ctrl+c")
        if episode is None:
            return False
        self.workers.cancel_group(self, "episode")  # its thread is left to finish, unwaited
        self.post_message(self.EpisodeDone(episode, "cancelled (ctrl+c)"))
        return True

    @work(exclusive=True, group="episode", exit_on_error=False)
    async def _manual_worker(self, pg: Playground, tool: str, args: Any) -> None:
        # a daemon thread: quitting never waits for an episode (playground.tui.daemon_thread)
        await in_daemon_thread(self._manual, pg, tool, args)

    def _manual(self, pg: Playground, tool: str, args: Any) -> None:
        from playground.loop.episode import run_manual_episode

        try:
            episode = self.episode_slot.run(
                lambda running: run_manual_episode(pg, tool, args, running)
            )
        except Exception as exc:
            self.post_message(self.EpisodeDone(None, "", error=f"{type(exc).__name__}: {exc}"))
            return
        if episode is None:
            return
        self.post_message(self.EpisodeDone(episode, f"manual: {tool}"))

    @work(exclusive=True, group="episode", exit_on_error=False)
    async def _fork_worker(
        self, pg: Playground, episode: Episode, index: int, step: int, args: Any
    ) -> None:
        await in_daemon_thread(self._fork, pg, episode, index, step, args)

    def _fork(self, pg: Playground, episode: Episode, index: int, step: int, args: Any) -> None:
        from playground.loop.episode import fork_episode

        try:
            fork = self.episode_slot.run(
                lambda running: fork_episode(pg, episode, step, args, running=running)
            )
        except Exception as exc:  # UsageError: a step that made no call
            self.post_message(self.EpisodeDone(None, "", error=str(exc)))
            return
        if fork is None:
            return
        attempt = (fork.forked_from or {}).get("attempt")
        start = next(
            (
                i
                for i, s in enumerate(fork.steps)
                if s.node == Node.VALIDATE and s.attempt == attempt
            ),
            0,
        )
        self.post_message(self.EpisodeDone(fork, f"fork of #{index + 1} at step {step + 1}", start))

    # -- messages --------------------------------------------------------------------------------
    @on(EpisodeDone)
    def _episode_done(self, event: EpisodeDone) -> None:
        # not stopped: the app records the episode in the history
        if event.error:
            self.notify(event.error, title="Step-through", severity="error")
            return
        self.add_episode(event.episode, event.label, event.start)

    @on(DataTable.RowHighlighted, "#steps-table")
    def _row(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.row_key is not None and event.row_key.value is not None:
            index = int(event.row_key.value)
            if index != self.selected:
                self.select_step(index)

    @on(OptionList.OptionHighlighted, "#episodes")
    def _episode_chosen(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        index = int(event.option.id or 0)
        if index != self.current:
            self.show_episode(index)

    @on(Button.Pressed, "#fork")
    def _fork_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_fork()
