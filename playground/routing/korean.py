"""Tokenising and sub-word matching for the offline router (Korean and English).

Korean attaches particles and endings to words (텀블러를, 주문한, 배송은, 재고가), so whole-word
equality is not enough. The rules here are deliberately small, deterministic and documented:

* :func:`tokenize` splits text into Hangul runs, runs of letters and digits of the alphabetic
  scripts (``HR20260601``, ``Käärijä``, ``Москва``; ``P013으로`` -> ``P013`` + ``으로``; ``_``
  separates) and runs of Thai or of Han and kana (``红星科技``: a phrase, matched by substring
  like a Hangul compound), keeping character offsets; ``snake_case``/``camelCase``
  identifiers are split by :func:`split_identifier`.
* :func:`stem` strips one or two particles/endings from a Hangul word (longest suffix first,
  from :data:`ENDINGS`), keeping at least one syllable (two for a one-syllable suffix such as
  이/가/도, so 나이 stays 나이); for English it lowercases and drops a plural ``s``/``es``/``ies``
  and ``-ing``/``-ed`` (``tracking`` -> ``track``).
* One-syllable endings (이/가/도/한/해/나 ...) are stripped only from words of at least three
  syllables (나이, 이해 stay), except the past-tense adnominal 던 after a syllable ending in ㅆ
  (샀던 -> 샀, 봤던 -> 봤). A filler with the polite 요 (좀요) is a stopword.
* Word-class hints for the router's word weights: :func:`is_modifier` (adnominal 주문한),
  :func:`is_background` (connective -는데: 주문했는데), :func:`is_nominal` (bare noun, noun +
  particle or copula), :data:`SUBJECT_PARTICLES` (이/가/은/는).
* :func:`match_quality` compares two stems: exact 1.0, one a prefix of the other 0.7
  (주문 ~ 주문번호, 배송 ~ 배송비), one contained in the other 0.5 (the shorter side must have at
  least 2 Hangul syllables or 4 ASCII letters; digits never match partially).
* :func:`root` gives an English word's Snowball (Porter2) root through PyStemmer, and
  :func:`root_quality` matches two words by it (same root 0.85: execution ~ executes; a root of
  at least 5 letters beginning the other 0.7: multiplication ~ multiplies); :func:`is_generic`
  tells a generic verb (:data:`GENERIC_VERBS`) by its root too (calculating, calculation).
* :func:`translations` looks a stem up in a user's synonyms (issue 12: no domain vocabulary in
  library code; what the router knows about a domain comes from the declarations and the
  optional ``synonyms.json`` beside the user's tools, :mod:`playground.routing.synonyms`).

Stopwords are ignored everywhere, :data:`META_WORDS` in declarations only; :data:`QUESTION_WORDS` (어디, 언제, 얼마, where, when) count for
intent but are never part of a free-text argument value. Nothing here is mutable at module level.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

#: Scripts written without spaces between words besides Hangul: Thai, and kana with Han.
_THAI = "\u0e00-\u0e7f"
_KANA_HAN = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: A word: a Hangul run; a run of ASCII letters and digits with the letters of other alphabetic
#: scripts (Käärijä, Zürich, Москва, Αθήνα); or a run of one script written without spaces
#: (上海, 红星科技, รีดผ้า: such a run is a phrase, matched by substring like Hangul compounds).
_TOKEN_RE = re.compile(
    rf"[가-힣]+|(?:[A-Za-z0-9]|[^\W\d_가-힣{_THAI}{_KANA_HAN}])+|[{_THAI}]+|[{_KANA_HAN}]+"
)
_HANGUL_RE = re.compile(r"[가-힣]")
_DENSE_RE = re.compile(rf"[가-힣{_THAI}{_KANA_HAN}]")
_CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

#: Particles and endings stripped from the end of a Hangul word, tried longest first.
ENDINGS: tuple[str, ...] = tuple(
    sorted(
        {
            "이에요",
            "예요",
            "이에여",
            "입니다",
            "습니다",
            "니다",
            "인가요",
            "인가",
            "인지",
            "인데",
            "나요",
            "은데",
            "까요",
            "을까요",
            "할까요",
            "해요",
            "했어요",
            "했는데",
            "했는지",
            "했던",
            "하는",
            "하려면",
            "하면",
            "한다",
            "하다",
            "하지",
            "하고",
            "해서",
            "해주",
            "되나요",
            "돼요",
            "되요",
            "된다",
            "됐나요",
            "됐는지",
            "됐어요",
            "라고",
            "이라고",
            "는지",
            "는데",
            "던",
            "이다",
            "이며",
            "에서",
            "에게",
            "에는",
            "에도",
            "으로",
            "로는",
            "부터",
            "까지",
            "이나",
            "처럼",
            "보다",
            "이랑",
            "랑",
            "은요",
            "는요",
            "이요",
            "요",
            "은",
            "는",
            "이",
            "가",
            "을",
            "를",
            "의",
            "에",
            "도",
            "와",
            "과",
            "로",
            "만",
            "한",
            "할",
            "된",
            "서",
            "해",
            "나",
        },
        key=lambda s: (-len(s), s),
    )
)

#: One-syllable endings that need a stem of at least two syllables (나이 stays 나이).
_SHORT_GUARDED = frozenset(
    {
        "이",
        "가",
        "의",
        "에",
        "도",
        "와",
        "과",
        "로",
        "만",
        "한",
        "할",
        "된",
        "서",
        "요",
        "던",
        "해",
        "나",
    }
)
#: Adnominal (modifier) endings: 주문한 거 = "the thing I ordered"; the word describes the
#: thing asked about rather than the request (see :func:`is_modifier`).
_ADNOMINAL = frozenset({"한", "할", "된", "하는", "했던", "던"})

STOPWORDS: frozenset[str] = frozenset(
    {
        # Korean particles standing alone, fillers, pronouns, light verbs, politeness
        "이",
        "가",
        "은",
        "는",
        "을",
        "를",
        "의",
        "에",
        "도",
        "와",
        "과",
        "로",
        "으로",
        "만",
        "요",
        "거",
        "것",
        "게",
        "걸",
        "좀",
        "이거",
        "그거",
        "저거",
        "제",
        "저",
        "내",
        "나",
        "우리",
        "저희",
        "그",
        "더",
        "수",
        "때",
        "등",
        "및",
        "또는",
        "그리고",
        "혹시",
        "지금",
        "이미",
        "먼저",
        "뒤",
        "있",
        "있어",
        "있어요",
        "있나",
        "없",
        "없어",
        "알려",
        "알려주",
        "알려주세",
        "주세",
        "주세요",
        "부탁",
        "부탁드려",
        "부탁드립",
        "해주",
        "해",
        "하",
        "했",
        "됐",
        "되",
        "돼",
        "되나",
        "하나",
        "안녕",
        "안녕하세",
        "감사",
        "감사합",
        "고맙",
        "네",
        "예",
        "아니",
        "싶",
        "싶어",
        "싶어요",
        "알고",
        "잘",
        "안",
        "못",
        "주실",
        "주",
        "달라",
        "뭐였는지",
        "않",
        "않는",
        "않는다",
        # asking verbs in the casual form (날씨 알려줘, 목록 보여줘): the request, not its topic
        "줘",
        "알려줘",
        "알려줄래",
        "알려줄",
        "보여줘",
        "보여주",
        "보여주세",
        "말해줘",
        "말해주",
        "해줘",
        # the act of asking, not its topic (재고 문의요, 소재가 궁금해요)
        "문의",
        "질문",
        "궁금",
        "말고",
        # English
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "am",
        "do",
        "does",
        "did",
        "i",
        "me",
        "my",
        "you",
        "your",
        "we",
        "our",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "if",
        "then",
        "can",
        "could",
        "would",
        "will",
        "should",
        "may",
        "please",
        "verbatim",  # says how a value is given ("the following words verbatim: ..."), no value
        "thank",
        "thanks",
        "all",
        "hello",
        "hi",
        "not",
        "don",
        "t",
        "s",
        "right",
        "now",
        "just",
        "about",
        "any",
        "some",
        "have",
        "has",
        "had",
        "get",
        "there",
        "e",
        "g",
        "eg",
        "example",
        "arg",
        "args",
        "return",
        "returns",
        "none",
        "null",
        # English function words and asking verbs: they say how a question is put, not what it
        # is about ("using", "given", "as", "how many", "I want", "help me")
        "as",
        "using",
        "given",
        "based",
        "also",
        "other",
        "into",
        "than",
        "each",
        "both",
        "such",
        "so",
        "here",
        "more",
        "most",
        "want",
        "need",
        "help",
        "like",
        "let",
        "how",
        "which",
        "what",
        "who",
        "whom",
        "whose",
        "why",
        "provide",
        "tell",
        "give",
        "show",
        "following",
        # fillers of descriptions and questions: they qualify a noun, never name a topic
        # ("for a specified city", "five specific jobs", "the salaries respectively")
        "specific",
        "specified",
        "specifi",  # specified, as stem() leaves it
        "specify",
        "particular",
        "certain",
        "respective",
        "respectively",
    }
)

#: English verbs that say what a tool does to anything (calculate, get, find, retrieve): in a
#: name or description they tell little about which tool is meant (seed 002: a name is a verb
#: plus a concrete object; the object decides). Stems, as :func:`stem` gives them.
GENERIC_VERBS: frozenset[str] = frozenset(
    stem_word
    for stem_word in [
        "calculate",
        "calc",
        "compute",
        "determine",
        "estimate",
        "evaluate",
        "get",
        "fetch",
        "retrieve",
        "find",
        "search",
        "look",
        "lookup",
        "check",
        "list",
        "create",
        "make",
        "generate",
        "set",
        "update",
        "add",
        "delete",
        "remove",
        "run",
        "execute",
        "perform",
        "process",
        "handle",
        "manage",
        "display",
        "return",
        "analyze",
        "predict",
        "convert",
        "identify",
        "obtain",
        "query",
        "request",
    ]
)


#: Words that describe how to use a tool rather than what it is about ("…문의에 사용한다",
#: "track_shipping을 쓴다"). Ignored in declarations only: in a question "쓰나요" (write) is
#: a real request word.
META_WORDS: frozenset[str] = frozenset(
    {
        "사용",
        "쓰",
        "쓸",
        "쓴다",
        "쓰지",
        "대신",
        "여기",
        "그쪽",
        "도구",
        "함수",
        "경우",
        "문의",
        "묻는",
        "묻",
        "함께",
        "온다",
        "부른다",
        "찾는다",
        "찾은",
        "결과",
        "최대",
        "건",
        "이",
        "뒤",
        "use",
        "used",
        "tool",
        "function",
        "instead",
    }
)

#: Interrogatives: they carry intent (어디쯤 -> tracking) but are never an argument value.
QUESTION_WORDS: frozenset[str] = frozenset(
    {
        "어디",
        "어디쯤",
        "어디에",
        "어디서",
        "언제",
        "얼마",
        "얼마나",
        "몇",
        "무슨",
        "무엇",
        "뭐",
        "어떤",
        "어느",
        "어떻게",
        "왜",
        "누구",
        "누가",
        "어때",
        "where",
        "when",
        "what",
        "which",
        "how",
        "much",
        "many",
        "why",
        "who",
    }
)


#: Words naming a day or a month (stems): when something is asked for, a value, never what
#: the question is about ("the forecast for Alameda on the upcoming Wednesday, today is
#: Monday": forecast is the topic).
CALENDAR_WORDS: frozenset[str] = frozenset(
    {
        "today",
        "tomorrow",
        "yesterday",
        "tonight",
        "weekend",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "오늘",
        "내일",
        "모레",
        "어제",
        "그제",
        "주말",
        "월요일",
        "화요일",
        "수요일",
        "목요일",
        "금요일",
        "토요일",
        "일요일",
    }
)


class Token(NamedTuple):
    """One word of a text: ``surface`` as written, ``stem`` (see :func:`stem`), offsets
    ``start``/``end`` into the NFC-normalised text, and the stripped ``ending`` ('' if none)."""

    surface: str
    stem: str
    start: int
    end: int
    ending: str


def normalize(text: str) -> str:
    """NFC-normalise ``text`` (decomposed Hangul jamo become syllables)."""
    return unicodedata.normalize("NFC", text or "")


def has_hangul(text: str) -> bool:
    """True when ``text`` contains at least one Hangul syllable."""
    return bool(_HANGUL_RE.search(text or ""))


_LATIN_RE = re.compile(r"[A-Za-z]")


def written_in_korean(text: str) -> bool:
    """Whether ``text`` is written in Korean, the language a reply to it should use: its Hangul
    syllables are at least as many as its Latin letters. ``"HR20260604 택배 어디쯤인가요?"`` is;
    ``"Search the knowledge graph for 김민지"`` (an English question holding a Korean name) is
    not."""
    hangul = len(_HANGUL_RE.findall(text or ""))
    return hangul > 0 and hangul >= len(_LATIN_RE.findall(text or ""))


def split_identifier(name: str) -> list[str]:
    """``track_shipping`` -> ``['track', 'shipping']``; ``getOrderStatus`` -> ``['get', 'order',
    'status']``; lowercased, empty parts dropped; a new list each call."""
    return list(_identifier_parts(name or ""))


@functools.lru_cache(maxsize=4096)  # issue 23: each filled tool's names, on every question
def _identifier_parts(name: str) -> tuple[str, ...]:
    """:func:`split_identifier`'s parts of ``name``, kept for the last 4096 names."""
    parts: list[str] = []
    for chunk in re.split(r"[_\W]+", name):
        parts.extend(p.lower() for p in _CAMEL_RE.findall(chunk))
    return tuple(p for p in parts if p)


