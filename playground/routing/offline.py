"""The offline router: deterministic, no network, explainable; reads only the declarations.

It imitates how a model chooses (seed 001: "모델이 보는 것은 이름, 설명, 인자 설명 세 가지 글뿐";
seed 002: "이름이 가장 강한 신호", descriptions say when *not* to use a tool and point at the
alternative). For the latest user question it scores every declaration:

``relevance``  for each content word of the question (see :mod:`playground.routing.korean`),
    its best match in the tool's vocabulary: location weight (name 3.0, description 1.0,
    parameter text 0.6, an example value 0.5, other sections 0.5) x match quality (exact 1.0,
    same Snowball root 0.85, prefix or root prefix 0.7, substring 0.5) x 0.8 when matched through a user synonym (synonyms.json beside the tools; a synonym match
    onto a name counts like a description word) x the word's weight x idf, where
    ``idf = log(1 + N/df) / log(1 + N)`` and df is the number of tools the word matches
    (a word every tool has tells them apart less). Words that label an argument value
    ("주문번호 HR20260601", "Order HR...") are part of the value, not the intent -- unless the word
    is in the tool's name ("a flight from JFK" for book_flight). A generic
    English verb (:data:`playground.routing.korean.GENERIC_VERBS`: calculate, get, find) weighs
    like a description word even in a name and counts half (seed 002: a name is a verb plus an
    object; the object decides); each stem counts once per tool; English words match exactly or
    by prefix, never inside another word; numbers and English function words are not topic
    words (issue 12: relevance judged on its own, BFCL dev should-not pairs).
``word weight``  a reading of Korean word order (head-final): 1.5 for a sentence's predicate
    (its last content word) and for the subject right before a question-word predicate
    ("소재가 뭐예요": the material is what is asked); 0.5 for a word that describes rather than
    asks -- an adnominal (주문한 거), a background clause ending in -는데 (주문했는데, 단계인데),
    and a bare noun directly before another noun that is not the predicate (주문 배송 조회:
    the head is 배송); 1.0 otherwise; 0 for stopwords and argument values.
``boundary``   a description sentence saying when not to use the tool (사용하지 않는다, 쓰지
    않는다, 대신, 않는다, do not use, instead, not for ...). Only its *distinctive* words count:
    those the tool's own positive text does not use (same stem, or a synonym of its name)
    and that do not start a word labelling its argument (주문 in "order_id: 하루마켓
    주문번호"). So track_shipping's "주문 단계만 묻는 문의에는 사용하지 않는다" excludes 단계,
    not every question saying 주문, and its "일반 배송 안내(배송비, 배송 기간)" excludes
    배송비/기간, not the 배송 of its own first sentence. Distinctive words leave the tool's
    positive vocabulary; each question word matching one costs boundary weight 1.0 x quality x
    word weight.
``pointer``    a fired boundary sentence naming other tools ("(track_shipping을 쓴다)") says where
    such questions go (seed 002: "대안 도구를 가리키는 문장이 특히 잘 듣는다"): each tool named
    gains pointer weight 1.0 x the penalty that word cost (listed under ``pointed``).
``evidence``   +1.0 per argument filled by enum/pattern/format/example/prefix/word, +0.25 per
    integer or lowercase-word guess (seed 001: "질문에 P008이 보이면 check_stock, HR…이 보이면
    주문 도구"; the rules are in :mod:`playground.routing.fill`).
``missing``    -1.0 per required argument that cannot be filled.
``predicate``  -0.5 for every tool when a Korean sentence's predicate (its last content word,
    not a question word) matches no declaration at all, and some declaration is written in
    Korean (English declarations cannot match a Korean request): the request itself ("리뷰 써도 되나요",
    "어디에 남기나요") is something no tool describes, even if a topic word (상품) matched.

``score = relevance + evidence + pointer - boundary - missing - predicate``. Picking:

1. The best tool scoring at least ``threshold`` with all required arguments is called if the
   question is about it (relevance first, issue 12): a structured value supports it (an enum,
   pattern, format, example shape or prefix; not a bare number that equals an enum or example
   value, not free text or a default), or its words -- without the points of generic verbs
   (seed 002: the object decides) -- reach 1.5 x threshold, or one description
   word (relevance >= 1.0) comes with a value introduced by the parameter's own word or covers
   at least half of the question's topic words (its content words beside the values:
   ``covered`` in the explanation) -- unless
   only an argument's shape supports it (relevance and pointer 0: "P008 가격이 얼마예요?" gives
   check_stock nothing but the id) and a tool the words fit (below) would score more with its
   argument; then it is passed over (``passed_over`` in the explanation).
2. Otherwise a tool the question's words fit but that lacks a required argument: relevance > 0,
   its predicate matched, and ``score + missing`` (its score with the argument) reaches the
   threshold. Its missing id may come from a prerequisite tool it names in its description
   ("먼저 search_products로 상품ID를 찾는다"); else the router asks for the missing value,
   naming the tool ("텀블러 주문한 거 어디쯤이에요?" -> track_shipping, order_id), or calls
   anyway with ``ask_for_missing=False`` (the gate then answers ``missing:<arg>``).
3. Otherwise no tool fits: a text listing what the tools do.

A search-like free-text argument never takes the question's verb predicate ("남기나요").
After a function response it may chain once more (an id in the first row fills another tool
the original question fits better) or replies with a summary of the result.

Weights and the threshold were set on fixtures/routing_cases.jsonl against tools/shop.py, and
the same file is run against a copy without its boundary sentences (tests/routing/
test_offline.py names the cases that flip). Deterministic; reads declarations only.

This module owns the :class:`OfflineRouter` and its decisions (call, prerequisite, ask, chain,
reply). The index and the scoring above are in :mod:`playground.routing.scoring`; the
customer-facing text (no-fit answers, asking for a value, :func:`say`, result summaries) is in
:mod:`playground.routing.replies`; import them from there.
"""

