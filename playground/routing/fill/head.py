"""Where a question names what it asks about: the words right after an article in its opening
(rule ``head_word_unsaid``, :mod:`playground.routing.head_word`). Not a rule against values:
the head word is often one ("Who discovered the *neutron*?", "order a *burger*"; keeping the
``leftover`` rule off it lost 7 BFCL dev entries for 2 near neighbours)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from playground.routing import korean
from playground.routing.fill import lang

#: The head word is read among the question's first words only: an article later opens a
#: detail ("find public libraries in New York that have a Reading Room"), not the topic.
HEAD_WITHIN = 7
#: The end of a sentence: the head word is read in the first one.
_SENTENCE_END_RE = re.compile(r"[.?!。？！]\s|\n")


def head_candidates(text: str, tokens: Sequence[korean.Token]) -> list[int]:
    """The indexes of ``tokens`` (of ``text``) that may be the question's head word, in order:
    right after an article (:data:`lang.HEAD_OPENERS`), among the first :data:`HEAD_WITHIN`
    words of the first sentence, not an ordinal ("the first rectangle") and not a number's
    modifier ("the next 3 days")."""
    out = []
    for k in range(1, min(HEAD_WITHIN, len(tokens))):
        if _SENTENCE_END_RE.search(text, 0, tokens[k].start):
            break
        if tokens[k - 1].surface.lower() not in lang.HEAD_OPENERS:
            continue
        if k + 1 < len(tokens) and tokens[k + 1].surface[:1].isdigit():
            continue
        if tokens[k].surface.lower() in lang.ORDINAL_WORDS:
            continue
        out.append(k)
    return out
