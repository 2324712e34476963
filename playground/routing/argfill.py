"""Filling a tool's arguments from the question, using only its declaration.

The model fills arguments from the parameter schema and the argument descriptions (seed 001:
"인자 설명에 형식과 예시를 넣으면 ... 질문 속의 'P008'을 그대로 product_id에 넣습니다"; seed
002: constraints belong in the schema -- enum, format, pattern). google-genai puts the
docstring's ``Args:`` section into the declaration's ``description`` (the schema properties
carry no description), so :func:`playground.routing.fill.docs.described` (the core's docstring
parser) recovers each argument's text from there,
and a schema ``description`` is used as well when present.

Rules, tried in this order for each parameter (first hit wins; each hit records the rule, the
span of the question it used and the detail):

1. ``enum``    -- a listed value written in the question (case-insensitive).
2. ``pattern`` -- ``re.search`` of the schema pattern with ``^``/``$`` anchors removed, not
   inside a longer word.
3. ``format``  -- ``date`` (YYYY-MM-DD, checked with :func:`datetime.date.fromisoformat`) and
   ``email``.
4. ``example`` -- a shape derived from an ID-like example in the description ("예: P008",
   "e.g. KB-101"): letters literal, each digit run ``\\d{n-1,n+1}``, punctuation literal.
5. ``prefix``  -- "'HR'로 시작한다" / "starts with 'HR'": the prefix followed by letters/digits
   with at least one digit (so "Price" never fills a 'P' id).
6. ``word``    -- for a plain string parameter (not structured, not free text) whose examples
   are plain words ("도시 이름(영문 소문자). 예: seoul"): a question word equal to one of
   the examples (case-insensitive; a Hangul example may carry a particle: 서울에). Counts as
   full evidence and its span is consumed like rules 1-5.
7. ``lowercase`` -- for the same kind of parameter when its description says the value is
   lower case (영문 소문자, 소문자, lowercase, lower case): the question's only lowercase latin
   word that is not a stopword or question word ("busan 날씨 알려줘" -> ``busan``). Two or more
   such words fill nothing (any English word would qualify; we cannot tell which is meant).
   Weak evidence, like an integer: it counts ``Weights.integer`` and its span is not consumed,
   so the same word still counts for the other tools ("tumbler 재고" with a weather tool
   loaded keeps ``tumbler`` for search_products).
8. ``integer`` -- for integer parameters: a number followed by a counter (3개, 5건, 10 items)
   or standing alone, within ``minimum``/``maximum``.
8a. ``coded`` -- a code the description explains ("1 for cleaning service, 2 for ironing
   service") when the question says the words only that code has; ``year`` -- for a string
   parameter named for a year or season, a year or season written in digits ("2019-2020").
9. ``free_text`` -- for a search-like string parameter (name such as keyword/query, or a
   description saying 검색어/키워드/keyword/query/search): the question's content words minus
   stopwords, question words, words that matched a tool's vocabulary and spans other rules
   used ("에어프라이어 재고 있어요?" -> "에어프라이어").

Rules 4 and 5 upper-case the value when the example/prefix is upper case (``hr20260601`` ->
``HR20260601``) and say so in the evidence.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.routing import korean, places, values
from playground.routing.fill import identifiers, joined, source_target
from playground.routing.fill.codes import _YEARISH_RE, _coded, _year_text
from playground.routing.fill.cue_spans import _COLON_END_RE, _cue_span
from playground.routing.fill.dates import _MONTH, _clock, _clock_matches, _date, is_date_param
from playground.routing.fill.fits import _fits, takes_fraction
from playground.routing.fill.formats import drop_nonconforming
from playground.routing.fill.kinds import (
    _command,
    _coordinate,
    _language,
    _state_code,
    takes_command_line,
    takes_language_code,
    takes_state_code,
)
from playground.routing.fill.labels import (
    _COUNTS_RE,
    _GENERIC_NAME_WORDS,
    _counted_noun,
    _label_words,
    _near,
)
from playground.routing.fill.loose_state import QuestionValues, _candidates, _Loose, _open_specs
from playground.routing.fill.numbers import _as_number, _integer
from playground.routing.fill.ordinals import _numbered, number_order
from playground.routing.fill.place_parts import (
    _NEXT_PART_RE,
    _PLACE_CUE_RE,
    _PLACE_DOC_RE,
    _place_shape,
    _split_place,
)
from playground.routing.fill.roles import _role, _role_cue
from playground.routing.fill.rules import enabled
from playground.routing.fill.shapes import _enum_items, _structural
from playground.routing.fill.specs import Fill, ParamSpec, _bare, _plain_string
from playground.routing.fill.units import (
    _NOT_UNITS,
    _TIME_PARAM_RE,
    _TIME_UNITS,
    _UNIT_NAME_RE,
    _listed_or_unit,
    _per_unit,
)
from playground.routing.fill.weights import PAIRING as W
from playground.routing.fill.word_series import (
    _LIST_GAP_RE,
    _SERIES_GAP_RE,
    _item_spec,
    _quoted_series,
    _respectively,
    _string_array,
    _value_runs,
    word_series,
)
from playground.routing.fill.words import _LOWERCASE_DOC_RE, _word
from playground.routing.values import Value

#: A format of labelled parts: "in the format 'track:SongName artist:ArtistName'".
_TEMPLATE_RE = re.compile(
    r"format(?:ted)?\s+(?:of\s+|as\s+|like\s+)?['\"]"
    r"((?:[A-Za-z_]+:[A-Za-z_]+(?:\s[A-Z][A-Za-z_]*)*\s*){2,})['\"]"
)


def _template(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``template``: a string whose description gives a format of labelled parts
    ('track:SongName artist:ArtistName') is written in it, each part filled from the question
    as a field of its own named by its label and placeholder ("the song 'Friends' by
    Marshmello" -> ``track:Friends artist:Marshmello``); ``None`` unless every part is found."""
    m = _TEMPLATE_RE.search(spec.doc)
    if m is None:
        return None
    parts = re.findall(r"([A-Za-z_]+):(.+?)(?=\s+[A-Za-z_]+:|\s*$)", m.group(1))
    sub = [
        ParamSpec(
            name=key,
            types=("string",),
            required=True,
            doc=f"The {' '.join(korean.split_identifier(holder)).lower()}.",
        )
        for key, holder in parts
    ]
    inner = fill_structured(sub, text)
    fill_loose(sub, text, inner)
    if not all(isinstance(inner.args.get(k), str) for k, _h in parts):
        return None
    spans = [ev["span"] for ev in inner.evidence.values()]
    if any(not values.outside(tuple(sp), used) for sp in spans):
        return None
    value = " ".join(f"{k}:{inner.args[k]}" for k, _h in parts)
    return value, {
        "rule": "template",
        "span": [min(a for a, _b in spans), max(b for _a, b in spans)],
        "text": value,
        "detail": f"the format {m.group(1).strip()!r}, its parts: "
        + "; ".join(f"{k} by {inner.evidence[k]['rule']}" for k, _h in parts),
    }


_Found = tuple[Any, dict[str, Any]] | None
#: ``find(spec, text, consumed, tokens)``; ``tokens()`` tokenizes the question once, when asked.
_Finder = Callable[
    ["ParamSpec", str, list[tuple[int, int]], Callable[[], list[korean.Token]]], _Found
]


def _takes_string(spec: ParamSpec) -> bool:
    return ("string" in spec.types or not spec.types) and not spec.enum


