"""Rule ``request_clauses`` of the offline router: a question asking for two kinds of action,
each on its own item, is one request per clause.

"show note n1 and delete note n2" over ``get_note(note_id)`` and ``delete_note(note_id)`` made
two ``delete_note`` calls with ``note_id`` 'note n1' and 'delete note n2': the whole question was
routed once, so one tool took both items, and the verbs and nouns of the other clause leaked
into the ids. Each clause is a request of its own: the router routes each one alone and calls
what each asks for ("show note n1" -> ``get_note``, "delete note n2" -> ``delete_note``).

A question splits where a word asking for a kind of action
(:func:`playground.routing.action_kind.request_words`) stands, when the words ask for at least
two different kinds: an English clause starts at its verb ("…, and delete note n2"), a Korean
one ends at it ("n1 노트 보여주고 n2 노트 삭제해줘"). The joining words left at a clause's end
("and", "then", a comma) are not part of it. Measured: ``python bench/bfcl.py --without
request_clauses``.
"""

from __future__ import annotations

import re

from playground.routing import korean
from playground.routing.action_kind import request_words
from playground.routing.rule_switches import known_rule, rule_enabled

RULE_CLAUSES = known_rule(
    "request_clauses",
    "decision",
    "a question asking for two kinds of action is one request per clause, each routed alone",
)

#: What joins two requests at a clause's edge: punctuation and the English joining words.
_JOINS_RE = re.compile(r"(?:[\s,;]|\b(?:and|then|also|after that|afterwards)\b)+$", re.I)


def split_requests(text: str) -> list[str]:
    """The clauses of ``text`` that each ask for one kind of action, in order, when its request
    words ask for two kinds or more; else ``[text]`` (also when the rule is off)."""
    if not rule_enabled(RULE_CLAUSES):
        return [text]
    tokens = korean.tokenize(text)
    said = request_words(text, tokens, [1.0] * len(tokens))
    if len({kind for _tok, kind in said}) < 2:
        return [text]
    cuts = [tok.end if korean.has_hangul(tok.surface) else tok.start for tok, _kind in said]
    if not korean.has_hangul(said[0][0].surface):
        cuts = cuts[1:]  # an English question opens with its first request
    else:
        cuts = cuts[:-1]  # a Korean one ends with its last
    pieces = []
    start = 0
    for cut in [*cuts, len(text)]:
        piece = _JOINS_RE.sub("", text[start:cut]).strip(" ,;")
        if piece:
            pieces.append(piece)
        start = cut
    return pieces if len(pieces) > 1 else [text]
