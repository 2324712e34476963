"""The offline router: deterministic, no network, explainable; reads only the declarations.

It imitates how a model chooses (seed 001: "모델이 보는 것은 이름, 설명, 인자 설명 세 가지 글뿐";
seed 002: "이름이 가장 강한 신호", descriptions say when *not* to use a tool and point at the
alternative). For the latest user question it scores every declaration:

``relevance``  for each content word of the question (see :mod:`playground.routing.korean`),
    its best match in the tool's vocabulary: location weight (name 3.0, description 1.0,
    parameter text 0.6, an example value 0.5, other sections 0.5) x match quality (exact 1.0,
    prefix 0.7, substring 0.5) x 0.8 when matched through the glossary (a glossary match
    onto a name counts like a description word) x the word's weight x idf, where
    ``idf = log(1 + N/df) / log(1 + N)`` and df is the number of tools the word matches
    (a word every tool has tells them apart less). Words that label an argument value
    ("주문번호 HR20260601", "Order HR...") are part of the value, not the intent.
``word weight``  a reading of Korean word order (head-final): 1.5 for a sentence's predicate
    (its last content word) and for the subject right before a question-word predicate
    ("소재가 뭐예요": the material is what is asked); 0.5 for a word that describes rather than
    asks -- an adnominal (주문한 거), a background clause ending in -는데 (주문했는데, 단계인데),
    and a bare noun directly before another noun that is not the predicate (주문 배송 조회:
    the head is 배송); 1.0 otherwise; 0 for stopwords and argument values.
``boundary``   a description sentence saying when not to use the tool (사용하지 않는다, 쓰지
    않는다, 대신, 않는다, do not use, instead, not for ...). Only its *distinctive* words count:
    those the tool's own positive text does not use (same stem, or a glossary word of its name)
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
    주문 도구"; the rules are in :mod:`playground.routing.argfill`).
``missing``    -1.0 per required argument that cannot be filled.
``predicate``  -0.5 for every tool when a Korean sentence's predicate (its last content word,
    not a question word) matches no declaration at all: the request itself ("리뷰 써도 되나요",
    "어디에 남기나요") is something no tool describes, even if a topic word (상품) matched.

``score = relevance + evidence + pointer - boundary - missing - predicate``. Picking:

1. The best tool scoring at least ``threshold`` with all required arguments is called -- unless
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
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from playground.errors import RouterError
from playground.routing import argfill, korean
from playground.routing.base import FunctionCall, Move, RouterCapabilities, ToolResult, Turn

DEFAULT_THRESHOLD = 0.75
"""Tuned on fixtures/routing_cases.jsonl against tools/shop.py (see tests/routing/test_offline.py)."""

_BOUNDARY_RE = re.compile(
    r"사용하지\s*않|쓰지\s*않|않는다|않음|하지\s*말|쓰지\s*말|대신|"
    r"\bdo\s+not\s+use\b|\bdon'?t\s+use\b|\bnever\s+use\b|\binstead\b|\bnot\s+for\b|\bnot\s+be\s+used\b",
    re.I,
)
_FIRST_RE = re.compile(r"먼저|우선|\bfirst\b|\bbefore\b", re.I)
_SENTENCE_RE = re.compile(r"(?<=[.!?。])\s+|\n+")
_ID_FIELD_RE = re.compile(r"(?:^|_)id$|[a-z]Id$", re.I)
#: A declaration saying it is not for real use (tools/flaky.py: "Do not use it for real
#: lookups") is a demo: it is still scored and callable, but never advertised to a customer.
_DEMO_RE = re.compile(
    r"\b(?:do\s+not|don'?t|never)\s+use\s+(?:it|this(?:\s+tool)?)\s+for\s+real\b|\bnot\s+for\s+real\s+use\b|"
    r"실제\s*(?:조회|검색|문의|사용|업무)\S*\s*(?:사용하지|쓰지)\s*않|데모용|시연용|테스트용",
    re.I,
)


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
    return any(korean.match_quality(term, o) == (0.7, "prefix") and o.startswith(term) for o in labels)


def _strip_examples(text: str) -> str:
    """``text`` without its example values (they are values, not labels)."""
    for ex in argfill.extract_examples(text):
        text = text.replace(ex, " ")
    return text


@dataclass
class ToolIndex:
    """The precomputed view of one declaration."""

    name: str
    summary: str
    terms: dict[str, tuple[str, float]]           # stem -> (where, location weight), best location
    boundaries: list[Boundary]
    boundary_terms: dict[str, list[int]]         # stem -> boundary sentence indexes
    specs: list[argfill.ParamSpec]
    refers: tuple[str, ...]                      # tools named as a prerequisite ("먼저 X로")
    demo: bool = False                           # says it is not for real use (see _DEMO_RE)


@dataclass
class DeclIndex:
    """Indexes over one list of declarations (cached on the router, keyed by content)."""

    tools: list[ToolIndex]
    postings: dict[str, list[tuple[int, str, float]]] = field(default_factory=dict)
    bpostings: dict[str, list[int]] = field(default_factory=dict)
    sorted_terms: list[str] = field(default_factory=list)
    by_bigram: dict[str, list[str]] = field(default_factory=dict)
    longest: int = 0  # length of the longest vocabulary term (bounds the substring search)


def _names_regex(names: list[str]) -> re.Pattern | None:
    if not names:
        return None
    alts = "|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n)))
    return re.compile(rf"(?<![A-Za-z0-9_])({alts})(?![A-Za-z0-9_])")


def _words(text: str) -> list[str]:
    """Content stems of declaration text (stopwords and meta words such as 사용/쓴다 dropped)."""
    return [t.stem for t in korean.tokenize(text)
            if korean.is_content(t.stem) and t.stem not in korean.META_WORDS]


def _index_tool(decl: dict[str, Any], names_rx: re.Pattern | None, w: Weights) -> ToolIndex:
    name = str(decl.get("name", ""))
    parts = argfill.split_docstring(str(decl.get("description") or ""))
    specs = argfill.param_specs(decl.get("parameters"), parts.args)
    terms: dict[str, tuple[str, float]] = {}

    def add(stem: str, where: str, weight: float) -> None:
        if stem not in terms or terms[stem][1] < weight:
            terms[stem] = (where, weight)

    boundaries: list[Boundary] = []
    refers: list[str] = []
    texts = [("description", parts.summary, w.description)]
    texts += [(f"parameter:{s.name}", s.doc, w.parameter) for s in specs]
    texts.append(("other", parts.other, w.other))
    for where, text, weight in texts:
        for sentence in (s.strip() for s in _SENTENCE_RE.split(text) if s.strip()):
            named = [m.group(1) for m in names_rx.finditer(sentence)] if names_rx else []
            named = [n for n in dict.fromkeys(named) if n != name]
            bare = names_rx.sub(" ", sentence) if names_rx else sentence
            examples = argfill.extract_examples(bare) if where.startswith("parameter") else []
            for ex in examples:
                bare = bare.replace(ex, " ")
            if _BOUNDARY_RE.search(bare):
                boundaries.append(Boundary(sentence, tuple(dict.fromkeys(_words(bare))), tuple(named)))
                continue
            if named and _FIRST_RE.search(bare):
                refers.extend(named)
            for stem in _words(bare):
                add(stem, where, weight)
            for ex in examples:
                for stem in _words(ex):
                    add(stem, f"example:{where.split(':', 1)[1]}", w.example)
    for spec in specs:
        for part in korean.split_identifier(spec.name):
            if korean.is_content(part):
                add(korean.stem(part), f"parameter:{spec.name}", w.parameter)
    for part in korean.split_identifier(name):
        if korean.is_content(part):
            add(korean.stem(part), "name", w.name)
    own = set(terms)
    for part in korean.split_identifier(name):  # the name's glossary words are the tool's own subject too
        own.update(korean.translations(korean.stem(part)))
    labels = {korean.stem(p) for s in specs for p in korean.split_identifier(s.name)}
    for spec in specs:
        labels.update(_words(_strip_examples(spec.doc)))
    boundary_terms: dict[str, list[int]] = {}
    for i, b in enumerate(boundaries):
        distinctive = tuple(t for t in b.terms if not _covered(t, own, labels))
        boundaries[i] = replace(b, distinctive=distinctive)
        for t in distinctive:
            boundary_terms.setdefault(t, []).append(i)
            terms.pop(t, None)
    first = _SENTENCE_RE.split(parts.summary.strip())[0] if parts.summary.strip() else ""
    demo = bool(_DEMO_RE.search(str(decl.get("description") or "")))
    return ToolIndex(name, first, terms, boundaries, boundary_terms, specs, tuple(dict.fromkeys(refers)), demo)


def build_index(declarations: list[dict[str, Any]], weights: Weights) -> DeclIndex:
    """Index every declaration once: vocabularies, boundary sentences, parameter specs."""
    names_rx = _names_regex([str(d.get("name", "")) for d in declarations])
    idx = DeclIndex([_index_tool(d, names_rx, weights) for d in declarations])
    for i, tool in enumerate(idx.tools):
        for stem, (where, weight) in tool.terms.items():
            idx.postings.setdefault(stem, []).append((i, where, weight))
        for stem in tool.boundary_terms:
            idx.bpostings.setdefault(stem, []).append(i)
    idx.sorted_terms = sorted(set(idx.postings) | set(idx.bpostings))
    idx.longest = max(map(len, idx.sorted_terms), default=0)
    for term in idx.sorted_terms:
        for bg in set(korean.bigrams(term)):
            idx.by_bigram.setdefault(bg, []).append(term)
    return idx


def _candidates(idx: DeclIndex, s: str) -> list[tuple[str, float, str]]:
    """Vocabulary terms matching stem ``s`` (exact, prefix either way, substring either way)."""
    found = {s} if (s in idx.postings or s in idx.bpostings) else set()
    lo = bisect.bisect_left(idx.sorted_terms, s)
    while lo < len(idx.sorted_terms) and idx.sorted_terms[lo].startswith(s):
        found.add(idx.sorted_terms[lo])
        lo += 1
    for i in range(len(s)):  # substrings longer than the longest term cannot match: O(len(s) * longest)
        for j in range(i + 1, min(len(s), i + idx.longest) + 1):
            sub = s[i:j]
            if sub != s and (sub in idx.postings or sub in idx.bpostings):
                found.add(sub)
    if len(s) >= 2:
        found.update(t for t in idx.by_bigram.get(s[:2], ()) if s in t)
    out = []
    for term in sorted(found):
        q, how = korean.match_quality(s, term)
        if q > 0:
            out.append((term, q, how))
    return out


class OfflineRouter:
    """The default router (``name = "offline"``): see the module docstring for the rules.

    ``threshold``: minimum score for a call (default :data:`DEFAULT_THRESHOLD`).
    ``weights``: a :class:`Weights`. ``max_calls``: calls per episode before it must reply
    (default 3). ``ask_for_missing``: when the chosen tool lacks a required argument and no
    prerequisite tool can supply it, reply asking for it (True, default) or call anyway (False).
    """

    name = "offline"
    capabilities = RouterCapabilities(network=False, explains=True, parallel_calls=False, dry_run=False)

    def __init__(self, threshold: float = DEFAULT_THRESHOLD, weights: Weights | None = None,
                 max_calls: int = 3, ask_for_missing: bool = True) -> None:
        if not isinstance(threshold, (int, float)) or isinstance(threshold, bool) or math.isnan(threshold):
            raise RouterError(f"threshold must be a number, got {threshold!r}")
        self.threshold = float(threshold)
        self.weights = weights or Weights()
        self.max_calls = int(max_calls)
        self.ask_for_missing = ask_for_missing
        self._cache: dict[str, DeclIndex] = {}

    # ---- indexes -------------------------------------------------------------------------
    def index(self, declarations: list[dict[str, Any]]) -> DeclIndex:
        """The :class:`DeclIndex` for ``declarations``, built once per distinct content."""
        key = hashlib.sha256(json.dumps(declarations, sort_keys=True, ensure_ascii=False,
                                        default=str).encode()).hexdigest()
        if key not in self._cache:
            if len(self._cache) >= 8:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = build_index(declarations, self.weights)
        return self._cache[key]

    # ---- scoring -------------------------------------------------------------------------
    def score(self, question: str, declarations: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Per-tool scoring of ``question``: a list of dicts sorted by (-score, name), each with
        ``name, score, relevance, evidence_bonus, pointer_bonus, boundary_penalty,
        missing_penalty, predicate_penalty, matched, boundary, pointed, args, arg_evidence,
        missing, unmatched_predicates``. A ``boundary`` entry is ``{sentence, terms,
        distinctive, hit, points, points_to}``; a ``pointed`` entry ``{word, from, points}``."""
        return self._score(question, declarations)[0]

    def _score(self, question: str, declarations: list[dict[str, Any]]) -> tuple[list[dict], list[dict]]:
        _check_declarations(declarations)
        idx = self.index(declarations)
        w = self.weights
        text = korean.normalize(question)
        tokens = korean.tokenize(text)
        fills = [argfill.fill_structured(t.specs, text, tokens) for t in idx.tools]
        consumed = sorted({span for f in fills for a, ev in f.evidence.items()
                           if ev["rule"] not in argfill.WEAK_RULES for span in [tuple(ev["span"])]})
        labels = self._labels(idx, tokens, fills)
        weights, notes, predicates = self._token_weights(text, tokens, consumed + labels)
        n = len(idx.tools)
        rows = [{"name": t.name, "relevance": 0.0, "boundary_penalty": 0.0, "pointer_bonus": 0.0,
                 "matched": [], "name_hits": [], "boundary": [], "pointed": []} for t in idx.tools]
        fired: dict[tuple[int, int], list[str]] = {}
        points: dict[tuple[int, int], float] = {}
        by_name = {t.name: i for i, t in enumerate(idx.tools)}
        reasons: dict[tuple[int, int], str] = {}
        unknown = []
        for k, tok in enumerate(tokens):
            if weights[k] == 0:
                continue
            pos, neg, named = self._match_token(idx, tok.stem)
            for i in named:
                if i not in neg:
                    rows[i]["name_hits"].append(tok.surface)
            if not pos and not neg:
                if k in predicates and tok.stem not in korean.QUESTION_WORDS:
                    unknown.append(tok.surface)
                continue
            df = len(pos)
            idf = 1.0 if n <= 1 else math.log(1 + n / max(df, 1)) / math.log(1 + n)
            for i, (value, quality, info) in pos.items():
                if i in neg and neg[i][0] >= quality:
                    continue
                rows[i]["relevance"] += value * idf * weights[k]
                rows[i]["matched"].append({"word": tok.surface, **info, "idf": round(idf, 3),
                                           "word_weight": weights[k], "points": round(value * idf * weights[k], 3)})
                if not info["where"].startswith("example"):
                    reasons.setdefault((tok.start, tok.end), f"matched {idx.tools[i].name} {info['where']}")
            for i, (quality, info) in neg.items():
                if i in pos and pos[i][1] > quality:
                    continue
                penalty = w.boundary * quality * weights[k]
                rows[i]["boundary_penalty"] += penalty
                targets: dict[str, None] = {}
                for b in info["sentences"]:
                    fired.setdefault((i, b), []).append(tok.surface)
                    points[(i, b)] = points.get((i, b), 0.0) + penalty
                    targets.update(dict.fromkeys(idx.tools[i].boundaries[b].points_to))
                # the sentence says where such questions go: the word counts for that tool
                for other in targets:
                    j = by_name.get(other)
                    if j is not None and j != i:
                        rows[j]["pointer_bonus"] += w.pointer * penalty
                        rows[j]["pointed"].append({"word": tok.surface, "from": idx.tools[i].name,
                                                   "points": round(w.pointer * penalty, 3)})
                reasons.setdefault((tok.start, tok.end), f"boundary of {idx.tools[i].name}")
        for (i, b), words in sorted(fired.items()):
            sent = idx.tools[i].boundaries[b]
            rows[i]["boundary"].append({"sentence": sent.sentence, "terms": list(sent.terms),
                                        "distinctive": list(sent.distinctive), "hit": words,
                                        "points": round(points[(i, b)], 3), "points_to": list(sent.points_to)})
        for k in predicates:  # a verb predicate is the request, never part of a search text
            if not korean.is_nominal(tokens[k]):
                reasons.setdefault((tokens[k].start, tokens[k].end), "the request's verb, not a value")
        for i, tool in enumerate(idx.tools):
            fill = argfill.fill_free_text(tool.specs, text, fills[i], consumed + labels, reasons, tokens)
            found = sum(w.integer if ev["rule"] in argfill.WEAK_RULES else w.argument
                        for ev in fill.evidence.values() if ev["rule"] != "free_text")
            r = rows[i]
            ev_bonus = found
            r.update(args=fill.args, arg_evidence=fill.evidence, missing=fill.missing,
                     evidence_bonus=ev_bonus, missing_penalty=w.missing * len(fill.missing),
                     predicate_penalty=w.unknown_predicate * len(unknown), unmatched_predicates=unknown)
            r["score"] = (r["relevance"] + ev_bonus + r["pointer_bonus"] - r["boundary_penalty"]
                          - r["missing_penalty"] - r["predicate_penalty"])
            for key in ("score", "relevance", "evidence_bonus", "pointer_bonus", "boundary_penalty",
                        "missing_penalty", "predicate_penalty"):
                r[key] = round(r[key], 4)
        rows.sort(key=lambda r: (-r["score"], r["name"]))
        return rows, notes

    def _labels(self, idx: DeclIndex, tokens: list[korean.Token], fills: list[argfill.Fill]) -> list[tuple[int, int]]:
        """Spans of words naming an argument value right before it ("주문번호 HR...")."""
        labels = set()
        for tool, fill in zip(idx.tools, fills):
            for arg, ev in fill.evidence.items():
                spec = next(s for s in tool.specs if s.name == arg)
                vocab = set(_words(spec.doc)) | {korean.stem(p) for p in korean.split_identifier(arg)}
                before = [t for t in tokens if t.end <= ev["span"][0]][-2:]
                for tok in before:
                    stems = (tok.stem,) + korean.translations(tok.stem)
                    if any(korean.match_quality(s, v)[0] >= 0.7 for s in stems for v in vocab):
                        labels.add((tok.start, tok.end))
        return sorted(labels)

    def _token_weights(self, text: str, tokens: list[korean.Token], used: list[tuple[int, int]]):
        """Per-token word weights (a reading of Korean word order; see the module docstring):
        0 for stopwords and argument values/labels, ``modifier`` for adnominal words (주문한 거),
        background clauses (주문했는데) and nouns modifying the next noun (주문 배송 조회 -> the
        head is 배송), ``predicate`` for the last content word of a sentence, and for the subject
        right before a question-word predicate (소재가 뭐예요)."""
        w = self.weights
        weights, notes = [], []
        for tok in tokens:
            if korean.is_stopword(tok.stem) or not all(tok.end <= a or tok.start >= b for a, b in used):
                weights.append(0.0)
            else:
                weights.append(w.modifier if korean.is_modifier(tok) or korean.is_background(tok) else 1.0)
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
                    if (tokens[k].stem in korean.QUESTION_WORDS and before is not None
                            and tokens[before].ending in korean.SUBJECT_PARTICLES
                            and _adjacent(text, tokens[before], tokens[k])):
                        weights[before] = max(weights[before], w.predicate)
                        predicates.add(before)
                # a bare noun right before another noun (not the predicate) modifies it
                for a, b in zip(inside, inside[1:]):
                    ta, tb = tokens[a], tokens[b]
                    if (weights[a] == 1.0 and ta.ending == "" and korean.has_hangul(ta.surface)
                            and korean.is_nominal(tb) and b not in predicates
                            and tb.stem not in korean.QUESTION_WORDS and _adjacent(text, ta, tb)):
                        weights[a] = w.modifier
            start = end
        for k, (tok, wt) in enumerate(zip(tokens, weights)):
            notes.append({"word": tok.surface, "stem": tok.stem, "weight": wt, "predicate": k in predicates})
        return weights, notes, predicates

    def _match_token(self, idx: DeclIndex, s: str):
        """Best positive ``{tool: (points, quality, info)}``, boundary ``{tool: (quality, info)}``
        and the tools whose name matched (directly or through the glossary)."""
        w = self.weights
        pos: dict[int, tuple[float, float, dict]] = {}
        neg: dict[int, tuple[float, dict]] = {}
        named: set[int] = set()
        sources = [(s, 1.0, "")] + [(t, w.glossary, t) for t in korean.translations(s)]
        for src, factor, via in sources:
            for term, quality, how in _candidates(idx, src):
                q = quality * factor
                for i, where, loc_w in idx.postings.get(term, ()):
                    weight = min(loc_w, w.description) if via and where == "name" else loc_w
                    points = weight * q
                    if where == "name":
                        named.add(i)
                    if i not in pos or points > pos[i][0]:
                        pos[i] = (points, q, {"term": term, "where": where, "how": how + (f" via glossary {via!r}" if via else ""),
                                              "quality": round(q, 3)})
                for i in idx.bpostings.get(term, ()):
                    if i not in neg or q > neg[i][0]:
                        neg[i] = (q, {"term": term, "sentences": idx.tools[i].boundary_terms[term]})
        return pos, neg, sorted(named)

    # ---- moves ---------------------------------------------------------------------------
    def next_move(self, conversation: list[Turn], declarations: list[dict[str, Any]]) -> Move:
        """The next move: a call with an explanation, or a text answer (see the module docstring)."""
        _check_declarations(declarations)
        if not isinstance(conversation, list):
            raise RouterError("conversation must be a list of Turn")
        u = max((i for i, t in enumerate(conversation) if getattr(t, "role", None) == "user"), default=None)
        if u is None:
            raise RouterError("the conversation has no user question")
        question = conversation[u].text or ""
        episode = conversation[u + 1:]
        calls = [c for t in episode if t.role == "model" and t.move for c in t.move.calls]
        results = [r for t in episode if t.role == "tool" for r in t.results]
        call_no = 1 + sum(len(t.move.calls) for t in conversation if t.role == "model" and t.move)
        ko = korean.has_hangul(question)
        if episode and episode[-1].role == "tool" and results:
            return self._continue(question, declarations, calls, episode[-1].results, call_no, ko)
        return self._pick(question, declarations, call_no, ko)

    def _explanation(self, question: str, declarations: list[dict], step: str) -> dict[str, Any]:
        rows, words = self._score(question, declarations)
        return {"router": self.name, "step": step, "question": question, "threshold": self.threshold,
                "weights": asdict(self.weights), "words": words, "tools": rows, "chosen": None, "reason": ""}

    def _pick(self, question: str, declarations: list[dict], call_no: int, ko: bool) -> Move:
        exp = self._explanation(question, declarations, "pick")
        rows = exp["tools"]
        if not rows:
            exp["reason"] = "no tools declared"
            return Move(text=_no_tool_text(self.index(declarations), ko, exp), explanation=exp)
        eligible = [r for r in rows if r["score"] >= self.threshold]
        full = [r for r in eligible if not r["missing"]]
        # a tool the question's words fit, short of a required argument: its score plus the
        # missing penalty (what it would score with the argument) must reach the threshold
        # (not when the request itself -- a Korean predicate -- matched no declaration)
        fitting = [r for r in rows if r["missing"] and r["relevance"] > 0 and not r["unmatched_predicates"]
                   and r["score"] + r["missing_penalty"] >= self.threshold]
        id_only = bool(full) and full[0]["relevance"] + full[0]["pointer_bonus"] <= 0
        if id_only and fitting and fitting[0]["score"] + fitting[0]["missing_penalty"] > full[0]["score"]:
            # seed 001: an id in the question is a cue among the tools the question is about;
            # a tool that only an argument's shape supports yields to a tool the words fit
            exp["passed_over"] = {"tool": full[0]["name"], "why": "only an argument's shape supports it"}
            full = []
        if full:
            best = full[0]
            passed = [r["name"] for r in eligible if r["missing"] and r["score"] > best["score"]]
            exp["reason"] = f"{best['name']} has the highest score {best['score']} >= {self.threshold} with all required arguments"
            if passed:
                exp["reason"] += f"; passed over {passed} (missing required arguments)"
            return self._call(exp, best["name"], best["args"], call_no)
        if not fitting:
            best = rows[0]
            exp["reason"] = (f"no tool reaches the threshold {self.threshold} "
                             f"(best: {best['name']} {best['score']}), not even counting missing arguments")
            return Move(text=_no_tool_text(self.index(declarations), ko, exp), explanation=exp)
        best = fitting[0]
        feeder = self._feeder(best, rows, declarations)
        if feeder is not None:
            exp["reason"] = (f"{best['name']} fits best ({best['score']}) but lacks {best['missing']}; "
                             f"its description names {feeder['name']} as the step before, which can be filled: call it first")
            exp["prerequisite_for"] = best["name"]
            return self._call(exp, feeder["name"], feeder["args"], call_no)
        if self.ask_for_missing:
            exp["reason"] = f"{best['name']} fits best ({best['score']}) but lacks {best['missing']}: ask for it"
            exp["asks_for"] = {"tool": best["name"], "missing": best["missing"]}
            return Move(text=_ask_text(self.index(declarations), best, ko), explanation=exp)
        exp["reason"] = f"{best['name']} fits best ({best['score']}) though {best['missing']} are missing"
        return self._call(exp, best["name"], best["args"], call_no)

    def _feeder(self, best: dict, rows: list[dict], declarations: list[dict]) -> dict | None:
        idx = self.index(declarations)
        tool = next(t for t in idx.tools if t.name == best["name"])
        by_name = {r["name"]: r for r in rows}
        for name in tool.refers:
            r = by_name.get(name)
            if r and not r["missing"] and r["relevance"] > 0:
                return r
        return None

    def _call(self, exp: dict, name: str, args: dict, call_no: int) -> Move:
        exp["chosen"] = name
        call = FunctionCall(name=name, args=dict(args), id=f"call_{call_no}")
        return Move(calls=[call], explanation=exp)

    def _continue(self, question: str, declarations: list[dict], calls: list[FunctionCall],
                  last: list[ToolResult], call_no: int, ko: bool) -> Move:
        exp = self._explanation(question, declarations, "continue")
        rows = exp["tools"]
        done = {(c.name, _canon(c.args)) for c in calls}
        result = last[-1]
        if len(calls) < self.max_calls and result.ok and result.kind == "ok":
            chain = self._chain(rows, result, done)
            if chain is not None:
                r, arg, row_no, fld, value = chain
                args = {**{k: v for k, v in r["args"].items() if k != arg}, arg: value}
                exp["reason"] = (f"the question fits {r['name']} (relevance {r['relevance']}, name matched by "
                                 f"{r['name_hits']}) better than {result.name}; {arg} comes from row {row_no} "
                                 f"field {fld!r} of {result.call_id}")
                exp["chained_from"] = {"call_id": result.call_id, "tool": result.name, "row": row_no,
                                       "field": fld, "value": value, "arg": arg}
                return self._call(exp, r["name"], args, call_no)
        elif len(calls) >= self.max_calls:
            exp["cap"] = self.max_calls
        exp["reason"] = f"reply with a summary of {result.name}'s result ({result.kind})"
        return Move(text=summarize(last, ko), explanation=exp)

    def _chain(self, rows: list[dict], result: ToolResult, done: set):
        found = _rows_of(result.value)
        if not found:
            return None
        first = found[0]
        ids = [(k, v) for k, v in first.items() if _ID_FIELD_RE.search(k) and isinstance(v, (str, int))]
        if not ids:
            return None
        last = next((_intent(r) for r in rows if r["name"] == result.name), (0.0, 0))
        for r in rows:  # already sorted by score
            if r["name"] == result.name:
                continue
            for fld, value in ids:
                missing = [m for m in r["missing"] if m != fld]
                if fld not in r["missing"] and fld not in r["args"]:
                    continue
                if missing:
                    continue
                args = {**r["args"], fld: value}
                if (r["name"], _canon(args)) in done or _intent(r) <= last:
                    continue
                rescored = r["score"] + (self.weights.missing if fld in r["missing"] else 0) + self.weights.argument
                if rescored >= self.threshold:
                    return r, fld, 0, fld, value
        return None