_ENDING_SET = frozenset(ENDINGS)
_MAX_ENDING = max(len(e) for e in ENDINGS)


#: Endings that join a clause to the next one as its background ("텀블러 주문했는데 배송 조회
#:좀요": the request is the second clause); see :func:`is_background`.
_CONNECTIVE = frozenset({"는데", "은데", "인데", "했는데"})
#: Particles that follow a noun (a word ending in one of these, or in none, is nominal).
NOUN_PARTICLES: frozenset[str] = frozenset(
    {
        "이",
        "가",
        "은",
        "는",
        "을",
        "를",
        "의",
        "에",
        "도",
        "와",
        "과",
        "로",
        "으로",
        "만",
        "에서",
        "에게",
        "에는",
        "에도",
        "로는",
        "부터",
        "까지",
        "이나",
        "나",
        "처럼",
        "보다",
        "이랑",
        "랑",
        "은요",
        "는요",
    }
)
#: The copula after a noun (텀블러예요, 어디쯤이에요): the word stays a noun.
_COPULA = frozenset(
    {"이에요", "예요", "이에여", "입니다", "인가요", "인가", "이다", "인지", "이요"}
)
#: Particles marking the subject or topic: in "소재가 뭐예요" the subject is what is asked.
SUBJECT_PARTICLES: frozenset[str] = frozenset({"이", "가", "은", "는", "은요", "는요"})


