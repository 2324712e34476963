"""Scoring for the offline router: the per-declaration index and the per-question score.

Owns :class:`Weights`, the declaration index (:class:`ToolIndex`, :class:`DeclIndex`,
:func:`build_index`: vocabularies with location weights, when-not-to-use boundary sentences
and their distinctive words, prerequisite tools, demo tools) and the scoring of one question
against it (:func:`score_question`: word weights from Korean word order, term matching with
idf, boundary penalties, pointer bonuses, argument evidence, missing and predicate penalties).
The rules and every weight are documented in :mod:`playground.routing.offline`'s docstring;
the decision made from the scores (call, ask, reply) stays there.

Rule sources: seed 001 (``001_3a95fa703827e0ed.txt``: the model reads only the name, the
description and the argument descriptions; an id in the question is a cue for a tool) and
seed 002 (``002_5dea94806f69c756.txt``: the name is the strongest signal; descriptions state
when not to use a tool and point at the alternative). Weights tuned on
fixtures/routing_cases.jsonl against tools/shop.py. Deterministic; no network.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from playground.routing import korean, values
from playground.routing.action_enum import fill_action_enums
from playground.routing.action_kind import name_kind, read_request, request_words, weigh_actions
from playground.routing.cross_language import bridge_match, bridged_tool
from playground.routing.fill.docs import described
from playground.routing.fill.examples import extract_examples
from playground.routing.fill.free_text import fill_free_text
from playground.routing.fill.kinds import takes_command_line
from playground.routing.fill.loose_state import QuestionValues
from playground.routing.fill.pipeline import fill_loose, fill_structured
from playground.routing.fill.rules import WEAK_RULES
from playground.routing.fill.specs import Fill, ParamSpec, bare, param_specs
from playground.routing.guessed import guessed, marked_values
from playground.routing.head_word import head_word
from playground.routing.misfits import drop_value_misfits
from playground.routing.name_object import name_objects, not_about, unsaid
from playground.routing.request_verb import first_root, weigh_request_verb
from playground.routing.rule_switches import known_rule, rule_enabled
from playground.routing.shape_match import shape_match
from playground.routing.value_shape import RULE_VALUE_SHAPE, drop_misfits

#: The selection rules of this module (:mod:`playground.routing.rule_switches`; ``bench/bfcl.py
#: --without NAME`` measures each). Their weights are fields of :class:`Weights`.
RULE_BOUNDARY = known_rule(
    "boundary", "selection", "a when-not-to-use sentence's distinctive words count against it"
)
RULE_POINTER = known_rule(
    "pointer", "selection", "a fired boundary sentence's named tools gain what it cost"
)
RULE_GENERIC_VERB = known_rule(
    "generic_verb", "selection", "a generic verb (calculate, get, 조회) counts half"
)
RULE_SYNONYMS = known_rule(
    "synonyms", "selection", "a word matches through the glossary and the user's synonyms"
)
RULE_ARGUMENT_LABELS = known_rule(
    "argument_labels", "selection", "a word naming an argument value is part of the value"
)
RULE_EVIDENCE = known_rule(
    "argument_evidence", "selection", "each argument a rule fills adds to its tool's score"
)
RULE_MISSING = known_rule(
    "missing_penalty", "selection", "each required argument left unfilled costs its tool"
)
RULE_PREDICATE = known_rule(
    "unknown_predicate", "selection", "a Korean request no declaration matches costs every tool"
)
RULE_LISTING = known_rule(
    "listing", "selection", "a list/show-all question counts for a listing tool with few inputs"
)
RULE_DEPRECATED = known_rule(
    "deprecated", "selection", "a tool whose description says it is deprecated costs more"
)

_BOUNDARY_RE = re.compile(
    r"사용하지\s*않|쓰지\s*않|않는다|않음|하지\s*말|쓰지\s*말|대신|"
    r"\bdo\s+not\s+use\b|\bdon'?t\s+use\b|\bnever\s+use\b|\binstead\b|\bnot\s+for\b|\bnot\s+be\s+used\b",
    re.I,
)
_FIRST_RE = re.compile(r"먼저|우선|\bfirst\b|\bbefore\b", re.I)
_SENTENCE_RE = re.compile(r"(?<=[.!?。])\s+|\n+")
#: A declaration saying it is not for real use (tools/flaky.py: "Do not use it for real
#: lookups") is a demo: it is still scored and callable, but never advertised to a customer.
_DEMO_RE = re.compile(
    r"\b(?:do\s+not|don'?t|never)\s+use\s+(?:it|this(?:\s+tool)?)\s+for\s+real\b|\bnot\s+for\s+real\s+use\b|"
    r"실제\s*(?:조회|검색|문의|사용|업무)\S*\s*(?:사용하지|쓰지)\s*않|데모용|시연용|테스트용",
    re.I,
)


#: A question asking for a listing (issue 23, "List the files in DIR"): it opens with list /
#: enumerate / "show (me) all|every", or asks "what X are (there) in", or says 목록/리스트 or
#: 전부·모두·다 보여.
_LISTING_QUESTION_RE = re.compile(
    r"^\W*(?:(?:please|can\s+you|could\s+you)\s+)?(?:list|enumerate)\b|"
    r"\bshow\s+(?:me\s+)?(?:all|every)\b|^\W*what\s+\w+\s+are\s+(?:there\s+)?in\b|"
    r"목록|리스트|(?:전부|모두|다)\s*보여",
    re.I,
)
#: A listing tool's name or first sentence: list_*, enumerate_*, ls; "a listing of", "lists".
_LISTING_TOOL_RE = re.compile(
    r"^(?:list|enumerate|ls)(?:_|$)|\b(?:listing|lists|enumerates)\b|^list\b|목록", re.I
)
#: A listing tool takes at most this many required parameters (a folder, a table).
LISTING_MAX_REQUIRED = 1

#: Words saying a tool is on its way out (issue 12: deprecated tools yield to their successor).
_DEPRECATED_RE = re.compile(
    r"\bdeprecated\b|\blegacy\b|\bobsolete\b|\bsuperseded\b|\bno\s+longer\s+(?:used|supported|maintained)\b|"
    r"예전|구버전|레거시|더\s*이상\s*(?:사용하지|쓰지|지원하지)\s*않",
    re.I,
)


#: What :func:`match_token` finds for one word: the best positive hit per tool index
#: ``{tool: (points, quality, info)}``, the boundary hits ``{tool: (quality, info)}`` and the
#: tools whose name matched.
TokenMatch = tuple[
    dict[int, tuple[float, float, dict[str, Any]]],
    dict[int, tuple[float, dict[str, Any]]],
    list[int],
]


@dataclass(frozen=True)
class Weights:
    """Scoring weights (see the module docstring for what each one multiplies)."""

    name: float = 3.0
    description: float = 1.0
    parameter: float = 0.6
    example: float = 0.5
    other: float = 0.5
    prefix: float = 0.7
    substring: float = 0.5
    glossary: float = 0.8
    predicate: float = 1.5
    modifier: float = 0.5
    boundary: float = 1.0
    pointer: float = 1.0
    argument: float = 1.0
    integer: float = 0.25
    missing: float = 1.0
    unknown_predicate: float = 0.5
    deprecated: float = 1.0
    generic_verb: float = 0.5
    listing: float = 1.5
    action: float = 1.0


@dataclass(frozen=True)
class Boundary:
    """A when-not-to-use sentence: its words, the tools it points to, and its distinctive words
    (those the tool's own positive text does not also use; only they count against the tool)."""

    sentence: str
    terms: tuple[str, ...]
    points_to: tuple[str, ...]
    distinctive: tuple[str, ...] = ()


def _covered(term: str, own: set[str], labels: set[str]) -> bool:
    """True when a boundary word is not distinctive: the tool's own positive text uses the same
    stem (or the glossary word of a name part), or it starts a word that labels an argument
    (주문 in "order_id: 하루마켓 주문번호"): a question naming the argument is not the kind of
    question the boundary excludes. Otherwise the word is distinctive (상품 in get_order_status's
    "상품 정보나 재고 문의", although its positive text says 상품명: the boundary is the more
    specific statement)."""
    if term in own or term in labels:
        return True
    return any(
        korean.match_quality(term, o) == (0.7, "prefix") and o.startswith(term) for o in labels
    )


def _strip_examples(text: str) -> str:
    """``text`` without its example values (they are values, not labels)."""
    for ex in extract_examples(text):
        text = text.replace(ex, " ")
    return text


@dataclass(slots=True)
class ScoreRow:
    """One tool's score for one question (the terms are documented in
    :mod:`playground.routing.offline`): ``score = relevance + evidence_bonus + pointer_bonus -
    boundary_penalty - missing_penalty - predicate_penalty - deprecated_penalty -
    action_penalty``.

    ``matched``: ``{word, term, where, how, quality, idf, word_weight, points}`` per question
    word that matched; ``name_hits``: question words matching the tool's name; ``boundary``:
    ``{sentence, terms, distinctive, hit, points, points_to}`` per fired when-not-to-use
    sentence; ``pointed``: ``{word, from, points}`` per pointer bonus; ``args`` / ``arg_evidence``
    / ``missing``: the argument fill (:class:`playground.routing.fill.specs.Fill`);
    ``unmatched_predicates``: Korean predicates no declaration matches; ``deprecated``: the
    words of its description that say it is deprecated."""

    name: str
    relevance: float = 0.0
    boundary_penalty: float = 0.0
    pointer_bonus: float = 0.0
    evidence_bonus: float = 0.0
    missing_penalty: float = 0.0
    predicate_penalty: float = 0.0
    deprecated_penalty: float = 0.0
    #: rule ``action_kind`` (:mod:`playground.routing.action_kind`): its name does another
    #: kind of action than the question asks for (``other_action`` says which)
    action_penalty: float = 0.0
    score: float = 0.0
    matched: list[dict[str, Any]] = field(default_factory=list)
    name_hits: list[str] = field(default_factory=list)
    boundary: list[dict[str, Any]] = field(default_factory=list)
    pointed: list[dict[str, Any]] = field(default_factory=list)
    args: dict[str, Any] = field(default_factory=dict)
    arg_evidence: dict[str, dict[str, Any]] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    unmatched_predicates: list[str] = field(default_factory=list)
    deprecated: list[str] = field(default_factory=list)
    other_action: str = ""
    #: the parameters whose value a value rule took out as a misfit (``quantity_fits_unit``,
    #: ``labelled_number``): the tool lacks them only for that
    dropped: list[str] = field(default_factory=list)
    #: the object words of its name the question never says (rule ``name_object_unsaid``,
    #: :mod:`playground.routing.name_object`)
    unsaid: list[str] = field(default_factory=list)
    #: whether those make the question about something else (:func:`name_object.not_about`)
    not_about: bool = False
    #: its required text values a guess gave (rule ``guesses_need_words``,
    #: :func:`playground.routing.guessed.guessed`)
    guessed: list[str] = field(default_factory=list)
    #: the question's topic words outside the guessed values as well
    topic_beside_guesses: int = 0
    #: the question's topic words (content words that are neither question words nor values
    #: this tool's arguments took by a rule other than a guess) and how many of them its
    #: declaration matched (:func:`score_question`)
    topic: int = 0
    covered: int = 0
    #: the question's first topic word and whether this tool's text matched it (rule
    #: ``head_word_unsaid``, :mod:`playground.routing.head_word`)
    head: str = ""
    head_said: bool = True
    #: whether the question is written without Hangul, so that the share of its topic words a
    #: tool covers is read (rule ``thin_words_need_coverage``; Korean words match by parts)
    latin_topic: bool = True
    #: the JSON of a row shared by every question that leaves its tool untouched
    #: (:func:`_idle_rows`; read-only), made once
    frozen_json: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The row as the explanation's JSON (numbers rounded to 4 places); a shared idle
        row's (:func:`_idle_rows`) is one dict for every question, to be read, not changed."""
        if self.frozen_json is not None:
            return self.frozen_json
        if not (self.matched or self.arg_evidence or self.pointed or self.boundary):
            return self._idle_json()
        return {
            "name": self.name,
            "relevance": round(self.relevance, 4),
            "boundary_penalty": round(self.boundary_penalty, 4),
            "pointer_bonus": round(self.pointer_bonus, 4),
            "matched": self.matched,
            "name_hits": self.name_hits,
            "boundary": self.boundary,
            "pointed": self.pointed,
            "args": self.args,
            "arg_evidence": self.arg_evidence,
            "missing": self.missing,
            "evidence_bonus": round(self.evidence_bonus, 4),
            "missing_penalty": round(self.missing_penalty, 4),
            "predicate_penalty": round(self.predicate_penalty, 4),
            "unmatched_predicates": self.unmatched_predicates,
            "deprecated_penalty": round(self.deprecated_penalty, 4),
            "deprecated": self.deprecated,
            **self._action_json(),
            "unsaid": self.unsaid,
            "covered": [self.covered, self.topic],
            "head": {"word": self.head, "said": self.head_said},
            "score": round(self.score, 4),
            "because": self.because(),
        }

    def _action_json(self) -> dict[str, Any]:
        """``action_penalty`` and ``other_action``, only when rule ``action_kind`` set them."""
        if not self.action_penalty:
            return {}
        return {"action_penalty": self.action_penalty, "other_action": self.other_action}

    def _idle_json(self) -> dict[str, Any]:
        """:meth:`to_json` of a row nothing in the question touched (most rows with many
        tools): its numbers are whole multiples of the weights, so nothing needs rounding."""
        because = []
        if self.missing:
            because.append(f"missing {', '.join(self.missing)} -{self.missing_penalty}")
        if self.predicate_penalty:
            because.append(
                f"request {', '.join(self.unmatched_predicates)} matches no tool "
                f"-{self.predicate_penalty}"
            )
        if self.deprecated_penalty:
            because.append(f"deprecated ({', '.join(self.deprecated)}) -{self.deprecated_penalty}")
        return {
            "name": self.name,
            "relevance": self.relevance,
            "boundary_penalty": self.boundary_penalty,
            "pointer_bonus": self.pointer_bonus,
            "matched": self.matched,
            "name_hits": self.name_hits,
            "boundary": self.boundary,
            "pointed": self.pointed,
            "args": self.args,
            "arg_evidence": self.arg_evidence,
            "missing": self.missing,
            "evidence_bonus": self.evidence_bonus,
            "missing_penalty": self.missing_penalty,
            "predicate_penalty": self.predicate_penalty,
            "unmatched_predicates": self.unmatched_predicates,
            "deprecated_penalty": self.deprecated_penalty,
            "deprecated": self.deprecated,
            "unsaid": self.unsaid,
            "covered": [self.covered, self.topic],
            "score": self.score,
            "because": because,
        }

    def because(self) -> list[str]:
        """Every non-zero part of the score in words, largest first within each kind (issue 12:
        the explanation always shows what made a tool score, never ``-`` for a non-zero
        score): matched words, argument evidence, pointer bonuses, and the penalties."""
        out = [
            f"{m['word']}→{m['term']} ({m['where']}) +{m['points']}"
            for m in sorted(self.matched, key=lambda m: -m["points"])
        ]
        out += [f"{arg}={ev['text']} ({ev['rule']})" for arg, ev in self.arg_evidence.items()]
        if self.evidence_bonus:
            out.append(f"argument evidence +{round(self.evidence_bonus, 4)}")
        out += [f"{p['word']} pointed from {p['from']} +{p['points']}" for p in self.pointed]
        out += [f'boundary "{b["sentence"]}" -{b["points"]}' for b in self.boundary]
        if self.missing:
            out.append(f"missing {', '.join(self.missing)} -{round(self.missing_penalty, 4)}")
        if self.predicate_penalty:
            out.append(
                f"request {', '.join(self.unmatched_predicates)} matches no tool "
                f"-{round(self.predicate_penalty, 4)}"
            )
        if self.deprecated_penalty:
            out.append(
                f"deprecated ({', '.join(self.deprecated)}) -{round(self.deprecated_penalty, 4)}"
            )
        if self.action_penalty:
            out.append(f"does {self.other_action} -{self.action_penalty}")
        return out


@dataclass
class ToolIndex:
    """The precomputed view of one declaration."""

    name: str
    summary: str
    terms: dict[str, tuple[str, float]]  # stem -> (where, location weight), best location
    boundaries: list[Boundary]
    boundary_terms: dict[str, list[int]]  # stem -> boundary sentence indexes
    specs: list[ParamSpec]
    refers: tuple[str, ...]  # tools named as a prerequisite ("먼저 X로")
    demo: bool = False  # says it is not for real use (see _DEMO_RE)
    keys: frozenset[str] = frozenset()  # leading letters of its id shapes/prefixes (HR, P, KB)
    always: bool = False  # a pattern or format argument: always a candidate
    enums: tuple[str, ...] = ()  # its enum values, lower case
    deprecated: tuple[str, ...] = ()  # words of its description saying it is deprecated
    #: per tool named in a "first X, then Y" sentence: that sentence's words no other sentence
    #: of this tool uses ("재고 문의는 먼저 이 도구로 ... check_stock" -> check_stock: 재고, ...)
    handoff: dict[str, tuple[str, ...]] = field(default_factory=dict)

    lists: bool = False  # a listing tool (see _LISTING_TOOL_RE, LISTING_MAX_REQUIRED)
    #: the object words of its name (:func:`playground.routing.name_object.name_objects`)
    objects: tuple[str, ...] = ()
    #: the kind of action its name does (:func:`playground.routing.action_kind.name_kind`)
    action: str = ""
    #: the names of its required parameters, in declaration order
    required: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        self.required = tuple(s.name for s in self.specs if s.required)


@dataclass
class DeclIndex:
    """Indexes over one list of declarations (cached on the router, keyed by content)."""

    tools: list[ToolIndex]
    postings: dict[str, list[tuple[int, str, float]]] = field(default_factory=dict)
    bpostings: dict[str, list[int]] = field(default_factory=dict)
    sorted_terms: list[str] = field(default_factory=list)
    by_bigram: dict[str, list[str]] = field(default_factory=dict)
    longest: int = 0  # length of the longest vocabulary term (bounds the substring search)
    by_key: dict[str, list[int]] = field(default_factory=dict)  # id letters -> tools
    synonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)  # the user's file
    always: list[int] = field(default_factory=list)  # tools scored on every question
    #: Snowball root -> the English vocabulary terms with that root (korean.root), and the
    #: roots sorted (for roots beginning with a question word's root)
    by_root: dict[str, list[str]] = field(default_factory=dict)
    sorted_roots: list[str] = field(default_factory=list)
    hangul: bool = False  # some declaration has Korean words
    by_enum: dict[str, list[int]] = field(default_factory=dict)  # enum value (lower) -> tools
    by_name: dict[str, int] = field(default_factory=dict)  # tool name -> index (the last one)
    #: each tool's kind of action, by index, and the kinds some tool does (rule action_kind)
    actions: list[str] = field(default_factory=list)
    actions_done: frozenset[str] = frozenset()
    #: the first roots of the tools' names (rule ``request_verb_named``)
    verbs: frozenset[str] = frozenset()
    #: per penalty set, the settled row of every tool a question leaves untouched
    #: (:func:`_idle_rows`), at most :data:`IDLE_PENALTY_SETS` sets
    idle: dict[_Penalties, IdleRows] = field(default_factory=dict)


