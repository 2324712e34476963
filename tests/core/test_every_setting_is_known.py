"""Every ``PLAYGROUND_*`` variable the package reads is a known setting: the check of the
environment said "PLAYGROUND_OPENAI_MODEL is not a playground setting ...; it changes
nothing" of model and server variables the routers read."""

from __future__ import annotations

import re
from pathlib import Path

from playground.core.settings import SETTINGS, check_environment

PACKAGE = Path(__file__).resolve().parents[2] / "playground"


def test_every_variable_named_in_the_code_is_a_setting():
    named = set()
    for path in PACKAGE.rglob("*.py"):
        named |= set(re.findall(r"\"(PLAYGROUND_[A-Z0-9_]+)\"", path.read_text("utf-8")))
    assert "PLAYGROUND_OPENAI_MODEL" in named  # the scan reads the routers' variables
    assert sorted(named - set(SETTINGS)) == []


def test_the_routers_variables_get_no_note():
    env = {
        "PLAYGROUND_OPENAI_MODEL": "gpt-x",
        "PLAYGROUND_ANTHROPIC_MODEL": "claude-x",
        "PLAYGROUND_COMPATIBLE_BASE_URL": "http://127.0.0.1:9/v1",
        "PLAYGROUND_COMPATIBLE_MODEL": "qwen",
        "PLAYGROUND_COMPATIBLE_API_KEY": "sk-secret",
        "PLAYGROUND_TIMEOUT": "3",
    }
    assert check_environment(env) == [
        "PLAYGROUND_TIMEOUT is not a playground setting (did you mean "
        "PLAYGROUND_ROUTER_TIMEOUT_S?); it changes nothing"  # the closest of the time limits
    ]
