"""Languages named in a question, as the codes a parameter asks for (ISO 639 data from the
``pycountry`` package).

A parameter whose enum values or examples are language codes (``en-US``/``es-ES``;
``'en' for English``) given "in Spanish" wants ``es-ES``; "from English to French" gives
``en`` to the source and ``fr`` to the target (issue 12, BFCL dev ``live_simple``). The ISO
data loads on the first such parameter (about 0.1 s once per process).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from playground.routing.values import outside

#: Where the knowledge comes from, as the explanation's evidence names it.
SOURCE = "pycountry"
_TAG_RE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?")
_LANGUAGE_WORD_RE = re.compile(r"(?i)lang(?:uage)?")
_CAPITALISED_RE = re.compile(r"(?<![\w-])[A-Z][a-z]{2,}(?![\w-])")
_SOURCE_NAME_RE = re.compile(r"(?i)source|from|input|original")
_TARGET_NAME_RE = re.compile(r"(?i)target|dest|output|into")
_FROM_RE = re.compile(r"(?i)\bfrom\s+$")
_TO_RE = re.compile(r"(?i)\b(?:to|into|in)\s+$")


@dataclass(frozen=True)
class Named:
    """A language the question names: ``[start, end)``, the ``word`` and its ISO 639-1
    ``code``."""

    start: int
    end: int
    word: str
    code: str


def wants_code(name: str, doc: str, values: Sequence[object]) -> bool:
    """True when a parameter named ``name`` described by ``doc`` with enum values or examples
    ``values`` takes language codes: every value is shaped like one (``en``, ``es-ES``,
    ``zh_CN``) and its name or description says language."""
    strs = [v for v in values if isinstance(v, str)]
    return (
        bool(strs)
        and len(strs) == len(values)
        and all(_TAG_RE.fullmatch(v) for v in strs)
        and bool(_LANGUAGE_WORD_RE.search(name) or _LANGUAGE_WORD_RE.search(doc))
    )


@functools.lru_cache(maxsize=512)
def _code(word: str) -> str | None:
    import pycountry  # ISO 639 data: loaded only when a parameter asks for a language code

    lang = pycountry.languages.get(name=word)
    code = getattr(lang, "alpha_2", None) if lang is not None else None
    return str(code) if code else None


def named(text: str, used: list[tuple[int, int]]) -> list[Named]:
    """The languages ``text`` names by their English names (capitalised, as written:
    "Spanish", "Chinese"), outside the spans ``used``, in order."""
    out = []
    for m in _CAPITALISED_RE.finditer(text):
        if outside(m.span(), used):
            code = _code(m.group())
            if code is not None:
                out.append(Named(m.start(), m.end(), m.group(), code))
    return out


def pick(
    name: str, text: str, found: list[Named], values: Sequence[object]
) -> tuple[str, Named] | None:
    """The value for a language parameter ``name`` among ``found`` (:func:`named`): a source
    parameter takes the language after "from", a target the one after "to"/"into"/"in", any
    other the first; the value is the enum value or example whose language part is that code
    (``es`` -> ``es-ES``), else the bare code. ``None`` when none fits."""
    if _SOURCE_NAME_RE.search(name):
        order = [f for f in found if _FROM_RE.search(text[: f.start])]
    elif _TARGET_NAME_RE.search(name):
        order = [f for f in found if _TO_RE.search(text[: f.start])]
    else:
        order = list(found)
    for f in order:
        for v in values:
            if isinstance(v, str) and re.split(r"[-_]", v)[0].lower() == f.code:
                return v, f
    return None
