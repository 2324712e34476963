"""Helpers of the escape-corpus tests: run a ``playground`` command in a pseudo-terminal and
read every byte it wrote there, and check a terminal stream for raw control characters."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
from pathlib import Path

from playground.core.untrusted import UNSAFE, is_shown

HERE = Path(__file__).resolve().parent
CORPUS_TOOLS = HERE / "corpus_tools.py"
CORPUS_SERVER = HERE / "corpus_mcp_server.py"


def server_line() -> str:
    """The ``--mcp`` line of the corpus server (forked from the zygote: :mod:`tests.zygote`)."""
    from tests.zygote import forked_line

    return forked_line(CORPUS_SERVER)


#: what a well-behaved program itself writes to a terminal: SGR colours, cursor moves and
#: modes (CSI), and Textual's pointer shape (OSC 22); nothing else may carry an ESC
_OWN_SEQUENCES = re.compile(r"\x1b\[[0-9;:?<>=]*[ -/]*[@-~]|\x1b\]22;[a-z-]*\x07|\x1b[=>78]")


def run_in_pty(args: list[str], env: dict[str, str], timeout_s: float = 60.0) -> tuple[int, str]:
    """Run ``python -m playground ARGS`` with stdout and stderr on a pseudo-terminal (so it
    believes it talks to a terminal: colours on); returns its exit code and every byte it
    wrote there, decoded as UTF-8 (undecodable bytes as U+FFFD)."""
    main, sub = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "playground", *args],
        stdin=subprocess.DEVNULL,
        stdout=sub,
        stderr=sub,
        env=env,
        close_fds=True,
    )
    os.close(sub)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([main], [], [], timeout_s)
            if not ready:
                raise AssertionError(f"playground {' '.join(args)} wrote nothing for {timeout_s} s")
            try:
                data = os.read(main, 65536)
            except OSError:  # EIO: the other side is closed
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(main)
        code = proc.wait(timeout_s)
    return code, b"".join(chunks).decode("utf-8", "replace")


def raw_controls(stream: str) -> list[str]:
    """The raw control, bidi and invisible characters in ``stream`` once the program's own
    sequences (:data:`_OWN_SEQUENCES`) are taken out, as ``U+XXXX`` names (``[]``: none).
    Line feeds, tabs and carriage returns the terminal driver adds are allowed; so are the
    joiners inside emoji (:func:`playground.core.untrusted.is_shown`)."""
    rest = _OWN_SEQUENCES.sub("", stream).replace("\r", "")  # the tty's and progress bars'
    return [
        f"U+{ord(m.group()):04X}"
        for m in UNSAFE.finditer(rest)
        if not is_shown(rest[max(0, m.start() - 1) : m.end() + 1])
    ]
