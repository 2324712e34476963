"""The rendering rule for untrusted text (issue 27): what each class of character becomes."""

from __future__ import annotations

import json
import unicodedata

from playground.core.untrusted import UNSAFE, dumps, is_shown, json_shown, shown
from tests.untrusted.corpus import ALL, CORPUS, MARKS, OVERLONG


def test_controls_become_visible_escapes_and_bidi_becomes_marks() -> None:
    assert shown(CORPUS["osc52_clipboard"]) == "copy\\x1b]52;c;cHduZWQ=\\x07me"
    assert shown(CORPUS["c1_csi"]) == "c1\\x9b31mred\\x9b0m"
    assert shown(CORPUS["bidi_override"]) == "invoice_<U+202E>exe.pdf<U+202C> done"
    assert shown(CORPUS["zero_width"]) == "zero<U+200B>width<U+200D>join<U+2060>ed<U+FEFF>"
    assert shown(CORPUS["c0_mix"]) == "nul\\x00bs\\x08cr\\x0ddel\\x7fvt\\x0bff\\x0c"
    assert shown("a\nb\tc") == "a\nb\tc"
    for raw, mark in MARKS.items():
        assert shown(f"<{raw}>") == f"<{mark}>"


def test_korean_emoji_and_markup_are_unchanged() -> None:
    for text in (CORPUS["korean_emoji"], CORPUS["markup"], "🏴\U000e0067\U000e0062\U000e007f"):
        assert shown(text) == text
    assert shown("x\u200dy") == "x<U+200D>y"  # a joiner outside an emoji is marked


def test_every_control_and_format_character_is_covered() -> None:
    classes = ("Cc", "Cf", "Zl", "Zp", "Cs")
    missed = [
        hex(c)
        for c in range(0x110000)
        if unicodedata.category(chr(c)) in classes
        and chr(c) not in "\n\t"
        and not UNSAFE.match(chr(c))
    ]
    assert missed == []


def test_nothing_raw_is_left_in_the_whole_corpus() -> None:
    for text in (ALL, OVERLONG):
        assert is_shown(shown(text))
        assert "\x1b" not in shown(text)


def test_json_stays_exact_json_with_escapes() -> None:
    value = {"all": ALL, "재고": [CORPUS["c1_csi"], 1, None]}
    text = dumps(value, indent=2)
    assert json.loads(text) == value
    assert "\\u009b31m" in text and "\\u202e" in text and "재고" in text
    assert is_shown(text)
    assert json_shown(json.dumps("\U000e0001", ensure_ascii=False)) == '"\\udb40\\udc01"'