def _takes_word(spec: ParamSpec) -> bool:
    return _plain_string(spec) and bool(spec.examples or _LOWERCASE_DOC_RE.search(spec.doc))


#: The structured rules in the order they are tried for one parameter (the first value wins):
#: ``(serves, find)`` -- ``serves(spec)`` says whether the rule reads this parameter's shape,
#: ``find(spec, text, consumed, tokens)`` returns ``(value, evidence)`` or None.
_STRUCTURED: tuple[tuple[Callable[[ParamSpec], bool], _Finder], ...] = (
    (takes_command_line, lambda s, t, u, k: _command(s, t, u)),
    (_takes_string, lambda s, t, u, k: _template(s, t, u)),
    (lambda s: bool({"number", "integer"} & set(s.types)), lambda s, t, u, k: _coordinate(s, t, u)),
    (takes_language_code, lambda s, t, u, k: _language(s, t, u)),
    (takes_state_code, lambda s, t, u, k: _state_code(s, t, u)),
    (lambda s: True, lambda s, t, u, k: _structural(s, t, u)),
    (
        lambda s: joined.takes_joined(s.doc, s.types) and not s.enum,
        lambda s, t, u, k: joined.find(s.doc, s.examples, t, u),
    ),
    (
        lambda s: _takes_string(s) and bool(s.examples),
        lambda s, t, u, k: identifiers.find(s.examples, t, u),
    ),
    (_takes_word, lambda s, t, u, k: _word(s, t, u, k())),
    (
        lambda s: _plain_string(s) and bool(s.listed or _UNIT_NAME_RE.search(s.name)),
        lambda s, t, u, k: _listed_or_unit(s, t, u),
    ),
    (
        lambda s: bool({"integer", "string"} & set(s.types or ("string",))),
        lambda s, t, u, k: _coded(s, t, u, k()),
    ),
    (
        lambda s: _plain_string(s) and bool(_YEARISH_RE.search(s.name)),
        lambda s, t, u, k: _year_text(t, u),
    ),
    (
        lambda s: bool({"integer", "number"} & set(s.types)) and not s.enum,
        lambda s, t, u, k: _integer(s, t, u),
    ),
    (lambda s: "array" in s.types and bool(s.item_enum), lambda s, t, u, k: _enum_items(s, t, u)),
)


def _first_structured(
    spec: ParamSpec,
    text: str,
    consumed: list[tuple[int, int]],
    tokens: Callable[[], list[korean.Token]],
) -> _Found:
    """The first value a switched-on structured rule finds for ``spec`` (see :data:`_STRUCTURED`)."""
    for serves, find in _STRUCTURED:
        if serves(spec):
            found = find(spec, text, consumed, tokens)
            if found is not None and enabled(found[1]["rule"]):
                return found
    return None


def _as_declared_number(
    spec: ParamSpec, text: str, value: Any, ev: dict[str, Any]
) -> tuple[Any, dict[str, Any]]:
    """An example-shaped ``"3"`` as a number for a numeric parameter; ``30%`` as ``0.3`` where
    the parameter takes a fraction (:func:`takes_fraction`)."""
    if not (isinstance(value, str) and {"integer", "number"} & set(spec.types)):
        return value, ev
    value = _as_number(value, spec.types)
    end = ev["span"][1]
    if (
        isinstance(value, (int, float))
        and re.match(r"\s?%", text[end : end + 2])
        and takes_fraction(spec)
    ):
        value = round(float(value) / 100, 12)
        ev = {**ev, "detail": f"{ev['detail']}; {ev['text']}% as a fraction ({value})"}
    return value, ev


def fill_structured(
    specs: list[ParamSpec], question: str, tokens: list[korean.Token] | None = None
) -> Fill:
    """Rules 1-8 for every parameter of one tool (free text is left to :func:`fill_free_text`):
    the rules of :data:`_STRUCTURED`, first value wins, a switched-off rule's value is passed
    over (:mod:`playground.routing.fill.rules`). ``tokens``: the question's tokens when already
    computed (:func:`korean.tokenize`)."""
    text = korean.normalize(question)
    toks = functools.cache(lambda: tokens if tokens is not None else korean.tokenize(text))
    fill = Fill()
    if source_target.ends(specs):
        strings = QuestionValues.of(text).strings
        for end, value, ev in source_target.pair(specs, text, strings, fill.consumed, enabled):
            fill.args[end.name], fill.evidence[end.name] = value, ev
            fill.consumed.append((ev["span"][0], ev["span"][1]))
    for spec in specs:
        if spec.name in fill.args:
            continue
        found = _first_structured(spec, text, fill.consumed, toks)
        if found is not None:
            value, ev = _as_declared_number(spec, text, *found)
            fill.args[spec.name] = value
            fill.evidence[spec.name] = ev
            fill.consumed.extend(ev.pop("spans", None) or [tuple(ev["span"])])
    return fill


_NEGATION_RE = re.compile(
    r"\b(?:not|no|without|don'?t|doesn'?t|never|exclude|excluding)\b|않|없이|말고", re.I
)


#: Verbs that open a flag's name (include_forecast, has_late_check_in, allow_transfer): the
#: rest of the name says what the flag is about.
_FLAG_VERBS = frozenset(
    [
        "is",
        "has",
        "have",
        "include",
        "with",
        "use",
        "enable",
        "allow",
        "should",
        "show",
        "get",
        "return",
        "apply",
        "need",
        "want",
        "do",
        "can",
        "add",
        "sort",
        "only",
        "want",
        "force",
        "consider",
        "account",
    ]
)


def _loose_dates(st: _Loose) -> None:
    """Dates first: "April 25th 2023" is a date for a date parameter, not a name for
    another; a free-form time ("at 12pm" for ``time``) is the clock time as HH:MM."""
    open_specs, text, used, give = st.open_specs, st.text, st.used, st.give
    # dates first: "April 25th 2023" is a date for a date parameter, not a name for another
    for spec in open_specs:
        if ("string" in spec.types or not spec.types) and is_date_param(spec):
            dated = _date(spec, text, used)
            if dated is not None:
                value, rule, start, end, detail = dated
                give(spec, value, rule, start, end, detail)
                used.append((start, end))
        elif _plain_string(spec) and "time" in korean.split_identifier(spec.name.lower()):
            # a free-form time ("at 12pm" for time): the clock time as HH:MM
            for t in _clock_matches(text):
                clock = _clock(t)
                if clock is not None and values.outside(t.span(), used):
                    said = f"{t.group().strip()!r} as a clock time (HH:MM)"
                    give(spec, f"{clock[0]:02d}:{clock[1]:02d}", "date", *t.span(), said)
                    used.append(t.span())
                    break


def _loose_colon_cues(st: _Loose) -> None:
    """ "the answer to the question:\n\nLogistic regression is ...": text a colon introduces
    after the parameter's own word is its value, before any name inside it is paired."""
    open_specs, text, toks, fill, used, labels, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.used,
        st.labels,
        st.give,
    )
    # "the answer to the question:\n\nLogistic regression is ...": text a colon introduces
    # after the parameter's own word is its value, before any name inside it is paired
    for spec in open_specs:
        if spec.name in fill.args or not _plain_string(spec):
            continue
        cue = _cue_span(spec, text, toks, labels[spec.name][0])
        if (
            cue is not None
            and _COLON_END_RE.search(text[: cue[0]])
            and values.outside(cue[:2], used)
        ):
            give(
                spec,
                text[cue[0] : cue[1]],
                "cue",
                cue[0],
                cue[1],
                f"after its word {cue[2]!r} and a colon",
            )
            used.append(cue[:2])