def _adjacent(text: str, a: korean.Token, b: korean.Token) -> bool:
    """True when only spaces separate token ``a`` from the following token ``b``."""
    return text[a.end:b.start].strip() == ""


def _intent(row: dict) -> tuple[float, int]:
    """How well the question fits a tool, for chaining: relevance, then name hits (seed 002)."""
    return (round(row["relevance"], 3), len(row["name_hits"]))


def _canon(args: Any) -> str:
    return json.dumps(args, sort_keys=True, ensure_ascii=False, default=str)


def _check_declarations(declarations: Any) -> None:
    if not isinstance(declarations, list) or not all(
            isinstance(d, dict) and isinstance(d.get("name"), str) and d.get("name") for d in declarations):
        raise RouterError("declarations must be a list of {'name', 'description', 'parameters'} dicts")


def _rows_of(value: Any) -> list[dict]:
    """Rows of a result: a list of dicts, the first list-of-dicts inside a dict, or the dict."""
    if isinstance(value, list):
        return [v for v in value if isinstance(v, dict)]
    if isinstance(value, dict):
        for v in value.values():
            if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                return v
        return [value]
    return []


_ADVERBIAL = ("으로", "로", "에서", "에게", "까지", "부터")
_LABEL_CUT_RE = re.compile(r"[.(（,;:]|\s예시?\s*[:：)]|\be\.g\.|\bfor example\b", re.I)
_MAX_ADVERTISED = 6


