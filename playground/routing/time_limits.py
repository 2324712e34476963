"""How long a model router waits for its provider: one request, and one answer with its retries.

Two settings (docs/routers.md, docs/cli.md "Settings"), read when a router is built:

* ``PLAYGROUND_ROUTER_TIMEOUT_S`` — seconds one HTTP request may take before it counts as a
  timeout (default :data:`DEFAULT_REQUEST_S`, 30 s: long enough for a model answering a large
  tool list, short enough that a hung server is noticed while someone is waiting);
* ``PLAYGROUND_ROUTER_TOTAL_S`` — seconds one answer may take, every retry and wait included
  (default :data:`DEFAULT_TOTAL_S`, 60 s): no retry starts once it is spent, and the last try's
  time limit is cut to what is left, so a question never waits longer than this for one move.

Each retry is logged as it happens on the ``playground.routing`` logger at INFO (the command line
prints it as a ``note:`` line on stderr; :func:`playground.routing.retry.send_with_retries`).
"""

from __future__ import annotations

from collections.abc import Mapping

from playground.core.settings import setting

DEFAULT_REQUEST_S = 30.0
DEFAULT_TOTAL_S = 60.0


def request_timeout_s(environ: Mapping[str, str] | None = None) -> float:
    """Seconds one request may take (``PLAYGROUND_ROUTER_TIMEOUT_S``, default 30). Raises
    :class:`~playground.errors.UsageError` for a value that is not a time limit."""
    return float(setting("PLAYGROUND_ROUTER_TIMEOUT_S", DEFAULT_REQUEST_S, environ))


def total_s(environ: Mapping[str, str] | None = None) -> float:
    """Seconds one answer may take with its retries (``PLAYGROUND_ROUTER_TOTAL_S``, default 60).
    Raises :class:`~playground.errors.UsageError` for a value that is not a time limit."""
    return float(setting("PLAYGROUND_ROUTER_TOTAL_S", DEFAULT_TOTAL_S, environ))