def _loose_word_lists(st: _Loose) -> None:
    """A word list ("Microsoft and Google") for a string array whose words label it, or for
    a required one."""
    open_specs, text, toks, fill, used, found, intent, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.used,
        st.found,
        st.intent,
        st.give,
    )
    # a word list ("Microsoft and Google") for a string array whose words label it, or for a
    # required one
    for spec in open_specs:
        if spec.name in fill.args or not _string_array(spec) or spec.item_enum:
            continue
        name_w, doc_w = _label_words(spec)
        chosen: tuple[float, list[tuple[int, int]], list[str]] | None = None
        for spans in word_series(text, used + list(intent)) + _quoted_series(text, found):
            start, end = spans[0][0], spans[-1][1]
            listed = [text[a:b] for a, b in spans]
            if not values.outside((start, end), used) or any(
                v.start < b and a < v.end and not (a <= v.start and v.end <= b)
                for v in found.strings
                for a, b in spans
            ):
                continue  # "San Francisco, California and ...": an item cuts through a name
            near = 2 * _near(toks, start, end, name_w) + _near(toks, start, end, doc_w)
            if chosen is None or near > chosen[0]:
                chosen = (near, spans, listed)
        if chosen is not None and (chosen[0] > 0 or spec.required):
            near, spans, listed = chosen
            start, end = spans[0][0], spans[-1][1]
            give(
                spec,
                listed,
                "list",
                start,
                end,
                f"the words listed with commas and 'and'/'or' ({len(listed)} items)"
                + ("; next to its words" if near else ""),
            )
            used.extend(spans)  # the items ("five 'burgers' and six ...": six stays a value)


def _loose_numbered(st: _Loose) -> None:
    """Numbered arrays (coord1, coord2) take as many written lists, numbered strings (color1,
    color2) a word list of as many items, in order."""
    open_specs, text, toks, fill, used, intent, cands, labels, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.used,
        st.intent,
        st.cands,
        st.labels,
        st.give,
    )
    # numbered arrays (coord1, coord2) take as many written lists, in order
    for members in _numbered(open_specs).values():
        written = [v for v in cands if v.kind == "list" and values.outside((v.start, v.end), used)]
        if (
            len(members) == len(written)
            and all("array" in s.types and s.name not in fill.args for s in members)
            and all(_fits(s, v) is not None for s, v in zip(members, written, strict=True))
        ):
            for spec, v in zip(members, written, strict=True):
                give(
                    spec,
                    v.value,
                    "list",
                    v.start,
                    v.end,
                    "a written list, in the order of the numbers",
                )
                used.append((v.start, v.end))
    # numbered strings (color1, color2) take a word list of as many items, in order
    for members in _numbered(open_specs).values():
        if len(members) < 2 or not all(
            _plain_string(s) and s.name not in fill.args for s in members
        ):
            continue
        lists = [
            sp
            for sp in word_series(text, used + list(intent))
            if len(sp) == len(members) and values.outside((sp[0][0], sp[-1][1]), used)
        ]
        if lists:
            sp = max(
                lists,
                key=lambda x: sum(
                    _near(toks, x[0][0], x[-1][1], labels[s.name][0] | labels[s.name][1])
                    for s in members
                ),
            )
            for spec, (a, b) in zip(members, sp, strict=True):
                give(spec, text[a:b], "string", a, b, "a word list, in the order of the numbers")
                used.append((a, b))


def _loose_modifiers(st: _Loose) -> None:
    """Required words still empty: the word that modifies its noun ("a single room")."""
    open_specs, text, toks, fill, used, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.used,
        st.give,
    )
    for spec in open_specs:  # required words still empty: the word that modifies its noun
        if spec.name not in fill.args and spec.required and _plain_string(spec):
            modifier = _modifier_of(spec, text, toks, used)
            if modifier is not None:
                start, end, head = modifier
                give(
                    spec,
                    text[start:end],
                    "modifier",
                    start,
                    end,
                    f"the word before its noun {head!r}",
                )


def _loose_positions(st: _Loose) -> None:
    """Required values still empty: the remaining fitting ones in schema order."""
    open_specs, text, fill, cands, taken, give = (
        st.open_specs,
        st.text,
        st.fill,
        st.cands,
        st.taken,
        st.give,
    )
    for spec in open_specs:  # required values still empty: the remaining ones in order
        if spec.name in fill.args or not spec.required or "boolean" in spec.types:
            continue
        for ci, v in enumerate(cands):
            if ci in taken:
                continue
            value = _fits(spec, v)
            if value is None or (v.kind == "number" and v.unit in ("번째",)):
                continue
            if (
                v.kind == "name"
                and " " not in str(v.value)
                and re.search(r"(?:^|[.?!]\s+)$", text[: v.start])
            ):
                continue  # a capitalised word opening a sentence is not known to be a name
            taken.add(ci)
            as_fraction = (
                f"; {v.text.strip()} as a fraction" if v.percent and value != v.value else ""
            )
            give(
                spec,
                value,
                "position",
                v.start,
                v.end,
                f"the next unused {v.kind} in the question{as_fraction}",
            )
            break


def _loose_spare_name(st: _Loose) -> None:
    """The one name nobody took goes to the one optional parameter that takes names ("a
    film with Duane Whitaker" for cast: "Names of leading actors")."""
    open_specs, fill, used, cands, taken, give = (
        st.open_specs,
        st.fill,
        st.used,
        st.cands,
        st.taken,
        st.give,
    )
    held_now = used + [tuple(ev["span"]) for ev in fill.evidence.values()]
    spare = [
        c
        for i, c in enumerate(cands)
        if i not in taken
        and c.kind == "name"
        and " " in str(c.value)
        and not re.search(r"[.!?]\s", str(c.value))
        and values.outside((c.start, c.end), held_now)
    ]
    takers = [
        s
        for s in open_specs
        if s.name not in fill.args
        and not s.required
        and _plain_string(s)
        and re.search(r"\bnames?\b", s.doc, re.I)
    ]
    if len(spare) == 1 and len(takers) == 1:
        v = spare[0]
        give(takers[0], str(v.value), "position", v.start, v.end, "the one name left, for names")


def _loose_required_first(st: _Loose) -> None:
    """A required parameter comes first: a name an optional one took by a weak label moves
    to a required string still empty ("the footballer Lionel Messi" for celebrity_name, not for
    the optional sports)."""
    open_specs, fill = st.open_specs, st.fill
    for spec in open_specs:
        if spec.name in fill.args or not spec.required or not _plain_string(spec):
            continue
        donor = next(
            (
                o
                for o in open_specs
                if not o.required
                and o.name in fill.args
                and fill.evidence[o.name]["rule"] in ("string", "position")
                and isinstance(fill.args[o.name], str)
                and _plain_string(o)
            ),
            None,
        )
        if donor is not None:
            fill.args[spec.name] = fill.args.pop(donor.name)
            ev = fill.evidence.pop(donor.name)
            fill.evidence[spec.name] = {
                **ev,
                "detail": f"{ev['detail']}; moved from the optional {donor.name}: "
                "a required parameter comes first",
            }