def _past_tense(syllable: str) -> bool:
    """True for a Hangul syllable whose final consonant is ㅆ (the past-tense 았/었: 샀, 봤, 했)."""
    code = ord(syllable) - 0xAC00
    return 0 <= code < 11172 and code % 28 == 20


def _strip_once(word: str) -> tuple[str, str]:
    for n in range(min(_MAX_ENDING, len(word) - 1), 0, -1):  # longest suffix first
        ending = word[-n:]
        if ending not in _ENDING_SET:
            continue
        short = ending in _SHORT_GUARDED and len(word) - n < 2
        # 샀던 / 봤던: the past-tense adnominal 던 after one syllable carrying ㅆ
        if not short or (ending == "던" and _past_tense(word[-n - 1])):
            return word[:-n], ending
    return word, ""


def stem_with_ending(word: str) -> tuple[str, str]:
    """``(stem, first ending stripped)``: up to two passes for Hangul (배송은요 -> 배송), light
    English stemming for ASCII words (lowercased), digits and IDs lowercased as they are."""
    if has_hangul(word):
        first, ending = _strip_once(word)
        if ending:
            second, more = _strip_once(first)
            if more:
                return second, more + ending
        return first, ending
    w = word.lower()
    if w in _SAME_IN_PLURAL:
        return w, ""
    if w.isalpha() and len(w) > 4:
        if w.endswith("ies"):
            return w[:-3] + "y", "ies"
        if w.endswith("ing") and len(w) > 5:
            base = w[:-3]
            if len(base) > 3 and base[-1] == base[-2] and base[-1] not in "aeiouls":
                base = base[:-1]  # shipping -> ship
            return base, "ing"
        if w.endswith("ed") and len(w) > 5:
            return w[:-2], "ed"
    if w.isalpha() and len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1], "s"
    return w, ""


