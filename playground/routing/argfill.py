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

from playground.routing import korean, values
from playground.routing.fill import identifiers, joined, source_target
from playground.routing.fill.codes import _YEARISH_RE, _coded, _year_text
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
from playground.routing.fill.labels import _label_words
from playground.routing.fill.leftover import _LEFTOVER_STOP, _loose_leftover
from playground.routing.fill.loose_cues import (
    _loose_boolean,
    _loose_colon_cues,
    _loose_cue,
    _loose_dates,
    _loose_modifiers,
)
from playground.routing.fill.loose_lists import _loose_array, _loose_numbered, _loose_word_lists
from playground.routing.fill.loose_positions import (
    _loose_positions,
    _loose_required_first,
    _loose_spare_name,
)
from playground.routing.fill.loose_state import QuestionValues, _candidates, _Loose, _open_specs
from playground.routing.fill.numbers import _as_number, _integer
from playground.routing.fill.ordinals import number_order
from playground.routing.fill.pairing import _loose_pairs, _loose_take_pairs
from playground.routing.fill.place_parts import _NEXT_PART_RE, _place_shape, _split_place
from playground.routing.fill.rules import enabled
from playground.routing.fill.shapes import _enum_items, _structural
from playground.routing.fill.specs import Fill, ParamSpec, _plain_string
from playground.routing.fill.units import _NOT_UNITS, _UNIT_NAME_RE, _listed_or_unit
from playground.routing.fill.word_series import _SERIES_GAP_RE, _respectively, word_series
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