def _loose_leftover(st: _Loose) -> None:
    """A required plain string (or string array) still empty takes the question's leftover
    words (rule ``leftover``: words no tool's vocabulary and no argument took)."""
    open_specs, fill = st.open_specs, st.fill
    leftover_specs = [
        s
        for s in open_specs
        if s.name not in fill.args
        and s.required
        and (_plain_string(s) or _string_array(s))
        and not is_date_param(s)
        # examples or a lowercase rule say what its values look like (rules 6-7 decide)
        and not (s.examples or _LOWERCASE_DOC_RE.search(s.doc))
    ]
    _give_leftover(st, leftover_specs)


def _give_leftover(st: _Loose, leftover_specs: list[ParamSpec]) -> None:
    """The leftover runs (:func:`_leftover_runs`) to ``leftover_specs``, the run their words
    label (else the last; several parameters take them in question order)."""
    specs, text, toks, fill, used, found, intent, cands, labels, taken, give = (
        st.specs,
        st.text,
        st.toks,
        st.fill,
        st.used,
        st.found,
        st.intent,
        st.cands,
        st.labels,
        st.taken,
        st.give,
    )
    if not leftover_specs:
        return
    held = used + [tuple(ev["span"]) for ev in fill.evidence.values()]
    held += [(c.start, c.end) for i, c in enumerate(cands) if i in taken]
    held += [(q.start, q.end) for q in found.strings if q.kind == "quoted"]  # a value
    vocab: set[str] = set()
    for s in specs:
        vocab |= _label_words(s)[0] | _label_words(s)[1]
    runs = _leftover_runs(text, toks, held, intent, vocab)
    for spec in leftover_specs:
        if not runs:
            break
        name_w, doc_w = labels[spec.name]
        best = max(
            range(len(runs)),
            key=lambda k: (
                2 * _near(toks, runs[k][0], runs[k][1], name_w)
                + _near(toks, runs[k][0], runs[k][1], doc_w),
                # else the last (an English request names its object last); several
                # parameters take the runs in question order ("a human and a chimp")
                k if len(leftover_specs) == 1 else -k,
            ),
        )
        start, end = runs.pop(best)
        if _string_array(spec):
            # an array takes the runs listed with it ("tomatoes and lettuce")
            items = [(start, end)]
            while best < len(runs) and _LIST_GAP_RE.fullmatch(text[items[-1][1] : runs[best][0]]):
                items.append(runs.pop(best))
            while best > 0 and _LIST_GAP_RE.fullmatch(text[runs[best - 1][1] : items[0][0]]):
                best -= 1
                items.insert(0, runs.pop(best))
            give(
                spec,
                [text[a:b] for a, b in items],
                "leftover",
                items[0][0],
                items[-1][1],
                "the listed words that no tool's vocabulary and no other argument took",
            )
            continue
        give(
            spec,
            text[start:end],
            "leftover",
            start,
            end,
            "the question's words that no tool's vocabulary and no other argument took",
        )


def _loose_objects(st: _Loose) -> None:
    """An object whose fields the question names (issue 12): its sub-parameters filled on
    their own."""
    open_specs, text, toks, fill, found, intent, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.found,
        st.intent,
        st.give,
    )
    for spec in open_specs:  # an object whose fields the question names (issue 12)
        if spec.name in fill.args or not spec.required or not spec.sub:
            continue
        inner = fill_structured(list(spec.sub), text, toks)
        fill_loose(list(spec.sub), text, inner, toks, found, intent)
        drop_nonconforming(list(spec.sub), inner)
        spans = [ev["span"] for ev in inner.evidence.values() if ev["span"][0] >= 0]
        if spans and all(s.name in inner.args for s in spec.sub if s.required):
            give(
                spec,
                dict(inner.args),
                "object",
                min(a for a, _b in spans),
                max(b for _a, b in spans),
                "its fields: "
                + "; ".join(f"{k} by {ev['rule']}" for k, ev in inner.evidence.items()),
            )


def _loose_array(st: _Loose, spec: ParamSpec) -> bool:
    """An array takes the remaining values of its item type (``18 and 12`` -> ``[18, 12]``);
    with several runs and several arrays, the run its words label. True when it took some."""
    open_specs, text, toks, fill, cands, labels, taken, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.cands,
        st.labels,
        st.taken,
        st.give,
    )
    if "array" not in spec.types:
        return False
    free = [
        (ci, v)
        for ci, v in enumerate(cands)
        if ci not in taken and _fits(_item_spec(spec), v) is not None
    ]
    value_runs = _value_runs(text, sorted(free, key=lambda p: p[1].start))
    arrays = [o for o in open_specs if "array" in o.types and o.name not in fill.args]
    how = "values of the item type"
    if len(value_runs) > 1 and len(arrays) > 1:
        # "dataset_A with the values 12, 24, 36 and dataset_B with the values 15, 30":
        # each array takes the run its words label (else the first run left)
        name_w, doc_w = labels[spec.name]
        free = max(
            value_runs,
            key=lambda r: (
                # only the words before a run label it (the next run's label
                # follows this one)
                2 * _near(toks, r[0][1].start, len(text) + 1, name_w, before=6)
                + _near(toks, r[0][1].start, len(text) + 1, doc_w, before=6),
                -r[0][1].start,
            ),
        )
        how = "values listed together, next to its words"
    if len(free) >= 2 or (free and spec.required):
        for ci, _ in free:
            taken.add(ci)
        items = [_fits(_item_spec(spec), v) for _, v in free]
        give(
            spec,
            items,
            "list",
            free[0][1].start,
            free[-1][1].end,
            f"{len(items)} {how}",
        )
        return True
    return False


def _loose_boolean(st: _Loose, spec: ParamSpec) -> None:
    """A boolean is true when every word of its name but a leading flag verb is in the
    question (include_forecast needs "forecast"), false after a negation."""
    text, toks, give = st.text, st.toks, st.give
    # every word of its name but a leading flag verb must be in the question
    # (include_forecast needs "forecast"; tax_exempt needs "tax" and "exempt")
    parts = [korean.stem(p) for p in korean.split_identifier(spec.name) if len(p) > 1]
    needed = [w for k, w in enumerate(parts) if not (k == 0 and w in _FLAG_VERBS)]
    needed = [w for w in needed if korean.is_content(w)] or needed

    def in_question(w: str) -> bool:
        return any(
            t.stem == w or (len(w) > 3 and korean.match_quality(t.stem, w)[0] >= 0.7) for t in toks
        )

    if not needed or not all(in_question(w) for w in needed):
        return
    for tok in toks:
        if tok.stem in needed or any(
            korean.match_quality(tok.stem, w)[0] >= 0.7 for w in needed if len(w) > 3
        ):
            window = text[max(0, tok.start - 25) : tok.start]
            value = not _NEGATION_RE.search(window)
            give(
                spec,
                value,
                "boolean",
                tok.start,
                tok.end,
                f"its word {tok.surface!r}" + ("" if value else " after a negation"),
            )
            break


def _loose_cue(st: _Loose, spec: ParamSpec) -> None:
    """A string with no candidate takes the span after its own name word (``the function
    3x^2 + 2x - 1`` -> ``3x^2 + 2x - 1``, rule ``cue``)."""
    text, toks, cands, labels, taken, give = (
        st.text,
        st.toks,
        st.cands,
        st.labels,
        st.taken,
        st.give,
    )
    if not ("string" in spec.types or not spec.types):
        return
    cue = _cue_span(spec, text, toks, labels[spec.name][0])
    if cue is not None and values.outside(
        cue[:2], [(c.start, c.end) for i, c in enumerate(cands) if i in taken]
    ):
        give(spec, text[cue[0] : cue[1]], "cue", cue[0], cue[1], f"after its word {cue[2]!r}")
        return