def _names_regex(names: list[str]) -> re.Pattern[str] | None:
    if not names:
        return None
    alts = "|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n)))
    return re.compile(rf"(?<![A-Za-z0-9_])({alts})(?![A-Za-z0-9_])")


def _words(text: str) -> list[str]:
    """Content stems of declaration text (stopwords and meta words such as 사용/쓴다 dropped)."""
    return [
        t.stem
        for t in korean.tokenize(text)
        if korean.is_content(t.stem) and t.stem not in korean.META_WORDS
    ]


def _nested(
    specs: tuple[ParamSpec, ...] | list[ParamSpec], parent: str = ""
) -> list[tuple[str, ParamSpec]]:
    """Every parameter with its dotted label, an object's properties after it (``body``,
    ``body.airConJobMode``, ...): the model reads their names and descriptions too."""
    out = []
    for spec in specs:
        label = f"{parent}.{spec.name}" if parent else spec.name
        out.append((label, spec))
        out += _nested(spec.sub, label)
    return out


@dataclass
class _Reading:
    """What :func:`_read_sentences` finds in one declaration's texts."""

    terms: dict[str, tuple[str, float]] = field(default_factory=dict)
    boundaries: list[Boundary] = field(default_factory=list)
    refers: list[str] = field(default_factory=list)
    handoff: dict[str, set[str]] = field(default_factory=dict)  # next/previous tool -> words
    plain: set[str] = field(default_factory=set)  # words of the other sentences

    def add(self, stem: str, where: str, weight: float) -> None:
        """Keep ``stem`` at its best location weight."""
        if stem not in self.terms or self.terms[stem][1] < weight:
            self.terms[stem] = (where, weight)


