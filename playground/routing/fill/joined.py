"""A string parameter that takes several values in one string (rule ``joined_list``): its
description says the values are separated by commas ("A comma-separated list of GitHub
repositories ... such as 'octocat/Hello-World,octo-org/octo-repo'"), so "ShishirPatil/gorilla
and gorilla-llm/gorilla-cli" is one argument ``'ShishirPatil/gorilla,gorilla-llm/gorilla-cli'``,
not two calls. The separator is the one its examples use (``,`` unless they write ``, ``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from playground.routing import values
from playground.routing.values import Value

#: A description saying the string holds values separated by commas (English and Korean).
JOINED_DOC_RE = re.compile(
    r"comma[- ]?(?:separated|delimited)|separated by (?:a )?commas?|쉼표로\s*구분", re.I
)
_GAP_RE = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+|\s*(?:와|과|랑|하고)\s+")
_KINDS = frozenset({"identifier", "path", "url", "code", "email", "quoted", "name"})


def takes_joined(doc: str, types: Sequence[str]) -> bool:
    """Whether a parameter with description ``doc`` and JSON types ``types`` is a string holding
    comma-separated values."""
    return ("string" in types or not types) and bool(JOINED_DOC_RE.search(doc))


def find(
    doc: str, examples: Sequence[str], text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """The first run of two or more values of one kind that ``text`` lists (commas, and/or,
    와/과), joined with the examples' separator, as ``(value, evidence)``; else ``None``."""
    found = sorted(
        (v for v in values.names(text) + values.quoted(text) if v.kind in _KINDS),
        key=lambda v: v.start,
    )
    run: list[Value] = []
    for v in found:
        if not values.outside((v.start, v.end), used):
            continue
        if run and run[-1].kind == v.kind and _GAP_RE.fullmatch(text[run[-1].end : v.start]):
            run.append(v)
            continue
        if len(run) >= 2:
            break
        run = [v]
    if len(run) < 2:
        return None
    sep = ", " if any(", " in e for e in examples) else ","
    value = sep.join(str(v.value) for v in run)
    start, end = run[0].start, run[-1].end
    return value, {
        "rule": "joined_list",
        "span": [start, end],
        "text": text[start:end],
        "detail": f"{len(run)} values listed, joined with {sep!r} as its description asks",
    }
