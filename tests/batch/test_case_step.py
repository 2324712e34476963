"""``check`` and ``probe`` write and count each case as one step: a ctrl+c that arrives while a
case's line is written waits until it is counted (CI saw "interrupted after 2 of 11 cases" under
one printed line, then "after 0" under one)."""

from __future__ import annotations

import os
import signal

import pytest

from playground.batch.interrupts import case_step


def test_a_sigint_inside_the_step_is_raised_after_it_whole() -> None:
    done: list[str] = []
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt), case_step():
            os.kill(os.getpid(), signal.SIGINT)
            done.append("written")
            done.append("counted")
        assert done == ["written", "counted"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    finally:
        signal.signal(signal.SIGINT, previous)


def test_no_sigint_means_no_interrupt() -> None:
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with case_step():
            pass
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