def _read_sentences(
    name: str,
    texts: list[tuple[str, str, float]],
    names_rx: re.Pattern[str] | None,
    w: Weights,
) -> _Reading:
    """Each sentence of ``texts`` (``(where, text, location weight)``): a when-not-to-use
    sentence becomes a :class:`Boundary`; one naming another tool with "first/before" a
    prerequisite (``refers``, ``handoff``); the others' words join the vocabulary, a parameter's
    example values at ``w.example``."""
    out = _Reading()
    for where, text, weight in texts:
        for sentence in (s.strip() for s in _SENTENCE_RE.split(text) if s.strip()):
            named = [m.group(1) for m in names_rx.finditer(sentence)] if names_rx else []
            named = [n for n in dict.fromkeys(named) if n != name]
            bare = names_rx.sub(" ", sentence) if names_rx else sentence
            examples = extract_examples(bare) if where.startswith("parameter") else []
            for ex in examples:
                bare = bare.replace(ex, " ")
            if _BOUNDARY_RE.search(bare):
                out.boundaries.append(
                    Boundary(sentence, tuple(dict.fromkeys(_words(bare))), tuple(named))
                )
                continue
            if named and _FIRST_RE.search(bare):
                out.refers.extend(named)
                for n in named:
                    out.handoff.setdefault(n, set()).update(_words(bare))
            else:
                out.plain.update(_words(bare))
            for stem in _words(bare):
                out.add(stem, where, weight)
            for ex in examples:
                for stem in _words(ex):
                    out.add(stem, f"example:{where.split(':', 1)[1]}", w.example)
    return out


