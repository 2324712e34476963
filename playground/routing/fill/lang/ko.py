"""Korean words of the argument rules (data only; see :mod:`playground.routing.fill.lang`)."""

#: Parameter-name words for the start of a range or a route (출발지, 원본).
SOURCE_WORDS = frozenset(["출발", "출발지", "원본", "시작", "출처"])
#: Parameter-name words for the end of a range or a route (도착지, 대상).
TARGET_WORDS = frozenset(["도착", "도착지", "대상", "목적지", "종료"])
#: ``(before X, between X and Y, after Y)``: "X에서 Y로", "X에서 Y으로", "X부터 Y까지".
PAIR_CUES = (
    (r"", r"\s*에서\s+", r"^\s*(?:으로|로)(?![가-힣])|^\s*(?:으로|로)\s"),
    (r"", r"\s*부터\s+", r"^\s*까지"),
)

#: The beginnings of Korean request words of each kind of action (rule ``action_kind``; see
#: :data:`playground.routing.fill.lang.en.ACTION_WORDS`): "만들어줘", "삭제해줘", "바꿔줘",
#: "검색해줘".
ACTION_WORDS = {
    "create": ["만들", "생성", "추가", "등록"],
    "delete": ["삭제", "지워", "지우", "제거", "취소"],
    "update": ["수정", "변경", "바꿔", "바꾸", "갱신"],
    "read": ["조회", "검색", "찾아", "보여", "알려", "확인"],
}

#: (Korean writes a bound after its value; see :mod:`.en` for before.)
BOUND_BEFORE: frozenset[str] = frozenset()
#: Words that bound the value written right before them ("40분 이내", "3개 이상"): part of that
#: value's phrase, never of a search text (rule ``free_text``); stems.
BOUND_AFTER = frozenset(["이내", "이하", "이상", "미만", "초과", "까지", "부터", "정도", "쯤"])

#: (Korean request words are read wherever they stand; see :mod:`.en`.)
REQUEST_LEADS: frozenset[str] = frozenset()

#: Korean nouns have no plural forms.
IRREGULAR_PLURALS: dict[str, str] = {}
#: Korean has no articles: no head word is read (rule ``head_word_unsaid``).
HEAD_OPENERS: frozenset[str] = frozenset()
#: Ordinal words (Korean ordinals are read by the number rules; none is a head word here).
ORDINAL_WORDS: frozenset[str] = frozenset()
#: A clause opening like this states the asker's context ("저는 부산에 있어요."): no call.
STATEMENT_OPENERS = (r"(?:저는|나는|전|난)\s+\S+에\s*(?:있|살)",)
