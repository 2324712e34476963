"""Date-time parameters that take a local (naive) value: the router writes no offset there.

RFC 3339 (JSON Schema ``format: date-time``/``time``) wants an offset, and the router adds the
local zone's (``Z`` on a machine in UTC) when the question gives none. But a parameter whose
type is a plain or naive ``datetime`` says so in its description (the playground adds "an
offset ... is optional, without one it is local time" or "no offset", see
:mod:`playground.core.type_formats`): a time the question writes without an offset stays
without one there, and a naive-only parameter never gets one.
"""

from __future__ import annotations

import datetime as _dt
import re

#: A description saying the value may (or must) go without an offset.
NAIVE_DOC_RE = re.compile(
    r"\bno (?:utc )?offset\b|\boffset\b[^.]{0,40}\boptional\b|\bwithout (?:an? )?(?:utc )?offset"
    r"|without one it is local time|\bnaive\b|\blocal (?:date and )?time\b",
    re.I,
)
#: A description saying the value must have no offset at all.
NO_OFFSET_DOC_RE = re.compile(r"\bno (?:utc )?offset\b|\bnaive\b", re.I)


def takes_naive(doc: str) -> bool:
    """Whether a parameter described by ``doc`` takes a date-time without an offset."""
    return bool(NAIVE_DOC_RE.search(doc))


def keeps_naive(doc: str, says_utc: bool) -> bool:
    """Whether a time the question writes without an offset stays naive for a parameter
    described by ``doc``: it takes naive values and either must have no offset or the question
    does not say UTC (``says_utc``)."""
    return takes_naive(doc) and (bool(NO_OFFSET_DOC_RE.search(doc)) or not says_utc)


def is_iso(value: str) -> bool:
    """Whether ``value`` is an ISO 8601 date-time or time that Python reads (with or without an
    offset): what a naive-taking parameter accepts."""
    for read in (_dt.datetime.fromisoformat, _dt.time.fromisoformat):
        try:
            read(value)
        except ValueError:
            continue
        return True
    return False