def _name_terms(reading: _Reading, name: str, specs: list[ParamSpec], w: Weights) -> None:
    """The parameters' and the tool's name parts into the vocabulary. Seed 002: a name is a
    verb + a concrete object (get_order_status, calculate_area); the object says what the tool
    is about, a generic verb (korean.GENERIC_VERBS) only what it does, so such a name part
    weighs like a description word (and every generic-verb match is halved in match_token): a
    question saying only "calculate" fits no calculate_* tool."""
    for label, spec in _nested(specs):
        for part in korean.split_identifier(spec.name):
            if korean.is_content(part):
                reading.add(korean.stem(part), f"parameter:{label}", w.parameter)
    for part in korean.split_identifier(name):
        if korean.is_content(part):
            stem = korean.stem(part)
            if stem in korean.GENERIC_VERBS:
                reading.add(stem, "name:verb", w.description)
            else:
                reading.add(stem, "name", w.name)


def _distinctive(
    reading: _Reading,
    name: str,
    specs: list[ParamSpec],
    synonyms: Mapping[str, tuple[str, ...]],
) -> dict[str, list[int]]:
    """Each boundary sentence's distinctive words (:func:`_covered`), taken out of the positive
    vocabulary; returns ``{stem: boundary sentence indexes}``."""
    own = set(reading.terms)
    for part in korean.split_identifier(name):  # the name's glossary words are its own too
        own.update(korean.translations(korean.stem(part), synonyms))
    labels = {korean.stem(p) for s in specs for p in korean.split_identifier(s.name)}
    for spec in specs:
        labels.update(_words(_strip_examples(spec.doc)))
    boundary_terms: dict[str, list[int]] = {}
    for i, b in enumerate(reading.boundaries):
        distinctive = tuple(t for t in b.terms if not _covered(t, own, labels))
        reading.boundaries[i] = replace(b, distinctive=distinctive)
        for t in distinctive:
            boundary_terms.setdefault(t, []).append(i)
            reading.terms.pop(t, None)
    return boundary_terms


def _id_keys(specs: list[ParamSpec]) -> tuple[frozenset[str], bool]:
    """``(keys, always)``: the leading letters of the parameters' id shapes and prefixes (HR,
    P, KB), and whether the tool is a candidate for every question (a shape or prefix without
    letters, a pattern, a date or email format, a command line)."""
    keys: set[str] = set()
    always = False
    for spec in specs:
        for model in [e for e, _ in spec.shapes] + ([spec.prefix] if spec.prefix else []):
            lead = re.match(r"[A-Za-z]+", model)
            if lead:
                keys.add(lead.group().upper())
            else:
                always = True
        if spec.pattern or spec.format in {"date", "email"}:
            always = True
        if takes_command_line(spec):
            always = True  # "using docker --version": the command alone says what is asked
    return frozenset(keys), always


def _index_tool(
    decl: dict[str, Any],
    names_rx: re.Pattern[str] | None,
    w: Weights,
    synonyms: Mapping[str, tuple[str, ...]] | None = None,
) -> ToolIndex:
    name = str(decl.get("name", ""))
    description = str(decl.get("description") or "")
    parts = described(description)
    specs = param_specs(decl.get("parameters"), parts.args)
    texts = [("description", parts.summary, w.description)]
    texts += [(f"parameter:{label}", s.doc, w.parameter) for label, s in _nested(specs)]
    texts.append(("other", parts.other, w.other))
    reading = _read_sentences(name, texts, names_rx, w)
    _name_terms(reading, name, specs, w)
    boundary_terms = _distinctive(reading, name, specs, synonyms or {})
    first = _SENTENCE_RE.split(parts.summary.strip())[0] if parts.summary.strip() else ""
    keys, always = _id_keys(specs)
    deprecated = tuple(
        dict.fromkeys(m.group() for m in _DEPRECATED_RE.finditer(parts.summary + " " + parts.other))
    )
    return ToolIndex(
        name,
        first,
        reading.terms,
        reading.boundaries,
        boundary_terms,
        specs,
        tuple(dict.fromkeys(reading.refers)),
        bool(_DEMO_RE.search(description)),
        keys,
        always,
        tuple(str(v).lower() for s in specs for v in s.enum),
        deprecated,
        {n: tuple(sorted(ws - reading.plain)) for n, ws in reading.handoff.items()},
        _lists(name, first, specs),
        name_objects(name, _words(parts.summary)),
        name_kind(name),
    )


def lend_patterns(tools: list[ToolIndex]) -> None:
    """Rule ``sibling_pattern``: a string parameter with no declared shape (no enum, pattern,
    format, example or prefix) takes the pattern that the other declarations give a parameter
    of the same name, when they give exactly one (``isbn`` of ``checkout_book`` reads
    ``^978-\\d{10}$`` from ``check_availability``'s ``isbn``): the declarations a model reads
    together say what such a value looks like. Replaces the specs in ``tools`` in place."""
    if not rule_enabled("sibling_pattern"):
        return
    patterns: dict[str, dict[str, str]] = {}  # bare name -> pattern -> the first tool
    for tool in tools:
        for spec in tool.specs:
            if spec.pattern:
                patterns.setdefault(bare(spec.name), {}).setdefault(spec.pattern, tool.name)
    for tool in tools:
        for i, spec in enumerate(tool.specs):
            lent = patterns.get(bare(spec.name), {})
            if len(lent) != 1 or spec.structured or spec.types not in (("string",), ()):
                continue
            [(pattern, owner)] = lent.items()
            if owner != tool.name:
                tool.specs[i] = replace(spec, pattern=pattern, pattern_from=owner)


def _lists(name: str, first: str, specs: list[ParamSpec]) -> bool:
    """True for a listing tool: its name starts with list/enumerate/ls or its first sentence
    says it lists (a listing of, lists, 목록), and it requires at most
    :data:`LISTING_MAX_REQUIRED` values (list_directory(path); not a search needing a query)."""
    required = sum(1 for s in specs if s.required)
    return required <= LISTING_MAX_REQUIRED and bool(
        _LISTING_TOOL_RE.search(name) or _LISTING_TOOL_RE.search(first)
    )


def build_index(
    declarations: list[dict[str, Any]],
    weights: Weights,
    synonyms: Mapping[str, tuple[str, ...]] | None = None,
) -> DeclIndex:
    """Index every declaration once: vocabularies, boundary sentences, parameter specs.
    ``synonyms``: stem -> stems, from a user's synonyms file (:mod:`playground.routing.synonyms`)."""
    names_rx = _names_regex([str(d.get("name", "")) for d in declarations])
    idx = DeclIndex([_index_tool(d, names_rx, weights, synonyms) for d in declarations])
    lend_patterns(idx.tools)
    idx.synonyms = dict(synonyms or {})
    for i, tool in enumerate(idx.tools):
        for stem, (where, weight) in tool.terms.items():
            idx.postings.setdefault(stem, []).append((i, where, weight))
        for stem in tool.boundary_terms:
            idx.bpostings.setdefault(stem, []).append(i)
        for key in tool.keys:
            idx.by_key.setdefault(key, []).append(i)
        if tool.always:
            idx.always.append(i)
        for e in dict.fromkeys(e for e in tool.enums if e):
            idx.by_enum.setdefault(e, []).append(i)
    idx.sorted_terms = sorted(set(idx.postings) | set(idx.bpostings))
    idx.longest = max(map(len, idx.sorted_terms), default=0)
    for term in idx.sorted_terms:
        for bg in set(korean.bigrams(term)):
            idx.by_bigram.setdefault(bg, []).append(term)
        if term.isascii() and term.isalpha() and len(term) >= 3:
            idx.by_root.setdefault(korean.root(term), []).append(term)
    idx.sorted_roots = sorted(idx.by_root)
    idx.by_name = {t.name: i for i, t in enumerate(idx.tools)}
    idx.actions = [t.action for t in idx.tools]
    idx.actions_done = frozenset(k for k in idx.actions if k)
    idx.verbs = frozenset(first_root(t.name) for t in idx.tools)
    idx.hangul = any(korean.has_hangul(t) for t in idx.sorted_terms)
    return idx