def _sentence(summary: str) -> str:
    return re.sub(r"`+", "", summary or "").strip().rstrip(".。 ").strip()


def capability(summary: str) -> str:
    """A short phrase for what a tool does, from its first description sentence.

    Korean "…X를 Y한다": the object phrase (after the last adverbial word ending in 로/으로/
    에서/에게/까지/부터) plus the verb noun: "하루마켓 주문번호로 주문 내역과 진행 단계를
    조회한다" -> "주문 내역과 진행 단계 조회". Other sentences are kept as they are (English:
    first letter lower-cased unless it starts an acronym)."""
    text = _sentence(summary)
    words = text.split()
    if korean.has_hangul(text) and words and words[-1].endswith("한다") and len(words[-1]) > 2:
        verb = words[-1][:-2]
        j = next((i for i in range(len(words) - 2, -1, -1)
                  if len(words[i]) > 1 and words[i][-1] in "을를"), None)
        if j is None:
            return " ".join(words[:-1] + [verb]).strip()
        start = 0
        for i in range(j):
            if words[i].endswith(_ADVERBIAL):
                start = i + 1
        return " ".join(words[start:j] + [words[j][:-1], verb])
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        text = text[0].lower() + text[1:]
    return text


def _offer(summary: str, ko: bool) -> str:
    """The reply's first sentence when asking for a value: the tool's first description
    sentence as an offer ("…를 조회한다" -> "…를 조회해 드릴게요."), or a neutral one."""
    text = _sentence(summary)
    if ko:
        words = text.split()
        if words and words[-1].endswith("한다") and len(words[-1]) > 2:
            return " ".join(words[:-1] + [words[-1][:-2] + "해"]) + " 드릴게요."
        return "확인해 드릴게요."
    return "I can look into that."


