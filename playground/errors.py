"""One error base class for the playground's own failures (not a tool's failures).

A tool body that fails never raises out of the gate: it becomes an outcome. These errors are
for the playground itself: a tool module that cannot load, a case file that is malformed, a
command used wrongly. The CLI maps them to exit code 2 and prints one plain line.
"""

from __future__ import annotations


class PlaygroundError(Exception):
    """Base class of every error the playground raises on purpose."""


class LoadError(PlaygroundError):
    """A tool module, contract table or path could not be loaded (exit code 2)."""


class UsageError(PlaygroundError):
    """Arguments, options or a case file are malformed (exit code 2)."""


class RouterError(PlaygroundError):
    """A router could not produce a move (no key, an HTTP error from the provider, ...)."""


class Terminated(SystemExit):
    """The process was asked to end by a signal (SIGTERM, SIGHUP): raised by the entry point's
    handler (``playground.__main__``) with code 128 + the signal's number. Whatever the main
    thread was doing (a tool module's import, say) was interrupted by it, not failed: code that
    catches ``BaseException`` re-raises this."""
