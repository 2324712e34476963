"""A signal the kernel hands to the body's thread still stops the waiting caller at once: CI saw
``ask`` stopped by SIGHUP during a 30 s in-process body exit only after the body, because the
caller slept in one lock wait that only a signal delivered to *its* thread interrupts (Python
runs handlers on the main thread). The runner waits in slices (``runner.WAIT_SLICE_S``)."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from playground.core.contracts import Contract
from playground.core.runner import InProcessRunner


class Stopped(Exception):
    pass


def test_a_signal_delivered_to_the_body_thread_stops_the_wait() -> None:
    finished = threading.Event()

    def body() -> str:
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)  # to this thread only
        time.sleep(30)
        finished.set()
        return "done"

    def stop(signum, frame):
        raise Stopped

    previous = signal.signal(signal.SIGUSR1, stop)
    runner = InProcessRunner()
    try:
        contract = Contract(name="sleeper", description="", parameters={}, fn=body)
        with pytest.raises(Stopped):
            runner.call(contract, {}, timeout_s=60)
        assert not finished.is_set()  # the caller did not wait for the body to end
    finally:
        signal.signal(signal.SIGUSR1, previous)
        runner.close()