from __future__ import annotations

import json
import math
import operator
import re
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from playground.errors import RouterError
from playground.routing import korean
from playground.routing.base import FunctionCall, Move, RouterCapabilities, ToolResult, Turn
from playground.routing.cross_language import bridged
from playground.routing.example_value import example_word_only
from playground.routing.fill.clauses import clause_calls
from playground.routing.fill.counts import stated_count
from playground.routing.fill.ordinal_parts import ordinal_calls
from playground.routing.fill.rules import WEAK_RULES
from playground.routing.fill.series import series as series_calls
from playground.routing.fill.series_groups import group_rows
from playground.routing.guessed import RULE_GUESSES, short_of_words
from playground.routing.head_word import head_unsaid
from playground.routing.name_object import RULE_NAME_OBJECT
from playground.routing.registry import RouterSettings, RouterSpec
from playground.routing.replies import ask_text, no_tool_text, rows_of, summarize
from playground.routing.request_clauses import split_requests
from playground.routing.rule_switches import known_rule, rule_enabled
from playground.routing.scoring import (
    DeclIndex,
    ScoreRow,
    ToolIndex,
    Weights,
    build_index,
    score_question,
)
from playground.routing.thin_words import thin
from playground.routing.values_need_a_place import unplaced

DEFAULT_THRESHOLD = 0.75
"""Tuned on fixtures/routing_cases.jsonl against tools/shop.py (see tests/routing/test_offline.py)."""
_ID_FIELD_RE = re.compile(r"(?:^|_)id$|[a-z]Id$", re.I)


#: The characters of a question the offline router reads (a longer one is cut, and its
#: explanation says so in ``question_cut``: ``{"read", "of"}``). A question is a sentence or a
#: few; a 6 MB one took 46 s and 1.4 GB of scoring. Well above any BFCL question (1,247).
MAX_QUESTION_CHARS = 4000