def _root_candidates(idx: DeclIndex, s: str) -> set[str]:
    """English vocabulary terms whose Snowball root equals ``s``'s, begins with it or is its
    beginning (at least :data:`korean.MIN_ROOT_PREFIX` letters): multiplication ~ multiply."""
    if not (s.isascii() and s.isalpha()) or len(s) < 3:
        return set()
    r = korean.root(s)
    found = set(idx.by_root.get(r, ()))
    if len(r) >= korean.MIN_ROOT_PREFIX:
        lo = bisect.bisect_right(idx.sorted_roots, r)
        while lo < len(idx.sorted_roots) and idx.sorted_roots[lo].startswith(r):
            found.update(idx.by_root[idx.sorted_roots[lo]])
            lo += 1
        for k in range(korean.MIN_ROOT_PREFIX, len(r)):
            found.update(idx.by_root.get(r[:k], ()))
    return found


def _candidates(idx: DeclIndex, s: str) -> list[tuple[str, float, str]]:
    """Vocabulary terms matching stem ``s`` (exact, prefix either way, substring either way)."""
    found = {s} if (s in idx.postings or s in idx.bpostings) else set()
    lo = bisect.bisect_left(idx.sorted_terms, s)
    while lo < len(idx.sorted_terms) and idx.sorted_terms[lo].startswith(s):
        found.add(idx.sorted_terms[lo])
        lo += 1
    for i in range(
        len(s)
    ):  # substrings longer than the longest term cannot match: O(len(s) * longest)
        for j in range(i + 1, min(len(s), i + idx.longest) + 1):
            sub = s[i:j]
            if sub != s and (sub in idx.postings or sub in idx.bpostings):
                found.add(sub)
    if len(s) >= 2:
        found.update(t for t in idx.by_bigram.get(s[:2], ()) if s in t)
    rooted = _root_candidates(idx, s)
    out = []
    for term in sorted(found | rooted):
        q, how = korean.match_quality(s, term)
        if term in rooted:
            rq, rhow = korean.root_quality(s, term)
            if rq > q:
                q, how = rq, rhow
        if q > 0:
            out.append((term, q, how))
    return out


def score_question(
    idx: DeclIndex, question: str, w: Weights
) -> tuple[list[ScoreRow], list[dict[str, Any]]]:
    """Score ``question`` against every tool of ``idx`` with weights ``w`` (the rules are in
    :mod:`playground.routing.offline`'s docstring). Returns ``(rows, words)``: ``rows`` as
    :meth:`OfflineRouter.score <playground.routing.offline.OfflineRouter.score>` describes them
    (sorted by (-score, name)); ``words`` one ``{word, stem, weight, predicate}`` per token."""
    text = korean.normalize(question)
    tokens = korean.tokenize(text)
    matches: dict[str, TokenMatch] = {}
    for tok in tokens:
        if tok.stem not in matches:
            matches[tok.stem] = match_token(idx, tok.stem, w)
    live = candidates(idx, text, matches, w)
    listing = _listing_question(idx, text)
    live |= listing
    bridge = bridged_tool(
        idx.tools, idx.hangul and _request_said(text, tokens, matches), text, tokens
    )
    if bridge is not None:
        live.add(bridge)
    fills = {i: fill_structured(idx.tools[i].specs, text, tokens) for i in sorted(live)}
    consumed = sorted(
        {
            tuple(ev["span"])
            for f in fills.values()
            for ev in f.evidence.values()
            if ev["rule"] not in WEAK_RULES
        }
    )
    labels = argument_labels(idx, tokens, fills) if rule_enabled(RULE_ARGUMENT_LABELS) else []
    weights, notes, predicates = token_weights(text, tokens, consumed + labels, w)
    tally = _Tally(idx, w, tokens, weights)
    for k, tok in enumerate(tokens):
        if weights[k] == 0:
            continue
        pos, neg, named = matches[tok.stem]
        for i in named:
            if i not in neg:
                tally.rows[i].name_hits.append(tok.surface)
        if pos or neg:
            tally.positive(k, pos, neg)
            tally.negative(k, pos, neg)
        elif k in predicates and tok.stem not in korean.QUESTION_WORDS and idx.hangul:
            # a Korean request can only be judged against declarations written in Korean
            tally.unknown.append(tok.surface)
    tally.boundary_rows()
    tally.listing(listing, text)
    _weigh_request(tally, text, fills, bridge)
    for k in predicates:  # a verb predicate is the request, never part of a search text
        if not korean.is_nominal(tokens[k]):
            tally.reasons.setdefault(
                (tokens[k].start, tokens[k].end), "the request's verb, not a value"
            )
    pen = _Penalties.of(w, tally.unknown)
    _fill_rows(tally, text, fills, consumed + labels, pen)
    return _ranked(tally.rows, _idle_rows(idx, pen)), notes


def _request_said(text: str, tokens: list[korean.Token], matches: Mapping[str, TokenMatch]) -> bool:
    """True when a word saying the question's kind of action matches some declaration (rule
    ``kind_and_id_bridge``: a Korean request no Korean declaration words -- "삭제하고" over a
    tool described "주문을 취소한다" -- is bridged like one over English declarations)."""
    asked = set(read_request(text, tokens, [1.0] * len(tokens)).words.values())
    return not asked or any(matches[t.stem][0] for t in tokens if t.surface in asked)


def _weigh_request(tally: _Tally, text: str, fills: dict[int, Fill], bridge: int | None) -> None:
    """The rules that read the question's request -- its kinds of action and its verb -- on the
    touched rows of ``tally`` (``action_kind``, ``delete_needs_request``,
    ``kind_and_id_bridge`` for the tool ``bridge``, ``request_verb_named``) and on the
    structured ``fills`` (``action_enum``)."""
    idx, w = tally.idx, tally.w
    request = read_request(text, tally.tokens, tally.weights)
    if request.kinds or "delete" in idx.actions_done:
        weigh_actions(tally.rows, idx.actions, idx.actions_done, request, w.action)
    if bridge is not None:
        tally.rows[bridge].relevance += w.action
        tally.rows[bridge].matched.append(bridge_match(idx.tools[bridge].action, w.action))
    if request.words:
        names = [t.name for t in idx.tools]
        weigh_request_verb(tally.rows, names, idx.verbs, list(request.words.values()), w.action)
    if request.kinds:
        said = request_words(text, tally.tokens, tally.weights)
        for i in fills:
            fill_action_enums(idx.tools[i].specs, fills[i], said)


def _ranked(touched: Mapping[int, ScoreRow], idle: IdleRows) -> list[ScoreRow]:
    """Every tool's row, sorted by (-score, name, declaration order): the touched rows placed
    among the idle ones, already in that order (a few searches, not a sort of every row)."""
    keys = [k for k in idle.ranks if k[2] not in touched] if touched else list(idle.ranks)
    for i, r in touched.items():
        bisect.insort(keys, (-r.score, r.name, i))
    return [touched[i] if i in touched else idle.rows[i] for _s, _n, i in keys]


