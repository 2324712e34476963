"""The worker's result cap message says what was measured: the bytes the worker would send
back (the result with what the body printed), not "returned N bytes" -- a tester's 20 MB string
was reported as "returned 20,971,573 bytes", a number that counted the envelope too."""

from __future__ import annotations

import pickle

from playground.sources.worker_main import _encode


def test_a_reply_over_the_cap_is_refused_naming_what_its_size_counts() -> None:
    reply = {"ok": True, "value": "x" * 5000, "printed": "y" * 100}
    payload = pickle.loads(_encode(dict(reply), "echo", cap=1000))
    sent = len(pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))
    assert "value" not in payload and payload["refused"] == "too_big"
    assert payload["refused_message"] == (
        f"echo's result took {sent:,} bytes to send from the worker (with what it printed); "
        "the playground refuses more than 1,000 bytes (the worker's result cap, "
        "PLAYGROUND_RESULT_CAP_MB)."
    )
    assert payload["printed"] == "y" * 100  # what it printed still comes back


def test_a_reply_under_the_cap_is_sent_as_is() -> None:
    reply = {"ok": True, "value": [1, 2, 3]}
    assert pickle.loads(_encode(dict(reply), "echo", cap=1000)) == reply
