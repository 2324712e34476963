"""The text a parameter's cue opens: "with the message: hello there", "named X" -- the
span after a parameter's label words up to the end of the clause or sentence."""

from __future__ import annotations

import re

from playground.routing import korean
from playground.routing.fill.labels import label_words
from playground.routing.fill.specs import ParamSpec

#: Parameters named for a message a user writes (its cue takes the rest of the sentence).
_MESSAGE_NAME_RE = re.compile(r"(?:^|_)(?:content|message|msg|text|body|note|comment)s?$", re.I)
_SENTENCE_STOP_RE = re.compile(r"[.;?!](?:\s|$)|\n")
_CUE_STOP_RE = re.compile(
    r"[.,;?!]|\s(?:and|with|using|for|from|to|in|on|at|by|of|that|which|who|where|when|"
    r"then|within|into|over|under|after|before|between|if)\s",
    re.I,
)
_LEAD_RE = re.compile(r"^(?:\s|the\b|a\b|an\b|of\b|is\b|are\b|as\b|called\b|named\b|:|=)+", re.I)


_PRONOUNS = frozenset(
    [
        "them",
        "it",
        "this",
        "that",
        "these",
        "those",
        "its",
        "their",
        "my",
        "our",
        "your",
        "his",
        "her",
        "me",
        "us",
    ]
)


#: The last words of a parameter name that say it holds one identifier (``note_id``,
#: ``ticket_number``).
_ID_NAME_WORDS = frozenset({"id", "number", "num", "no"})
_ID_WORD_RE = re.compile(r"[^\s()]*\d[^\s()]*")
_PLAIN_WORD_RE = re.compile(r"\(?[^\W\d_]+\)?[.,]?")


def identifier_head(spec: ParamSpec, value: str) -> str:
    """``value`` cut to its one word with a digit when ``spec`` holds one identifier (its
    name's last word is id, number, num or no) and every other word of it is a plain word: "what
    does note n1 say?" gives ``note_id`` ``n1``, not ``n1 say`` (a verb after an id is the
    sentence's); "SNP (Single Nucleotide Polymorphism) ID rs6034464" gives ``snp_id``
    ``rs6034464``. Any other value unchanged."""
    parts = korean.split_identifier(spec.name)
    if not parts or parts[-1].lower() not in _ID_NAME_WORDS:
        return value
    words = value.split()
    ids = [w for w in words if _ID_WORD_RE.fullmatch(w)]
    if len(words) < 2 or len(ids) != 1:
        return value
    if all(w is ids[0] or _PLAIN_WORD_RE.fullmatch(w) for w in words):
        return ids[0]
    return value


COLON_END_RE = re.compile(r":(?:\\n|\s|\*{1,2})*$")


def cue_span(
    spec: ParamSpec, text: str, tokens: list[korean.Token], words: set[str]
) -> tuple[int, int, str] | None:
    """The span after the parameter's own name word in the question, up to punctuation or a
    preposition: ``the function 3x^2 + 2x - 1.`` -> ``3x^2 + 2x - 1``; more words of its label
    and pronouns right after the name word are skipped (``docket number 123456`` -> ``123456``)."""
    name_w, doc_w = label_words(spec)
    labels = name_w | doc_w
    first: tuple[int, int, str] | None = None
    for tok in tokens:
        if tok.stem not in words or korean.has_hangul(tok.surface):
            continue
        rest = text[tok.end :]
        lead = _LEAD_RE.match(rest)
        skip = lead.end() if lead else 0
        # more of the label or a pronoun is not the value ("docket number 123456",
        # "return them in the form of ...")
        while True:
            w = re.match(r"([A-Za-z]+)\s+", rest[skip:])
            if not w or not (korean.stem(w.group(1)) in labels or w.group(1).lower() in _PRONOUNS):
                break
            skip += w.end()
            lead = _LEAD_RE.match(rest[skip:])
            skip += lead.end() if lead else 0
        # "modification verbatim: no onions, extra cheese": one word before a colon; "the
        # answer to the question: ..." -- a colon closing the words after its own word
        colon = re.match(r"(?:[A-Za-z]+\s+){0,4}[A-Za-z]+\s*:\s*", rest[skip:])
        if colon:
            skip += colon.end()
            # escaped line breaks and markdown emphasis around the text are not part of it
            wrap = re.match(r"(?:\\n|\s|\*{1,2})+", rest[skip:])
            skip += wrap.end() if wrap else 0
        body = rest[skip:]
        # a message-like parameter ("content", "message") takes its whole sentence ("add todo
        # with content go to sleep at 9 pm"), and so does any text a colon introduces; others
        # stop at a preposition
        whole = bool(_MESSAGE_NAME_RE.search(spec.name) or ":" in rest[:skip])
        stop = (_SENTENCE_STOP_RE if whole else _CUE_STOP_RE).search(" " + body)
        raw = body[: max(0, stop.start() - 1)] if stop else body
        if stop and ":" in rest[:skip] and body[stop.start() - 1 : stop.start()] in ".?!":
            raw = body[: stop.start()]  # the text a colon introduces keeps its full stop
        value = raw.strip(" -:")
        if ":" in rest[:skip]:
            value = re.sub(r"(?:\\n|\s|\*{1,2})+$", "", value)
        else:
            value = identifier_head(spec, value)
        limit = 20 if whole else 6
        if (
            re.search(r"\w", value)
            and len(value.split()) <= limit
            and not korean.is_stopword(value.lower())
        ):
            start = tok.end + skip + raw.find(value)
            if ":" in rest[:skip]:
                return start, start + len(value), tok.surface  # a colon says: this is it
            first = first or (start, start + len(value), tok.surface)
    return first