class _TouchedRows(dict[int, ScoreRow]):
    """``{tool index: ScoreRow}`` of the tools a question touches, a row made on first use
    (issue 23: a question touches a few tools; the others share :func:`_idle_rows`)."""

    def __init__(self, idx: DeclIndex) -> None:
        super().__init__()
        self.idx = idx

    def __missing__(self, i: int) -> ScoreRow:
        row = self[i] = ScoreRow(self.idx.tools[i].name)
        return row


class _Tally:
    """The per-question state of :func:`score_question`: one :class:`ScoreRow` per tool and what
    the question's words did to them (fired boundary sentences, reasons per span, the question
    words each tool's text matched, the Korean predicates no declaration matches)."""

    def __init__(
        self, idx: DeclIndex, w: Weights, tokens: list[korean.Token], weights: list[float]
    ) -> None:
        self.idx, self.w, self.tokens, self.weights = idx, w, tokens, weights
        self.rows = _TouchedRows(idx)
        self.by_name = idx.by_name
        self.fired: dict[tuple[int, int], list[str]] = {}
        self.points: dict[tuple[int, int], float] = {}
        self.reasons: dict[tuple[int, int], str] = {}
        self.unknown: list[str] = []
        self.seen: dict[tuple[int, str], tuple[float, dict[str, Any]]] = {}
        self.stated: set[tuple[int, int]] = set()  # words matching a tool's name or description
        self.said: dict[int, set[int]] = {}  # tool -> indexes of the question words it matched

    def _idf(self, df: int) -> float:
        n = len(self.idx.tools)
        return 1.0 if n <= 1 else math.log(1 + n / max(df, 1)) / math.log(1 + n)

    def positive(
        self,
        k: int,
        pos: dict[int, tuple[float, float, dict[str, Any]]],
        neg: dict[int, tuple[float, dict[str, Any]]],
    ) -> None:
        """Word ``k``'s matches: relevance points (location x quality x idf x word weight), each
        stem once per tool at its best weight ("the first number ... the second number")."""
        tok, wk = self.tokens[k], self.weights[k]
        idf = self._idf(len(pos))
        for i, (value, quality, info) in pos.items():
            if i in neg and neg[i][0] >= quality:
                continue
            if not info["where"].startswith("example"):
                self.said.setdefault(i, set()).add(k)
            if info["where"] in ("name", "name:verb", "description"):
                self.stated.add((tok.start, tok.end))  # every time it is said, counted or not
            gained = value * idf * wk
            prior = self.seen.get((i, tok.stem))
            row = self.rows[i]
            if prior is not None:
                if prior[0] >= gained:
                    continue
                row.relevance -= prior[0]
                row.matched = [m for m in row.matched if m is not prior[1]]
            entry = {
                "word": tok.surface,
                **info,
                "idf": round(idf, 3),
                "word_weight": wk,
                "points": round(gained, 3),
            }
            self.seen[(i, tok.stem)] = (gained, entry)
            row.relevance += gained
            row.matched.append(entry)
            if not info["where"].startswith("example"):
                self.reasons.setdefault(
                    (tok.start, tok.end), f"matched {self.idx.tools[i].name} {info['where']}"
                )

    def negative(
        self,
        k: int,
        pos: dict[int, tuple[float, float, dict[str, Any]]],
        neg: dict[int, tuple[float, dict[str, Any]]],
    ) -> None:
        """Word ``k``'s boundary hits (rule ``boundary``): the penalty on the tool, and the
        pointer bonus (rule ``pointer``) for the tools the fired sentence names."""
        if not rule_enabled(RULE_BOUNDARY):
            return
        tok, wk = self.tokens[k], self.weights[k]
        for i, (quality, info) in neg.items():
            if i in pos and pos[i][1] > quality:
                continue
            penalty = self.w.boundary * quality * wk
            self.rows[i].boundary_penalty += penalty
            targets: dict[str, None] = {}
            for b in info["sentences"]:
                self.fired.setdefault((i, b), []).append(tok.surface)
                self.points[(i, b)] = self.points.get((i, b), 0.0) + penalty
                targets.update(dict.fromkeys(self.idx.tools[i].boundaries[b].points_to))
            if rule_enabled(RULE_POINTER):
                self._point(i, targets, penalty, tok.surface)
            self.reasons.setdefault((tok.start, tok.end), f"boundary of {self.idx.tools[i].name}")

    def _point(self, i: int, targets: dict[str, None], penalty: float, word: str) -> None:
        """The fired sentence says where such questions go: the word counts for that tool."""
        for other in targets:
            j = self.by_name.get(other)
            if j is not None and j != i:
                gained = self.w.pointer * penalty
                self.rows[j].pointer_bonus += gained
                self.rows[j].pointed.append(
                    {"word": word, "from": self.idx.tools[i].name, "points": round(gained, 3)}
                )

    def listing(self, tools: set[int], text: str) -> None:
        """Rule ``listing``: each listing tool of a listing question gains ``w.listing`` as a
        matched word (``where``: ``"shape:listing"``)."""
        m = _LISTING_QUESTION_RE.search(text)
        for i in sorted(tools):
            gained = self.w.listing
            self.rows[i].relevance += gained
            self.rows[i].matched.append(
                shape_match(
                    m.group().strip() if m else "",
                    "listing",
                    "shape:listing",
                    "a listing question and a listing tool",
                    gained,
                )
            )

    def boundary_rows(self) -> None:
        """Each fired boundary sentence onto its tool's row (``boundary`` in the explanation)."""
        for (i, b), words in sorted(self.fired.items()):
            sent = self.idx.tools[i].boundaries[b]
            self.rows[i].boundary.append(
                {
                    "sentence": sent.sentence,
                    "terms": list(sent.terms),
                    "distinctive": list(sent.distinctive),
                    "hit": words,
                    "points": round(self.points[(i, b)], 3),
                    "points_to": list(sent.points_to),
                }
            )


def _listing_question(idx: DeclIndex, text: str) -> set[int]:
    """The listing tools (:attr:`ToolIndex.lists`) when ``text`` asks for a listing (rule
    ``listing``), else none."""
    if not rule_enabled(RULE_LISTING) or not _LISTING_QUESTION_RE.search(text):
        return set()
    return {i for i, t in enumerate(idx.tools) if t.lists}


