"""The ``calls`` phase for clauses: a question of several clauses, each asking the same
tool again with other values ("... and then for Busan", "again with 5"), as one call per
clause (:func:`clause_calls`)."""

from __future__ import annotations

import re
from typing import Any

from playground.routing import korean
from playground.routing.fill import lang
from playground.routing.fill.formats import drop_nonconforming
from playground.routing.fill.pipeline import fill_loose, fill_structured
from playground.routing.fill.rules import enabled
from playground.routing.fill.series import series
from playground.routing.fill.specs import Fill, ParamSpec

#: Where a question starts asking again: a sentence end, a semicolon, or a conjunction that
#: opens a new request ("..., and then", "Also,", "and another ...", "after that"). General
#: English and Korean connectives; no domain words.
_CLAUSE_RE = re.compile(
    r"(?<=[.?!])\s+(?=\S)|;\s*|"
    r",?\s+(?:and\s+)?(?:then|also|after\s+that|afterwards|additionally|lastly|finally)\b,?\s*|"
    r"(?<![.?!])\s*\b(?:Also|Then|Lastly|Finally|Additionally|Plus)\b,?\s+|"
    r",\s+and\s+|\s+and\s+(?=another\b|the\s+same\b|similarly\b|how\b|what\b|then\b|"
    r"between\b|compare\b|(?:also\s+)?(?:for|in)\s+(?:the\s+)?[A-Z'\"])|"
    r"\s+as\s+well\s+as\s+|"
    r"(?:그리고|또한|그다음|그\s*다음에?)\s+",
)
#: Fill rules a clause may bring a new value by (not the leftovers of ``position``, not
#: defaults or free text, which would take any clause's words).
_CLAUSE_RULES = frozenset(
    {
        "enum",
        "pattern",
        "format",
        "example",
        "prefix",
        "word",
        "integer",
        "assign",
        "number",
        "string",
        "date",
        "cue",
        "listed",
        "enum_list",
    }
)


#: The ", and" before a series' last item, and a series of short items before it ("'A', 'B',
#: 'C'", "open hole, C foot": each item one to three words after a comma).
_SERIES_END_RE = re.compile(r",\s+and\s+")
_SERIES_RE = re.compile(r"(?:,\s*[\w'\"-]+(?:\s+[\w'\"-]+){0,2})+\Z")


def clauses(question: str) -> list[tuple[int, int]]:
    """The spans of ``question`` that each make a request (split at :data:`_CLAUSE_RE`);
    one span when nothing splits it. Spans shorter than 3 characters are dropped."""
    text = korean.normalize(question)
    out, start = [], 0
    for m in _CLAUSE_RE.finditer(text):
        if (
            _SERIES_END_RE.fullmatch(m.group())
            and _SERIES_RE.search(text, start, m.start())
            and not _AGAIN_RE.match(text[m.end() :])
        ):
            continue  # "the 'A', 'B', 'C', and 'D' fields": a series' last item, no new request
        if m.start() > start:
            out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    merged: list[tuple[int, int]] = []
    for a, b in out:
        if merged and len(re.findall(r"[^\W\d_]+", text[a:b])) <= 2:
            # ", and 150?", ", and cytoplasm,": the list goes on, no new request
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return [(a, b) for a, b in merged if len(text[a:b].strip()) >= 3]


_AGAIN_RE = re.compile(
    r"^\W*(?:and\s+)?(?:also|then|another|the\s+same|same|similarly|lastly|finally|"
    r"additionally|next|after\s+that|what\s+about|how\s+about|how\s+(?:does|do|would|will)|"
    r"compare|between|for|in|as\s+well\s+as|그리고|또|또한|다음)\b",
    re.I,
)


def _clause_fill(
    specs: list[ParamSpec],
    part: str,
    opening: str,
    given: dict[str, Any],
    topic: frozenset[str],
) -> tuple[Fill, bool, set[str]]:
    """One clause filled on its own: ``(fill, asks, keep)`` -- ``asks`` when it opens with a
    connective (:data:`_AGAIN_RE`) or restates the request (every ``topic`` word); ``keep``: the
    arguments it gives by a labelled rule (:data:`_CLAUSE_RULES`), or by position alone when it
    asks again ("and then do the same for San Francisco, CA"), never a flag."""
    fill = fill_structured(specs, part)
    fill_loose(specs, part, fill)
    drop_nonconforming(specs, fill)
    asks = bool(_AGAIN_RE.match(opening)) or bool(
        topic and {korean.stem(t.surface) for t in korean.tokenize(part)} >= topic
    )
    keep = {
        k
        for k in fill.args
        if fill.evidence[k]["rule"] in _CLAUSE_RULES
        or (
            asks
            and k in given
            and fill.evidence[k]["rule"] == "position"
            and isinstance(fill.args[k], str)
        )
    } - {k for k, v in fill.args.items() if isinstance(v, bool)}
    return fill, asks, keep