def _unit_score(spec: ParamSpec, v: Value, labels: tuple[set[str], set[str]]) -> tuple[float, str]:
    """A number's unit word in the parameter's words (``W.unit``), or a time unit where the
    parameter takes a time (its name says so more than its words)."""
    if v.kind != "number" or not v.unit:
        return 0.0, ""
    name_w, doc_w = labels
    unit = korean.stem(v.unit.split("/")[0])
    if any(korean.match_quality(unit, w)[0] >= 0.7 for w in name_w | doc_w) and not _per_unit(
        v.unit, spec.name + " " + spec.doc
    ):
        return W.unit, f"unit {v.unit!r} is in its description"
    if unit.lower() in _TIME_UNITS and _TIME_PARAM_RE.search(spec.name + " " + spec.doc):
        score = W.time_in_name if _TIME_PARAM_RE.search(spec.name) else W.time_in_doc
        return score, f"a time in {v.unit!r} where the parameter takes a time"
    return 0.0, ""


def _label_score(st: _Loose, spec: ParamSpec, v: Value, role: str) -> list[tuple[float, str]]:
    """Evidence from the words around ``v``: a number counting the parameter's noun ("three
    personality traits" for trait_count), its words next to it, its own word inside a name,
    and a from/to cue opening its end of a range (``role``)."""
    toks, text = st.toks, st.text
    name_w, doc_w = st.labels[spec.name]
    out: list[tuple[float, str]] = []
    if (
        v.kind == "number"
        and "integer" in spec.types
        and _COUNTS_RE.search(spec.name)
        and _counted_noun(toks, v.end, name_w | doc_w)
    ):
        out.append((W.counted_noun, "it counts the parameter's noun"))
    near = W.name_word * _near(toks, v.start, v.end, name_w) + _near(toks, v.start, v.end, doc_w)
    if near:
        out.append((near, "next to its words"))
    if v.kind in ("name", "quoted") and any(
        korean.stem(t.surface) in name_w - _GENERIC_NAME_WORDS
        for t in toks
        if v.start <= t.start and t.end <= v.end
    ):
        out.append((W.own_word_in_name, "its own word is part of the name"))
    if role and _role_cue(text, v.start) == role:
        why = f"after a word that opens its {role} ('from'/'to', 'between ... and')"
        out.append((W.role_cue, why))
    return out


def _name_score(st: _Loose, spec: ParamSpec, v: Value) -> list[tuple[float, str]]:
    """Evidence for a name: after in/at/near where the parameter wants a place, a known city
    for a parameter named city ("of Seattle, that city where Mr. Gates works"; GeoNames), or
    written in its examples' 'X, Y' shape ("in Chennai, Tamil Nadu" for 'City, State')."""
    if v.kind != "name":
        return []
    text, out = st.text, []
    about = spec.name + " " + spec.doc
    if (
        _PLACE_DOC_RE.search(about)
        and not re.search(r"e-?mail|메일", about, re.I)
        and _PLACE_CUE_RE.search(text[max(0, v.start - 12) : v.start])
    ):
        out.append((W.place_cue, "a name after in/at/near where the parameter wants a place"))
    if (
        "city" in korean.split_identifier(spec.name.lower())
        and places.city(v.text.split(",")[0]) is not None
    ):
        out.append((W.known_city, f"a city in {places.SOURCE}"))
    if spec.joined > 0 and (
        v.text.count(",") == spec.joined or ("," not in v.text and _NEXT_PART_RE.match(text, v.end))
    ):
        out.append((W.joined_shape, "written in its examples' 'X, Y' shape"))
    return out


_WRITTEN_KIND_RE = {
    "url": re.compile(r"url|link|address|주소", re.I),
    "email": re.compile(r"e-?mail|메일", re.I),
    "path": re.compile(r"path|file|dir|folder|파일|경로", re.I),
}


def _kind_score(spec: ParamSpec, v: Value) -> tuple[float, str]:
    """A URL, e-mail or path where the parameter wants one (an identifier such as
    ``docs/reports`` counts less as a path than a written one)."""
    kind = "path" if v.kind == "identifier" else v.kind
    rx = _WRITTEN_KIND_RE.get(kind)
    if rx is None or not rx.search(spec.name + " " + spec.doc):
        return 0.0, ""
    return (W.written_kind if kind == v.kind else W.identifier_as_path), (
        f"a {kind} where the parameter wants one"
    )


def _pair_score(st: _Loose, spec: ParamSpec, v: Value, role: str) -> tuple[float, list[str]]:
    """How strongly the question pairs value ``v`` with ``spec`` (:data:`W`), and why."""
    hit = st.found.assigned.get(spec.name.lower())
    parts: list[tuple[float, str]] = []
    if hit is not None and hit.start == v.start:
        parts.append((W.assigned, f"written as {spec.name}="))
    parts.append(_unit_score(spec, v, st.labels[spec.name]))
    parts += _label_score(st, spec, v, role)
    parts += _name_score(st, spec, v)
    parts.append(_kind_score(spec, v))
    parts = [(score, why) for score, why in parts if score]
    return sum(score for score, _ in parts), [why for _, why in parts]


def _pairable(spec: ParamSpec, v: Value) -> Any:
    """``v`` as a value of ``spec`` when it may be paired with it, else None: not the
    parameter's own name quoted ("based on a 'question'"), no place name for a date ("to
    Paris" is no return_time; "April 2022" may be a date)."""
    value = _fits(spec, v)
    if value is None or (v.kind == "quoted" and _bare(str(v.value)) == _bare(spec.name)):
        return None
    if v.kind == "name" and is_date_param(spec) and not re.search(rf"\d|\b{_MONTH}", str(v.value)):
        return None
    return value


def _loose_pairs(st: _Loose) -> list[tuple[float, int, int, Any, str]]:
    """Every (parameter, value) pairing with evidence, as ``(-score, spec index, candidate
    index, value, why)``. Start/end roles count only where the tool has both ends (from_year +
    to_year), not for a lone to_address; an optional value needs a label, not a mere
    neighbour (seed 002: a model leaves optional arguments empty unless the user gives them)."""
    roles = {sp.name: _role(sp) for sp in st.specs}
    if not {"start", "end"} <= set(roles.values()):
        roles = {}
    pairs = []
    for si, spec in enumerate(st.open_specs):
        if spec.name in st.fill.args or "boolean" in spec.types or "object" in spec.types:
            continue
        for ci, v in enumerate(st.cands):
            value = _pairable(spec, v)
            if value is None:
                continue
            score, why = _pair_score(st, spec, v, roles.get(spec.name, ""))
            if score > 0 and (spec.required or score >= W.optional_floor):
                pairs.append((-score, si, ci, value, "; ".join(why)))
    return pairs