def _fill_rows(
    tally: _Tally,
    text: str,
    fills: dict[int, Fill],
    used: list[tuple[int, int]],
    pen: _Penalties,
) -> None:
    """Fill the arguments of the live tools (those in ``fills``) and settle the score of every
    row the question touched under penalties ``pen``; a touched tool no word, id or enum of the
    question makes live gets its required arguments missing (the untouched ones: :func:`_idle_rows`)."""
    idx, w, tokens = tally.idx, tally.w, tally.tokens
    found_values = QuestionValues.of(text)
    stated = frozenset(tally.stated)
    weak = w.integer if rule_enabled(RULE_EVIDENCE) else 0.0
    strong = w.argument if rule_enabled(RULE_EVIDENCE) else 0.0
    stems = {t.stem.lower() for t in tokens}
    shape_check = rule_enabled(RULE_VALUE_SHAPE)
    marked = marked_values(text)
    latin = not korean.has_hangul(text)
    for i in sorted(tally.rows.keys() | fills.keys()):
        tool, r = idx.tools[i], tally.rows[i]
        if i not in fills:
            r.missing = list(tool.required)
            _settle(r, tool, pen)
            continue
        fill_loose(tool.specs, text, fills[i], tokens, found_values, stated)
        fill = fill_free_text(tool.specs, text, fills[i], used, tally.reasons, tokens)
        if shape_check:
            drop_misfits(tool.specs, fill, text)
        guesses = guessed(tool.specs, fill.evidence, marked)  # before a misfit is taken out
        r.dropped = drop_value_misfits(tool.specs, fill, text, r.matched)
        r.args, r.arg_evidence, r.missing = fill.args, fill.evidence, fill.missing
        r.evidence_bonus = sum(
            weak if ev["rule"] in WEAK_RULES else strong
            for ev in fill.evidence.values()
            if ev["rule"] not in ("free_text", "default")
        )
        said = tally.said.get(i, set())
        topic = list(_topic_indexes(tokens, tally.weights, fill))
        r.topic, r.covered = len(topic), sum(k in said for k in topic)
        r.latin_topic = latin
        r.unsaid = unsaid(tool.objects, r.matched, stems, tool.specs, r.arg_evidence)
        r.not_about = not_about(tool.objects, r.unsaid, r.covered, r.topic)
        r.head, r.head_said = head_word(
            text, tokens, topic, said, tool.terms, (tool.objects, r.unsaid)
        )
        r.guessed = guesses
        if r.guessed:  # the topic words beside the guessed values too
            beside = {
                k: {**ev, "rule": "guessed"} if k in r.guessed else ev
                for k, ev in fill.evidence.items()
            }
            r.topic_beside_guesses = _coverage(
                tokens, tally.weights, Fill(evidence=beside), tally.said.get(i, set())
            )[0]
        _settle(r, tool, pen)


#: Argument rules that guess a value from words no other rule took (the rest of the question,
#: a leftover noun, a modifier, a default): their words still say what the question is about.
GUESS_RULES = frozenset({"free_text", "default", "leftover", "modifier"})


def _topic_indexes(tokens: list[korean.Token], weights: list[float], fill: Fill) -> Iterator[int]:
    """The indexes of the question's topic words for one tool (see :func:`_coverage`)."""
    spans = [
        tuple(ev["span"])
        for ev in fill.evidence.values()
        if ev["rule"] not in GUESS_RULES and "span" in ev
    ]
    for k, tok in enumerate(tokens):
        if weights[k] <= 0 or tok.stem in korean.QUESTION_WORDS or tok.stem[:1].isdigit():
            continue  # a number or an ordinal ("1st") is a value, never a topic
        if korean.is_generic(tok.stem):
            continue  # a generic verb says what is done, not what about (seed 002)
        if tok.stem in korean.CALENDAR_WORDS or any(
            a <= tok.start and tok.end <= b for a, b in spans
        ):
            continue
        yield k


def _coverage(
    tokens: list[korean.Token], weights: list[float], fill: Fill, said: set[int]
) -> tuple[int, int]:
    """``(topic words, those the tool's text matched)`` of one question for one tool: the
    content words (word weight > 0, not a question word nor a day or month name,
    :data:`korean.CALENDAR_WORDS`) outside the values this tool's
    arguments took by a rule that is not a guess (:data:`GUESS_RULES`). "the forecast for
    Pacifica on April 11th, 2023" has one topic word, forecast, once the city and the date are
    values."""
    topic = covered = 0
    for k in _topic_indexes(tokens, weights, fill):
        topic += 1
        covered += k in said
    return topic, covered


@dataclass(frozen=True)
class _Penalties:
    """The penalty weights of one question, each 0 when its rule is switched off (looked up once
    per question, not once per tool): per missing value, for the unknown predicates, for a
    deprecated tool; ``unknown`` the question's Korean predicates no declaration matches."""

    missing: float
    predicate: float
    deprecated: float
    unknown: tuple[str, ...]

    @classmethod
    def of(cls, w: Weights, unknown: list[str]) -> _Penalties:
        """The penalties under the current rule switches."""
        return cls(
            w.missing if rule_enabled(RULE_MISSING) else 0.0,
            w.unknown_predicate * len(unknown) if unknown and rule_enabled(RULE_PREDICATE) else 0.0,
            w.deprecated if rule_enabled(RULE_DEPRECATED) else 0.0,
            tuple(unknown),
        )


def _settle(r: ScoreRow, tool: ToolIndex, pen: _Penalties) -> None:
    """Fill ``r``'s penalties (missing required values, unknown predicates, deprecation; rules
    ``missing_penalty``, ``unknown_predicate``, ``deprecated``) and its final ``score``:
    relevance + evidence + pointer bonus − every penalty (4 places)."""
    if r.missing and pen.missing:
        r.missing_penalty = pen.missing * len(r.missing)
    if pen.predicate:
        r.predicate_penalty = pen.predicate
        r.unmatched_predicates = list(pen.unknown)
    if tool.deprecated and pen.deprecated:
        r.deprecated = list(tool.deprecated)
        r.deprecated_penalty = pen.deprecated
    r.score = round(
        r.relevance
        + r.evidence_bonus
        + r.pointer_bonus
        - r.boundary_penalty
        - r.missing_penalty
        - r.predicate_penalty
        - r.deprecated_penalty
        - r.action_penalty,
        4,
    )


#: Penalty sets whose idle rows an index keeps (:func:`_idle_rows`; the oldest dropped first):
#: a set changes only with the unmatched Korean predicates and the rule switches.
IDLE_PENALTY_SETS = 8


@dataclass(frozen=True)
class IdleRows:
    """One penalty set's idle rows (:func:`_idle_rows`): ``rows`` in declaration order and
    ``ranks``, their ``(-score, name, index)`` sorted."""

    rows: list[ScoreRow]
    ranks: list[tuple[float, str, int]]


def _idle_rows(idx: DeclIndex, pen: _Penalties) -> IdleRows:
    """Per tool of ``idx``, in index order, its row for a question that touches nothing of it
    (no word, id, enum, pointer or listing; not filled): its required arguments missing and
    ``pen`` settled, the same for every such question, so made once per penalty set and shared
    (read-only; their JSON too, :attr:`ScoreRow.frozen_json`). Issue 23: with 300 tools, making
    and settling a row per tool per question was a third of a question's cost."""
    idle = idx.idle.get(pen)
    if idle is None:
        if len(idx.idle) >= IDLE_PENALTY_SETS:
            idx.idle.pop(next(iter(idx.idle)))
        rows = []
        for tool in idx.tools:
            r = ScoreRow(tool.name, missing=list(tool.required))
            _settle(r, tool, pen)
            r.frozen_json = r.to_json()
            rows.append(r)
        ranks = sorted((-r.score, r.name, i) for i, r in enumerate(rows))
        idle = idx.idle[pen] = IdleRows(rows, ranks)
    return idle


#: Summed match points (before idf and word weights) a tool needs from the question's words to
#: have its arguments filled (:func:`candidates`); a third of a description word.
MIN_LIVE_POINTS = 0.35

_ID_LEAD_RE = re.compile(r"(?<![A-Za-z])([A-Za-z]+)[-_]?(?=\d)")


#: At most this many tools (besides those with a pattern or format argument) have their
#: arguments filled per question, the best first by the question's word points, an id or enum
#: cue counting as a full name word (issue 12: at 300 tools ~90 tools grazed by a word were
#: filled; filling is the costly part of scoring, and a tool ranked below the 16th by its words
#: cannot win -- its row is still scored, with its required arguments missing).
MAX_FILLED = 16


