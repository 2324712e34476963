"""The one rendering rule for text the playground did not write (issue 27).

Tool descriptions, parameter descriptions, enum values, results, exception messages, printed
output and MCP server logs come from code the user did not write. A terminal executes some
characters instead of showing them: ESC starts a sequence that can write the clipboard (OSC 52),
set the window title, clear the screen or make a hyperlink (OSC 8); an 8-bit C1 control such as
``\\x9b`` (CSI) does the same on many terminals; a bidi override (U+202E) reverses what follows,
so a value reads as something else; zero-width characters hide text. Every TUI widget and every
CLI table shows such text through :func:`shown`; JSON shown or printed goes through
:func:`json_shown`. What the model reads (the wire JSON) is never changed: the rule is for
display only.

The rule (the character classes, Unicode 15.0):

* C0 controls other than newline and tab (``U+0000``–``U+001F``), DEL (``U+007F``) and C1
  controls (``U+0080``–``U+009F``) become ``\\xNN`` (``\\x1b``, ``\\x9b``, ``\\x0d``). The rest
  of an escape sequence is printable text, so ``ESC ] 52 ; c ; …`` shows as ``\\x1b]52;c;…``.
* Bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), every other invisible
  formatting character (Unicode category ``Cf``: zero-width space, joiners, word joiner, BOM,
  soft hyphen, tag characters, …), the line and paragraph separators (U+2028, U+2029) and lone
  surrogates become ``<U+202E>``-style marks.
* Two sequences that draw one emoji keep their invisible parts: a zero-width joiner between two
  emoji (👨‍👩‍👧) and the tag characters after a black flag (🏴 + tags: the flags of England,
  Scotland, Wales).
* Nothing else changes: Hangul, emoji, accents and every other printable character stay as
  they are.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: C0 (but newline and tab), DEL and C1: shown as ``\xNN``
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f"
#: every character of Unicode category Cf (15.0), the line/paragraph separators and surrogates:
#: shown as ``<U+XXXX>`` (a test checks the list against :mod:`unicodedata`)
_INVISIBLE = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)
UNSAFE = re.compile(f"[{_CONTROLS}{_INVISIBLE}]")

_ZWJ = "\u200d"
_BLACK_FLAG = "\U0001f3f4"


def _emoji(char: str) -> bool:
    """Whether ``char`` draws (part of) an emoji: the pictographic blocks, the skin-tone
    modifiers and variation selector 16."""
    code = ord(char)
    return (
        0x1F000 <= code <= 0x1FAFF
        or 0x2600 <= code <= 0x27BF
        or 0x2B00 <= code <= 0x2BFF
        or code in (0xFE0F, 0x200D, 0x2640, 0x2642, 0x2695, 0x2696, 0x2708)
    )


def _kept(text: str, at: int) -> bool:
    """Whether the invisible character at ``text[at]`` is part of an emoji sequence."""
    char = text[at]
    if char == _ZWJ:
        return 0 < at < len(text) - 1 and _emoji(text[at - 1]) and _emoji(text[at + 1])
    if "\U000e0020" <= char <= "\U000e007f":
        start = at
        while start > 0 and "\U000e0020" <= text[start - 1] <= "\U000e007f":
            start -= 1
        return start > 0 and text[start - 1] == _BLACK_FLAG
    return False


def _mark(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code <= 0x9F:
        return f"\\x{code:02x}"
    if _kept(match.string, match.start()):
        return char
    return f"<U+{code:04X}>"


def shown(text: Any) -> str:
    """``text`` (any object: ``str(text)``) as the screen must show it (see the module
    docstring): ``"a\\x1b]52;c;eA==\\x07"`` → ``'a\\\\x1b]52;c;eA==\\\\x07'``, ``"x\\u202ey"`` →
    ``'x<U+202E>y'``, ``"재고 👍"`` unchanged. Newlines and tabs are kept."""
    text_str: str = text if isinstance(text, str) else str(text)
    if UNSAFE.search(text_str) is None:
        return text_str
    return UNSAFE.sub(_mark, text_str)


def is_shown(text: str) -> bool:
    """Whether ``text`` holds nothing the rule would change (a test helper and an assertion
    for callers that build display text themselves)."""
    return all(_kept(text, m.start()) for m in UNSAFE.finditer(text))


def _one_cell(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the control pictures: ␛ for ESC, ␀ for NUL
    if code == 0x7F:
        return "\u2421"  # ␡
    return char if _kept(match.string, match.start()) else "\ufffd"


def one_cell(text: str) -> str:
    """``text`` for an editable field, where each character must stay one character (the
    cursor moves over them): C0 controls as their control pictures (``␛`` for ESC), DEL as
    ``␡``, C1 controls, bidi and invisible characters as ``\ufffd`` (joiners inside emoji
    kept). Only what is drawn changes; the field's value stays as it is."""
    if UNSAFE.search(text) is None:
        return text
    return UNSAFE.sub(_one_cell, text)


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    if _kept(match.string, match.start()):
        return char
    code = ord(char)
    if code > 0xFFFF:  # a surrogate pair, as JSON writes characters beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_shown(json_text: str) -> str:
    """JSON text (as ``json.dumps(..., ensure_ascii=False)`` writes it) with every character the
    rule covers written as a JSON ``\\uXXXX`` escape: still exact JSON (it parses to the same
    values), and nothing in it acts on a terminal. Such characters can only occur inside JSON
    strings, so escaping them never changes the structure. Hangul and emoji stay as they are."""
    if UNSAFE.search(json_text) is None:
        return json_text
    return UNSAFE.sub(_json_escape, json_text)


def dumps(value: Any, **kwargs: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **kwargs)`` through :func:`json_shown`: the JSON
    to print or show for ``value`` (``kwargs``: ``indent``, ``separators``, ``default``, …)."""
    return json_shown(json.dumps(value, ensure_ascii=False, **kwargs))
