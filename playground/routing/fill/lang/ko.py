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

#: Korean nouns have no plural forms.
IRREGULAR_PLURALS: dict[str, str] = {}