def advertised(idx: DeclIndex, ko: bool) -> tuple[list[ToolIndex], list[dict[str, str]]]:
    """The tools a customer is told about, and ``[{"tool", "why"}]`` for the others: a demo
    (:data:`_DEMO_RE`: its description says it is not for real use) is never advertised, and
    when some tools are described in the question's language (Hangul or not) only those are
    (a Korean customer gets a Korean list)."""
    shown, hidden = [], []
    for t in idx.tools:
        if t.demo:
            hidden.append({"tool": t.name, "why": "its description says it is not for real use"})
        elif t.summary.strip():
            shown.append(t)
        else:
            hidden.append({"tool": t.name, "why": "no description"})
    same = [t for t in shown if korean.has_hangul(t.summary) == ko]
    if same and len(same) < len(shown):
        hidden += [{"tool": t.name, "why": "described in another language than the question"}
                   for t in shown if t not in same]
        shown = same
    return shown, hidden


def _capabilities_text(tools: list[ToolIndex], ko: bool) -> str:
    phrases = list(dict.fromkeys(capability(t.summary) for t in tools))
    phrases = [p for p in phrases if p]
    if not phrases:
        return ""
    more = len(phrases) > _MAX_ADVERTISED
    phrases = phrases[:_MAX_ADVERTISED]
    if ko:
        body = ", ".join(phrases) + (" 등" if more else "")
        return f"{body}{korean.object_particle(body)} 도와드릴 수 있어요."
    return "I can help with: " + "; ".join(phrases) + ("; and more." if more else ".")


