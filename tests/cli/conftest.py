"""Shared fixture of the CLI tests: tool bodies run in the test's process unless the test is
about the worker process."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def bodies_in_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tool bodies run in the command's own process (``PLAYGROUND_IN_PROCESS=1``, as
    ``--in-process`` does; inherited by the ``playground`` subprocesses a test starts): starting
    the worker process that runs them by default cost about 0.4 s of CPU a command (``eval``,
    ``lint``, ``check``, ``history rerun`` …), and these tests are about what the commands print,
    exit with and store. A test about the worker (a record's ``source``, isolation) is marked
    ``worker_process``; a test may still set the variable itself."""
    if request.node.get_closest_marker("worker_process") is None:
        monkeypatch.setenv("PLAYGROUND_IN_PROCESS", "1")
