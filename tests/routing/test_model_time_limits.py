"""A model router's time limits (issue 26 item 2): a hung OpenAI-compatible server (a real
process that accepts and never answers) is given up on within PLAYGROUND_ROUTER_TOTAL_S, each
retry is said on stderr as it happens, and the OpenAI, Anthropic and Gemini routers take the
same per-request limit."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from playground.errors import RouterError
from playground.routing.anthropic_api import AnthropicRouter
from playground.routing.base import Turn
from playground.routing.gemini import GeminiRouter
from playground.routing.openai_api import OpenAIRouter

HUNG = Path(__file__).with_name("hung_server.py")
SHOP = Path(__file__).resolve().parents[2] / "tools" / "shop.py"


@pytest.fixture(scope="module")
def hung_url() -> Iterator[str]:
    process = subprocess.Popen([sys.executable, str(HUNG)], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("PORT "), line
    yield f"http://127.0.0.1:{line.split()[1]}"
    process.terminate()
    process.wait(timeout=10)
    process.stdout.close()


def test_ask_on_a_hung_server_notes_each_retry_as_it_happens_and_gives_up(hung_url):
    env = {
        **os.environ,
        "PLAYGROUND_ROUTER_TIMEOUT_S": "0.5",
        "PLAYGROUND_ROUTER_TOTAL_S": "2",
        "PLAYGROUND_IN_PROCESS": "1",
    }
    args = ["ask", "HR20260604 배송", "--router", "openai-compatible", "--model", "m"]
    with subprocess.Popen(
        [sys.executable, "-m", "playground", *args, "--base-url", f"{hung_url}/v1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**env, "PLAYGROUND_HISTORY": "off"},
    ) as process:
        assert process.stderr is not None
        first = process.stderr.readline()
        still_running = process.poll() is None  # the second try takes 0.5 s more at least
        out, rest = process.communicate(timeout=60)
    assert first.startswith(
        "note: OpenAI-compatible server did not answer within 0.5 s (timeout; "
        "PLAYGROUND_ROUTER_TIMEOUT_S); trying again in "
    )
    assert "(try 2 of at most 5, " in first and " s left of 2 s)" in first
    assert still_running
    assert "(gave up after 2 tries, " in rest
    assert "gave up" in out


@pytest.mark.parametrize("router_class", [OpenAIRouter, AnthropicRouter])
def test_the_sdk_routers_time_out_per_request_and_in_all(hung_url, router_class, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_ROUTER_TOTAL_S", "1.5")
    base = f"{hung_url}/v1" if router_class is OpenAIRouter else hung_url
    router = router_class(model="m", api_key="k", base_url=base, timeout_s=0.3)
    assert router.total_s == 1.5
    with pytest.raises(RouterError) as caught:
        router.next_move([Turn("user", "x")], [])
    text = str(caught.value)
    assert "did not answer within 0.3 s (timeout; PLAYGROUND_ROUTER_TIMEOUT_S)" in text
    assert "(gave up after 2 tries, " in text


def test_every_model_router_takes_the_request_limit_from_the_setting(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_ROUTER_TIMEOUT_S", "7")
    assert GeminiRouter(api_key="k").timeout_s == 7
    assert OpenAIRouter(api_key="k").timeout_s == 7
    assert AnthropicRouter(api_key="k").timeout_s == 7
    monkeypatch.delenv("PLAYGROUND_ROUTER_TIMEOUT_S")
    assert GeminiRouter(api_key="k").timeout_s == 30  # the default for an interactive tool
    assert OpenAIRouter(api_key="k").total_s == 60


def test_a_bad_limit_is_one_line_naming_the_setting():
    env = {**os.environ, "PLAYGROUND_ROUTER_TOTAL_S": "soon"}
    done = subprocess.run(
        [sys.executable, "-m", "playground", "list", "--tools", str(SHOP)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: PLAYGROUND_ROUTER_TOTAL_S='soon': expected a number")
