"""Per-language word lists of the argument rules, one data module per language (:mod:`.en`,
:mod:`.ko`). Each module defines the same names (see :mod:`.en` for what each means); the
rules read the union over :data:`LANGUAGES`. Adding a language is one module listed here."""

from __future__ import annotations

import re
from types import ModuleType

from playground.routing.fill.lang import en, ko

LANGUAGES: tuple[ModuleType, ...] = (en, ko)

#: Words naming the start of a range or route in a parameter's name (from_year, origin, 출발지).
SOURCE_WORDS = frozenset(w for lang in LANGUAGES for w in lang.SOURCE_WORDS)
#: Words naming the end of a range or route (to_year, destination, 도착지).
TARGET_WORDS = frozenset(w for lang in LANGUAGES for w in lang.TARGET_WORDS)
#: Irregular plurals to their singular, of every language ("children" -> "child").
SINGULARS: dict[str, str] = {k: v for lang in LANGUAGES for k, v in lang.IRREGULAR_PLURALS.items()}
#: ``(before, between, after)`` regexes around a source X and a target Y written in the question:
#: ``before`` must match the text just before X, ``between`` the whole text between X and Y,
#: ``after`` the text just after Y ("from X to Y", "X에서 Y로", "X → Y").
PAIR_CUES: tuple[tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (re.compile(b, re.I), re.compile(m, re.I), re.compile(a, re.I))
    for lang in LANGUAGES
    for b, m, a in lang.PAIR_CUES
) + ((re.compile(r""), re.compile(r"\s*(?:→|->|=>|⇒|➔)\s*"), re.compile(r"")),)

#: Per kind of action (create, delete, update, read), each language's words for it: English
#: words, read by their Snowball root; Korean beginnings of a request word.
ACTION_WORDS: dict[str, tuple[str, ...]] = {
    kind: tuple(w for lang in LANGUAGES for w in lang.ACTION_WORDS.get(kind, ()))
    for kind in ("create", "delete", "update", "read")
}

#: Words bounding the value right after them ("under 40 minutes") or right before them ("40분
#: 이내"): part of the value's phrase, not of a search text.
BOUND_BEFORE = frozenset(w for lang in LANGUAGES for w in lang.BOUND_BEFORE)
BOUND_AFTER = frozenset(w for lang in LANGUAGES for w in lang.BOUND_AFTER)
#: Words after which an English word stands where a request's verb does (rule ``action_kind``).
REQUEST_LEADS = frozenset(w for lang in LANGUAGES for w in lang.REQUEST_LEADS)
#: Words opening the noun phrase a question asks about (rule ``head_word_unsaid``).
HEAD_OPENERS = frozenset(w for lang in LANGUAGES for w in lang.HEAD_OPENERS)
#: Ordinal words ("first", "second"), never a head word (rule ``head_word_unsaid``).
ORDINAL_WORDS = frozenset(w for lang in LANGUAGES for w in lang.ORDINAL_WORDS)
#: A clause this matches at its start states the asker's context, it asks for nothing.
STATEMENT_RE = re.compile(
    "|".join(f"(?:{p})" for lang in LANGUAGES for p in lang.STATEMENT_OPENERS), re.I
)
