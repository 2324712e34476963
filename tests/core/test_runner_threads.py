"""The in-process source's body threads end: a closed source leaves no thread waiting for jobs
(such a thread kept the source, and whatever ``sys.stderr`` was when it started — in the TUI,
the app itself — alive for the life of the process, one more per reload), and an abandoned
body's thread ends once the body returns."""

from __future__ import annotations

import sys
import threading
from typing import Any

from playground.sources.in_process import InProcessSource


def contract(fn: Any) -> Any:
    return type("C", (), {"fn": staticmethod(fn), "name": fn.__name__})()


def body_thread(source: InProcessSource) -> threading.Thread:
    def ident() -> int:
        return threading.get_ident()

    run = source.call(contract(ident), {}, 5)
    return next(t for t in threading.enumerate() if t.ident == run.value)


def test_close_ends_the_body_thread_and_a_later_call_starts_a_new_one():
    source = InProcessSource()
    first = body_thread(source)
    assert first.name == "tool-body" and first.is_alive()
    source.close()
    first.join(5)
    assert not first.is_alive()
    second = body_thread(source)  # the source still works after close
    assert second is not first and second.is_alive()
    source.close()
    source.close()  # safe twice
    second.join(5)
    assert not second.is_alive()


def test_an_abandoned_body_thread_ends_when_its_body_returns_and_close_restores_the_streams():
    stdout, stderr = sys.stdout, sys.stderr
    source = InProcessSource()
    release = threading.Event()
    threads: list[threading.Thread] = []

    def stuck() -> None:
        threads.append(threading.current_thread())
        release.wait(10)

    run = source.call(contract(stuck), {}, 0.05)
    assert run.timed_out and len(threads) == 1
    source.close()  # the body still runs: its writes are still dropped
    assert sys.stdout is not stdout
    release.set()
    threads[0].join(5)
    assert not threads[0].is_alive()
    source.close()  # now that it has returned, the streams of before come back
    assert (sys.stdout, sys.stderr) == (stdout, stderr)
