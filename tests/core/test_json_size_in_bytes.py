"""The size limit of JSON read from the user counts bytes of UTF-8, as docs/cli.md says ("larger
than 16 MB"), not characters: a Hangul syllable is 3 bytes, so 6 million of them (18.9 MB) are
refused though they are fewer than 16 Mi characters. The limit is lowered here to keep the test
fast; it is read when called."""

from __future__ import annotations

import json

import pytest

from playground.core import canonical
from playground.core.canonical import JsonInputError, parse_json, utf8_over
from playground.core.json_files import load_json, read_json_file
from playground.tui.form_values import parse_json_text

LIMIT = 300_000  # bytes
#: 120,000 Hangul syllables: 360,000 bytes of UTF-8 (over LIMIT) in 120,016 characters (under)
HANGUL = json.dumps({"question": "책" * 120_000}, ensure_ascii=False)
#: the same number of characters in ASCII: 120,016 bytes, under LIMIT
ASCII = json.dumps({"question": "a" * 120_000})
REFUSED = "larger than 0.286102 MB (the most the playground reads as one JSON document)"


@pytest.fixture
def low_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(canonical, "MAX_JSON_BYTES", LIMIT)


def test_utf8_over_counts_bytes() -> None:
    assert (len(HANGUL), len(HANGUL.encode())) == (120_016, 360_016)
    assert utf8_over(HANGUL, LIMIT) and not utf8_over(ASCII, LIMIT)
    assert not utf8_over("책", 3) and utf8_over("책", 2)
    assert utf8_over("\udcff", 2)  # a lone surrogate (from surrogateescape) counts as 3


def test_parse_json_refuses_hangul_over_the_limit_in_bytes(low_limit: None) -> None:
    with pytest.raises(JsonInputError) as refused:
        parse_json(HANGUL)
    assert str(refused.value) == REFUSED
    assert parse_json(ASCII) == {"question": "a" * 120_000}


def test_the_tui_json_editor_counts_bytes_too(low_limit: None) -> None:
    assert parse_json_text(HANGUL) == (None, REFUSED)


def test_json_files_count_bytes_both_when_read_and_when_parsed(tmp_path) -> None:
    with pytest.raises(JsonInputError) as refused:
        load_json(HANGUL, limit=LIMIT)
    assert str(refused.value) == REFUSED
    path = tmp_path / "config.json"
    path.write_text(HANGUL, encoding="utf-8")
    with pytest.raises(JsonInputError) as read:
        read_json_file(path, limit=LIMIT)
    assert str(read.value) == REFUSED
    assert read_json_file(path, limit=360_016)["question"] == "책" * 120_000


def test_the_default_limit_is_16_mb() -> None:
    assert canonical.MAX_JSON_BYTES == 16 * 1024 * 1024
    assert canonical.too_big_text() == (
        "larger than 16 MB (the most the playground reads as one JSON document)"
    )
