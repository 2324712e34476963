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
