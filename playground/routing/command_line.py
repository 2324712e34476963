"""Command lines written in a question, for a parameter that takes one.

A tool that runs a command (``cmd_controller.execute(command)`` "The command line instruction
to be passed to os.system()") is asked for with the command itself: "using the command
tasklist /FI "IMAGENAME eq Code.exe"", "using the exact command shutdown /s /t 0", "use docker
ps", "using the echo %date% command". Such a span is a value of its own kind -- it shows the
question is about the tool the way an id or an enum value does -- and the parameter takes the
whole span, not the first path-like or quoted piece of it (issue 12, BFCL dev ``live_simple``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playground.routing import korean, values

#: Words of a parameter's name that say it takes a command line (split on ``_``/camelCase).
_COMMAND_NAME_WORDS = frozenset({"command", "commands", "cmd", "commandline", "cmdline"})
#: A description that says its parameter takes a command line (not "the command execution
#: time", which is about a command, not one).
_COMMAND_DOC_RE = re.compile(
    r"\b(?:command[- ]line|shell command|terminal command|command prompt|shell statement)\b", re.I
)
#: "using the exact command ...", "run the following instruction: ...": the command follows.
_INTRO_NAMED_RE = re.compile(
    r"\b(?:using|use|run|running|execute|executing|with|through|via|by)\s+(?:the\s+)?"
    r"(?:exact\s+|following\s+|shell\s+)?(?:command|instruction|cmd)(?:\s+line)?"
    r"(?:\s+(?:called|named))?\s*:?\s+",
    re.I,
)
#: "use docker ps", "using the echo %date% command", "through dir D:\\": a span that may be one.
_INTRO_RE = re.compile(r"\b(?:using|use|run|through|via)\s+(?:the\s+)?", re.I)
#: The end of a sentence: the command ends there (a dot inside "testing.txt" does not end it).
_END_RE = re.compile(r"[.;?!](?=\s|$)|\n|$")
#: Words after a bare command that start the rest of the sentence ("use docker ps to find out").
_AFTER_RE = re.compile(r",|\s(?:to|for|so|and then|in order to|so that|because|if)\s", re.I)
#: Tokens only a command line has: flags (--version, /s, -l), drive paths, backslashes, &&,
#: pipes, %variables%, executables.
_SHAPE_RE = re.compile(
    r"(?:^|\s)(?:--?[A-Za-z]|/[A-Za-z?]{1,3}(?=\s|$))|(?<![A-Za-z])[A-Za-z]:[\\/]|\\|&&|\s\|\s|%\w+%|\.exe\b",
)
_TRAILING_COMMAND_RE = re.compile(r"\s+command\s*$", re.I)


@dataclass(frozen=True)
class CommandSpan:
    """One command line found in a question: ``[start, end)`` character offsets, its ``text``
    and ``why`` it is one (for the explanation's evidence)."""

    start: int
    end: int
    text: str
    why: str


def takes_command(name: str, doc: str) -> bool:
    """True when a string parameter named ``name`` described by ``doc`` takes a command line:
    a name word command/cmd (``command``, ``shell_cmd``) or a description saying "command
    line", "shell command", "command prompt"."""
    parts = {p.lower() for p in korean.split_identifier(name)}
    return bool(parts & _COMMAND_NAME_WORDS) or bool(_COMMAND_DOC_RE.search(doc))


def command_span(text: str, used: list[tuple[int, int]]) -> CommandSpan | None:
    """The command line ``text`` writes, or ``None``. In order of preference: the span a
    command word introduces ("using the exact command shutdown /s /t 0", up to the end of the
    sentence); a span after using/use/run/through that has a command's shape (a flag, a drive
    path, ``&&``, ``%var%``, ``.exe``), is named as a command ("using the echo %date% command")
    or starts with a word the question says elsewhere ("is docker running, please use docker
    ps"; up to a comma or "to/for/so"); longer spans before a single word ("using the taskkill
    command" -> ``taskkill``). ``used``: spans other arguments already took."""
    found: list[tuple[int, int, CommandSpan]] = []
    for m in _INTRO_NAMED_RE.finditer(text):
        end = _END_RE.search(text, m.end())
        stop = end.start() if end else len(text)
        value = text[m.end() : stop].strip()
        if value and values.outside((m.end(), m.end() + len(value)), used):
            why = f"the command after {text[m.start() : m.end()].strip()!r}"
            found.append((0, 0, CommandSpan(m.end(), m.end() + len(value), value, why)))
    low = text.lower()
    for m in _INTRO_RE.finditer(text):
        start = m.end()
        if start >= len(text) or not (text[start].islower() or text[start] in "%\\/"):
            continue
        end = _END_RE.search(text, start)
        stop = end.start() if end else len(text)
        raw = text[start:stop]
        named = re.search(r"\s+command\b", raw, re.I)
        if named:  # "using the echo %date% command": the words before "command"
            value = raw[: named.start()].strip()
            why = f"named as the command in {text[m.start() : start + named.end()].strip()!r}"
        else:
            after = _AFTER_RE.search(raw)
            value = (raw[: after.start()] if after else raw).strip()
            why = ""
            if _SHAPE_RE.search(" " + value):
                why = f"shaped like a command line after {m.group().strip()!r}"
            else:
                rest = low[:start] + " " + low[start + len(value) :]
                said = [
                    w
                    for w in value.lower().split()
                    if len(w) >= 3
                    and not korean.is_stopword(w)
                    and re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", rest)
                ]
                if said:
                    why = f"after {m.group().strip()!r}, with {said[0]!r} the question names"
            if not why or len(value.split()) > 8:
                continue
        if not value or value.lower() in ("command", "the command") or len(value.split()) > 12:
            continue
        value = _TRAILING_COMMAND_RE.sub("", value)
        if values.outside((start, start + len(value)), used):
            rank = 1 if " " in value else 2
            found.append((rank, -len(value), CommandSpan(start, start + len(value), value, why)))
    if not found:
        return None
    return min(found, key=lambda f: (f[0], f[1], f[2].start))[2]
