"""The ``PLAYGROUND_*`` environment variables: each one the playground reads, what it expects,
and one parser, so that a bad value is one clear error naming the variable instead of being
ignored (``PLAYGROUND_IMPORT_TIMEOUT_S=abc`` is refused; it used to mean "the default").

:func:`setting` reads one variable (the modules that own a setting call it: the worker's time
limit and result cap, the size budget, ``--in-process``); :func:`check_environment` checks them
all at once and names ``PLAYGROUND_*`` variables that are not settings (a misspelt name such as
``PLAYGROUND_TIMEOUT`` would otherwise change nothing, silently). The command line calls it
before any command (exit 2 on a bad value); docs/cli.md lists the settings.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

from playground.errors import UsageError

PREFIX = "PLAYGROUND_"
TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("", "0", "false", "no", "off")


class BadSetting(ValueError):
    """A value a parser refuses; the message says what was expected."""


#: The longest time limit the playground takes, in seconds (1,000,000 s, about 11.6 days):
#: a larger one overflowed the clocks and waits below ("timestamp too large to convert to C
#: _PyTime_t") and was reported as the tool's or the server's fault.
MAX_TIME_LIMIT_S = 1_000_000.0


def positive_number(text: str) -> float:
    """A finite number above 0 (``10``, ``0.5``, ``1e3``)."""
    try:
        value = float(text.strip().replace("_", ""))
    except ValueError:
        raise BadSetting("expected a number above 0") from None
    if not math.isfinite(value) or value <= 0:
        raise BadSetting("expected a number above 0")
    return value


def time_limit(text: str) -> float:
    """Seconds: a number above 0, at most :data:`MAX_TIME_LIMIT_S`."""
    value = positive_number(text)
    if value > MAX_TIME_LIMIT_S:
        raise BadSetting(f"expected at most {MAX_TIME_LIMIT_S:,.0f} seconds")
    return value


def positive_int(text: str) -> int:
    """A whole number above 0 (``25000``, ``25_000``)."""
    cleaned = text.strip().replace("_", "")
    if not cleaned.isdigit() or int(cleaned) <= 0:
        raise BadSetting("expected a whole number above 0")
    return int(cleaned)


def switch(text: str) -> bool:
    """``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``/empty (any case)."""
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise BadSetting(f"expected one of {', '.join(TRUE_WORDS)} or {', '.join(FALSE_WORDS[1:])}")


def mcp_protocol(text: str) -> str:
    """``handshake`` (the 2025 ``initialize`` era) or ``auto`` (``server/discover`` first: the
    2026-07-28 stateless era when the server speaks it), any case."""
    word = text.strip().lower()
    if word not in ("handshake", "auto"):
        raise BadSetting("expected handshake or auto")
    return word


def any_text(text: str) -> str:
    """Any text (a path, a model name)."""
    return text


@dataclass(frozen=True)
class Setting:
    """One variable: its ``name``, what it means (``help``) and its ``parse`` function."""

    name: str
    help: str
    parse: Callable[[str], Any]


#: Every ``PLAYGROUND_*`` variable the playground reads, by name.
SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting(
            "PLAYGROUND_IMPORT_TIMEOUT_S",
            "seconds one tool module may take to import; default 10",
            time_limit,
        ),
        Setting(
            "PLAYGROUND_RESULT_CAP_MB",
            "the largest result a worker sends back, in MB; default 16",
            positive_number,
        ),
        Setting(
            "PLAYGROUND_TOKEN_BUDGET",
            "approximate tokens of result JSON before a result gets a warning; default 25000",
            positive_int,
        ),
        Setting(
            "PLAYGROUND_ROUTER_TIMEOUT_S",
            "seconds one model router request may take; default 30",
            time_limit,
        ),
        Setting(
            "PLAYGROUND_ROUTER_TOTAL_S",
            "seconds a model router may take for one answer, retries included; default 60",
            time_limit,
        ),
        Setting("PLAYGROUND_IN_PROCESS", "run tool bodies in this process", switch),
        Setting(
            "PLAYGROUND_MCP_PROTOCOL",
            "the MCP protocol era: handshake (default) or auto (2026-07-28 when offered)",
            mcp_protocol,
        ),
        Setting("PLAYGROUND_HISTORY", "the history file, or off", any_text),
        Setting("PLAYGROUND_CACHE_DIR", "the folder of the declaration cache", any_text),
        Setting("PLAYGROUND_GEMINI_MODEL", "the Gemini model", any_text),
        Setting("PLAYGROUND_OPENAI_MODEL", "the OpenAI model", any_text),
        Setting("PLAYGROUND_ANTHROPIC_MODEL", "the Anthropic model", any_text),
        Setting(
            "PLAYGROUND_COMPATIBLE_BASE_URL",
            "the OpenAI-compatible server's base URL (--router openai-compatible)",
            any_text,
        ),
        Setting("PLAYGROUND_COMPATIBLE_MODEL", "the OpenAI-compatible server's model", any_text),
        Setting(
            "PLAYGROUND_COMPATIBLE_API_KEY",
            "the key sent to the OpenAI-compatible server, if it wants one",
            any_text,
        ),
        Setting("PLAYGROUND_DEBUG", "print the traceback of an internal error", any_text),
        Setting("PLAYGROUND_FIXTURES", "the data folder the bundled tools/ read", any_text),
    )
}


#: Variables besides the ``PLAYGROUND_*`` settings that decide the playground's own paths (the
#: cache folder, the TUI's state file; :func:`Path.home` reads ``HOME``)
PATH_VARIABLES = ("HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")

_frozen: dict[str, str] | None = None


def freeze() -> None:
    """Read every setting (and :data:`PATH_VARIABLES`) now and ignore later changes to
    ``os.environ`` in this process: :func:`current_environ` answers from this copy from now on. The
    worker process calls it before it imports a tool module (issue 27), so a module that sets
    ``os.environ["PLAYGROUND_CACHE_DIR"]`` (or ``HOME``) at import time moves nothing; the
    values are those the worker inherited from the playground's own process. A relative
    ``PLAYGROUND_CACHE_DIR`` is made absolute against the working directory of this moment
    (a later ``os.chdir`` moves nothing either)."""
    global _frozen
    names = (*SETTINGS, *PATH_VARIABLES)
    copy = {name: os.environ[name] for name in names if name in os.environ}
    cache = copy.get("PLAYGROUND_CACHE_DIR", "").strip()
    if cache:
        copy["PLAYGROUND_CACHE_DIR"] = os.path.abspath(os.path.expanduser(cache))
    _frozen = copy


def current_environ() -> Mapping[str, str]:
    """The environment the playground reads its settings and paths from: the copy
    :func:`freeze` took, else ``os.environ``."""
    return os.environ if _frozen is None else _frozen


def setting(name: str, default: Any, environ: Mapping[str, str] | None = None) -> Any:
    """The parsed value of the setting ``name`` (a key of :data:`SETTINGS`) from ``environ``
    (default ``os.environ``), or ``default`` when it is unset or blank. Raises
    :class:`~playground.errors.UsageError` ``PLAYGROUND_X='abc': expected ...`` when the value
    is not one the setting takes."""
    env = current_environ() if environ is None else environ
    text = env.get(name)
    if text is None or not text.strip():
        return default
    try:
        return SETTINGS[name].parse(text)
    except BadSetting as exc:
        raise UsageError(f"{name}={text!r}: {exc} ({SETTINGS[name].help})") from None


def check_environment(environ: Mapping[str, str] | None = None) -> list[str]:
    """Check every ``PLAYGROUND_*`` variable of ``environ`` (default ``os.environ``).

    Raises :class:`~playground.errors.UsageError` for the first value a setting refuses (see
    :func:`setting`). Returns one note per ``PLAYGROUND_*`` name that is not a setting
    (``PLAYGROUND_TIMEOUT is not a playground setting (did you mean
    PLAYGROUND_IMPORT_TIMEOUT_S?); it changes nothing``)."""
    env = os.environ if environ is None else environ
    notes = []
    for name in sorted(n for n in env if n.startswith(PREFIX)):
        if name in SETTINGS:
            setting(name, None, env)
            continue
        close = get_close_matches(name, list(SETTINGS), n=1, cutoff=0.75)
        hint = f"did you mean {close[0]}?" if close else f"the settings: {', '.join(SETTINGS)}"
        notes.append(f"{name} is not a playground setting ({hint}); it changes nothing")
    return notes
