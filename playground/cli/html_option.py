"""``--html FILE`` of eval, check, probe, report, ask, replay and ``history show``: the run as one
self-contained HTML page (:mod:`playground.batch.html_report`).

The file is checked before the command runs (an existing file is kept unless the command has
``--force`` and it is given, so a long eval is not run only to be refused at the end) and written with
:func:`playground.batch.html_report.write_html` (the same safe writer as ``report --out``). A
command that fails its check (exit 1) still writes the page: that is when CI wants it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from playground.errors import UsageError

HtmlOption = Annotated[
    Path | None,
    typer.Option(
        "--html",
        help="Also write the run as one self-contained HTML file (no network, opens in any "
        "browser). An existing file is kept.",
        show_default=False,
    ),
]


def check_html_target(path: Path | None, *, force: bool | None = None) -> None:
    """Refuse, before anything runs, an ``--html`` path that exists (unless ``force``) or is a
    folder. ``force``: the command's ``--force`` (``None``: the command has none, and the
    message does not name it). Raises :class:`UsageError` (one line, exit 2)."""
    if path is None:
        return
    if path.is_dir():
        raise UsageError(f"--html {path}: is a folder; give a file name")
    if os.path.lexists(path) and not force:
        how = "use --force to overwrite it" if force is not None else "give another file name"
        raise UsageError(f"{path} exists; {how} (it is kept)")


def save_html(path: Path | None, build: Callable[[], str], *, force: bool = False) -> None:
    """Build the page with ``build()`` and write it to ``path`` (nothing when ``path`` is
    ``None``); prints ``wrote PATH`` on stderr. Raises :class:`UsageError` when it cannot."""
    if path is None:
        return
    from playground.batch.html_report import write_html

    written = write_html(path, build(), force=force)
    typer.echo(f"wrote {written}", err=True)