#: English nouns ending in -s that are not a plural of the word without it ("news" is not
#: "new"s, "series" not "sery"s): they are their own stem.
_SAME_IN_PLURAL = frozenset(
    ["news", "series", "species", "means", "lens", "diabetes", "measles", "headquarters"]
)


def stem(word: str) -> str:
    """The matching form of ``word`` (see :func:`stem_with_ending`)."""
    return stem_with_ending(word)[0]


_STEMMERS = threading.local()  # PyStemmer's objects are not thread-safe: one per thread


@functools.lru_cache(maxsize=65536)
def root(word: str) -> str:
    """The Snowball (Porter2) English stem of a lowercase ASCII word, via PyStemmer, the
    Snowball project's own binding: ``multiplication`` -> ``multipl``, ``multiplies`` ->
    ``multipli``, ``execution``/``executes`` -> ``execut``. Coarser than :func:`stem` (which
    keeps words readable for values and replies); the router matches on it only when the stems
    differ (:func:`root_quality`). Any other word (Hangul, digits, mixed) is returned as it is."""
    if not (word.isascii() and word.isalpha()) or len(word) < 3:
        return word
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        import Stemmer

        stemmer = _STEMMERS.english = Stemmer.Stemmer("english")
    return str(stemmer.stemWord(word))