class OfflineRouter:
    """The default router (``name = "offline"``): see the module docstring for the rules.

    ``threshold``: minimum score for a call (default :data:`DEFAULT_THRESHOLD`).
    ``weights``: a :class:`Weights`. ``max_calls``: calls per episode before it must reply
    (default 3). ``ask_for_missing``: when the chosen tool lacks a required argument and no
    prerequisite tool can supply it, reply asking for it (True, default) or call anyway (False).
    ``synonyms``: ``{stem: (stems, ...)}`` from a user's synonyms file
    (:func:`playground.routing.synonyms.find_synonyms`); none by default.
    """

    name = "offline"
    capabilities = RouterCapabilities(
        explains=True, parallel_calls=True, dry_run=False, repairs="loop", deterministic=True
    )

    def __init__(
        self,
        threshold: float = DEFAULT_THRESHOLD,
        weights: Weights | None = None,
        max_calls: int = 3,
        ask_for_missing: bool = True,
        synonyms: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        if (
            not isinstance(threshold, (int, float))
            or isinstance(threshold, bool)
            or math.isnan(threshold)
        ):
            raise RouterError(f"threshold must be a number, got {threshold!r}")
        self.threshold = float(threshold)
        self.weights = weights or Weights()
        self.max_calls = int(max_calls)
        self.ask_for_missing = ask_for_missing
        self.synonyms = dict(synonyms or {})
        self._last_index: DeclIndex | None = None
        self._last_list: tuple[list[dict[str, Any]], int, list[dict[str, Any]]] | None = None
        self._cache: dict[tuple[tuple[int, Any], ...], tuple[list[dict[str, Any]], DeclIndex]] = {}

    # ---- indexes -------------------------------------------------------------------------
    def index(self, declarations: list[dict[str, Any]]) -> DeclIndex:
        """The :class:`DeclIndex` for ``declarations``, built once per registry version.

        The key is the identity of each declaration dict (plus its name): a registry builds
        new declaration dicts when its tools change (reload), so the same dicts mean the same
        version and nothing is serialised or hashed per question (issue 8: hashing every
        declaration cost 17% of a question at 300 tools). The cached entry holds the
        declarations themselves, so their ids cannot be reused while cached. Declarations are
        treated as immutable; at most 8 versions are kept (oldest dropped first)."""
        last = self._last_list
        if (
            last is not None
            and last[0] is declarations
            and len(declarations) == last[1]
            and self._last_index is not None
            and all(map(operator.is_, declarations, last[2]))
        ):
            return self._last_index  # the same list again (every step of one question)
        key = tuple((id(d), d.get("name")) for d in declarations)
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) >= 8:
                self._cache.pop(next(iter(self._cache)))
            hit = self._cache[key] = (
                list(declarations),
                build_index(declarations, self.weights, self.synonyms),
            )
        self._last_index = hit[1]
        self._last_list = (declarations, len(declarations), hit[0])
        return hit[1]

    # ---- scoring -------------------------------------------------------------------------
    def score(self, question: str, declarations: list[dict[str, Any]]) -> list[ScoreRow]:
        """Per-tool scoring of ``question``: :class:`~playground.routing.scoring.ScoreRow` per
        declaration, sorted by (-score, name); the explanation holds their ``to_json()``."""
        _check_declarations(declarations)
        return self._score(question, declarations)[0]

    def _score(
        self, question: str, declarations: list[dict[str, Any]]
    ) -> tuple[list[ScoreRow], list[dict[str, Any]]]:
        """``(rows, words)`` for ``question`` (see :func:`playground.routing.scoring.score_question`);
        the callers have checked ``declarations`` (once per move, not once per scoring)."""
        return score_question(self.index(declarations), question, self.weights)

    # ---- moves ---------------------------------------------------------------------------
    def next_move(self, conversation: list[Turn], declarations: list[dict[str, Any]]) -> Move:
        """The next move: a call with an explanation, or a text answer (see the module docstring)."""
        _check_declarations(declarations)
        if not isinstance(conversation, list):
            raise RouterError("conversation must be a list of Turn")
        u = max(
            (i for i, t in enumerate(conversation) if getattr(t, "role", None) == "user"),
            default=None,
        )
        if u is None:
            raise RouterError("the conversation has no user question")
        asked = conversation[u].text or ""
        question = asked[:MAX_QUESTION_CHARS]
        episode = conversation[u + 1 :]
        calls = [c for t in episode if t.role == "model" and t.move for c in t.move.calls]
        results = [r for t in episode if t.role == "tool" for r in t.results]
        call_no = 1 + sum(len(t.move.calls) for t in conversation if t.role == "model" and t.move)
        ko = korean.written_in_korean(question)  # the reply's language
        if episode and episode[-1].role == "tool" and results:
            move = self._continue(question, declarations, calls, episode[-1].results, call_no, ko)
        else:
            move = self._pick(question, declarations, call_no, ko)
        if len(asked) > MAX_QUESTION_CHARS and isinstance(move.explanation, dict):
            move.explanation["question_cut"] = {"read": MAX_QUESTION_CHARS, "of": len(asked)}
        return move

    def _explanation(
        self, question: str, declarations: list[dict[str, Any]], step: str
    ) -> tuple[dict[str, Any], list[ScoreRow]]:
        rows, words = self._score(question, declarations)
        return {
            "router": self.name,
            "step": step,
            "question": question,
            "threshold": self.threshold,
            "weights": asdict(self.weights),
            "words": words,
            "tools": [r.to_json() for r in rows],
            "chosen": None,
            "reason": "",
        }, rows

    def _pick(
        self, question: str, declarations: list[dict[str, Any]], call_no: int, ko: bool
    ) -> Move:
        pieces = split_requests(question)
        if len(pieces) > 1:
            by_clause = self._clause_moves(question, pieces, declarations, call_no, ko)
            if by_clause is not None:
                return by_clause
        exp, rows = self._explanation(question, declarations, "pick")
        if not rows:
            exp["reason"] = "no tools declared"
            return Move(text=no_tool_text(self.index(declarations), ko, exp), explanation=exp)
        full, fitting = self._fits(rows, exp)
        full, stopped = _takes_a_value(full, question)
        if full and fitting and rule_enabled(RULE_BEST_OR_ASK):
            full, fitting = _best_relevant_or_ask(full, fitting, self.threshold, exp)
        if full:
            return self._call_best(question, declarations, full[0], rows, exp, call_no)
        if not fitting:
            exp["reason"] = self._no_fit_reason(rows, exp["words"], stopped)
            return Move(text=no_tool_text(self.index(declarations), ko, exp), explanation=exp)
        return self._short_of_value(fitting[0], rows, declarations, ko, exp, call_no)

    def _clause_moves(
        self,
        question: str,
        pieces: list[str],
        declarations: list[dict[str, Any]],
        call_no: int,
        ko: bool,
    ) -> Move | None:
        """Rule ``request_clauses``: each clause of ``pieces`` (:func:`split_requests`) routed
        alone, their calls in order. A clause no tool serves makes no call (its reason is kept:
        "show note n1 and delete note n2" where no tool reads deletes n2 only, never n1 too);
        ``None`` -- the question routed whole -- when a clause asks for a value, when no clause
        calls, or when every clause makes the same call. The explanation is the whole
        question's, with ``clauses``: per clause its text, calls and reason."""
        calls: list[FunctionCall] = []
        parts = []
        for piece in pieces:
            mv = self._pick(piece, declarations, call_no + len(calls), ko)
            mexp = mv.explanation or {}
            if mexp.get("asks_for") or mexp.get("prerequisite_for"):
                return None
            calls.extend(mv.calls)
            names = [c.name for c in mv.calls]
            parts.append({"text": piece, "calls": names, "reason": mexp.get("reason", "")})
        served = [p for p in parts if p["calls"]]
        if not served or (
            len(served) == len(parts) and len({(c.name, _canon(c.args)) for c in calls}) < 2
        ):
            return None
        exp, _rows = self._explanation(question, declarations, "pick")
        exp["clauses"] = parts
        exp["chosen"] = calls[0].name
        exp["reason"] = (
            f"the question asks for {len(pieces)} kinds of action, one clause each: "
            + "; ".join(
                f"{p['text']!r} -> {', '.join(p['calls'])}"
                if p["calls"]
                else f"{p['text']!r}: no call ({p['reason']})"
                for p in parts
            )
        )
        return Move(calls=calls, explanation=exp)

    def _fits(
        self, rows: list[ScoreRow], exp: dict[str, Any]
    ) -> tuple[list[ScoreRow], list[ScoreRow]]:
        """``(full, fitting)``: the tools the question is about with every required argument
        (relevance first, issue 12: values that merely fit a parameter's type never make a tool
        fit; without a structured value the words must reach RELEVANCE_SHARE x threshold), and
        those its words fit short of a required argument (score plus the missing penalty reaches
        the threshold; not when the request itself -- a Korean predicate -- matched nothing).
        A tool only an argument's shape supports, or a deprecated one, yields (``passed_over``)."""
        full = [
            r
            for r in rows
            if r.score >= self.threshold and not r.missing and _relevant(r, self.threshold)
        ]
        fitting = [
            r
            for r in rows
            if r.missing
            and r.relevance > 0
            and not r.unmatched_predicates
            and r.score + r.missing_penalty >= self.threshold
            and not (r.dropped and not _relevant(r, self.threshold))
        ]
        id_only = bool(full) and full[0].relevance + full[0].pointer_bonus <= 0
        if id_only and fitting and fitting[0].score + fitting[0].missing_penalty > full[0].score:
            # seed 001: an id in the question is a cue among the tools the question is about;
            # a tool that only an argument's shape supports yields to a tool the words fit
            exp["passed_over"] = {
                "tool": full[0].name,
                "why": "only an argument's shape supports it",
            }
            full = []
        if full and full[0].deprecated and rule_enabled(RULE_SUCCESSOR):
            # issue 12: a deprecated tool yields to a current one the question fits as well
            successor = next(
                (
                    r
                    for r in rows
                    if not r.deprecated
                    and r.relevance >= full[0].relevance
                    and not r.unmatched_predicates
                    and r.score + r.missing_penalty + r.deprecated_penalty >= self.threshold
                ),
                None,
            )
            if successor is not None:
                exp["passed_over"] = {
                    "tool": full[0].name,
                    "why": f"its description says it is deprecated ({', '.join(full[0].deprecated)}); "
                    f"{successor.name} fits the question as well",
                }
                full = [r for r in full if not r.deprecated]
                fitting = [successor] + [r for r in fitting if r is not successor]
        return full, fitting

    def _call_best(
        self,
        question: str,
        declarations: list[dict[str, Any]],
        best: ScoreRow,
        rows: list[ScoreRow],
        exp: dict[str, Any],
        call_no: int,
    ) -> Move:
        """Call ``best`` (once, or once per clause or listed value: rules ``parallel_clauses``
        and ``parallel_series``), the reason saying why it fits."""
        passed = [r.name for r in rows if r.missing and r.score > best.score >= self.threshold]
        exp["reason"] = (
            f"{best.name} has the highest score {best.score} >= {self.threshold} with all required arguments"
        )
        if passed:
            exp["reason"] += f"; passed over {passed} (missing required arguments)"
        fit = _fit(best, self.threshold)
        if fit == "bridge":
            exp["reason"] += (
                "; no declaration is in Korean (or words the Korean request): the request's kind of "
                "action is its name's, "
                "and the question's identifier fills its id parameter (no other tool is both)"
            )
        if fit == "coverage":
            exp["reason"] += (
                f"; its words give relevance {round(topic_points(best), 4)} "
                f"and match {best.covered} of the question's {best.topic} topic words"
            )
        tool = next(t for t in self.index(declarations).tools if t.name == best.name)
        calls, why = _parallel(tool, question, best)
        if why:  # several calls, or one with a clause stating context left out
            exp["parallel"] = why
        if len(calls) > 1:
            exp["chosen"] = best.name
            return Move(
                calls=[
                    FunctionCall(name=best.name, args=a, id=f"call_{call_no + k}")
                    for k, a in enumerate(calls)
                ],
                explanation=exp,
            )
        return self._call(exp, best.name, calls[0], call_no)

    def _no_fit_reason(
        self, rows: list[ScoreRow], words: list[dict[str, Any]], stopped: str | None = None
    ) -> str:
        """Why no tool is called (rule ``relevance_explained``): ``stopped`` (a relevance rule
        that took the fitting tools out, :func:`_takes_a_value`), the best tool's score came
        only from values that fit a type, or no tool reaches the threshold; either way the
        question's words no tool covers and the nearest tool with its relevance."""
        best = rows[0]
        words_fit = topic_points(best) >= RELEVANCE_SHARE * self.threshold
        if stopped:
            reason = stopped
        elif best.other_action:
            reason = f"{best.name} does {best.other_action}: the question asks for another action"
        elif (
            best.score >= self.threshold
            and (not best.missing or best.dropped)
            and words_fit
            and (stopped := _stopped_reason(best)) is not None
        ):
            reason = stopped
        elif best.score >= self.threshold and not best.missing:
            reason = (
                f"{best.name} scores {best.score} but only through values that fit a type; "
                f"its words give relevance {round(topic_points(best), 4)}"
                + (
                    " without generic verbs"
                    if topic_points(best) < best.relevance + best.pointer_bonus
                    else ""
                )
                + f" < {RELEVANCE_SHARE} x threshold: the question is not about it"
            )
        else:
            reason = (
                f"no tool reaches the threshold {self.threshold} "
                f"(best: {best.name} {best.score}), not even counting missing arguments"
            )
        if rule_enabled(RULE_EXPLAINED):
            reason = f"{nearest_text(rows, words, self.threshold)}; {reason}"
        return reason

    def _short_of_value(
        self,
        best: ScoreRow,
        rows: list[ScoreRow],
        declarations: list[dict[str, Any]],
        ko: bool,
        exp: dict[str, Any],
        call_no: int,
    ) -> Move:
        """The tool the words fit lacks a required value: call the prerequisite its description
        names, or ask for the value (the clarify move), or call anyway (``ask_for_missing``
        False: the gate then answers ``missing:<arg>``)."""
        feeder = self._feeder(best, rows, declarations)
        if feeder is not None:
            exp["reason"] = (
                f"{best.name} is what the question's words fit (score {best.score}) but lacks "
                f"{best.missing}; "
                f"its description names {feeder.name} as the step before, which can be filled: call it first"
            )
            exp["prerequisite_for"] = best.name
            return self._call(exp, feeder.name, feeder.args, call_no)
        if self.ask_for_missing:
            higher = [r.name for r in rows if r.score > best.score][:3]
            above = f"; {', '.join(higher)} score more but fit them less" if higher else ""
            exp["reason"] = (
                f"{best.name} is what the question's words fit (score {best.score}{above}) "
                f"but lacks {best.missing}: ask for it"
            )
            exp["asks_for"] = {"tool": best.name, "missing": best.missing}
            return Move(text=ask_text(self.index(declarations), best, ko), explanation=exp)
        exp["reason"] = (
            f"{best.name} is what the question's words fit (score {best.score}) though "
            f"{best.missing} are missing"
        )
        return self._call(exp, best.name, best.args, call_no)

    def _feeder(
        self, best: ScoreRow, rows: list[ScoreRow], declarations: list[dict[str, Any]]
    ) -> ScoreRow | None:
        idx = self.index(declarations)
        tool = next(t for t in idx.tools if t.name == best.name)
        by_name = {r.name: r for r in rows}
        for name in tool.refers:
            r = by_name.get(name)
            if r and not r.missing and r.relevance > 0:
                return r
        return None

    def _call(self, exp: dict[str, Any], name: str, args: dict[str, Any], call_no: int) -> Move:
        exp["chosen"] = name
        call = FunctionCall(name=name, args=dict(args), id=f"call_{call_no}")
        return Move(calls=[call], explanation=exp)

    def _continue(
        self,
        question: str,
        declarations: list[dict[str, Any]],
        calls: list[FunctionCall],
        last: list[ToolResult],
        call_no: int,
        ko: bool,
    ) -> Move:
        exp, rows = self._explanation(question, declarations, "continue")
        done = {(c.name, _canon(c.args)) for c in calls}
        result = last[-1]
        if len(calls) < self.max_calls and result.ok and result.kind == "ok":
            chain = self._chain(rows, result, done)
            if chain is not None:
                r, arg, row_no, fld, value = chain
                args = {**{k: v for k, v in r.args.items() if k != arg}, arg: value}
                prior = next((x for x in rows if x.name == result.name), None)
                own = _new_words(r, prior)
                fits = (
                    f"the question asks for {r.name} (relevance {round(r.relevance, 4)}; "
                    f"{own} match it and not {result.name})"
                    if own
                    else f"the question fits {r.name} too (relevance {round(r.relevance, 4)}) and "
                    f"the declarations say {result.name} comes first for it"
                )
                exp["reason"] = (
                    f"{fits}; {arg} comes from row {row_no} field {fld!r} of {result.call_id}"
                )
                exp["chained_from"] = {
                    "call_id": result.call_id,
                    "tool": result.name,
                    "row": row_no,
                    "field": fld,
                    "value": value,
                    "arg": arg,
                }
                return self._call(exp, r.name, args, call_no)
        elif len(calls) >= self.max_calls:
            exp["cap"] = self.max_calls
        exp["reason"] = f"reply with a summary of {result.name}'s result ({result.kind})"
        return Move(text=summarize(last, ko), explanation=exp)

    def _follows(self, tool: str, before: str) -> bool:
        """True when the declarations say ``before`` comes first for ``tool``: ``tool``'s
        description names ``before`` as the step before ("먼저 search_products로 상품ID를
        찾는다"), or ``before``'s names ``tool`` as the step after ("찾은 뒤 check_stock을
        부른다"). Read from the index of the last declarations scored."""
        idx = self._last_index
        if idx is None:
            return False
        by = {t.name: t for t in idx.tools}
        return before in getattr(by.get(tool), "refers", ()) or tool in getattr(
            by.get(before), "refers", ()
        )

    def _asked_of(self, row: ScoreRow, prior: ScoreRow | None) -> bool:
        """True when the question asks for what ``row`` does, beyond the earlier tool: a
        full-weight word counts more for ``row`` than for ``prior``, or it is one of the words
        ``prior``'s description hands over to ``row`` ("재고 문의는 먼저 이 도구로 상품ID를 찾은
        뒤 check_stock을 부른다": 재고 is check_stock's; "상품 정보" is not)."""
        if _own_word(row, prior):
            return True
        idx = self._last_index
        tool = next((t for t in idx.tools if prior and t.name == prior.name), None) if idx else None
        given = set(tool.handoff.get(row.name, ())) if tool else set()
        return any(m["word_weight"] >= 1.0 and m["term"] in given for m in row.matched)

    def _chain(
        self, rows: list[ScoreRow], result: ToolResult, done: set[tuple[str, str]]
    ) -> tuple[ScoreRow, str, int, str, Any] | None:
        found = rows_of(result.value)
        if not found:
            return None
        first = found[0]
        ids = [
            (k, v) for k, v in first.items() if _ID_FIELD_RE.search(k) and isinstance(v, (str, int))
        ]
        if not ids:
            return None
        prior = next((r for r in rows if r.name == result.name), None)
        for r in rows:  # already sorted by score
            if r.name == result.name:
                continue
            for fld, value in ids:
                missing = [m for m in r.missing if m != fld]
                if fld not in r.missing and fld not in r.args:
                    continue
                if missing:
                    continue
                args = {**r.args, fld: value}
                if (r.name, _canon(args)) in done:
                    continue
                # chain only to a tool the question asks for beyond the earlier one: a word of
                # the question that the earlier tool does not match at all ("hold", "재고"), or
                # the declarations' hand-over. A tool that only matches the same words better
                # (its name holds "bike") is not asked for: "Any bikes near City Hall?" stops
                # after the search instead of reserving a bike.
                if not _new_words(r, prior) and not (
                    self._follows(r.name, result.name) and self._asked_of(r, prior)
                ):
                    continue
                rescored = (
                    r.score
                    + (self.weights.missing if fld in r.missing else 0)
                    + self.weights.argument
                )
                if rescored >= self.threshold:
                    return r, fld, 0, fld, value
        return None


