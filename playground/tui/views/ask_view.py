"""Ask mode: a customer question → the router's choice → each call through the gate → the reply.

The episode runs in a thread worker (``playground.loop.episode.run_question_episode`` with a
router from ``playground.routing.factory.choose_router``). The worker also builds the exact
first request a model router would send (:func:`dry_run_request`: no key, nothing sent). When the episode is
shown, :class:`AskView.EpisodeReady` goes up so the app can open it in the step-through.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import var
from textual.widgets import Button, Input, Label, OptionList, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option

from playground.core.untrusted import shown
from playground.routing import registry
from playground.routing.registry import RouterSpec
from playground.tui.daemon_thread import in_daemon_thread
from playground.tui.explain import (
    explanation_lines,
    explanation_renderable,
    move_summary,
    raw_renderable,
)
from playground.tui.formatting import json_syntax, plain, pretty_json
from playground.tui.router_pick import RouterPick
from playground.tui.signal_exit import EpisodeSlot
from playground.tui.tabkeys import cycle_tabs
from playground.tui.widgets.fields import FieldInput
from playground.tui.widgets.record_view import RecordView

if TYPE_CHECKING:
    from playground.workbench import Playground

#: The calls panel before any question (Ask mode has no argument form).
ASK_EMPTY = "No question yet: type a customer question above and press enter (or ctrl+r)."


class AskView(Vertical):
    """Question input, the router's choice and explanation, the calls, the reply."""

    BINDINGS = [
        Binding("f6", "ask_tab", "Calls/Moves/Request", id="ask-tab", priority=True),
        Binding("f7", "wire_tab", "Wire", id="ask-wire-tab", priority=True),
    ]

    #: An episode is in the worker: the Ask button is disabled while it runs.
    running: var[bool] = var(False)

    #: The loaded tools (bound to the app's workbench).
    pg: var[Playground | None] = var(None, init=False, always_update=True)
    #: The router chosen in the app (F9, the palette), with its mode and model.
    router: var[RouterPick] = var(RouterPick(registry.DEFAULT_ROUTER), init=False)
    #: The second router of compare mode (``None``: off): each question also runs on it.
    compare: var[str | None] = var(None, init=False, always_update=True)

    #: The widget focused when the Ask tab opens (keyboard first).
    FIRST_FOCUS = "#question"

    class AskDone(Message):
        """The worker's result: the ``episode``, router ``notes``, the first ``request`` (dry run)."""

        def __init__(
            self, episode: Any, notes: list[str], request: Any, compare: Any = None
        ) -> None:
            super().__init__()
            self.episode = episode
            self.notes = notes
            self.request = request
            self.compare = compare

    class EpisodeReady(Message):
        """An episode finished in Ask mode (for the step-through): ``episode``."""

        def __init__(self, episode: Any) -> None:
            super().__init__()
            self.episode = episode

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.episode = None
        self.request: Any = None
        self.texts: dict[str, str] = {}
        self.compare_episode: Any = None
        #: The episode the worker runs now, kept when a signal ends the app.
        self.episode_slot = EpisodeSlot()

    def compose(self) -> ComposeResult:
        with Horizontal(id="ask-bar"):
            yield FieldInput(
                placeholder="고객 질문을 입력하세요 — e.g. HR20260601 택배 어디쯤인가요?",
                id="question",
            )
            yield Button("Ask  ctrl+r", id="ask", variant="primary")
        yield Static("", id="ask-router", classes="status")
        with Horizontal(id="ask-body"):
            with VerticalScroll(id="ask-left"):
                yield Label("Router's choice", classes="section")
                yield Static(
                    "Ask a question to see which tool the router picks and why.", id="ask-choice"
                )
                yield Label("Reply", classes="section")
                yield Static("-", id="ask-reply", markup=False)
            compare = VerticalScroll(id="ask-compare")
            compare.display = False  # compare mode off
            with compare:
                yield Label("Compare", classes="section", id="ask-compare-title")
                yield Static("-", id="ask-compare-body", markup=False)
            with TabbedContent(id="ask-tabs"):
                with TabPane("Calls", id="ask-calls-pane"):
                    yield OptionList(id="ask-calls")
                    yield RecordView(prefix="ask-rv", id="ask-record", empty_text=ASK_EMPTY)
                with TabPane("Moves (raw)", id="ask-moves-pane"), VerticalScroll():
                    yield Static("-", id="ask-moves")
                with TabPane("Request (dry run)", id="ask-request-pane"), VerticalScroll():
                    yield Static(
                        "The exact first request a model router (Gemini) would send appears here.",
                        id="ask-request",
                    )

    #: A question asked while the tools were loading: run once they are (:meth:`watch_pg`).
    _waiting: str | None = None

    def on_mount(self) -> None:
        self._show_router()

    def watch_pg(self, pg: Playground | None) -> None:
        """The tools are loaded (or reloaded): a question asked while they loaded runs now."""
        question, self._waiting = self._waiting, None
        if pg is not None and question is not None and self.is_mounted:
            self.run_question(question)

    def watch_running(self, running: bool) -> None:
        self.query_one("#ask", Button).disabled = running

    # -- state down ------------------------------------------------------------------------------
    def watch_router(self) -> None:
        """The app switched router, or its mode or model."""
        if self.is_mounted:
            self._show_router()

    def watch_compare(self, name: str | None) -> None:
        """Compare mode: also run each question on router ``name`` and show its choice, calls
        and reply beside the first router's (``None``: off)."""
        if not self.is_mounted:
            return
        self.compare_episode = None
        pane = self.query_one("#ask-compare", VerticalScroll)
        pane.display = name is not None
        self.query_one("#ask-compare-title", Label).update(f"Compare: {name} router")
        self.query_one("#ask-compare-body", Static).update("Ask a question to compare.")
        self._show_router()

    def _show_router(self) -> None:
        traits = capability_words(registry.get(self.router.name))
        text = (
            f"router: {self.router} · {', '.join(traits)}   "
            "(switch: F9 or ctrl+p → Router / mode / model)"
        )
        if self.compare:
            text += f" · compared with: {self.compare}"
        self.query_one("#ask-router", Static).update(plain(text))

    # -- actions --------------------------------------------------------------------------------
    def run_question(self, question: str | None = None) -> None:
        """Run the question in the input (or ``question``, which is also put in the input)."""
        field = self.query_one("#question", Input)
        if question is not None:
            field.value = question
        text = field.value.strip()
        if self.pg is None and text:  # asked once they are loaded (watch_pg)
            self._waiting = text
            self.query_one("#ask-reply", Static).update(
                Text("waiting for the tools to load…", style="bold yellow")
            )
            return
        if not text:
            self.notify("Type a customer question first.", severity="warning")
            return
        if self.running:
            self.notify("An episode is still running.", severity="warning")
            return
        self.running = True
        self.query_one("#ask-reply", Static).update(Text("running…", style="bold yellow"))
        # the calls panel said "No question yet" while a question ran
        self.query_one("#ask-record", RecordView).clear(
            f"Running: {shown(text)} (ctrl+c cancels; its calls are shown when it ends)",
            running=True,
        )
        if self.compare:
            self.query_one("#ask-compare-body", Static).update(
                Text("running…", style="bold yellow")
            )
        self._ask_worker(self.pg, text, self.router)

    @work(exclusive=True, group="ask", exit_on_error=False)
    async def _ask_worker(self, pg: Playground, question: str, pick: RouterPick) -> None:
        # a daemon thread: quitting never waits for an episode (playground.tui.daemon_thread)
        await in_daemon_thread(self._ask, pg, question, pick)

    def _ask(self, pg: Playground, question: str, pick: RouterPick) -> None:
        from playground.routing.factory import choose_router

        notes: list[str] = []
        try:
            choice = choose_router(pick.name, pick.model, pick.mode, fallback=True)
            notes = list(choice.notes)
            episode = self._run_episode(pg, question, choice.router)
        except Exception as exc:  # UsageError from the factory; never let it kill the app
            self.post_message(self.AskDone(None, [f"{type(exc).__name__}: {exc}"], None))
            return
        if episode is None:
            return
        compare: Any = None
        if self.compare:
            try:  # the same question on the second router (no fallback: say why it cannot run)
                other = choose_router(self.compare, None, None).router
                compare = self._run_episode(pg, question, other)
            except Exception as exc:
                compare = f"{type(exc).__name__}: {exc}"
            if compare is None:
                return
        self.post_message(
            self.AskDone(episode, notes, dry_run_request(pg, question, pick), compare)
        )

    def _run_episode(self, pg: Playground, question: str, router: Any) -> Any:
        """Run ``question`` on ``router`` (on the worker's thread) in :attr:`episode_slot`;
        ``None`` when a signal ending the app kept it."""
        from playground.loop.episode import run_question_episode

        return self.episode_slot.run(
            lambda running: run_question_episode(pg, question, router, running=running)
        )

    def cancel_episode(self) -> bool:
        """ctrl+c: stop the running question's episode and show it as it stood -- the calls
        made so far, the running one ``cancelled``, ``end`` ``cancelled`` -- kept in the
        history as a finished one is. ``False`` when none runs."""
        from playground.tui.signal_exit import stop_episode

        episode = stop_episode(self.episode_slot, self.pg, "ctrl+c")
        if episode is None:
            return False
        self.workers.cancel_group(self, "ask")  # its thread is left to finish, unwaited
        self.post_message(self.AskDone(episode, [], None))
        return True

    def action_ask_tab(self) -> None:
        """``f6``: the next of the Calls, Moves (raw) and Gemini request tabs."""
        cycle_tabs(self.query_one("#ask-tabs", TabbedContent), focus=True)

    def action_wire_tab(self) -> None:
        """``f7``: the next provider's wire JSON of the shown call."""
        self.query_one(RecordView).wire.next_tab()

    def exportables(self) -> dict[str, tuple[str, str]]:
        """What can be copied or saved: the shown call's wire JSON tab and record, the episode
        and the Gemini request: ``{label: (text, file name)}``."""
        episode = self.episode
        if episode is None:
            return {}
        out: dict[str, tuple[str, str]] = {}
        index = self.query_one("#ask-calls", OptionList).highlighted
        if index is not None and index < len(episode.calls):
            record = episode.calls[index]
            wire = self.query_one(RecordView).wire
            provider = (wire.query_one(TabbedContent).active or "").rsplit("-", 1)[-1]
            if provider in wire.texts:
                out[f"wire JSON ({provider})"] = (
                    wire.texts[provider],
                    f"{record.tool}.{provider}.json",
                )
            out["record"] = (pretty_json(record.to_json()), f"{record.tool}.record.json")
        out["episode"] = (pretty_json(episode.to_json()), "episode.json")
        if self.compare_episode is not None:
            out[f"episode ({self.compare_episode.router})"] = (
                pretty_json(self.compare_episode.to_json()),
                f"episode-{self.compare_episode.router}.json",
            )
        if "request" in self.texts:
            out["Gemini request"] = (self.texts["request"], "gemini-request.json")
        return out

    # -- messages up -----------------------------------------------------------------------------
    @on(AskDone)
    def _done(self, event: AskDone) -> None:
        event.stop()
        self.running = False
        for note in event.notes:
            self.notify(note, severity="warning", timeout=10)
        if event.episode is None:
            self.query_one("#ask-reply", Static).update(plain("; ".join(event.notes), style="red"))
            return
        self.show_episode(event.episode, event.request)
        if self.compare:
            self.show_compare(event.compare)
        self.post_message(self.EpisodeReady(event.episode))
        if self.compare_episode is not None:  # the history keeps both episodes
            self.post_message(self.EpisodeReady(self.compare_episode))

    def show_compare(self, episode: Any) -> None:
        """Show the compare router's ``episode`` (or the one-line reason it could not run):
        its moves, each call (tool, arguments, outcome kind, cache) and its reply."""
        self.compare_episode = episode if not isinstance(episode, str) else None
        body = self.query_one("#ask-compare-body", Static)
        if episode is None:
            body.update("-")
            return
        if isinstance(episode, str):
            self.texts["compare"] = episode
            body.update(Text(episode, style="red"))
            return
        parts: list[Any] = []
        for i, move in enumerate(episode.moves, start=1):
            parts.append(Text(f"move {i}: {move_summary(move)}"))
        for record in episode.calls:
            parts.append(
                Text(
                    f"call {record.tool} {json.dumps(record.args, ensure_ascii=False, default=repr)}  "
                    f"{record.kind}  cache {record.cache}",
                    style="dim",
                )
            )
        parts.append(
            Text(f"[{episode.end}] ", style="dim")
            + Text(episode.reply or "(no reply)", style="bold")
        )
        self.texts["compare"] = "\n".join(part.plain for part in parts)
        body.update(Group(*parts))

    def show_episode(self, episode: Any, request: Any = None) -> None:
        """Show ``episode`` (a ``loop.episode.Episode``) and the first ``request`` (dry run)."""
        self.episode = episode
        self.request = request
        moves = episode.moves
        first = next((m for m in moves if m.get("calls")), moves[0] if moves else None)
        parts: list[Any] = []
        lines: list[str] = []
        if first is not None:
            head = plain(f"{episode.router} router {move_summary(first)}", style="bold")
            parts.append(head)
            lines.append(head.plain)
            if first.get("explanation"):
                parts.append(explanation_renderable(first["explanation"]))
                lines.extend(explanation_lines(first["explanation"]))
            elif first.get("raw") is not None:
                parts.append(Text("the model's raw parts:", style="dim"))
                parts.append(raw_renderable(first["raw"]))
                lines.append(pretty_json(first["raw"]))
        else:
            error_step = next((s for s in episode.steps if s.reason == "router_error"), None)
            msg = (error_step.message or "") if error_step else "the router made no move"
            parts.append(plain(msg, style="red"))
            lines.append(msg)
        for i, move in enumerate(moves[1:], start=2):
            line = f"move {i}: {move_summary(move)}"
            parts.append(plain(line, style="dim"))
            lines.append(line)
        self.query_one("#ask-choice", Static).update(Group(*parts))
        self.texts["choice"] = "\n".join(lines)
        reply = episode.reply or "(no reply)"
        status = f"[{episode.end}] " + (
            f"fixes: {'; '.join(episode.fixes)}\n" if episode.fixes else ""
        )
        self.texts["reply"] = reply
        self.query_one("#ask-reply", Static).update(
            plain(status, style="dim") + plain(reply, style="bold")
        )
        calls = self.query_one("#ask-calls", OptionList)
        calls.clear_options()
        calls.add_options(
            Option(
                plain(f"{r.call_id} {r.tool}  {r.kind}  verdict {r.verdict}  cache {r.cache}"),
                id=str(i),
            )
            for i, r in enumerate(episode.calls)
        )
        record_view = self.query_one(RecordView)
        if episode.calls:
            calls.highlighted = 0
            record_view.show_record(episode.calls[0])
        else:
            record_view.clear("The router called no tool.")
        self.texts["moves"] = pretty_json(moves)
        self.query_one("#ask-moves", Static).update(json_syntax(self.texts["moves"]))
        if request is not None:
            self.texts["request"] = pretty_json(request)
            self.query_one("#ask-request", Static).update(json_syntax(self.texts["request"]))

    @on(OptionList.OptionHighlighted, "#ask-calls")
    def _call_chosen(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if self.episode is not None and event.option.id is not None:
            self.query_one(RecordView).show_record(self.episode.calls[int(event.option.id)])

    @on(Input.Submitted, "#question")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.run_question()

    @on(Button.Pressed, "#ask")
    def _ask_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.run_question()


def capability_words(spec: RouterSpec) -> list[str]:
    """What a router's declaration says it does, in words for the Ask status line:
    ``["explains its choice", "one call a move", "repairs: loop table", "no key"]``."""
    caps = spec.capabilities
    return [
        "explains its choice" if caps.explains else "no explanations",
        "parallel calls" if caps.parallel_calls else "one call a move",
        f"repairs: {'loop table' if caps.repairs == 'loop' else 'the model'}",
        f"key: {' or '.join(spec.key_env_vars)}" if spec.needs_key else "no key",
    ]


def dry_run_request(pg: Playground, question: str, pick: RouterPick) -> dict[str, Any] | None:
    """The exact first request for ``question``, without sending it or any key: from the picked
    router when it has a dry run, else from the first registered router that has one (Gemini),
    so the request a model would get is always there to read. ``None`` when no router has a dry
    run; ``{"error": ...}`` when building it failed."""
    from playground.routing import registry
    from playground.routing.base import DryRunRouter, Turn
    from playground.routing.factory import choose_router

    picked = registry.get(pick.name)
    if picked.capabilities.dry_run:
        name, model, mode = picked.name, pick.model, pick.mode
    else:
        spec = next((s for s in registry.specs() if s.capabilities.dry_run), None)
        if spec is None:
            return None
        name, model, mode = spec.name, None, None
    try:
        router = choose_router(name, model, mode, environ={}, dry_run=True).router
        if not isinstance(router, DryRunRouter):  # pragma: no cover - a backend's own bug
            return {"error": f"the {name} router declares a dry run but has none"}
        return router.dry_run([Turn(role="user", text=question)], pg.registry.declarations())
    except Exception as exc:  # a conversion the provider refuses: show it, never crash
        return {"error": f"{type(exc).__name__}: {exc}"}
