"""``--allow-writes`` of ``history rerun`` and ``replay``: running a tool that may write again only
when the user says so (:mod:`playground.batch.write_guard`).

Without the option, a command on a terminal (stdin and stderr both one) asks once per entry or
file; anywhere else (a pipe, CI) the answer is no: the stored run is not run again and the
command says which tool it skipped and why.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

AllowWritesOption = Annotated[
    bool,
    typer.Option(
        "--allow-writes",
        help=(
            "Run tools that may write (declared or inferred effects write/unknown) again. "
            "Without it they are skipped, or asked about on a terminal."
        ),
    ),
]


def on_a_terminal() -> bool:
    """Whether the user can be asked: stdin and stderr are both a terminal."""
    try:
        return sys.stdin.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def consent(registry: Any, what: str, allow_writes: bool) -> Callable[[list[str]], bool]:
    """A ``writes_allowed(names) -> bool`` for ``what`` (``"#7"``, a golden file): yes with
    ``--allow-writes``; else, on a terminal, the user's answer to one question naming the tools
    and their effects (default no); else no."""
    from playground.batch.write_guard import described

    def allowed(names: list[str]) -> bool:
        if allow_writes:
            return True
        if not on_a_terminal():
            return False
        return bool(
            typer.confirm(
                f"{what} calls {described(registry, names)}: run it again?",
                default=False,
                err=True,
            )
        )

    return allowed
