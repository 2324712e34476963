"""English words of the argument rules (data only; see :mod:`playground.routing.fill.lang`)."""

#: Parameter-name words for the start of a range or a route (``source_timezone``, ``from_date``).
SOURCE_WORDS = frozenset(
    [
        "start",
        "origin",
        "from",
        "source",
        "src",
        "departure",
        "depart",
        "initial",
        "begin",
        "min",
        "lower",
        "first",
        "since",
    ]
)
#: Parameter-name words for the end of a range or a route (``target_timezone``, ``to_date``).
TARGET_WORDS = frozenset(
    [
        "end",
        "destination",
        "dest",
        "dst",
        "to",
        "target",
        "arrival",
        "arrive",
        "final",
        "finish",
        "max",
        "upper",
        "second",
        "until",
    ]
)
#: ``(before X, between X and Y, after Y)``: "from X to Y", "from X into Y".
PAIR_CUES = ((r"\bfrom\s+(?:the\s+)?$", r"\s+(?:to|into)\s+(?:the\s+)?", r""),)

#: Plurals that do not end in -s, to their singular ("two adults and one child" for a
#: ``children`` count).
IRREGULAR_PLURALS = {
    "children": "child",
    "people": "person",
    "men": "man",
    "women": "woman",
    "feet": "foot",
    "teeth": "tooth",
    "mice": "mouse",
    "geese": "goose",
}