_SMALL_TALK_REPLIES = {
    ("thanks", True): "천만에요! 더 도와드릴 일이 있으면 말씀해 주세요.",
    ("thanks", False): "You're welcome! Let me know if there is anything else I can help with.",
    ("bye", True): "이용해 주셔서 감사합니다. 좋은 하루 보내세요!",
    ("bye", False): "Thank you, goodbye!",
}


def _no_tool_text(idx: DeclIndex, ko: bool, exp: dict[str, Any] | None = None) -> str:
    """The customer-facing answer when no tool fits: a greeting for a greeting, thanks for
    thanks, else an apology; both with what the (advertised) tools can do, in words from
    their first description sentences. No tool names: those, the scores and what was not
    advertised go into ``exp`` (keys ``small_talk``, ``advertised``, ``not_advertised``)."""
    question = (exp or {}).get("question") or ""
    kind = korean.small_talk(question)
    tools, hidden = advertised(idx, ko)
    if exp is not None:
        exp.update(small_talk=kind, advertised=[t.name for t in tools], not_advertised=hidden)
    caps = _capabilities_text(tools, ko)
    if (kind, ko) in _SMALL_TALK_REPLIES:
        return _SMALL_TALK_REPLIES[(kind, ko)]
    if kind == "greeting":
        if ko:
            return "안녕하세요! " + (caps + " " if caps else "") + "무엇을 도와드릴까요?"
        return "Hello! " + (caps + " " if caps else "") + "What can I do for you?"
    if ko:
        head = "죄송합니다. 그 문의는 제가 도와드리기 어려워요."
        return head + (" " + caps if caps else "")
    head = "Sorry, I can't help with that."
    return head + (" " + caps if caps else "")


