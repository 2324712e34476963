"""``playground`` run as a command in a subprocess, for tests about what the command itself
prints and returns (its exit code, a closed stdout, a busy or damaged history)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping


def run_playground(
    *args: object, env: Mapping[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``python -m playground ARGS`` with this process's environment plus ``env``, stdin from
    /dev/null (not a terminal: nobody to ask), stdout and stderr captured as text; never raises
    for the exit code."""
    return subprocess.run(
        [sys.executable, "-m", "playground", *map(str, args)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
        timeout=timeout,
        check=False,
    )
