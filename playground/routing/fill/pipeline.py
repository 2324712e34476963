"""Filling a tool's arguments from the question, using only its declaration: the pipeline's top
level, :func:`fill_structured` (the declared shapes, rules tried in the order of
:data:`_STRUCTURED`) and :func:`fill_loose` (the values the question writes next to a
parameter's words, phase by phase). The two call each other -- a template parameter
(:func:`_template`) and an object parameter (:func:`_loose_objects`) are filled with both --
so they share this module; every rule they run lives in its own module of
:mod:`playground.routing.fill` (``playground/routing/README.md`` lists them). The scorer runs
the phases for each tool (:mod:`playground.routing.scoring`): structured, loose, free text
(:mod:`.free_text`), defaults (:mod:`.defaults`); the ``calls`` phase is :mod:`.series`,
:mod:`.clauses` and :mod:`.counts`.

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

Where they live: 1 :mod:`.enums`; 2-5 :mod:`.shapes` (with :mod:`.spans` and :mod:`.examples`);
6-7 :mod:`.words`; 8 :mod:`.numbers`; 8a :mod:`.codes`; 9 :mod:`.free_text`; the kinds of
:mod:`.kinds`, :mod:`.units`, :mod:`.identifiers`, :mod:`.joined` and :mod:`.source_target`
are rows of :data:`_STRUCTURED` too.

Rules 4 and 5 upper-case the value when the example/prefix is upper case (``hr20260601`` ->
``HR20260601``) and say so in the evidence.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from playground.routing import korean, values
from playground.routing.fill import identifiers, joined, source_target
from playground.routing.fill.codes import YEARISH_RE, coded_value, year_text
from playground.routing.fill.counted_items import counted_items
from playground.routing.fill.fits import fitted_value, takes_fraction
from playground.routing.fill.formats import drop_nonconforming
from playground.routing.fill.kinds import (
    command_value,
    coordinate_value,
    language_value,
    state_code_value,
    takes_command_line,
    takes_language_code,
    takes_state_code,
)
from playground.routing.fill.labels import label_words
from playground.routing.fill.leftover import loose_leftover
from playground.routing.fill.loose_cues import (
    loose_boolean,
    loose_colon_cues,
    loose_cue,
    loose_dates,
    loose_modifiers,
)
from playground.routing.fill.loose_lists import loose_array, loose_numbered, loose_word_lists
from playground.routing.fill.loose_positions import (
    fill_by_position,
    loose_required_first,
    loose_spare_name,
)
from playground.routing.fill.loose_state import (
    LooseFill,
    QuestionValues,
    candidate_values,
    open_specs_of,
)
from playground.routing.fill.numbers import as_number, integer_value
from playground.routing.fill.ordinals import number_order
from playground.routing.fill.pairing import loose_pairs, loose_take_pairs
from playground.routing.fill.place_parts import place_shape, split_place
from playground.routing.fill.result_count import result_count, sizes_result
from playground.routing.fill.rules import enabled
from playground.routing.fill.shapes import enum_items, structural
from playground.routing.fill.specs import Fill, ParamSpec, plain_string
from playground.routing.fill.units import UNIT_NAME_RE, listed_or_unit
from playground.routing.fill.word_series import respectively_pairs
from playground.routing.fill.words import LOWERCASE_DOC_RE, word_value

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
    return plain_string(spec) and bool(spec.examples or LOWERCASE_DOC_RE.search(spec.doc))


#: The structured rules in the order they are tried for one parameter (the first value wins):
#: ``(serves, find)`` -- ``serves(spec)`` says whether the rule reads this parameter's shape,
#: ``find(spec, text, consumed, tokens)`` returns ``(value, evidence)`` or None.
_STRUCTURED: tuple[tuple[Callable[[ParamSpec], bool], _Finder], ...] = (
    (takes_command_line, lambda s, t, u, k: command_value(s, t, u)),
    (_takes_string, lambda s, t, u, k: _template(s, t, u)),
    (
        lambda s: bool({"number", "integer"} & set(s.types)),
        lambda s, t, u, k: coordinate_value(s, t, u),
    ),
    (takes_language_code, lambda s, t, u, k: language_value(s, t, u)),
    (takes_state_code, lambda s, t, u, k: state_code_value(s, t, u)),
    (
        lambda s: bool({"integer", "string"} & set(s.types or ("string",))),
        lambda s, t, u, k: coded_value(s, t, u, k()),
    ),
    (lambda s: True, lambda s, t, u, k: structural(s, t, u)),
    (
        lambda s: joined.takes_joined(s.doc, s.types) and not s.enum,
        lambda s, t, u, k: joined.find(s.doc, s.examples, t, u),
    ),
    (
        lambda s: _takes_string(s) and bool(s.examples),
        lambda s, t, u, k: identifiers.find(s.examples, t, u),
    ),
    (_takes_word, lambda s, t, u, k: word_value(s, t, u, k())),
    (
        lambda s: plain_string(s) and bool(s.listed or UNIT_NAME_RE.search(s.name)),
        lambda s, t, u, k: listed_or_unit(s, t, u),
    ),
    (
        lambda s: plain_string(s) and bool(YEARISH_RE.search(s.name)),
        lambda s, t, u, k: year_text(t, u),
    ),
    (sizes_result, lambda s, t, u, k: result_count(s, t, u)),
    (
        lambda s: bool({"integer", "number"} & set(s.types)) and not s.enum,
        lambda s, t, u, k: integer_value(s, t, u),
    ),
    (lambda s: "array" in s.types and bool(s.item_enum), lambda s, t, u, k: enum_items(s, t, u)),
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
    value = as_number(value, spec.types)
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
    if enabled("counted_items"):
        for spec, value, ev in counted_items(specs, text, fill.consumed):
            fill.args[spec.name], fill.evidence[spec.name] = value, ev
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


def _loose_objects(st: LooseFill) -> None:
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
    ``2/distance``, description words ``1/distance`` (:func:`~playground.routing.fill.labels.near_score`). Pairs are taken best first,
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
    open_specs = open_specs_of(specs, fill)
    if not open_specs:
        return fill
    used = list(fill.consumed)
    found = found or QuestionValues.of(text)
    cands = candidate_values(specs, open_specs, text, toks, used, found, intent)
    labels = {s.name: label_words(s) for s in open_specs}
    st = LooseFill(specs, open_specs, text, toks, fill, used, found, intent, cands, labels)
    loose_dates(st)
    loose_colon_cues(st)
    st.drop_used()
    loose_word_lists(st)
    loose_numbered(st)
    st.drop_used()
    for spec, v, detail in respectively_pairs(open_specs, text, st.cands, fill, labels):
        st.give(spec, fitted_value(spec, v), "number", v.start, v.end, detail)
        used.append((v.start, v.end))
    st.drop_used()
    loose_take_pairs(st, loose_pairs(st))
    for spec in open_specs:
        if spec.name in fill.args or loose_array(st, spec):
            continue
        if "boolean" in spec.types:
            loose_boolean(st, spec)
        else:
            loose_cue(st, spec)
    split_place(open_specs, fill, text)
    loose_modifiers(st)
    fill_by_position(st)
    loose_spare_name(st)
    loose_required_first(st)
    loose_leftover(st)
    _loose_objects(st)
    for spec in open_specs:
        if spec.joined:
            place_shape(spec, text, fill)
    number_order(open_specs, fill)
    return fill