def _loose_take_pairs(st: _Loose, pairs: list[tuple[float, int, int, Any, str]]) -> None:
    """The pairs best first, each parameter and each value once; a name opened by the
    parameter's own words drops them ("UUID SUPERFANCY" for project)."""
    open_specs, fill, cands, labels, taken, give = (
        st.open_specs,
        st.fill,
        st.cands,
        st.labels,
        st.taken,
        st.give,
    )
    for neg, si, ci, value, said in sorted(pairs, key=lambda p: (p[0], p[1], p[2])):
        spec, v = open_specs[si], cands[ci]
        if spec.name in fill.args or ci in taken:
            continue
        taken.add(ci)
        rule = (
            "assign"
            if "written as" in said
            else {"number": "number", "list": "list"}.get(v.kind, "string")
        )
        if v.percent and value != v.value:
            said += f"; {v.text.strip()} as a fraction ({value})"
        start = v.start
        if v.kind == "name" and isinstance(value, str):
            # "UUID SUPERFANCY" for project ("The UUID of the project"), "Lawyer John Doe" for
            # name ("the lawyer's name"): the parameter's own words open the name, not the value
            lead = _label_lead(value, labels[spec.name])
            if lead:
                value, start = value[lead:], start + lead
                said += f"; without its own words {v.text[:lead].strip()!r}"
        give(spec, value, rule, start, v.end, f"{v.kind} {v.text!r}: {said} (score {-neg:.2f})")


def fill_loose(
    specs: list[ParamSpec],
    question: str,
    fill: Fill,
    tokens: list[korean.Token] | None = None,
    found: QuestionValues | None = None,
    intent: frozenset[tuple[int, int]] = frozenset(),
) -> Fill:
    """Values written in the question given to the parameters whose words stand next to them.
    ``intent``: spans of words that matched a tool's vocabulary; a capitalised name made only
    of such words ("Weather for London") states the request, it is not a value.

    Runs after the structured rules (1-8) for the parameters they left empty. Candidates come
    from :mod:`playground.routing.values` (numbers, quoted text, names, codes, URLs, e-mails,
    paths, ``name=value``). Each pairing scores: ``name=value`` naming the parameter 10; a unit
    word after a number that the parameter's text uses 3; parameter-name words before the value
    ``2/distance``, description words ``1/distance`` (:func:`_near`). Pairs are taken best first,
    each value once. Then arrays take the remaining values of their item type (``18 and 12``
    -> ``[18, 12]``); strings with no candidate take the span after their own name word
    (``the function 3x^2 + 2x - 1`` -> ``3x^2 + 2x - 1``, rule ``cue``); dates are parsed with
    :func:`dateutil.parser.parse`; booleans are true when the parameter's name word is in the
    question (false after a negation); finally required parameters still empty take the
    remaining fitting values in schema order (rule ``position``); the one name nobody took goes
    to the one optional parameter whose description takes names; a name an optional parameter
    took by a weak label moves to a required string still empty; a required plain string (or
    string array) still empty takes the question's leftover words (rule ``leftover``: words no
    tool's vocabulary and no argument took, :func:`_leftover_runs`); a required object takes the
    fields the question names (rule ``object``). Optional parameters are only filled by
    labelled evidence. Returns ``fill`` (updated in place)."""
    text = korean.normalize(question)
    toks = tokens if tokens is not None else korean.tokenize(text)
    open_specs = _open_specs(specs, fill)
    if not open_specs:
        return fill
    used = list(fill.consumed)
    found = found or QuestionValues.of(text)
    cands = _candidates(specs, open_specs, text, toks, used, found, intent)
    labels = {s.name: _label_words(s) for s in open_specs}
    st = _Loose(specs, open_specs, text, toks, fill, used, found, intent, cands, labels)
    _loose_dates(st)
    _loose_colon_cues(st)
    st.drop_used()
    _loose_word_lists(st)
    _loose_numbered(st)
    st.drop_used()
    for spec, v, detail in _respectively(open_specs, text, st.cands, fill, labels):
        st.give(spec, _fits(spec, v), "number", v.start, v.end, detail)
        used.append((v.start, v.end))
    st.drop_used()
    _loose_take_pairs(st, _loose_pairs(st))
    for spec in open_specs:
        if spec.name in fill.args or _loose_array(st, spec):
            continue
        if "boolean" in spec.types:
            _loose_boolean(st, spec)
        else:
            _loose_cue(st, spec)
    _split_place(open_specs, fill, text)
    _loose_modifiers(st)
    _loose_positions(st)
    _loose_spare_name(st)
    _loose_required_first(st)
    _loose_leftover(st)
    _loose_objects(st)
    for spec in open_specs:
        if spec.joined:
            _place_shape(spec, text, fill)
    number_order(open_specs, fill)
    return fill


def _label_lead(value: str, labels: tuple[set[str], set[str]]) -> int:
    """How many characters of ``value`` its leading label words take (words of the parameter's
    name or description, or id/uuid/number/no), when a capitalised word is left after them;
    0 when none."""
    words = labels[0] | labels[1] | {"id", "uuid", "number", "no"}
    end = 0
    for m in re.finditer(r"\S+\s+", value):
        if m.start() != end or korean.stem(m.group().strip(" .:#").lower()) not in words:
            break
        end = m.end()
    rest = value[end:][:1]
    return end if end and (rest.isupper() or rest.isdigit()) else 0


#: Words that join or introduce rather than name (never part of a leftover value), beyond
#: ``korean.STOPWORDS``, which both readers of this set check first.
_LEFTOVER_STOP = frozenset(
    [
        "know",
        "does",
        "current",
        "currently",
        "latest",
        "detail",
        "details",
        "information",
        "info",
        "last",
        "next",
        "out",
        "near",
        "nearby",
        "respectively",
        "today",
        "soon",
        "against",
        "including",
        "following",
        "per",
        "under",
        "over",
        "according",
        "something",
        "anything",
        "names",
        "name",
        "total",
        "top",
        "best",
        "first",
        "good",
        "tonight",
        "tomorrow",
        "yesterday",
        "having",
        "them",
        "their",
    ]
)


def _leftover_runs(
    text: str,
    tokens: list[korean.Token],
    held: list[tuple[int, int]],
    intent: frozenset[tuple[int, int]],
    vocab: set[str],
) -> list[tuple[int, int]]:
    """Spans of consecutive lowercase Latin words (joined only by spaces or hyphens) that no
    tool's vocabulary matched (``intent``), that are not a parameter's own label words
    (``vocab``), not stopwords, request verbs or question words, and that no argument took
    (``held``): what is left of the question once the request is read ("Who discovered
    radium?" -> ``radium``). At most four words each, in question order."""
    runs: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = None
    for tok in tokens:
        w = tok.surface
        ok = (
            w[:1].islower()
            and w.isascii()
            and w.isalpha()
            and (tok.start, tok.end) not in intent
            and values.outside((tok.start, tok.end), held)
            and not korean.is_stopword(tok.stem)
            and w.lower() not in _LEFTOVER_STOP
            and tok.stem not in korean.QUESTION_WORDS
            and tok.stem not in korean.GENERIC_VERBS
            and not (w.endswith("ed") and not w.endswith("eed") and len(w) > 4)
            and not any(korean.match_quality(tok.stem, v)[0] >= 0.7 for v in vocab)
        )
        # "theory of relativity": two leftover words joined by "of" are one value
        if ok and re.search(r"\d\s*$", text[: tok.start]):
            ok = False  # "24 hour format", "50 kilometers": a number's unit, not a value
        if ok and cur is None and re.search(r"\bto\s+$", text[: tok.start]):
            ok = False  # "to read": an infinitive is what the user wants done, not a value
        if (
            ok
            and cur is not None
            and re.fullmatch(r"[ -]|\s+of\s+(?:the\s+)?", text[cur[1] : tok.start])
        ):
            cur = (cur[0], tok.end)
        elif ok:
            if cur is not None:
                runs.append(cur)
            cur = (tok.start, tok.end)
        elif cur is not None and w.lower() in ("of", "the") and w.islower():
            continue  # may join two leftover words ("theory of relativity")
        else:
            if cur is not None:
                runs.append(cur)
            cur = None
    if cur is not None:
        runs.append(cur)
    return [r for r in runs if len(text[r[0] : r[1]].split()) <= 4]