_GENERIC_ROOTS = frozenset(root(v) for v in GENERIC_VERBS)


def is_generic(word: str) -> bool:
    """True when the English stem ``word`` is one of :data:`GENERIC_VERBS` or shares its
    Snowball root with one (calculating, calculation ~ calculate; execution ~ execute)."""
    return word in GENERIC_VERBS or root(word) in _GENERIC_ROOTS


#: Shortest Snowball root that may match as the beginning of another (multipl ~ multipli).
MIN_ROOT_PREFIX = 5


def root_quality(a: str, b: str) -> tuple[float, str]:
    """How well English stems ``a`` and ``b`` match by their Snowball roots (:func:`root`):
    ``(0.85, 'root')`` for the same root (execution ~ executes), ``(0.7, 'root prefix')``
    when one root of at least :data:`MIN_ROOT_PREFIX` letters begins the other
    (multiplication ~ multiply), ``(0.0, '')`` otherwise or for non-English words."""
    if not (a.isascii() and a.isalpha() and b.isascii() and b.isalpha()):
        return 0.0, ""
    ra, rb = root(a), root(b)
    if ra == rb:
        return 0.85, "root"
    short, long_ = (ra, rb) if len(ra) <= len(rb) else (rb, ra)
    if len(short) >= MIN_ROOT_PREFIX and long_.startswith(short):
        return 0.7, "root prefix"
    return 0.0, ""


def is_modifier(token: Token) -> bool:
    """True when the Hangul word ends in an adnominal ending (주문한, 주문할): it modifies the
    following noun, so it says what is asked about, not what is asked."""
    return any(token.ending.endswith(e) for e in _ADNOMINAL)


def tokenize(text: str) -> list[Token]:
    """All words of ``text`` in order, with stems and offsets (NFC-normalised first); a new
    list each call (the tokens themselves are immutable and shared)."""
    return list(_tokens(text))


