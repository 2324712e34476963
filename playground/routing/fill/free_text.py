"""The ``free_text`` phase: the text a search-like parameter (query, keyword, 검색어)
takes -- a quoted or colon-led text, else the question's content words minus the words other
rules and the tool's vocabulary used."""

from __future__ import annotations

import re

from playground.routing import korean, values
from playground.routing.fill.defaults import fill_defaults
from playground.routing.fill.formats import drop_nonconforming
from playground.routing.fill.lang import BOUND_AFTER, BOUND_BEFORE
from playground.routing.fill.rules import LOOSE_RULES, enabled
from playground.routing.fill.specs import Fill, ParamSpec
from playground.routing.values import Value

_COLON_TAIL_RE = re.compile(r"[^\W\d_]\s*:\s+([^:\n]+?)\s*$")


def _free_text_quotes(question: str) -> list[tuple[Value, str]]:
    """Quoted text of three words or more, and the words after a colon that ends the request
    ("Convert it to audio: I am a pretty girl"), with how each was found."""
    quotes = [
        (v, "the quoted text") for v in values.quoted(question) if len(str(v.value).split()) >= 3
    ]
    colon = _COLON_TAIL_RE.search(question)
    if colon and len(colon.group(1).split()) >= 2:
        a, b = colon.span(1)
        quotes.append((Value("quoted", colon.group(1), a, b, colon.group(1)), "the text after ':'"))
    return quotes


def _give_quote(
    specs: list[ParamSpec], spec: ParamSpec, fill: Fill, quote: Value, said: str
) -> None:
    """The text the user quoted is the text to use; an optional argument that took it by a
    weak label gives it up."""
    fill.args[spec.name] = str(quote.value)
    fill.evidence[spec.name] = {
        "rule": "free_text",
        "span": [quote.start, quote.end],
        "text": str(quote.value),
        "detail": said,
    }
    fill.consumed.append((quote.start, quote.end))
    optional = {s.name for s in specs if not s.required}
    for other in [
        n
        for n, ev in fill.evidence.items()
        if n in optional and ev["rule"] in LOOSE_RULES and ev["span"] == [quote.start, quote.end]
    ]:
        del fill.args[other], fill.evidence[other]


def _free_words(
    tokens: list[korean.Token],
    held: list[tuple[int, int]],
    reasons: dict[tuple[int, int], str],
    own: frozenset[str] = frozenset(),
    taken: list[tuple[int, int]] | None = None,
) -> tuple[list[korean.Token], list[dict[str, str]]]:
    """The question's content words for a free-text value, and the words dropped with why
    (an argument's value, a stopword, a question word, the request's opening verb, a word
    bounding another value, or a word that states the request). ``own``: the lower-case
    examples of the free-text parameter itself ("e.g. 'spicy'"): a question word among them is
    a value of this parameter, kept even where it matched the tool's text; ``taken``: the spans
    of the values the tool's other arguments took (their bounding words are dropped)."""
    kept, dropped = [], []
    bounds = _bounding_words(tokens, held + (taken or []))
    for k, tok in enumerate(tokens):
        span = (tok.start, tok.end)
        why = None
        if not values.outside(span, held):
            why = "argument value"
        elif korean.is_stopword(tok.stem):
            why = "stopword"
        elif tok.stem in korean.QUESTION_WORDS:
            why = "question word"
        elif k == 0 and korean.is_generic(tok.stem.lower()):
            why = "the request's verb"
        elif k in bounds:
            why = "bounds another argument's value"
        elif span in reasons and tok.surface.lower() not in own:
            why = reasons[span]
        if why:
            dropped.append({"word": tok.surface, "why": why})
        else:
            kept.append(tok)
    return kept, dropped


def _bounding_words(tokens: list[korean.Token], held: list[tuple[int, int]]) -> set[int]:
    """Indexes of the words that bound a value another argument took: right before it ("under
    40 minutes", "less than 3": :data:`~playground.routing.fill.lang.BOUND_BEFORE`) or right
    after it, past the rest of its written word ("40분 이내":
    :data:`~playground.routing.fill.lang.BOUND_AFTER`)."""
    inside = [not values.outside((t.start, t.end), held) for t in tokens]
    out: set[int] = set()
    for k, is_value in enumerate(inside):
        if not is_value:
            continue
        j = k - 1
        while j >= 0 and not inside[j] and tokens[j].stem.lower() in BOUND_BEFORE:
            out.add(j)
            j -= 1
        j = k + 1
        while j < len(tokens) and tokens[j].start == tokens[j - 1].end:  # "40분": one word
            j += 1
        while j < len(tokens) and not inside[j] and tokens[j].stem in BOUND_AFTER:
            out.add(j)
            j += 1
    return out


def fill_free_text(
    specs: list[ParamSpec],
    question: str,
    fill: Fill,
    reserved: list[tuple[int, int]],
    reasons: dict[tuple[int, int], str],
    tokens: list[korean.Token] | None = None,
) -> Fill:
    """Rule 7, then the list of missing required args. ``reserved``: spans not usable (other
    tools' structured values); ``reasons``: ``{span: why}`` for words that matched a tool's
    vocabulary (so they state intent, not the value); ``tokens``: the question's tokens when
    already computed."""
    quotes = _free_text_quotes(question)
    for spec in specs:
        if spec.name in fill.args or not spec.free_text or not enabled("free_text"):
            continue
        quote, said = next(
            (
                (q, w)
                for q, w in quotes
                if values.outside((q.start, q.end), fill.consumed + reserved)
            ),
            (None, ""),
        )
        if quote is not None:
            _give_quote(specs, spec, fill, quote, said)
            continue
        if tokens is None:
            tokens = korean.tokenize(question)
        own = frozenset(str(e).lower() for e in spec.examples)
        taken = [(ev["span"][0], ev["span"][1]) for ev in fill.evidence.values() if "span" in ev]
        kept, dropped = _free_words(tokens, fill.consumed + reserved, reasons, own, taken)
        if kept:
            value = " ".join(t.stem if korean.has_hangul(t.surface) else t.surface for t in kept)
            fill.args[spec.name] = value
            fill.evidence[spec.name] = {
                "rule": "free_text",
                "span": [kept[0].start, kept[-1].end],
                "text": value,
                "detail": {"kept": [t.surface for t in kept], "dropped": dropped},
            }
    fill_defaults(specs, question, fill)
    drop_nonconforming(specs, fill)
    fill.missing = [s.name for s in specs if s.required and s.name not in fill.args]
    return fill
