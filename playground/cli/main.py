"""Placeholder entry point; replaced by the CLI module."""


def run() -> None:  # pragma: no cover
    raise SystemExit("playground CLI is being built")
