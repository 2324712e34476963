"""Parsed TCSS kept between apps and runs (``playground.tui.css_cache``): a second app of the
process, or a new process with the cache folder filled, parses no CSS; new variables (a theme)
parse again; a corrupt or unwritable cache only means parsing; rules with errors are never kept."""

from __future__ import annotations

from pathlib import Path

import pytest
import textual.css.parse as css_parse
from textual.app import App, ComposeResult
from textual.css.stylesheet import Stylesheet
from textual.widgets import Button, Static

import playground.tui.css_cache as css_cache


class Small(App[None]):
    """An app with its own rules and two widget classes' default rules."""

    CSS = "#hello { color: $accent; background: $surface; padding: 1 2; }"

    def __init__(self) -> None:
        super().__init__()
        css_cache.keep_parsed_css(self.stylesheet)

    def compose(self) -> ComposeResult:
        yield Static("hello", id="hello")
        yield Button("ok")


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """The CSS sources Textual parsed (by their location), with a fresh memo and cache folder."""
    monkeypatch.setattr(css_cache, "_MEMO", {})
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    seen: list[str] = []
    original = css_parse.parse

    def noted(scope, css, read_from, *args, **kwargs):
        seen.append(str(read_from[1] or read_from[0]))
        return original(scope, css, read_from, *args, **kwargs)

    monkeypatch.setattr("textual.css.stylesheet.parse", noted)
    return seen


async def _colour_of_hello(app: App[None]) -> str:
    async with app.run_test() as pilot:
        await pilot.pause()
        hello = app.query_one("#hello").styles
        return f"{hello.color} on {hello.background}"


async def test_a_second_app_and_a_new_process_parse_nothing(parses, tmp_path: Path, monkeypatch):
    first = await _colour_of_hello(Small())
    assert "Button.DEFAULT_CSS" in parses and any("CSS" in p for p in parses)
    assert list((tmp_path / "cache" / "css").glob("*.pickle"))
    parses.clear()
    assert await _colour_of_hello(Small()) == first
    assert parses == []  # from this process's memo
    monkeypatch.setattr(css_cache, "_MEMO", {})  # as a new process: from the folder
    assert await _colour_of_hello(Small()) == first
    assert parses == []


async def test_corrupt_files_and_an_unwritable_folder_only_mean_parsing(
    parses, tmp_path: Path, monkeypatch
):
    expected = await _colour_of_hello(Small())
    for file in (tmp_path / "cache" / "css").glob("*.pickle"):
        file.write_bytes(b"\x80\x05garbage")
    monkeypatch.setattr(css_cache, "_MEMO", {})
    parses.clear()
    assert await _colour_of_hello(Small()) == expected
    assert "Button.DEFAULT_CSS" in parses
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the folder would be")
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(blocker))
    monkeypatch.setattr(css_cache, "_MEMO", {})
    assert await _colour_of_hello(Small()) == expected


async def test_new_variables_parse_again_with_their_colours(parses):
    dark = await _colour_of_hello(Small())
    parses.clear()
    app = Small()
    app.theme = "textual-light"
    light = await _colour_of_hello(app)
    assert light != dark
    assert parses  # parsed under the new variables, not read back


def test_rules_with_errors_are_never_kept(parses) -> None:
    stylesheet = Stylesheet()
    css_cache.keep_parsed_css(stylesheet)
    key = ("#x { colour: red; }", ("test", ""), False, 0, "")
    rules = stylesheet._parse_rules(*key)
    assert any(rule.errors for rule in rules)
    assert css_cache._MEMO == {}
    fresh = Stylesheet()
    css_cache.keep_parsed_css(fresh)
    with pytest.raises(KeyError):
        fresh._parse_cache[key]
