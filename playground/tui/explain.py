"""Rendering a router's explanation of one move (offline: scores, matched terms, boundary
sentences, argument evidence, threshold; Gemini: the model's raw parts).

The offline explanation is ``Move.explanation`` from ``playground.routing.offline``:
``{"threshold", "words", "tools": [{"name", "score", "relevance", "boundary_penalty",
"matched": [{"word", "term", "where", "points"}], "boundary": [{"sentence", "hit",
"points_to"}], "args", "arg_evidence": {arg: {"rule", "text", "detail"}}, "missing"}], "chosen",
"reason"}``. Missing keys are tolerated (shown as ``-``).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from playground.core.untrusted import json_shown, shown
from playground.tui.formatting import clip, json_syntax, json_text, plain, pretty_json


def move_summary(move: dict[str, Any]) -> str:
    """One line for a move: ``calls track_shipping({"order_id": "HR…"})`` or ``text: …``."""
    calls = move.get("calls") or []
    if calls:
        names = (f"{shown(c.get('name'))}({_compact(c.get('args'))})" for c in calls)
        return "calls " + ", ".join(names)
    text = shown((move.get("text") or "").strip())
    return f"answers: {clip(' '.join(text.split()), 120)}" if text else "answers (empty)"


def _compact(value: Any) -> str:
    import json

    return json_shown(json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=repr))


def evidence_detail(detail: Any) -> str:
    """An argument's evidence ``detail`` for reading: the free-text rule's ``{"kept": [...],
    "dropped": [{"word", "why"}]}`` as ``kept: 에어프라이어 · dropped: 재고 (why), 있어요 (stopword)``;
    any other non-string as compact JSON (``true``/``null``, never Python's ``True``/``None``)."""
    if isinstance(detail, dict) and ("kept" in detail or "dropped" in detail):
        parts = []
        kept = detail.get("kept") or []
        if kept:
            parts.append("kept: " + ", ".join(str(k) for k in kept))
        dropped = []
        for item in detail.get("dropped") or []:
            if isinstance(item, dict):
                why = f" ({item['why']})" if item.get("why") else ""
                dropped.append(f"{item.get('word')}{why}")
            else:
                dropped.append(json_text(item))
        if dropped:
            parts.append("dropped: " + ", ".join(dropped))
        return " · ".join(parts) or "-"
    if detail is None:
        return ""
    return json_text(detail)


def explanation_lines(explanation: dict[str, Any] | None, top: int = 5) -> list[str]:
    """Plain lines of an offline explanation: the reason, the threshold, the top tools with
    score and matched terms, the chosen tool's boundary sentences and argument evidence."""
    if not explanation:
        return ["(no explanation: this router does not explain its choices)"]
    if explanation.get("picked_by"):
        return [f"picked by the {explanation['picked_by']}"]
    lines = []
    if explanation.get("reason"):
        lines.append(f"reason: {explanation['reason']}")
    if "threshold" in explanation:
        lines.append(f"threshold: {explanation['threshold']}")
    tools = sorted(explanation.get("tools") or [], key=lambda t: -(t.get("score") or 0))
    for tool in tools[:top]:
        terms = "; ".join(tool.get("because") or []) or ", ".join(
            f"{m.get('word')}→{m.get('term')}" for m in tool.get("matched") or []
        )
        lines.append(f"{tool.get('name')}: score {tool.get('score')} · because {terms or '-'}")
    chosen = next((t for t in tools if t.get("name") == explanation.get("chosen")), None)
    if chosen:
        for b in chosen.get("boundary") or []:
            lines.append(f"boundary: {b.get('sentence')} (hit {', '.join(b.get('hit') or [])})")
        for arg, ev in (chosen.get("arg_evidence") or {}).items():
            lines.append(
                f"arg {arg} = {json_text(ev.get('text'))} ({ev.get('rule')}: {evidence_detail(ev.get('detail'))})"
            )
        if chosen.get("missing"):
            lines.append(f"missing: {', '.join(chosen['missing'])}")
    return [shown(line) for line in lines]


def explanation_renderable(explanation: dict[str, Any] | None, top: int = 6) -> RenderableType:
    """A Rich renderable for an explanation (a score table plus the chosen tool's evidence)."""
    if not explanation or explanation.get("picked_by") or "tools" not in explanation:
        return Text("\n".join(explanation_lines(explanation)))  # already shown
    parts: list[Any] = []
    head = Text()
    head.append("chosen ", style="dim")
    head.append(shown(explanation.get("chosen") or "(none)"), style="bold green")
    head.append(f"   threshold {explanation.get('threshold', '-')}", style="dim")
    parts.append(head)
    if explanation.get("reason"):
        parts.append(plain(explanation["reason"], style="italic"))
    table = Table(expand=True, show_edge=False, pad_edge=False)
    table.add_column("tool", no_wrap=True)
    table.add_column("score", justify="right")
    table.add_column("rel", justify="right")
    table.add_column("bound", justify="right")
    table.add_column("because (matched terms, evidence, penalties)", ratio=1)
    tools = sorted(explanation.get("tools") or [], key=lambda t: -(t.get("score") or 0))
    for tool in tools[:top]:
        style = "bold green" if tool.get("name") == explanation.get("chosen") else ""
        terms = "; ".join(tool.get("because") or []) or ", ".join(
            f"{m.get('word')}→{m.get('term')} ({m.get('where')})" for m in tool.get("matched") or []
        )
        table.add_row(
            plain(tool.get("name"), style=style),
            Text(json_text(tool.get("score", "-"))),
            Text(json_text(tool.get("relevance", "-"))),
            Text(json_text(tool.get("boundary_penalty", "-"))),
            plain(terms or "-"),
        )
    parts.append(table)
    chosen = next((t for t in tools if t.get("name") == explanation.get("chosen")), None)
    if chosen:
        for b in chosen.get("boundary") or []:
            line = Text("boundary: ", style="yellow")
            line.append(shown(b.get("sentence")))
            if b.get("hit"):
                line.append(shown(f"  (hit {', '.join(b['hit'])})"), style="dim")
            parts.append(line)
        for arg, ev in (chosen.get("arg_evidence") or {}).items():
            line = plain(f"{arg} = ", style="cyan")
            line.append(json_text(ev.get("text")), style="bold")
            line.append(
                shown(f"  {ev.get('rule')}: {evidence_detail(ev.get('detail'))}"), style="dim"
            )
            parts.append(line)
        if chosen.get("missing"):
            parts.append(plain(f"missing: {', '.join(chosen['missing'])}", style="red"))
    return Group(*parts)


def raw_renderable(raw: Any) -> Syntax:
    """A model's raw content (Gemini ``Content`` JSON) as highlighted JSON."""
    return json_syntax(pretty_json(raw))
