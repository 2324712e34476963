"""``python -m playground`` is the same as the ``playground`` command: both enter at :func:`main`."""

from __future__ import annotations

import sys


def main() -> None:
    """The process's entry point (``playground`` and ``python -m playground``): runs
    :func:`playground.cli.main.run`, which never returns.

    A ctrl+c while the command-line modules are still importing (the first tenth of a second
    or so) ends as a later one does — ``error: interrupted`` on stderr, exit 130 — rather than
    with a traceback.
    """
    try:
        from playground.cli.main import run
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        raise SystemExit(130) from None
    run()


if __name__ == "__main__":  # pragma: no cover - exercised through a subprocess test
    main()