def _gives_again(
    fill: Fill,
    values: dict[str, Any],
    given: dict[str, Any],
    rules: dict[str, str],
    args: dict[str, Any],
) -> bool:
    """A clause that only gives other values to what earlier clauses gave ("..., and the fourth
    circle has a radius of 20cm", "..., and 150") asks the same again: values recognised by the
    same rule as before (not names and cue spans, which any clause has), none of them a value
    another argument already holds."""
    return all(k in given and given[k] != v for k, v in values.items()) and all(
        fill.evidence[k]["rule"] == rules.get(k)
        and fill.evidence[k]["rule"] not in ("string", "cue")
        and all(v != args.get(j) for j in args if j != k)
        for k, v in values.items()
    )


def clause_calls(
    specs: list[ParamSpec],
    question: str,
    args: dict[str, Any],
    topic: frozenset[str] = frozenset(),
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The calls a question makes when it asks the same thing again in another clause
    ("cases filed in 2019. Also list cases filed in 2018" -> two calls; BFCL ``parallel``).

    Each clause (:func:`clauses`) is filled on its own (rules 1-8 and :func:`fill_loose`,
    keeping only the labelled rules of :data:`_CLAUSE_RULES`). A clause giving a parameter a
    value other than the one the earlier clauses gave it starts a new call when the clause
    asks again -- it opens with a connective (also, then, another, the same, 그리고, ...:
    :data:`_AGAIN_RE`) or restates the request (a word of ``topic``, the stems of the tool's
    name and description); otherwise it only adds values. The new call keeps
    the previous call's other values (what is asked again is the changed part). A clause that
    only adds values for parameters no clause gave yet adds them to the current call. Returns
    ``(calls, notes)``: ``[args]`` when no clause asks again, else one dict per call; ``notes``
    ``[{clause, values}]`` for the explanation. A clause stating the asker's context ("I'm at
    Bengaluru.", :data:`playground.routing.fill.lang.STATEMENT_RE`) asks for nothing: only the
    other clauses are read, and their values replace the statement's (one call when one clause
    asks: ``notes`` is then not empty)."""
    text = korean.normalize(question)
    spans = clauses(text)
    if len(spans) < 2 or not enabled("clauses"):
        return [args], []
    requests = [(a, b) for a, b in spans if not lang.STATEMENT_RE.match(text[a:b].strip())]
    stated = bool(requests) and len(requests) < len(spans)
    if stated:  # "I'm at Bengaluru. Tell me the weather in Chennai": one request, Chennai
        spans = requests
    calls: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    given: dict[str, Any] = {}
    rules: dict[str, str] = {}  # the rule that first gave each argument
    prev_end = 0
    for a, b in spans:
        part = text[a:b]
        opening = (text[prev_end:a] + part[:30]).strip()
        prev_end = b
        fill, asks, keep = _clause_fill(specs, part, opening, given, topic)
        if calls and not asks:  # ", and silver headjoint": the list goes on, asks nothing
            keep -= {k for k, v in fill.args.items() if isinstance(v, list)}
        if not keep:
            continue
        # a clause may list several values itself ("the factorial of 5, the factorial of 7")
        for n, row in enumerate(series(part, fill.args, fill.evidence)):
            values = {k: row[k] for k in keep if k in row}
            changed = any(k in given and given[k] != v for k, v in values.items())
            again = changed and _gives_again(fill, values, given, rules, args)
            notes.append({"clause": part.strip(), "values": values})
            if not calls:
                calls.append({**args, **values})
            elif changed and (asks or n > 0 or again):
                calls.append({**calls[-1], **values})
            else:
                calls[-1].update({k: v for k, v in values.items() if k not in given})
            given.update(values)
            rules.update({k: fill.evidence[k]["rule"] for k in values if k not in rules})
    if len(calls) < 2 and not (stated and calls):
        return [args], []
    return calls, notes
