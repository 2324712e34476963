"""Every ``--html`` page on the escape corpus (the tester's ``chatty`` tool wrote ESC, BEL and
U+202E raw into ``history show --html``'s ``<pre>`` and JSON blocks, and the browser applied the
right-to-left override): no raw control, bidi or invisible character is in any page; text shows
the marks of docs/untrusted-text.md (``\\x1b``, ``<U+202E>``), JSON blocks the ``\\u202e``
escapes and still parse to the exact values. The commands run in the test's process
(``tests/in_process_cli.py``), tool bodies with them; the history is a real SQLite file."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess

import pytest

from tests.in_process_cli import run_in_process
from tests.untrusted.attack import CORPUS_TOOLS, raw_controls
from tests.untrusted.corpus import ALL

PAGES = ("history_call", "history_ask", "eval", "check", "probe", "replay")


def cli(env: dict[str, str | None], *args: object) -> subprocess.CompletedProcess[str]:
    return run_in_process(*args, env=env)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    home = tmp_path_factory.mktemp("html_attack")
    env: dict[str, str | None] = {k: None for k in os.environ if k.startswith("PLAYGROUND_")}
    env.update(
        PLAYGROUND_HISTORY=str(home / "history.sqlite"),
        PLAYGROUND_CACHE_DIR=str(home / "cache"),
        PLAYGROUND_IN_PROCESS="1",  # the pages are under test, not the worker (0.4 s a command)
    )
    cases = home / "cases.jsonl"
    cases.write_text(
        json.dumps({"question": "copy " + ALL, "expect_tool": "corpus_raise"}) + "\n",
        encoding="utf-8",
    )
    checks = home / "checks.jsonl"
    checks.write_text(
        json.dumps({"tool": "corpus_echo", "args": {"entry": "c1_csi"}, "expect": {"kind": ALL}})
        + "\n",
        encoding="utf-8",
    )
    tools = ("--tools", CORPUS_TOOLS)
    called = cli(env, "call", "corpus_echo", "entry=bidi_override", *tools, "-f", "json")
    assert called.returncode == 0, called.stderr
    printed = cli(env, "call", "corpus_print", *tools)
    assert printed.returncode == 0, printed.stderr
    golden = home / "g.json"
    asked = cli(env, "ask", "corpus_echo " + ALL.replace("\x00", ""), *tools, "--save", golden, "--html",
                home / "ask.html")  # fmt: skip
    assert asked.returncode in (0, 1), asked.stderr
    runs = {
        "history_call": ("history", "show", "1"),
        "history_print": ("history", "show", "2"),
        "eval": ("eval", cases, *tools),
        "check": ("check", checks, *tools),
        "probe": ("probe", "corpus_echo", *tools),
        "replay": ("replay", golden, *tools),
    }
    out: dict[str, object] = {"record": json.loads(called.stdout)}
    for name, argv in runs.items():
        target = home / f"{name}.html"
        done = cli(env, *argv, "--html", target)
        assert target.exists(), (name, done.stderr)
        out[name] = target.read_text(encoding="utf-8")
    out["history_ask"] = (home / "ask.html").read_text(encoding="utf-8")
    return out


@pytest.mark.parametrize("name", [*PAGES, "history_print"])
def test_no_raw_control_or_bidi_character_is_in_the_page(pages, name):
    page = str(pages[name])
    assert raw_controls(page) == []
    assert "\u202e" not in page and "\x1b" not in page and "\x07" not in page


def test_printed_output_shows_the_marks(pages):
    text = html.unescape(str(pages["history_print"]))
    assert "\\x1b]52;c;" in text  # the OSC 52 clipboard write, as text
    assert "<U+202E>" in text  # the right-to-left override, as a mark


def test_json_blocks_escape_and_still_parse_to_the_exact_values(pages):
    blocks = [
        html.unescape(b) for b in re.findall(r"<pre>(.*?)</pre>", str(pages["history_call"]), re.S)
    ]
    parsed = []
    for block in blocks:
        try:
            parsed.append(json.loads(block))
        except ValueError:
            continue
    record = pages["record"]
    assert isinstance(record, dict)
    assert any(p == record["value"] for p in parsed)  # the value block, value for value
    assert any(p == record["args"] for p in parsed)
    assert any("\\u202e" in b for b in blocks)  # written as the JSON escape