def _modifier_of(
    spec: ParamSpec, text: str, tokens: list[korean.Token], used: list[tuple[int, int]]
) -> tuple[int, int, str] | None:
    """``(start, end, noun)`` of the lowercase word right before the noun the parameter is named
    for ("a single room" for ``room_type``, "constitutional law" for ``field_of_law``): an
    English modifier stands before its noun. Only for required strings nothing else filled."""
    heads = {
        korean.stem(p.lower())
        for p in korean.split_identifier(spec.name)
        if len(p) > 2 and p.lower() not in _GENERIC_NAME_WORDS and korean.is_content(p.lower())
    }
    for tok in tokens:
        if tok.stem.lower() not in heads or korean.has_hangul(tok.surface):
            continue
        m = re.search(r"(?<![\w-])([a-z][a-z-]*[a-z])\s+$", text[: tok.start])
        if not m or not values.outside(m.span(1), used):
            continue
        word = m.group(1)
        if korean.is_stopword(word) or korean.stem(word) in heads or word in _NOT_UNITS:
            continue
        return m.start(1), m.end(1), tok.surface
    return None


#: Rules whose value is a word of the question (not a recognised name or number).
_WORD_RULES = frozenset({"leftover", "cue", "word", "modifier", "listed", "lowercase"})
#: One more item of a word list: after a comma or and/or, and itself followed by the list's
#: next separator, the sentence's end or a preposition ("units and height of" is no list).
_WORD_ITEM_RE = re.compile(
    r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:the\s+)?([a-z][a-z-]*)\b"
    r"(?=\s*(?:[,.?!;:)]|$)|\s+(?:and|or|in|at|for|on|with|from|to)\b)"
)


@dataclass
class _Series:
    """What :func:`series` reads and builds: the normalised question ``text``, its ``found``
    values (``pool`` by position, ``at`` by start), the filled ``args`` with their
    ``evidence`` and ``spans``, and the ``lists`` found per argument (``where``: the span of a
    list written in one piece; ``unitless``: number arguments cycling over unitless numbers)."""

    text: str
    found: QuestionValues
    args: dict[str, Any]
    evidence: dict[str, dict[str, Any]]
    spans: dict[str, tuple[int, int]]
    pool: list[Value]
    at: dict[int, Value]
    lists: dict[str, list[Any]] = field(default_factory=dict)
    where: dict[str, tuple[int, int]] = field(default_factory=dict)
    unitless: list[str] = field(default_factory=list)


def _listed_lowercase(st: _Series, name: str, start: int, end: int) -> bool:
    """A lowercase word listed with others ("gold, silver, platinum, and palladium"). True when
    the argument is such a word (listed or not)."""
    value = st.args.get(name)
    if not (
        st.at.get(start) is None
        and isinstance(value, str)
        and re.fullmatch(r"[a-z][a-z-]*", value)
        and st.evidence[name]["rule"] in _WORD_RULES
    ):
        return False
    words, reach = [value], end
    while m := _WORD_ITEM_RE.match(st.text, reach):
        w = m.group(1)
        if korean.is_stopword(korean.stem(w)) or w in _LEFTOVER_STOP:
            break
        words.append(w)
        reach = m.end()
    if len(words) > 1:
        st.lists[name] = words
        st.where[name] = (start, reach)
    return True


def _listed_dates(st: _Series, name: str, start: int, end: int) -> bool:
    """Dates written as the parameter takes them, listed ("on 2022-01-01 and 2022-02-01").
    True when the argument is such a date."""
    value = st.args.get(name)
    ev = st.evidence[name]
    if not (isinstance(value, str) and ev["rule"] == "date" and ev["text"] == value):
        return False
    shape = re.sub(r"\d", r"\\d", re.escape(value))
    dates, reach = [value], end
    while m := re.match(r"(.{1,12}?)(" + shape + r")(?!\d)", st.text[reach:]):
        if not _SERIES_GAP_RE.match(m.group(1)):
            break
        dates.append(m.group(2))
        reach += m.end()
    if len(dates) > 1:
        st.lists[name] = dates
        st.where[name] = (start, reach)
    return True


def _listed_words(st: _Series, name: str, start: int, end: int) -> bool:
    """A word list the value opens or ends ("navy, purple and maroon", "Berlin and Paris"),
    none of whose items another argument holds; "a weight of 85 kilograms and height of 180":
    another argument's name is no item; a name lists with names ("David Leitch and acted by
    ..." lists nothing). True when found."""
    value, text = st.args.get(name), st.text
    if not (isinstance(value, str) and name in st.args):
        return False
    others_at = [sp for n, sp in st.spans.items() if n != name]
    arg_words = {
        korean.stem(w.lower()) for n in st.args if n != name for w in korean.split_identifier(n)
    }
    listed = next(
        (
            sp
            for sp in word_series(text)
            if any(a <= start and end <= b for a, b in (sp[0], sp[-1]))
            and all(values.outside(item, others_at) for item in sp)
            and not any(
                korean.stem(w.lower()) in arg_words
                for a, b in sp
                for w in re.findall(r"[^\W\d_]+", text[a:b])
            )
            and (len(sp) > 2 or value[:1].islower() or not any(text[a].islower() for a, _b in sp))
        ),
        None,
    )
    if listed is None:
        return False
    st.lists[name] = [text[a:b] for a, b in listed]
    st.where[name] = (listed[0][0], listed[-1][1])
    return True


def _unit_written_once(st: _Series, first: Value, free: list[Value], same: list[Any]) -> None:
    """ "10, 20 and 30 years": the unit written once after the last of a list counts for the
    unitless numbers listed before it (prepended to ``same``)."""
    nums_before = [v for v in free if v.kind == "number" and v.end <= first.start]
    head = first
    for v in reversed(nums_before):
        if (v.unit and v.unit not in _NOT_UNITS) or not re.fullmatch(
            r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)", st.text[v.end : head.start]
        ):
            break
        same.insert(0, v.value)
        head = v


def _listed_numbers(st: _Series, name: str, first: Value, free: list[Value]) -> None:
    """A number with a unit word lists the other numbers with the same unit ("20 minutes and
    15 minutes"); a number without one cycles with the other unitless arguments."""
    value = st.args[name]
    unit = first.unit.split("/")[0]
    if not unit or unit in _NOT_UNITS:
        st.unitless.append(name)
        return
    same_v = [v for v in free if v.kind == "number" and v.unit.split("/")[0] == unit]
    same = [v.value for v in same_v]
    if len(same) == 1:
        _unit_written_once(st, first, free, same)
    if len(same) > 1 and all(
        not isinstance(x, float) or isinstance(value, float) or not x.is_integer() for x in same
    ):
        st.lists[name] = same
        if len(same_v) == len(same) and all(
            _SERIES_GAP_RE.match(st.text[x.end : y.start]) for x, y in itertools.pairwise(same_v)
        ):
            st.where[name] = (same_v[0].start, same_v[-1].end)


