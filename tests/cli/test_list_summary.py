"""``list``'s description cell is the description's first sentence read across the lines the
author wrapped it over: a tester's ``padded_search`` read "…always returns 8 rows, more than the
5", its summary cut at the docstring's line break."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from playground.cli.main import app
from playground.cli.render import first_line


@pytest.mark.parametrize(
    ("description", "summary"),
    [
        (
            "Search a catalogue that always returns 8 rows, more than the 5\n"
            "    its contract allows. Every smaller limit fails the same way.",
            "Search a catalogue that always returns 8 rows, more than the 5 its contract allows.",
        ),
        (
            "SKU와 지역으로 매장별 재고 수량을 최대 limit곳까지\n조회한다. 특정 상품이 어느 매장에",
            "SKU와 지역으로 매장별 재고 수량을 최대 limit곳까지 조회한다.",
        ),
        ("Find a book, e.g. by its title. Then more.", "Find a book, e.g. by its title."),
        ("Version 1.2 of the API\n\nSecond paragraph.", "Version 1.2 of the API"),
        ("\n\n  Leading blank lines.  \n", "Leading blank lines."),
        ("", ""),
    ],
)
def test_the_summary_is_the_first_sentence_across_wrapped_lines(description, summary):
    assert first_line(description) == summary


def test_list_json_carries_the_whole_first_sentence():
    result = CliRunner().invoke(app, ["list", "--format", "json", "--tools", "tools/flaky.py"])
    assert result.exit_code == 0, result.output
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert rows["padded_search"]["description"] == (
        "Search a catalogue whose body ignores `limit` and always returns 8 rows, more than the "
        "5 its contract allows."
    )