#: The decision rules of this module (:mod:`playground.routing.rule_switches`).
RULE_BY_VALUE = known_rule(
    "relevant_by_value",
    "relevance",
    "a structured value (enum, pattern, id shape) makes a tool fit",
)
RULE_BY_CUE = known_rule(
    "relevant_by_cue", "relevance", "a description word and a value its parameter's word introduces"
)
RULE_BY_COVERAGE = known_rule(
    "relevant_by_coverage", "relevance", "a description word covering half the topic words"
)
RULE_ONE_WORD = known_rule(
    "one_word_needs_support", "relevance", "one matching word makes a tool fit only with support"
)
RULE_EXPLAINED = known_rule(
    "relevance_explained", "relevance", "no call says which words no tool covers and the nearest"
)
RULE_BEST_OR_ASK = known_rule(
    "best_relevant_or_ask", "decision", "the most relevant tool lacking a value is asked for"
)
RULE_SUCCESSOR = known_rule(
    "deprecated_yields", "decision", "a deprecated tool yields to a current one as relevant"
)
RULE_CLAUSES = known_rule(
    "parallel_clauses", "decision", "a clause asking again with other values is another call"
)
RULE_SERIES = known_rule(
    "parallel_series", "decision", "several values listed for one argument are several calls"
)


def _parallel(
    tool: ToolIndex, question: str, best: ScoreRow
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``(argument sets, why)``: one call per clause asking again with other values (rule
    ``parallel_clauses``) or per value listed for one argument (rule ``parallel_series``), at
    most as many as the question says ("the area of two triangles"); else ``[best.args]``."""
    count = stated_count(question, frozenset(tool.terms))
    parts = ordinal_calls(tool.specs, question, best.args)
    parts = parts[:count] if count is not None else parts
    if len(parts) > 1:
        why = "the question describes each case after an ordinal (the first ..., the second ...)"
        return parts, {"calls": len(parts), "why": why}
    if rule_enabled(RULE_CLAUSES):
        topic = frozenset(
            stem
            for stem, (where, _w) in tool.terms.items()
            if where == "name" and stem not in korean.GENERIC_VERBS
        )
        again, said = clause_calls(tool.specs, question, best.args, topic)
        again = again[:count] if count is not None else again
        if len(again) > 1:
            why = "the question asks again in another clause with other values"
            return again, {"calls": len(again), "why": why, "clauses": said}
        if said and again[0] != best.args:
            why = "a clause stating the asker's context asks for nothing; the request's values"
            return again, {"calls": 1, "why": why, "clauses": said}
    if rule_enabled(RULE_SERIES):
        series = group_rows(
            tool.specs, question, series_calls(question, best.args, best.arg_evidence)
        )
        series = series[:count] if count is not None else series
        if len(series) > 1:
            changed = sorted({k for a in series for k in a if a[k] != best.args[k]})
            why = "the question lists several values for " + ", ".join(changed)
            return series, {"calls": len(series), "why": why}
    return [best.args], {}


def _best_relevant_or_ask(
    full: list[ScoreRow], fitting: list[ScoreRow], threshold: float, exp: dict[str, Any]
) -> tuple[list[ScoreRow], list[ScoreRow]]:
    """Rule ``best_relevant_or_ask`` (issue 23: most wrong-tool answers were a weaker tool whose
    arguments happened to be filled): when a tool lacking a required value is more relevant
    than the best tool with all of them -- its words (:func:`topic_points`) count more by at
    least the threshold (so a name word against a description word, not a near tie), would
    make it fit on their own, and cover as many of the question's topic words -- the router asks for the value instead of calling the
    weaker tool (``passed_over`` names it). Not when a structured value supports the tool with
    every argument (an order id of its example's shape: seed 001, an id is a cue)."""
    if _fit(full[0], threshold) == "value":
        return full, fitting
    top = max(fitting, key=lambda r: (topic_points(r), -rows_rank(fitting, r)))
    words = topic_points(top)
    if words < topic_points(full[0]) + threshold or words < RELEVANCE_SHARE * threshold:
        return full, fitting
    if top.covered < full[0].covered:  # "Any bikes near City Hall?": find_stations covers more
        return full, fitting
    exp["passed_over"] = {
        "tool": full[0].name,
        "why": f"{top.name} is more relevant (words {round(words, 4)} > "
        f"{round(topic_points(full[0]), 4)}) but lacks {', '.join(top.missing)}",
    }
    return [], [top] + [r for r in fitting if r is not top]


def _takes_a_value(full: list[ScoreRow], question: str) -> tuple[list[ScoreRow], str | None]:
    """Rule ``values_need_a_place`` (:mod:`playground.routing.values_need_a_place`): ``full``
    without the tools that take none of the values ``question`` writes, and why the first of
    them was left out (``None`` when none was)."""
    kept: list[ScoreRow] = []
    why = None
    for row in full:
        written = unplaced(question, row.args)
        if not written:
            kept.append(row)
        elif why is None:
            why = (
                f"{row.name} scores {row.score} but takes none of the values the question "
                f"gives ({', '.join(repr(v) for v in written)}): the question is about "
                "something else"
            )
    return kept, why


def _stopped_reason(best: ScoreRow) -> str | None:
    """Why a relevance rule stopped ``best`` though its words reach the share of the threshold
    (``name_object_unsaid``, ``head_word_unsaid``, ``guesses_need_words``,
    ``thin_words_need_coverage``), or ``None``."""
    if object_unsaid(best):
        return (
            f"{best.name} scores {best.score} but the question never says "
            + ", ".join(f"'{o}'" for o in best.unsaid)
            + f" of its name and its words match only {best.covered} of the question's "
            f"{best.topic} topic words: the question is about something else"
        )
    if head_unsaid(best.head, best.head_said, best.unsaid):
        return (
            f"{best.name} scores {best.score} but its text never says '{best.head}', the "
            "question's head word, and the question never says "
            + ", ".join(f"'{o}'" for o in best.unsaid)
            + " of its name: the question is about something else"
        )
    if guesses_only(best):
        return (
            f"{best.name} scores {best.score} but its "
            + ", ".join(best.guessed)
            + f" would be guessed and its words match only {best.covered} of the "
            f"question's {best.topic_beside_guesses} other topic words: "
            "the question is not about it"
        )
    if thin_row(best):
        return (
            f"{best.name} scores {best.score} but its words give {round(topic_points(best), 4)}, "
            f"less than one word of its name ({_NAME_WORD}), and match only {best.covered} of "
            f"the question's {best.topic} topic words: the question is not about it"
        )
    return None


def rows_rank(rows: list[ScoreRow], row: ScoreRow) -> int:
    """``row``'s position in ``rows`` (ties in relevance go to the better score)."""
    return next(k for k, r in enumerate(rows) if r is row)


def nearest_text(rows: list[ScoreRow], words: list[dict[str, Any]], threshold: float) -> str:
    """Rule ``relevance_explained``: ``"no tool covers 'weather'; nearest: get_forecast, words
    0.41 < 1.125"`` -- the question's topic words (``words``: the ``{word, stem, weight}`` notes
    of :func:`playground.routing.scoring.score_question`, weight > 0, not a question word) that
    no tool's text matched, and the tool whose words count most with what they count against
    ``RELEVANCE_SHARE`` x ``threshold`` (none is named when no tool's words count: it would be
    the first tool listed, "nearest" by nothing)."""
    matched = {m["word"] for r in rows for m in r.matched}
    uncovered = [
        w["word"]
        for w in words
        if w["weight"] > 0 and w["stem"] not in korean.QUESTION_WORDS and w["word"] not in matched
    ]
    # the first of the best (by position, not rows_rank: that is a scan per row)
    near = max(enumerate(rows), key=lambda kr: (topic_points(kr[1]), -kr[0]))[1]
    head = (
        "no tool covers " + ", ".join(f"'{w}'" for w in dict.fromkeys(uncovered))
        if uncovered
        else "every topic word matches some tool"
    )
    if topic_points(near) <= 0:  # no nearest: the first tool listed would be named
        return f"{head}; no tool's words count toward the question (nearest: none)"
    return (
        f"{head}; nearest: {near.name}, words {round(topic_points(near), 4)}"
        f" < {round(RELEVANCE_SHARE * threshold, 4)}"
        if topic_points(near) < RELEVANCE_SHARE * threshold
        else f"{head}; nearest: {near.name}, words {round(topic_points(near), 4)}"
    )


#: What one exact word of a tool's name counts (rule ``thin_words_need_coverage``).
_NAME_WORD = Weights().name
#: The words' share of the threshold a tool needs when no structured value (enum, pattern,
#: format, example shape, prefix) supports it: values that only fit a type do not make it fit.
RELEVANCE_SHARE = 1.5
#: The share of the question's topic words (:attr:`ScoreRow.covered` of :attr:`ScoreRow.topic`)
#: a tool's text must match for one description word (relevance 1.0) to make it fit (0.5 set on
#: BFCL dev: no should-not pair gained a call).
COVERAGE_SHARE = 0.5


#: Evidence rules that say nothing about the question's topic: the rest of the question as a
#: free-text value, and a parameter's default.
_NOT_EVIDENCE = frozenset({"free_text", "default"})
_BARE_NUMBER_RE = re.compile(r"[-+]?\d+(?:[.,]\d+)?")


def structured(ev: Mapping[str, Any]) -> bool:
    """True when one argument's evidence (``{rule, text, ...}`` as
    :class:`playground.routing.fill.specs.Fill` records it) shows the question is about the tool:
    a rule outside :data:`playground.routing.fill.rules.WEAK_RULES` and :data:`_NOT_EVIDENCE`, and
    not a bare number that merely equals an enum or example value ("the multiplication of 3
    and 2" is not about a service whose ids are 1, 2, 7 and 13: any question may hold a small
    number; BFCL dev should-not pairs)."""
    rule = ev.get("rule")
    if rule in WEAK_RULES or rule in _NOT_EVIDENCE:
        return False
    return not (
        rule in ("enum", "example") and _BARE_NUMBER_RE.fullmatch(str(ev.get("text", "")).strip())
    )


def _relevant(row: ScoreRow, threshold: float) -> bool:
    """True when ``row`` fits the question apart from loose argument values (see
    :func:`_fit`)."""
    return _fit(row, threshold) is not None


def _fit(row: ScoreRow, threshold: float) -> str | None:
    """Why ``row`` fits the question apart from loose argument values, or ``None``: a
    :func:`structured` value supports it (``"value"``), its words (relevance + pointer) reach
    ``RELEVANCE_SHARE`` of the threshold (``"words"``), or one description word does with a
    value the parameter's own word introduces (``"cue"``) or covering ``COVERAGE_SHARE`` of the
    question's topic words (``"coverage"``)."""
    if row.other_action:  # rule action_kind: it does another kind of action than asked, and
        return None  # an id of its shape does not change that ("show event ev-12", delete_event)
    values = {a: ev for a, ev in row.arg_evidence.items() if structured(ev)}
    if rule_enabled(RULE_BY_VALUE) and values and not example_word_only(values, row.covered):
        return "value"
    if bridged(row.matched):  # rule kind_and_id_bridge: a Korean request over English docs
        return "bridge"
    if object_unsaid(row):
        return None
    if guesses_only(row) or head_unsaid(row.head, row.head_said, row.unsaid):
        return None
    words = topic_points(row)
    if (
        words >= RELEVANCE_SHARE * threshold
        and (
            len(_topic_words(row)) > 1
            or _one_word_supported(row)
            or not rule_enabled(RULE_ONE_WORD)
        )
        and not thin_row(row)
    ):
        return "words"
    # a value the question introduces with the parameter's own word ("using the command
    # netsh wlan disconnect") shows the question is about this tool: a description word will do
    if (
        words >= 1.0
        and rule_enabled(RULE_BY_CUE)
        and any(ev["rule"] == "cue" for ev in row.arg_evidence.values())
    ):
        return "cue"
    # a description word that is most of what the question asks about beside its values
    # ("the forecast for Pacifica on April 11th": forecast, and the city and the date)
    if (
        words >= 1.0
        and rule_enabled(RULE_BY_COVERAGE)
        and row.covered >= COVERAGE_SHARE * row.topic > 0
    ):
        return "coverage"
    return None


def object_unsaid(row: ScoreRow) -> bool:
    """Rule ``name_object_unsaid`` (:mod:`playground.routing.name_object`): the question never
    says an object word of ``row``'s name and its text covers few of the question's topic words
    -- the question is about something else ("the area of a triangle" is not
    ``geometry_area_circle``)."""
    return row.not_about and rule_enabled(RULE_NAME_OBJECT)


def thin_row(row: ScoreRow) -> bool:
    """Rule ``thin_words_need_coverage`` (:mod:`playground.routing.thin_words`) for ``row``: an
    English question's topic words, that ``row``'s words are worth less than one word of its
    name and cover less than half of."""
    return row.latin_topic and thin(topic_points(row), _NAME_WORD, row.covered, row.topic)


def guesses_only(row: ScoreRow) -> bool:
    """Rule ``guesses_need_words`` (:mod:`playground.routing.guessed`): ``row``'s required text
    values are guesses and its words cover less than half of the question's other topic words."""
    return (
        bool(row.guessed)
        and rule_enabled(RULE_GUESSES)
        and short_of_words(row.guessed, row.covered, row.topic_beside_guesses)
    )


def _topic_words(row: ScoreRow) -> set[str]:
    """The distinct question words (stems) that match ``row``'s text, generic verbs and example
    values left out."""
    return {
        korean.stem(m["word"]).lower()
        for m in row.matched
        if not _generic(m) and not str(m["where"]).startswith("example")
    }


def _one_word_supported(row: ScoreRow) -> bool:
    """Rule ``one_word_needs_support`` (issue 23, near neighbours: "circle" in "the circumference
    of a circle" is not `generate_circle_image`, "house" in "house price" not
    `poker_probability_full_house`): when one question word is all that matches a tool, the
    words make it fit only if that word covers half of the question's topic words; or the
    word is the sentence's request (word weight >= ``Weights.predicate``, "소재가 뭐예요"); or
    the tool takes the rest of the question as search text (``free_text``/``leftover``); or the
    question names the tool whole (every word of its name but a generic verb, exactly); or it
    is a word of the tool's name, exactly, covering a third of the topic words."""
    if row.covered >= 0.5 * row.topic:
        return True
    if any(m["word_weight"] >= 1.5 for m in row.matched):
        return True
    if any(ev.get("rule") in ("free_text", "leftover") for ev in row.arg_evidence.values()):
        return True
    named = {m["term"] for m in row.matched if m["where"] == "name" and m["how"] == "exact"}
    parts = {
        korean.stem(p)
        for p in korean.split_identifier(row.name)
        if korean.is_content(p) and not p[:1].isdigit() and not korean.is_generic(korean.stem(p))
    }
    if parts and parts <= named:  # "Calculate the speed of ..." names calculate_speed whole
        return True
    return bool(named - korean.GENERIC_VERBS) and 3 * row.covered >= row.topic


def topic_points(row: ScoreRow) -> float:
    """``row``'s relevance and pointer bonus without the points of generic verbs (seed 002: a
    generic verb -- calculate, get, find -- says what a tool does, its object what it is
    about): what :func:`_fit` compares with the threshold."""
    generic = sum(float(m["points"]) for m in row.matched if _generic(m))
    return row.relevance + row.pointer_bonus - generic


def _generic(match: Mapping[str, Any]) -> bool:
    """True when a matched word (an entry of :attr:`ScoreRow.matched`) or the term it matched is
    a generic verb (:func:`playground.routing.korean.is_generic`)."""
    if str(match.get("where", "")).startswith("shape:"):
        return False  # a shape of the question (a listing request), not a word of it
    return korean.is_generic(match["term"]) or korean.is_generic(korean.stem(match["word"]))


def _own_word(row: ScoreRow, prior: ScoreRow | None) -> bool:
    """True when a full-weight question word (not a modifier) counts at least as much for
    ``row`` as for ``prior``: the question asks for what ``row`` does, not only for what the
    earlier tool did ("텀블러 재고" -> 재고 is check_stock's; "상품 정보" is not)."""
    before = {m["word"]: m["points"] for m in (prior.matched if prior else [])}
    return any(
        m["word_weight"] >= 1.0 and m["points"] > before.get(m["word"], 0.0) for m in row.matched
    )


def _new_words(row: ScoreRow, prior: ScoreRow | None) -> list[str]:
    """The full-weight question words (not modifiers) that match ``row`` and do not match
    ``prior`` at all, in question order: what the question asks for beyond the earlier tool
    ("에어프라이어 재고" -> ``["재고"]`` for check_stock after search_products when its
    description does not name stock; ``[]`` for reserve_bike after find_stations on "Any bikes
    near City Hall?", since "bikes" matches both)."""
    before = {m["word"] for m in (prior.matched if prior else []) if m["points"] > 0}
    out: list[str] = []
    for m in row.matched:
        fresh = m["word"] not in before and m["word"] not in out
        if fresh and m["word_weight"] >= 1.0 and m["points"] > 0:
            out.append(m["word"])
    return out


def _canon(args: Any) -> str:
    return json.dumps(args, sort_keys=True, ensure_ascii=False, default=str)


def _check_declarations(declarations: Any) -> None:
    if not isinstance(declarations, list) or not all(
        isinstance(d, dict) and isinstance(d.get("name"), str) and d.get("name")
        for d in declarations
    ):
        raise RouterError(
            "declarations must be a list of {'name', 'description', 'parameters'} dicts"
        )


def build(settings: RouterSettings) -> OfflineRouter:
    """The registry's factory: an :class:`OfflineRouter` with the default threshold (the
    settings carry no model, mode or key for it)."""
    return OfflineRouter()


#: The backend's declaration (registered in :data:`playground.routing.registry.BUILTIN`).
SPEC = RouterSpec(
    name=OfflineRouter.name,
    summary="Deterministic, explainable routing from the declarations; no key, no network",
    build=build,
    capabilities=OfflineRouter.capabilities,
)