def candidates(
    idx: DeclIndex, text: str, matches: dict[str, TokenMatch], w: Weights | None = None
) -> set[int]:
    """The tools worth filling arguments for (issue 8: pre-filtered through the inverted
    index, so the cost of a question grows with the tools it mentions, not with all tools):
    those the question words match for at least :data:`MIN_LIVE_POINTS` (and the tools a matched
    boundary sentence points to), those whose id letters start a code in the question
    (``HR20260604`` -> the tools with an ``HR`` example or prefix), those with a pattern or
    format argument, and those with an enum value written in the question. Of these, at most
    :data:`MAX_FILLED` by relevance (word points, plus ``w.name`` -- ``Weights.name`` by
    default -- for an id or enum cue or a pointer), and every tool with a pattern or format
    argument."""
    ranked: dict[int, float] = {}
    by_name = idx.by_name
    points: dict[int, float] = {}
    cue = (w or Weights()).name  # an id, enum or pointer counts like a name word
    for pos, neg, _named in matches.values():
        for i, (value, _q, _info) in pos.items():
            points[i] = points.get(i, 0.0) + value
        for _i, (_q, info) in neg.items():
            for b in info["sentences"]:
                for n in idx.tools[_i].boundaries[b].points_to:
                    if n in by_name:
                        ranked[by_name[n]] = ranked.get(by_name[n], 0.0) + cue
    # words that only graze a tool (a substring of a parameter's text: 0.6 x 0.5 = 0.3 points)
    # cannot lift it to the threshold; such a tool is scored but its arguments are not filled
    for i, p in points.items():
        if p >= MIN_LIVE_POINTS or i in ranked:
            ranked[i] = ranked.get(i, 0.0) + p
    for m in _ID_LEAD_RE.finditer(text):
        lead = m.group(1).upper()
        for k in range(1, len(lead) + 1):
            for i in idx.by_key.get(lead[:k], ()):
                ranked[i] = ranked.get(i, points.get(i, 0.0)) + cue
    low = text.lower()
    for i in sorted({i for e, tools in idx.by_enum.items() if e in low for i in tools}):
        ranked[i] = ranked.get(i, points.get(i, 0.0)) + cue
    best = sorted(ranked, key=lambda i: (-ranked[i], i))[:MAX_FILLED]
    return set(idx.always).union(best)


def argument_labels(
    idx: DeclIndex, tokens: list[korean.Token], fills: Mapping[int, Fill]
) -> list[tuple[int, int]]:
    """Spans of words naming an argument value right before it ("주문번호 HR..."), except a
    word of the tool's own name ("a flight from JFK" for book_flight: the request itself).
    ``fills``: ``{tool index: its structured fill}`` for the tools filled (rule
    ``argument_labels``)."""
    labels = set()
    for i, fill in fills.items():
        tool = idx.tools[i]
        if not fill.evidence:
            continue
        named = {t for t, (where, _w) in tool.terms.items() if where == "name"}
        for arg, ev in fill.evidence.items():
            spec = next(s for s in tool.specs if s.name == arg)
            vocab = set(_words(spec.doc)) | {korean.stem(p) for p in korean.split_identifier(arg)}
            before = [t for t in tokens if t.end <= ev["span"][0]][-2:]
            for tok in before:
                if tok.stem in named:  # "a flight from JFK" asks for book_flight: not a label
                    continue
                stems = (tok.stem,) + korean.translations(tok.stem, idx.synonyms)
                if any(korean.match_quality(s, v)[0] >= 0.7 for s in stems for v in vocab):
                    labels.add((tok.start, tok.end))
    return sorted(labels)


def token_weights(
    text: str, tokens: list[korean.Token], used: list[tuple[int, int]], w: Weights
) -> tuple[list[float], list[dict[str, Any]], set[int]]:
    """Per-token word weights (a reading of Korean word order; see the module docstring):
    0 for stopwords and argument values/labels, ``modifier`` for adnominal words (주문한 거),
    background clauses (주문했는데) and nouns modifying the next noun (주문 배송 조회 -> the
    head is 배송), ``predicate`` for the last content word of a sentence, and for the subject
    right before a question-word predicate (소재가 뭐예요)."""
    weights, notes = [], []
    for tok in tokens:
        if korean.is_stopword(tok.stem) or not values.outside((tok.start, tok.end), used):
            weights.append(0.0)
        else:
            weights.append(
                w.modifier if korean.is_modifier(tok) or korean.is_background(tok) else 1.0
            )
    # the last content word of each Korean sentence is its predicate
    bounds = [m.end() for m in re.finditer(r"[.?!\n]+", text)] + [len(text) + 1]
    start, predicates = 0, set()
    for end in bounds:
        inside = [k for k, t in enumerate(tokens) if start <= t.start < end and weights[k] > 0]
        if inside and korean.has_hangul(text[start:end]):
            k = inside[-1]
            if korean.has_hangul(tokens[k].surface):
                weights[k] = max(weights[k], w.predicate)
                predicates.add(k)
                before = inside[-2] if len(inside) > 1 else None
                if (
                    tokens[k].stem in korean.QUESTION_WORDS
                    and before is not None
                    and tokens[before].ending in korean.SUBJECT_PARTICLES
                    and _adjacent(text, tokens[before], tokens[k])
                ):
                    weights[before] = max(weights[before], w.predicate)
                    predicates.add(before)
            # a bare noun right before another noun (not the predicate) modifies it
            for a, b in itertools.pairwise(inside):
                ta, tb = tokens[a], tokens[b]
                if (
                    weights[a] == 1.0
                    and ta.ending == ""
                    and korean.has_hangul(ta.surface)
                    and korean.is_nominal(tb)
                    and b not in predicates
                    and tb.stem not in korean.QUESTION_WORDS
                    and _adjacent(text, ta, tb)
                ):
                    weights[a] = w.modifier
        start = end
    for k, (tok, wt) in enumerate(zip(tokens, weights)):
        notes.append(
            {"word": tok.surface, "stem": tok.stem, "weight": wt, "predicate": k in predicates}
        )
    return weights, notes, predicates


def match_token(idx: DeclIndex, s: str, w: Weights) -> TokenMatch:
    """Best positive ``{tool: (points, quality, info)}``, boundary ``{tool: (quality, info)}``
    and the tools whose name matched (directly or through the glossary)."""
    pos: dict[int, tuple[float, float, dict[str, Any]]] = {}
    neg: dict[int, tuple[float, dict[str, Any]]] = {}
    named: set[int] = set()
    sources = [(s, 1.0, "")]
    if rule_enabled(RULE_SYNONYMS):
        sources += [(t, w.glossary, t) for t in korean.translations(s, idx.synonyms)]
    generic_s = korean.is_generic(s) and rule_enabled(RULE_GENERIC_VERB)
    for src, factor, via in sources:
        for term, quality, how in _candidates(idx, src):
            q = quality * factor
            for i, where, loc_w in idx.postings.get(term, ()):
                weight = min(loc_w, w.description) if via and where == "name" else loc_w
                if generic_s or (korean.is_generic(term) and rule_enabled(RULE_GENERIC_VERB)):
                    weight *= w.generic_verb
                points = weight * q
                if where in ("name", "name:verb"):
                    named.add(i)
                if i not in pos or points > pos[i][0]:
                    pos[i] = (
                        points,
                        q,
                        {
                            "term": term,
                            "where": where,
                            "how": how + (f" via synonym {via!r}" if via else ""),
                            "quality": round(q, 3),
                        },
                    )
            for i in idx.bpostings.get(term, ()):
                if i not in neg or q > neg[i][0]:
                    neg[i] = (q, {"term": term, "sentences": idx.tools[i].boundary_terms[term]})
    return pos, neg, sorted(named)


def _adjacent(text: str, a: korean.Token, b: korean.Token) -> bool:
    """True when only spaces separate token ``a`` from the following token ``b``."""
    return text[a.end : b.start].strip() == ""
