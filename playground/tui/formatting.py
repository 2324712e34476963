"""Plain-text and Rich renderings of records and contracts for the TUI panels.

Pure functions (no widgets): the panels show these strings, and the tests read the same
strings back. JSON is shown with ``ensure_ascii=False`` so Korean stays readable. Every text a
tool or server wrote goes through the rule for untrusted text
(:mod:`playground.core.untrusted`: control characters as ``\\x1b``, bidi and invisible
characters as ``<U+202E>``; in JSON, as ``\\uXXXX`` escapes); Textual never reads it as markup.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text

from playground.core.untrusted import json_shown, shown

if TYPE_CHECKING:
    from rich.syntax import Syntax

    from playground.core.contracts import Contract
    from playground.core.record import CallRecord

PROVIDERS = (("gemini", "Gemini"), ("anthropic", "Anthropic"), ("openai", "OpenAI"))


def pretty_json(value: Any) -> str:
    """Indented JSON (2 spaces), Korean as is; anything JSON cannot carry shown by ``repr``;
    control, bidi and invisible characters as JSON escapes (:func:`~playground.core.untrusted.json_shown`)."""
    return json_shown(json.dumps(value, ensure_ascii=False, indent=2, default=repr))


#: at most this many characters of a value or a wire JSON are drawn (highlighting 50 MB of
#: JSON froze the TUI for minutes); the full text stays available to save to a file
PREVIEW_CHARS = 20_000


def bounded_syntax(text: str, limit: int = PREVIEW_CHARS) -> Syntax | Group:
    """:func:`json_syntax` of ``text``, or of its first ``limit`` characters plus a line giving
    the full size (in characters and UTF-8 bytes) and how to save all of it."""
    if len(text) <= limit:
        return json_syntax(text)
    note = cut_note(text, limit, "ctrl+p → 'Save value to a file' writes all of it")
    return Group(json_syntax(text[:limit]), Text(f"… preview: {note}", style="bold yellow"))


def cut_note(text: str, limit: int, how_to_save: str) -> str:
    """What a preview of ``text``'s first ``limit`` characters leaves out: ``the first 8,000
    of 3,000,000 characters (3,000,000 bytes); HOW_TO_SAVE`` (bytes as UTF-8)."""
    size = len(text.encode("utf-8", "replace"))
    return f"the first {limit:,} of {len(text):,} characters ({size:,} bytes); {how_to_save}"


def json_syntax(text: str) -> Syntax:
    """A Rich ``Syntax`` for JSON text (highlighted with Pygments; not wrapped: long lines scroll
    sideways, so a long string never looks as if it held line breaks). ``rich.syntax`` (and
    Pygments) is imported on the first call, off the TUI's first-screen path."""
    from rich.syntax import Syntax

    return Syntax(
        json_shown(text), "json", theme="ansi_dark", word_wrap=False, background_color="default"
    )


def plain(text: Any, style: str = "") -> Text:
    """``text`` (a tool's or server's; any object, by ``str``) as a Rich ``Text`` in ``style``,
    shown by the rule for untrusted text (:func:`~playground.core.untrusted.shown`). A ``Text``
    is never parsed as markup, so ``[red]`` or ``[@click=…]`` in it stays literal."""
    return Text(shown(text), style=style)


def contract_badges(contract: Contract) -> list[tuple[str, str]]:
    """``(label, style)`` badges for a contract: ``writes`` (red: it changes something; with
    ``(inferred)`` or ``(annotations)`` when not declared), ``effects unknown`` (yellow: treated
    as a write), no cache (yellow), a time limit other than the default ``DEFAULT_TIMEOUT_S`` (5 s, from
    ``playground.core.contracts``), and ``table`` for a seed-003 table contract (neutral: it is
    where the contract was declared, not a warning)."""
    from playground.core.contracts import DEFAULT_TIMEOUT_S

    badges: list[tuple[str, str]] = []
    basis = (
        "" if contract.effects_basis in ("declared", "unknown") else f" ({contract.effects_basis})"
    )
    if contract.effects == "write":
        badges.append((f"writes{basis}", "bold white on red"))
    elif contract.effects == "unknown":
        badges.append(("effects unknown", "black on yellow"))
    elif not contract.caches:
        badges.append(("no cache", "black on yellow"))
    if contract.timeout_s != DEFAULT_TIMEOUT_S:
        badges.append((f"{contract.timeout_s:g}s", "black on cyan"))
    if contract.origin == "table":
        badges.append(("table", "white on grey35"))
    return badges


