"""``python -m playground`` is the same as the ``playground`` command."""

from playground.cli.main import run

if __name__ == "__main__":  # pragma: no cover - exercised through a subprocess test
    run()