def _listed_chain(st: _Series, name: str, start: int, first: Value, free: list[Value]) -> None:
    """The values of the first one's kind that follow it joined by commas, and/or, 와/과/랑
    (:data:`_SERIES_GAP_RE`); a name that took its qualifier ("Naples, Florida") gives each
    item its own; "Seattle, Washington" (a name after a comma alone) qualifies, lists nothing."""
    value, text = st.args[name], st.text
    chain, reach = [value], max(first.end, st.spans[name][1])
    gaps: list[str] = []
    for v in free:
        if v.start < reach:
            continue
        if v.kind != first.kind and not {v.kind, first.kind} <= {"name", "quoted"}:
            break
        if not _SERIES_GAP_RE.match(re.sub(r"[\"'‘’“”`]", "", text[reach : v.start])):
            break  # ('"Climate Change" and "AI"': the quotes are no gap)
        gaps.append(text[reach : v.start])
        item = str(v.value)
        if first.kind == "name" and isinstance(value, str) and "," in value:
            m = _NEXT_PART_RE.match(text, v.end)
            if m:
                item = text[v.start : m.end()]
        chain.append(item)
        reach = v.start + len(item)
    if (
        len(chain) == 2
        and first.kind == "name"
        and re.fullmatch(r"\s*,\s*", gaps[0])
        and not re.match(r"\s*,?\s*(?:and|or|&)\b", text[reach:])
    ):
        return
    if len(chain) > 1:
        st.lists[name] = chain
        st.where[name] = (start, reach)


def _listed_values(st: _Series, name: str, start: int) -> None:
    """Numbers (:func:`_listed_numbers`) or values of one kind (:func:`_listed_chain`) listed
    after the argument's own value; an identifier written in digits ("Case No 28473 and
    64725") lists like a string; a value that is not that candidate ("2022-04-27" is a date,
    not 2022) lists nothing."""
    value, first = st.args.get(name), st.at.get(start)
    if first is None or isinstance(value, (list, dict, bool)) or name not in st.args:
        return
    digits_id = first.kind == "number" and isinstance(value, str) and value == str(first.value)
    if (first.kind == "number") != isinstance(value, (int, float)) and not digits_id:
        return
    others = {sp for n, sp in st.spans.items() if n != name}
    free = [v for v in st.pool if (v.start, v.end) not in others or v is first]
    if first.kind == "number" and not digits_id:
        _listed_numbers(st, name, first, free)
    else:
        _listed_chain(st, name, start, first, free)


def _cycle_unitless(st: _Series) -> None:
    """Numbers without units cycle over the arguments they fill ("3 and 4, 5 and 12" for
    ``a``, ``b`` -> two calls); "seasons 2018 and 2020": one list written in one piece."""
    if not st.unitless:
        return
    taken = {sp for n, sp in st.spans.items() if n not in st.unitless}
    nums_v = [
        v
        for v in st.found.numbers
        if (v.start, v.end) not in taken
        and (not v.unit or v.unit in _NOT_UNITS)
        and v.start >= min(st.spans[n][0] for n in st.unitless)
    ]
    nums = [v.value for v in nums_v]
    p = len(st.unitless)
    if len(nums) > p and len(nums) % p == 0:
        order = sorted(st.unitless, key=lambda n: st.spans[n][0])
        for j, name in enumerate(order):
            st.lists[name] = nums[j::p]
        if p == 1 and all(
            _SERIES_GAP_RE.match(st.text[x.end : y.start]) for x, y in itertools.pairwise(nums_v)
        ):
            st.where[st.unitless[0]] = (nums_v[0].start, nums_v[-1].end)


def _series_rows(st: _Series) -> list[dict[str, Any]]:
    """The argument dicts for the lists found: lists written apart ("Lakers and Bulls in
    seasons 2018 and 2020") ask for every pairing; lists written interleaved, or
    "respectively", pair in order (arguments listing ``k`` values vary together)."""
    args, lists, where = st.args, st.lists, st.where
    ranges = sorted(where[n] for n in lists if n in where)
    if (
        len(lists) > 1
        and len(ranges) == len(lists)
        and all(a[1] <= b[0] for a, b in itertools.pairwise(ranges))
        and not re.search(r"\brespectively\b|각각", st.text, re.I)
    ):
        rows = [dict(args)]
        for name in sorted(lists, key=lambda n: where[n]):
            rows = [{**row, name: item} for row in rows for item in lists[name]]
        return rows
    k = max(len(c) for c in lists.values())
    out = []
    for i in range(k):
        row = dict(args)
        for name, chain in lists.items():
            if len(chain) == k:
                row[name] = chain[i]
        out.append(row)
    return out


def series(
    question: str, args: dict[str, Any], evidence: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The calls a question asks for when it lists several values of an argument (BFCL
    ``parallel``: "weather in Seoul and Busan" -> two calls). Only values no other argument
    took count. Per filled argument: a number with a unit word lists the other numbers with
    the same unit ("20 minutes and 15 minutes"); numbers without units cycle over the
    arguments they fill ("3 and 4, 5 and 12" for ``a``, ``b`` -> two calls); a string lists
    the values of its kind that follow it joined by commas, and/or or 와/과/랑
    (:data:`_SERIES_GAP_RE`). With ``k > 1`` values somewhere the answer is ``k`` argument
    dicts -- arguments listing ``k`` values vary together, in the order written; the others
    repeat. Returns ``[args]`` when nothing is listed. Array arguments never split."""
    if not enabled("series"):
        return [args]
    text = korean.normalize(question)
    found = QuestionValues.of(text)
    pool = sorted(found.numbers + found.strings, key=lambda v: v.start)
    spans = {name: (ev["span"][0], ev["span"][1]) for name, ev in evidence.items()}
    st = _Series(text, found, args, evidence, spans, pool, {v.start: v for v in pool})
    for name, (start, end) in spans.items():
        if not (
            _listed_lowercase(st, name, start, end)
            or _listed_dates(st, name, start, end)
            or _listed_words(st, name, start, end)
        ):
            _listed_values(st, name, start)
    _cycle_unitless(st)
    return _series_rows(st) if st.lists else [args]


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
    }
)


def clauses(question: str) -> list[tuple[int, int]]:
    """The spans of ``question`` that each make a request (split at :data:`_CLAUSE_RE`);
    one span when nothing splits it. Spans shorter than 3 characters are dropped."""
    text = korean.normalize(question)
    out, start = [], 0
    for m in _CLAUSE_RE.finditer(text):
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


_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_STATED_COUNT_RE = re.compile(
    r"\b(two|three|four|five|six|seven|eight)\s+((?:[A-Za-z-]+\s+){0,2}?)([A-Za-z]+s)\b", re.I
)


def stated_count(question: str, vocabulary: set[str] | frozenset[str]) -> int | None:
    """How many things the question says it asks about: a spelled number before a plural noun
    of the tool's ``vocabulary`` (stems of its name, description and parameters): "the area of
    two triangles" -> 2. ``None`` when it says no such count. (BFCL ``parallel``: the calls are
    one per thing counted.)"""
    if not enabled("stated_count"):
        return None
    for m in _STATED_COUNT_RE.finditer(korean.normalize(question)):
        noun = korean.stem(m.group(3).lower())
        if noun in vocabulary or noun.rstrip("s") in vocabulary:
            return _COUNT_WORDS[m.group(1).lower()]
    return None


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
    ``[{clause, values}]`` for the explanation."""
    text = korean.normalize(question)
    spans = clauses(text)
    if len(spans) < 2 or not enabled("clauses"):
        return [args], []
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
    if len(calls) < 2:
        return [args], []
    return calls, notes
