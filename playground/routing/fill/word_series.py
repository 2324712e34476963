"""Series written in the question: runs of words joined by commas and "and" or by
letters and numbers ("a) ..., b) ..."), quoted series, and values given "respectively"."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from playground.routing import korean, values
from playground.routing.fill.fits import fitted_value
from playground.routing.fill.loose_state import QuestionValues
from playground.routing.fill.specs import Fill, ParamSpec
from playground.routing.values import Value

LIST_GAP_RE = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+")

_SERIES_WORD_RE = re.compile(r"[^\W_][\w'’#+-]*[\w#+]|[^\W_]")
#: Words that open or join a phrase rather than name an item of a list, beyond
#: ``korean.STOPWORDS`` ("between John and Alice", "including X and Y").
_SERIES_STOP = frozenset(
    ["between", "including", "include", "includes", "among", "both", "either", "than", "like"]
)
#: Most words one item of a word list may have ("silver headjoint", "easy going").
_SERIES_ITEM_WORDS = 3


#: What joins the parameters' words to their values: "base and height as 6cm and 10cm",
#: "the width and depth are 3 and 4", "x and y: 2, 5", "... of 3 and 4 respectively".
_RESPECTIVE_JOIN_RE = re.compile(
    r"^\s*(?:(?:are|is|were|was|as|of|be|being|equal\s+to|set\s+to|given\s+as)\b|[:=])\s*"
    r"(?:(?:the|a|an)\s+)?$",
    re.I,
)


def respectively_pairs(
    specs: list[ParamSpec],
    text: str,
    cands: list[Value],
    fill: Fill,
    labels: dict[str, tuple[set[str], set[str]]],
) -> list[tuple[ParamSpec, Value, str]]:
    """Numbers listed right after the parameters they belong to, in the same order ("the base
    and height as 6cm and 10cm": base 6, height 10): a word list (:func:`word_series`) whose
    every item is one open numeric parameter's name word, joined by "are"/"as"/"of"/":" to as
    many numbers listed with commas and "and". ``[(spec, value, detail)]``, empty when the
    question writes no such pair of lists. Plain English; no domain words."""
    numeric = [
        s
        for s in specs
        if s.name not in fill.args and {"integer", "number"} & set(s.types) and not s.enum
    ]
    if len(numeric) < 2:
        return []
    nums = sorted((v for v in cands if v.kind == "number"), key=lambda v: v.start)
    out: list[tuple[ParamSpec, Value, str]] = []
    for spans in word_series(text):
        owners: list[ParamSpec] = []
        for a, b in spans:
            words = {korean.stem(w.lower()) for w in re.findall(r"[^\W\d_]+", text[a:b])}
            hit = [
                s
                for s in numeric
                if s not in owners
                and any(
                    korean.match_quality(w, n)[0] >= 0.7 for w in words for n in labels[s.name][0]
                )
            ]
            if len(hit) != 1:
                break
            owners.append(hit[0])
        else:
            end = spans[-1][1]
            after = [v for v in nums if v.start >= end]
            if len(after) < len(owners) or not _RESPECTIVE_JOIN_RE.match(
                text[end : after[0].start]
            ):
                continue
            listed = after[: len(owners)]
            if not all(
                SERIES_GAP_RE.match(text[x.end : y.start]) for x, y in itertools.pairwise(listed)
            ) or any(fitted_value(s, v) is None for s, v in zip(owners, listed)):
                continue
            said = " and ".join(text[a:b] for a, b in spans)
            for s, v in zip(owners, listed):
                out.append((s, v, f"number {v.text!r}: listed in the order of {said!r}"))
            break
    return out


def value_runs_of(text: str, free: list[tuple[int, Value]]) -> list[list[tuple[int, Value]]]:
    """``free`` (in question order) cut into runs of values listed together: the text between
    two of a run is a list separator (:data:`LIST_GAP_RE`)."""
    runs: list[list[tuple[int, Value]]] = []
    for ci, v in free:
        if runs and LIST_GAP_RE.fullmatch(text[runs[-1][-1][1].end : v.start]):
            runs[-1].append((ci, v))
        else:
            runs.append([(ci, v)])
    return runs


def quoted_series(text: str, found: QuestionValues) -> list[list[tuple[int, int]]]:
    """Quoted values listed together ("five 'burgers' and six 'chicken wings'", "'Age',
    'Income' and 'Education'"): runs of two or more quoted values whose gaps are list
    separators, a count word or number allowed before each item. The items' spans."""
    quoted = sorted((v for v in found.strings if v.kind == "quoted"), key=lambda v: v.start)
    out: list[list[tuple[int, int]]] = []
    run: list[Value] = []
    for v in quoted:
        gap = re.sub(r"[\"'‘’“”`]", "", text[run[-1].end : v.start]) if run else ""
        gap = re.sub(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s*$", "", gap)
        if run and LIST_GAP_RE.fullmatch(gap):
            run.append(v)
            continue
        if len(run) > 1:
            out.append([(x.start, x.end) for x in run])
        run = [v]
    if len(run) > 1:
        out.append([(x.start, x.end) for x in run])
    return out


def _letter_item(text: str, word: str, end: int) -> bool:
    """A capital letter that names something ("C, F and G", "A and 10"), not the pronoun "I"
    nor the article "A" before a word."""
    if not (len(word) == 1 and word.isupper()) or word == "I":
        return False
    return word != "A" or not re.match(r"\s+(?!and\b|or\b)[^\W\d_]", text[end:])


def _series_marks(
    text: str, blocked: list[tuple[int, int]] | frozenset[tuple[int, int]]
) -> list[tuple[str, int, int]]:
    """``text`` as a sequence of words (``w``; ``b`` when blocked), separators (``,``,
    ``and``) and breaks (``|``), with their spans."""
    marks: list[tuple[str, int, int]] = []
    prev_end = 0
    for m in _SERIES_WORD_RE.finditer(text):
        gap = text[prev_end : m.start()]
        if marks and gap.strip():
            if re.fullmatch(r"\s*,\s*", gap):
                marks.append((",", prev_end, m.start()))
            elif re.fullmatch(r"\s+&\s+", gap):
                marks.append(("and", prev_end, m.start()))
            else:
                marks.append(("|", prev_end, m.start()))
        word = m.group()
        low = word.lower()
        if low in ("and", "or"):
            marks.append(("and", m.start(), m.end()))
        elif (
            korean.is_stopword(korean.stem(low))
            and not _letter_item(text, word, m.end())
            and not word.isdigit()
        ) or low in _SERIES_STOP:
            marks.append(("|", m.start(), m.end()))
        elif not values.outside(m.span(), list(blocked)):
            marks.append(("b", m.start(), m.end()))
        else:
            marks.append(("w", m.start(), m.end()))
        prev_end = m.end()
    return marks


def _series_runs(
    text: str, marks: list[tuple[str, int, int]]
) -> list[tuple[list[tuple[int, int, bool]], str]]:
    """Runs of words (``(start, end, blocked)``) and the separator after each; a break ends
    the run and any list through it."""
    runs: list[tuple[list[tuple[int, int, bool]], str]] = []
    cur: list[tuple[int, int, bool]] = []
    sep = ""
    for kind, a, b in marks + [("|", len(text), len(text))]:
        if kind in ("w", "b"):
            if sep:  # a separator closed the previous run
                runs.append((cur, sep))
                cur, sep = [], ""
            cur.append((a, b, kind == "b"))
        elif kind in (",", "and") and cur:
            sep = "and" if kind == "and" or sep == "and" else ","
        else:
            if cur:
                runs.append((cur, ""))  # a break ends the run and any list through it
                runs.append(([], "|"))
            cur, sep = [], ""
    return runs


def _series_items(
    text: str, runs: list[tuple[list[tuple[int, int, bool]], str]], chain: list[int]
) -> list[tuple[int, int]] | None:
    """The item spans of the runs ``chain`` when they make a list ending with "and": middle
    items fix how long the first and last may be; a blocked word ends the first item; names
    listed with names keep to the capitalised words; digits alone make no list."""
    if len(chain) < 2 or runs[chain[-2]][1] != "and":
        return None
    middle = [runs[j][0] for j in chain[1:-1]]
    if any(len(r) > _SERIES_ITEM_WORDS for r in middle):
        return None
    cap = max((len(r) for r in middle), default=_SERIES_ITEM_WORDS)
    first = runs[chain[0]][0][-cap:]
    while first and any(w[2] for w in first):  # a blocked word ends the first item
        first = first[next(i for i in range(len(first) - 1, -1, -1) if first[i][2]) + 1 :]
    last = runs[chain[-1]][0][:cap]
    last = last[: next((i for i, w in enumerate(last) if w[2]), len(last))]
    if not first or not last:
        return None
    # names listed with names: "near Berlin and Paris happening" lists Berlin and Paris
    if (
        text[first[-1][0]].isupper()
        and text[last[0][0]].isupper()
        and all(not text[w[0]].islower() for r in middle for w in r)
    ):  # ("Taylor Swift and Maroon 5": a digit goes with the name)
        last = last[: next((i for i, w in enumerate(last) if text[w[0]].islower()), None)]
        up = [i for i, w in enumerate(first) if text[w[0]].islower()]
        first = first[up[-1] + 1 :] if up else first
    if not first or not last:
        return None
    spans = [(r[0][0], r[-1][1]) for r in (first, *middle, last)]
    if any(re.fullmatch(r"[\d.,\s]+", text[a:b]) for a, b in spans):
        return None
    return spans


def word_series(
    text: str, blocked: list[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset()
) -> list[list[tuple[int, int]]]:
    """The word lists ``text`` writes: items of one to three words joined by commas and a last
    "and"/"or"/"&" ("open hole, C foot, and silver headjoint", "Microsoft and Google",
    "efficient, organized, easy going and compassionate"), as the spans of the items.
    An item is a run of words between the separators that holds no stopword and no word of
    :data:`_SERIES_STOP`; the first and last items hold nothing in ``blocked`` either (spans
    that state the request or hold another value: "the salaries of jobs such as Data Analyst"
    -- "salaries" is no item), and the items in the middle fix how long they may be (the
    first ends at the first separator, the last starts after the last one). Items made only of
    digits make no list (numbers are listed by :func:`fill_loose` itself). Plain English list
    punctuation; no domain words."""
    marks = _series_marks(text, blocked)
    runs = _series_runs(text, marks)
    out: list[list[tuple[int, int]]] = []
    k = 0
    while k < len(runs):
        chain = [k]
        while runs[chain[-1]][1] in (",", "and") and chain[-1] + 1 < len(runs):
            nxt = runs[chain[-1] + 1][0]
            if not nxt:
                break
            chain.append(chain[-1] + 1)
            if runs[chain[-2]][1] == "and":
                break  # "X, Y and Z": the list ends with the item after "and"
        k = chain[-1] + 1
        spans = _series_items(text, runs, chain)
        if spans is not None:
            out.append(spans)
    return out


def string_array(spec: ParamSpec) -> bool:
    """An array parameter whose items are strings (or untyped), with no enum or pattern."""
    return (
        "array" in spec.types
        and (not spec.item_types or "string" in spec.item_types)
        and not (spec.enum or spec.pattern)
    )


def item_spec(spec: ParamSpec) -> ParamSpec:
    return replace(spec, types=spec.item_types or ("string",))


#: What may stand between two values of one list: a comma, and/or/&, Korean 와/과/랑/하고,
#: optionally after the first value's repeated unit word ("20 minutes and 15 minutes").
SERIES_GAP_RE = re.compile(
    r"^\s*(?:[A-Za-z%°/^0-9]+\s*)?(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&|then|vs\.?)\s+|"
    r"(?:와|과|랑|이랑|하고)\s+|\s*,\s*)(?:(?:the|a|an|also|for|in|of|at|to|with|from)\s+)*$",
    re.I,
)