def contract_label(contract: Contract) -> Text:
    """The contract list entry (one line): the name and its badges."""
    text = Text(shown(contract.name), style="bold")
    for label, style in contract_badges(contract):
        text.append(" ")
        text.append(f" {label} ", style=style)
    return text


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` terminal cells with a trailing ``…`` when it is longer
    (Hangul counts two cells; no space is left before the ellipsis)."""
    if cell_len(text) <= width:
        return text
    out = ""
    for char in text:
        if cell_len(out + char) > width - 1:
            break
        out += char
    return out.rstrip() + "…"


def json_text(value: Any) -> str:
    """A value as compact one-line JSON (``true``/``null``, Korean as is); strings as they are
    shown (:func:`~playground.core.untrusted.shown`)."""
    if isinstance(value, str):
        return shown(value)
    return json_shown(json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str))


def first_line(text: str) -> str:
    """The first non-blank line of ``text``, stripped (``""`` when none)."""
    return next((line.strip() for line in (text or "").splitlines() if line.strip()), "")


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def record_fields(record: CallRecord) -> dict[str, str]:
    """The record's panel rows as plain strings, by field id.

    ``verdict``: the reason code or ``"valid"`` (with every reason and its path below it when
    there are several); ``body``: ``yes``/``no``; ``runs``: this contract's body runs so far;
    ``cache``: the state (with why it was skipped: the tool writes or its effects are
    unknown); ``cache_key``; ``kind``; ``error``;
    ``message`` (with each of the record's ``warnings`` on its own line); ``retries``: one ``attempt N: reason, waited D ms`` per retry; ``duration``.
    Each value as the screen shows it (:func:`~playground.core.untrusted.shown`).
    """
    retries = "; ".join(
        f"attempt {r.attempt}: {r.reason}, waited {r.delay_ms:g} ms" for r in record.retries
    )
    verdict = record.verdict
    if len(record.reasons) > 1:  # every violation, with its JSON path (issue 20 item 4)
        verdict = "\n".join(
            [f"{verdict} (+{len(record.reasons) - 1} more)"]
            + [
                f"{r.get('path') or '/'}  {r.get('code')}: {r.get('message')}"
                for r in record.reasons
            ]
        )
    cache = record.cache
    skip = (record.side_effects or {}).get("cache_skip")
    if skip:
        cache += f" ({skip})"
    fields = {
        "tool": record.tool,
        "call_id": record.call_id,
        "verdict": verdict,
        "body": yes_no(record.body_ran),
        "runs": str(record.body_runs),
        "cache": cache,
        "cache_key": record.cache_key or "-",
        "kind": record.kind,
        "error": record.error or "-",
        # a note that does not fail the call (a result over the token budget) shows where the
        # model-facing message would: the Call view had no place for it
        "message": "\n".join([*filter(None, [record.message]), *record.warnings]) or "-",
        "retries": retries or "none",
        "duration": f"{record.duration_ms:.1f} ms"
        + (f" (limit {record.timeout_s:g} s)" if record.timeout_s else ""),
        "printed": record.printed.strip() or "-",
    }
    return {name: shown(field_preview(value)) for name, value in fields.items()}


#: The most characters of one record field the panel draws (a cell of 51 MB of printed output
#: hung the TUI: Textual lays out and wraps the whole text); the rest is counted.
FIELD_CHARS = 8_000


def field_preview(text: str, limit: int = FIELD_CHARS) -> str:
    """``text``, or its first ``limit`` characters and a line giving the whole size and how to
    save all of it (the record as JSON: ctrl+s)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n… {cut_note(text, limit, 'ctrl+s saves the whole record')}"


#: The one style table for outcome kinds (the TUI's record and step views and the CLI's tables):
#: green ok, cyan empty (not an error), yellow for what the caller can fix (arguments, an unknown
#: name), magenta transient, red for the rest. Keyed by the values of
#: :class:`~playground.core.outcome.OutcomeKind` (a ``StrEnum``: a member looks up as its string),
#: so the first screen does not import ``core.outcome`` (~7 ms); a test checks the keys are the
#: kinds.
KIND_STYLES: dict[str, str] = {
    "ok": "bold green",
    "empty": "bold cyan",
    "invalid_args": "bold yellow",
    "unknown_tool": "bold yellow",
    "transient": "bold magenta",
    "bad_result": "bold red",
    "permission": "bold red",
    "raised": "bold red",
    "cancelled": "bold magenta",
}
