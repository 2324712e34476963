"""The state of the ``loose`` phase: the values one question writes
(:class:`QuestionValues`, shared by the tools), the value candidates of one tool and the state
its loose rules share (:class:`LooseFill`, which gives values through switched-on rules)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from playground.routing import korean, values
from playground.routing.fill.dates import is_date_param
from playground.routing.fill.labels import COUNTS_RE, is_counted_noun, label_words
from playground.routing.fill.lang import SINGULARS
from playground.routing.fill.place_parts import HOUSE_NUMBER_RE, STREET_FORMAT_RE
from playground.routing.fill.rules import enabled
from playground.routing.fill.specs import Fill, ParamSpec
from playground.routing.values import Value


@dataclass(frozen=True)
class QuestionValues:
    """The values written in one question (computed once per question, shared by the tools)."""

    strings: tuple[Value, ...]
    numbers: tuple[Value, ...]
    assigned: dict[str, Value]
    lists: tuple[Value, ...] = ()

    @classmethod
    def of(cls, text: str) -> QuestionValues:
        """Extract them from the normalised question ``text`` (see :mod:`values`); what lies
        inside a bracketed list is part of that list, not a value of its own."""
        listed = values.lists(text)
        bracketed = [v for v in listed if v.text.startswith("[")]  # "(3, 4)" keeps its numbers

        def outside(v: Value) -> bool:
            return not any(v.start < b.end and b.start < v.end for b in bracketed)

        # a quote around (nearly) the whole question quotes the question, not a value
        quoted = [
            v
            for v in values.quoted(text)
            if outside(v) and (v.end - v.start) < 0.8 * len(text.strip())
        ]
        strings = quoted + [
            v
            for v in values.names(text)
            if not any(v.start < q.end and q.start < v.end for q in quoted) and outside(v)
        ]
        nums = [
            v
            for v in values.numbers(text)
            if not any(v.start < s.end and s.start < v.end and s.kind != "name" for s in strings)
            and outside(v)
        ]
        return cls(tuple(strings), tuple(nums), values.assignments(text), tuple(listed))


@dataclass
class LooseFill:
    """The state :func:`fill_loose`'s phases share: the tool's ``specs`` and the ``open_specs``
    left to fill, the normalised question ``text`` and its tokens ``toks``, the ``fill`` being
    built, the ``used`` spans, the question's ``found`` values, the ``intent`` spans, the value
    candidates ``cands`` (indexes in ``taken`` are given) and each parameter's label words."""

    specs: list[ParamSpec]
    open_specs: list[ParamSpec]
    text: str
    toks: list[korean.Token]
    fill: Fill
    used: list[tuple[int, int]]
    found: QuestionValues
    intent: frozenset[tuple[int, int]]
    cands: list[Value]
    labels: dict[str, tuple[set[str], set[str]]]
    taken: set[int] = field(default_factory=set)

    def give(
        self, spec: ParamSpec, value: Any, rule: str, start: int, end: int, detail: str
    ) -> None:
        """Record ``value`` for ``spec`` by ``rule`` over ``[start, end)`` (nothing when the
        rule is switched off: ``bench/bfcl.py --without RULE``)."""
        if not enabled(rule):
            return
        self.fill.args[spec.name] = value
        self.fill.evidence[spec.name] = {
            "rule": rule,
            "span": [start, end],
            "text": self.text[start:end],
            "detail": detail,
        }

    def drop_used(self) -> None:
        """Forget the candidates inside spans used since."""
        self.cands = [v for v in self.cands if values.outside((v.start, v.end), self.used)]


def open_specs_of(specs: list[ParamSpec], fill: Fill) -> list[ParamSpec]:
    """The parameters the loose rules fill: not filled yet, not free text, and not structured
    (enum, pattern, example shapes, prefix) unless a date written in words may fit."""
    return [
        s
        for s in specs
        if s.name not in fill.args
        and not s.free_text
        and (
            not s.structured
            or not (s.enum or s.pattern or s.shapes or s.prefix)
            # a date with an ISO example ('2023-04-01') is written in words ("April 3rd")
            or (not (s.enum or s.pattern or s.prefix) and is_date_param(s))
        )
    ]


