"""A tool description as the router reads it: the core's docstring parser
(:func:`playground.core.docstrings.parse_docstring`, every common style), with the text laid
out for word matching."""

from __future__ import annotations

from dataclasses import replace

from playground.core.docstrings import DocParts, parse_docstring
from playground.routing import korean


def _flat(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def described(description: str) -> DocParts:
    """``description`` (NFC-normalised, :func:`korean.normalize`) split by the core's parser,
    with the summary's lines joined by one space (sentences stay whole across line breaks) and
    ``other`` holding the returns text before the other sections' text."""
    parts = parse_docstring(korean.normalize(description or ""))
    other = " ".join(x for x in (parts.returns, parts.other) if x)
    return replace(parts, summary=_flat(parts.summary), other=other)