#: Texts whose tokens :func:`_tokens` keeps (issue 23: one question was tokenized again by each
#: rule of each filled tool, ~19 times a question at 300 tools).
TOKENIZED_TEXTS = 1024


@functools.lru_cache(maxsize=TOKENIZED_TEXTS)
def _tokens(text: str) -> tuple[Token, ...]:
    """:func:`tokenize`'s words of ``text``, kept for the last :data:`TOKENIZED_TEXTS` texts."""
    text = normalize(text)
    tokens = []
    for m in _TOKEN_RE.finditer(text):
        s, ending = stem_with_ending(m.group())
        tokens.append(Token(m.group(), s, m.start(), m.end(), ending))
    return tuple(tokens)


def is_stopword(s: str) -> bool:
    """True for a stem that carries no meaning for routing (particles, fillers, 'the'), also
    with the polite 요 attached to a filler (좀요)."""
    if s.endswith("요") and len(s) > 1 and s[:-1] in STOPWORDS:
        return True
    # a bare number is a value, never a word that says which tool is meant
    return (
        s in STOPWORDS
        or len(s) == 0
        or (len(s) == 1 and s.isascii() and s.isalpha())
        or (s.isascii() and s.isdigit())
        or s in _NUMBER_WORDS
    )


#: English number words: values, like digits (values.py reads them as numbers).
_NUMBER_WORDS = frozenset(
    [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "twenty",
        "hundred",
        "thousand",
        "million",
        "billion",
        "dozen",
    ]
)


def is_background(token: Token) -> bool:
    """True when the Hangul word ends a background clause (주문했는데, 단계인데): the request
    is in the clause that follows."""
    return any(token.ending.endswith(e) for e in _CONNECTIVE)


def is_nominal(token: Token) -> bool:
    """True for a Hangul word that is a bare noun, a noun with a particle or with the copula
    (배송, 상품이, 단계만, 텀블러예요), not a verb form (주문한, 조회해, 남기나요)."""
    return has_hangul(token.surface) and (
        token.ending == "" or token.ending in NOUN_PARTICLES or token.ending in _COPULA
    )


def is_content(s: str) -> bool:
    """True for a stem worth matching: not a stopword."""
    return not is_stopword(s)


def _min_partial(a: str) -> int:
    return 2 if _dense(a) else 4


def _dense(text: str) -> bool:
    """True when ``text`` has a character of a script written without spaces between words
    (Hangul, Thai, kana, Han): its runs are compounds or phrases, matched by substring."""
    return bool(_DENSE_RE.search(text))


@functools.lru_cache(maxsize=65536)  # issue 23: the same pairs on every question
def match_quality(a: str, b: str) -> tuple[float, str]:
    """How well stem ``a`` matches stem ``b``: ``(1.0, 'exact')``, ``(0.7, 'prefix')``,
    ``(0.5, 'substring')`` or ``(0.0, '')``. Partial matches need the shorter stem to have at
    least 2 Hangul syllables or 4 ASCII letters and never apply to words with digits; a
    substring match is for Hangul only (English words inside other words are other words:
    rate/integrate, term/determine)."""
    if a == b:
        return 1.0, "exact"
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) < _min_partial(short) or any(ch.isdigit() for ch in short + long_):
        return 0.0, ""
    if has_hangul(short) != has_hangul(long_) or _dense(short) != _dense(long_):
        return 0.0, ""
    if long_.startswith(short):
        return 0.7, "prefix"
    if short in long_ and _dense(short):  # Korean compounds (배송비 in 일반배송비); an
        return 0.5, "substring"  # English word inside another is another word (rate/integrate)
    return 0.0, ""


