"""The router registry: declarations read by the factory, ``ask`` and ``eval``; a test-only
backend registered in one line works everywhere without touching other files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from playground.errors import UsageError
from playground.routing import factory, registry
from tests.routing.echo_router import SPEC as ECHO

REPO = Path(__file__).resolve().parents[2]
SHOP = str(REPO / "tools" / "shop.py")


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "PLAYGROUND_GEMINI_MODEL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def echo():
    registry.register(ECHO)  # the one line a new backend needs
    yield ECHO
    registry.unregister(ECHO.name)


def run(*args):
    return CliRunner().invoke(app, list(args))


def test_builtin_names_need_no_import_and_specs_declare_keys_and_capabilities():
    assert registry.names()[:2] == ["offline", "gemini"]
    offline, gemini = registry.get("offline"), registry.get("GEMINI")
    assert (offline.needs_key, offline.capabilities.repairs, offline.default_model) == (
        False,
        "loop",
        None,
    )
    assert gemini.key_env_vars == ("GOOGLE_API_KEY", "GEMINI_API_KEY")
    assert gemini.capabilities.repairs == "model" and gemini.capabilities.default_rpm == 10
    assert gemini.capabilities.modes[0] == "AUTO" and gemini.capabilities.dry_run


def test_unknown_router_lists_the_registered_ones(echo):
    with pytest.raises(
        UsageError,
        match="unknown router 'claude'; use one of offline, gemini, openai, anthropic, openai-compatible, echo",
    ):
        registry.get("claude")


def test_key_lookup_follows_the_sdk_order_and_ignores_blanks():
    gemini = registry.get("gemini")
    assert gemini.key_from({"GEMINI_API_KEY": "g", "GOOGLE_API_KEY": "o"}) == "o"
    assert gemini.key_from({"GEMINI_API_KEY": " g ", "GOOGLE_API_KEY": "  "}) == "g"
    assert gemini.key_from({}) is None


def test_model_choice_flag_then_environment_then_default():
    gemini = registry.get("gemini")
    env = {"PLAYGROUND_GEMINI_MODEL": "gemini-from-env"}
    assert gemini.model_for("gemini-flag", env) == "gemini-flag"
    assert gemini.model_for(None, env) == "gemini-from-env"
    assert gemini.model_for(None, {"PLAYGROUND_GEMINI_MODEL": " "}) == "gemini-3.6-flash"
    assert registry.get("offline").model_for("x", env) is None


def test_factory_refuses_a_router_without_its_key_naming_the_variable():
    with pytest.raises(UsageError) as info:
        factory.choose_router("gemini", model="m", mode="ANY", environ={"GEMINI_API_KEY": " "})
    assert str(info.value) == (
        "no Gemini API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), e.g. `export GEMINI_API_KEY=...` "
        "with a key from https://aistudio.google.com/apikey"
    )
    with pytest.raises(UsageError, match="GEMINI_API_KEY"):
        factory.make_router("gemini", environ={})


def test_factory_falls_back_only_when_asked_and_builds_with_a_key():
    choice = factory.choose_router("gemini", environ={}, fallback=True)
    assert choice.router.name == "offline" and choice.fell_back
    assert choice.notes == [
        "no Gemini API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), e.g. `export GEMINI_API_KEY=...` "
        "with a key from https://aistudio.google.com/apikey; using the offline router instead"
    ]
    keyed = factory.choose_router(
        "gemini", mode="any", environ={"GEMINI_API_KEY": "k", "PLAYGROUND_GEMINI_MODEL": "m-env"}
    )
    assert (keyed.router.name, keyed.router.model, keyed.router.mode) == ("gemini", "m-env", "ANY")
    dry = factory.choose_router("gemini", environ={"GEMINI_API_KEY": "k"}, dry_run=True)
    assert dry.router.api_key is None  # a dry run never carries a key
    ignored = factory.choose_router("offline", model="m", mode="ANY", environ={})
    assert ignored.notes == ["--model and --mode do not apply to the offline router; ignored"]


def test_registered_router_answers_ask(echo):
    result = run(
        "ask", "track_shipping order_id=HR20260601", "--router", "echo", "--format", "json",
        "--tools", SHOP,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    episode = json.loads(result.stdout)
    assert episode["router"] == "echo" and episode["repairs_by"] == "router"
    assert [(c["tool"], c["args"]) for c in episode["calls"]] == [
        ("track_shipping", {"order_id": "HR20260601"})
    ]
    assert episode["reply"].startswith("echo: {") and episode["end"] == "answered"


def test_registered_router_runs_eval(echo, tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        '{"question": "track_shipping order_id=HR20260601", "expect_tool": "track_shipping"}\n'
        '{"question": "안녕하세요", "expect_tool": null}\n'
        '{"question": "주문 HR20260601 어디쯤?", "expect_tool": "track_shipping"}\n',
        encoding="utf-8",
    )
    result = run("eval", str(cases), "--router", "echo", "--format", "json", "--tools", SHOP)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["router"] == "echo"
    assert report["metrics"]["selection_rate"] == 0.5
    assert report["metrics"]["false_selection_rate"] == 0.0