def _label(spec: argfill.ParamSpec) -> str:
    """What to call a parameter to a customer: the head of its description ("도시 이름(영문
    소문자). 예: seoul" -> "도시 이름"), else its name with spaces ("order id")."""
    head = _LABEL_CUT_RE.split(spec.doc or "", maxsplit=1)[0].strip()
    if not head or len(head) > 40:
        head = " ".join(korean.split_identifier(spec.name)) or spec.name
    return head


def _hint(spec: argfill.ParamSpec, ko: bool) -> str:
    if spec.enum:
        values = ", ".join(say(v, ko) for v in spec.enum[:6])
        return f" ({values} 중 하나)" if ko else f" (one of: {values})"
    if spec.examples:
        return f" (예: {spec.examples[0]})" if ko else f" (e.g. {spec.examples[0]})"
    return ""


def _ask_text(idx: DeclIndex, best: dict, ko: bool) -> str:
    """Ask the customer for the missing values in their words: an offer from the tool's first
    description sentence, then each value's label and an example (no tool or argument
    names; those are in the explanation's ``asks_for``)."""
    tool = next(t for t in idx.tools if t.name == best["name"])
    specs = {s.name: s for s in tool.specs}
    wanted = [specs[m] if m in specs else argfill.ParamSpec(m, (), True) for m in best["missing"]]
    if ko:
        asks = ", ".join(_label(s) + _hint(s, ko) for s in wanted)
        last = _label(wanted[-1])
        particle = korean.object_particle(last)
        if _hint(wanted[-1], ko):
            # the particle goes after the label, before the hint: "도시 이름을 (예: seoul)" reads
            # badly, so put the hints at the end
            asks = ", ".join(_label(s) for s in wanted)
            hints = " ".join(h for h in (_hint(s, ko).strip() for s in wanted) if h)
            return f"{_offer(tool.summary, ko)} {asks}{particle} 알려 주세요 {hints}."
        return f"{_offer(tool.summary, ko)} {asks}{particle} 알려 주세요."
    asks = ", ".join(f"the {_label(s)}{_hint(s, ko)}" for s in wanted)
    return f"{_offer(tool.summary, ko)} Please tell me {asks}."