def _singular(stem: str) -> str:
    """An irregular plural's singular ("children" -> "child"), else ``stem``."""
    return SINGULARS.get(stem, stem)


def _number_values(
    open_specs: list[ParamSpec], toks: list[korean.Token], nums: list[Value]
) -> list[Value]:
    """The numbers that may be values: "two numbers, say 36 and 48" -- the digits are the
    values, but a spelled number counting what a parameter names stays ("two adults" for
    no_of_adults; not when several parameters share the word: "two numbers" counts number1,
    number2)."""
    digits = [v for v in nums if v.text[:1].isdigit() or v.text[:1] in "-+−."]
    wanted = sum(1 for s in open_specs if s.required and {"integer", "number"} & set(s.types))
    if not digits or len(digits) < wanted:
        return nums
    counted = Counter(_singular(w) for s in open_specs for w in label_words(s)[0])
    named = {w for w, n in counted.items() if n == 1}
    return [
        v
        for v in nums
        if v in digits
        or (v.unit and _singular(korean.stem(v.unit.split("/")[0].lower())) in named)
        or any(
            COUNTS_RE.search(s.name)
            and is_counted_noun(toks, v.end, label_words(s)[0] | label_words(s)[1])
            for s in open_specs
        )
    ]


def _stated(v: Value, toks: list[korean.Token], intent_starts: dict[int, int]) -> bool:
    """Every word of the name ``v`` matched a tool's vocabulary (it states the request)."""
    pos = v.start
    for t in toks:
        if v.start <= t.start < v.end:
            if intent_starts.get(t.start) != t.end:
                return False
            pos = t.end
    return pos > v.start


def _counts_subject(v: Value, text: str, subject: set[str]) -> bool:
    """ "two triangles" where every parameter is about a triangle counts the things asked
    about, it is no base or height (a noun some parameter is named for stays a value)."""
    if v.kind != "number" or not v.text[:1].isalpha():
        return False
    noun = re.match(r"\s+(?:[A-Za-z-]+\s+)?([A-Za-z]+s)\b", text[v.end :])
    return noun is not None and korean.stem(noun.group(1).lower()) in subject


def candidate_values(
    specs: list[ParamSpec],
    open_specs: list[ParamSpec],
    text: str,
    toks: list[korean.Token],
    used: list[tuple[int, int]],
    found: QuestionValues,
    intent: frozenset[tuple[int, int]],
) -> list[Value]:
    """The question's values the loose rules may give: numbers (:func:`_number_values`),
    strings and lists outside ``used``, but no name that only states the request, no count of
    the subject, and no house number where a parameter takes a street address ("from 2020
    Addison Street, Berkeley")."""
    nums = _number_values(open_specs, toks, list(found.numbers))
    intent_starts = {a: b for a, b in intent}
    doc_count = Counter(w for s in specs for w in set(label_words(s)[1]))
    named_words = {w for s in specs for w in label_words(s)[0]}
    subject = {w for w, c in doc_count.items() if c >= 2} - named_words
    street = any(STREET_FORMAT_RE.search(sp.doc) for sp in open_specs)
    cands = [
        v
        for v in nums + list(found.strings) + list(found.lists)
        if values.outside((v.start, v.end), used)
        and not (v.kind == "name" and intent and _stated(v, toks, intent_starts))
        and not _counts_subject(v, text, subject)
        and not (street and v.kind == "number" and HOUSE_NUMBER_RE.match(text, v.end))
    ]
    # "The song_id is wjeiruhuq_roar": a value written for an open parameter by its name is a
    # candidate even when no other reader sees a value there
    names = {sp.name.lower() for sp in open_specs}
    return cands + [
        v
        for name, v in found.assigned.items()
        if name in names
        and values.outside((v.start, v.end), used)
        and not any(c.start == v.start for c in cands)
    ]