def translations(s: str, synonyms: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Words ``synonyms`` (a user's synonyms file, see :mod:`playground.routing.synonyms`) gives
    for stem ``s``, in both directions, sorted; ``()`` when there are none. An English word
    also finds the entries of its other forms by their Snowball root (:func:`root`): the file's
    ``"arrange": ["sort"]`` serves "arranged" and "arranging" too."""
    if not synonyms:
        return ()
    r = root(s) if s.isascii() and s.isalpha() else None
    out = set(synonyms.get(s, ()))
    for key, values in synonyms.items():
        if s in values or (r and any(root(v) == r for v in values)):
            out.add(key)
        if r and key != s and root(key) == r:
            out.update(values)
    out.discard(s)
    return tuple(sorted(out))


def bigrams(s: str) -> tuple[str, ...]:
    """Character bigrams of ``s`` (the whole string when shorter than 2)."""
    return tuple(s[i : i + 2] for i in range(len(s) - 1)) or (s,)


#: Small talk (Korean and English), by kind. A question is small talk when every word is one
#: of these or a stopword (:func:`small_talk`); the router then answers in kind instead of
#: apologising. Words are compared by surface (lowercased) and by stem.
SMALL_TALK: MappingProxyType[str, frozenset[str]] = MappingProxyType(
    {
        "thanks": frozenset(
            {
                "감사",
                "감사합",
                "감사합니다",
                "감사해요",
                "감사드려요",
                "감사드립니다",
                "고맙",
                "고마워",
                "고마워요",
                "고맙습니다",
                "땡큐",
                "thank",
                "thanks",
                "thx",
                "appreciate",
                "appreciated",
            }
        ),
        "bye": frozenset(
            {
                "안녕히",
                "계세요",
                "가세요",
                "수고하세",
                "수고하세요",
                "수고",
                "bye",
                "goodbye",
                "later",
                "see",
                "ya",
                "care",
                "take",
            }
        ),
        "greeting": frozenset(
            {
                "안녕",
                "안녕하세",
                "안녕하세요",
                "안녕하십니까",
                "반가워",
                "반가워요",
                "반갑",
                "반갑습니다",
                "하이",
                "헬로",
                "여보세요",
                "hello",
                "hi",
                "hey",
                "hiya",
                "greetings",
                "good",
                "morning",
                "afternoon",
                "evening",
                "yo",
            }
        ),
    }
)


def small_talk(text: str) -> str | None:
    """``"thanks"``, ``"bye"`` or ``"greeting"`` when ``text`` is only small talk ("안녕하세요",
    "Thank you, that's all!", "안녕히 계세요"), else ``None``. Every word must be a small-talk
    word or a stopword, and at least one a small-talk word; the first kind found in the order
    thanks, bye, greeting wins ("thanks, bye" is thanks)."""
    kinds: set[str] = set()
    tokens = tokenize(text)
    for tok in tokens:
        forms = {tok.surface.lower(), tok.stem}
        hit = [kind for kind, words in SMALL_TALK.items() if forms & words]
        if hit:
            kinds.update(hit)
        elif not any(is_stopword(f) for f in forms):
            return None
    for kind in ("thanks", "bye", "greeting"):
        if kind in kinds:
            return kind
    return None


#: Latin letters and digits whose Korean reading ends in a consonant (엘, 엠, 엔, 알; 영, 일,
#: 삼, 육, 칠, 팔): 상품ID를, SKU를, HTML을, 3을.
_CONSONANT_FINAL = frozenset("lmnrLMNR013678")


def particle(word: str, after_consonant: str, after_vowel: str) -> str:
    """The particle form for ``word``: ``after_consonant`` (을, 은, 으로) after a final
    consonant, ``after_vowel`` (를, 는, 로) after a vowel. A Hangul syllable decides by its
    final consonant; a Latin letter or digit by its Korean reading (ID -> 아이디를, 5 -> 오는);
    anything else gets both ("을(를)")."""
    last = (word or "").rstrip()[-1:]
    if last and has_hangul(last):
        return after_consonant if (ord(last) - 0xAC00) % 28 else after_vowel
    if last and last.isascii() and last.isalnum():
        return after_consonant if last in _CONSONANT_FINAL else after_vowel
    return f"{after_consonant}({after_vowel})"


def object_particle(word: str) -> str:
    """을 or 를 for ``word`` (see :func:`particle`)."""
    return particle(word, "을", "를")