def say(value: Any, ko: bool, limit: int = 120) -> str:
    """``value`` as a reader sees it in a reply, never a Python repr: ``True``/``False`` ->
    예/아니오 (Korean) or yes/no, ``None`` -> 없음/none, strings as they are, numbers, lists
    and dicts as compact JSON (``ensure_ascii=False``, Korean kept), cut to ``limit``
    characters with "…". Used by the router's and the loop's reply text."""
    if isinstance(value, bool):
        return ("예" if value else "아니오") if ko else ("yes" if value else "no")
    if value is None:
        return "없음" if ko else "none"
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str)
        except (TypeError, ValueError):
            text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _facts(d: dict, ko: bool, limit: int = 8) -> str:
    parts = []
    for k, v in d.items():
        if k in {"found", "message", "note"} or isinstance(v, (dict, list)) and not v:
            continue
        parts.append(f"{k}: {say(v, ko, 80)}")
        if len(parts) >= limit:
            break
    return ", ".join(parts)


def summarize(results: list[ToolResult], ko: bool) -> str:
    """A text reply stating the key facts of ``results`` (never inventing any): errors say what
    failed, empty / ``found: False`` say nothing was found (with the tool's own message or note)."""
    out = []
    for r in results:
        v = r.value
        if not r.ok:
            extra = (" 잠시 후 다시 시도해 주세요." if ko else " Please try again later.") if r.kind == "transient" else ""
            out.append((f"{r.name} 호출이 실패했습니다 ({r.kind}): {r.error}." if ko
                        else f"{r.name} failed ({r.kind}): {r.error}.") + extra)
            continue
        rows = _rows_of(v) if isinstance(v, (list, dict)) else []
        listy = isinstance(v, list) or (isinstance(v, dict) and any(isinstance(x, list) and (not x or isinstance(x[0], dict)) for x in v.values()))
        note = v.get("message") or v.get("note") if isinstance(v, dict) else None
        note = say(note, ko, 200) if note else None
        empty = r.kind == "empty" or (isinstance(v, dict) and v.get("found") is False) or (listy and not rows) or v in (None, [], {})
        if empty:
            head = f"{r.name}: 조회 결과 찾을 수 없습니다." if ko else f"{r.name}: nothing was found."
            out.append(head + (f" {note}" if note else ""))
            continue
        if listy:
            shown = "; ".join(_facts(row, ko, 4) for row in rows[:3])
            head = f"{r.name} 결과 {len(rows)}건: " if ko else f"{r.name} found {len(rows)}: "
            out.append(head + shown + (f" ({note})" if note else ""))
        elif isinstance(v, dict):
            facts = _facts(v, ko)
            out.append(f"{r.name} 결과 — " + facts + (f". {note}" if note else "") if ko
                       else f"{r.name} result — " + facts + (f". {note}" if note else ""))
        else:
            out.append(f"{r.name} 결과: {say(v, ko)}" if ko else f"{r.name} result: {say(v, ko)}")
    return "\n".join(out)
