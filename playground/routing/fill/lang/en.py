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

#: Verbs of the four kinds of action a tool's name can begin with (``create_entities``,
#: ``delete_relations``, ``update_issue``, ``get_order``) and a request can say (rule
#: ``action_kind``, :mod:`playground.routing.action_kind`). Words that also say something else
#: often are left out (set, make, new, open, drop, clear).
ACTION_WORDS = {
    "create": ["create", "add", "insert", "register", "copy", "duplicate", "clone"],
    "delete": ["delete", "remove", "erase", "destroy", "purge", "cancel"],
    "update": ["update", "modify", "edit", "change", "rename", "replace", "archive"],
    "read": ["get", "fetch", "retrieve", "find", "search", "look", "lookup", "list", "show"]
    + ["display", "read", "view", "query"],
}

#: Words that bound the value written right after them ("under 40 minutes", "less than 3"):
#: part of that value's phrase, never of a search text (rule ``free_text``).
BOUND_BEFORE = frozenset(
    ["under", "over", "below", "above", "within", "than", "less", "more", "least", "most"]
    + ["before", "after", "since", "until", "around", "about", "approximately"]
)
#: (English writes a bound before its value; see :mod:`.ko` for after.)
BOUND_AFTER: frozenset[str] = frozenset()

#: Words after which an English word stands where a request's verb does ("please delete",
#: "I want to delete", "can you delete", "find it and delete it") -- rule ``action_kind``.
REQUEST_LEADS = frozenset(["please", "to", "you", "me", "us", "and", "then", "also", "just", "i"])

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
#: Articles opening the noun phrase a question asks about ("the hypotenuse of ...", "a flight"):
#: the word after the first one is the question's head word (rule ``head_word_unsaid``).
HEAD_OPENERS = frozenset(["the", "a", "an"])
#: Ordinal words: "the first rectangle" counts a case, it names no head word.
ORDINAL_WORDS = frozenset(
    ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
)
#: A clause opening like this states the asker's context ("I'm at Bengaluru.", "I live in
#: Oslo"), it asks for nothing: no call of its own (rule ``clauses``).
STATEMENT_OPENERS = (
    r"(?:i'?m|i\s+am|we'?re|we\s+are|i\s+live|we\s+live|i\s+stay|we\s+stay)\s+"
    r"(?:at|in|near|from)\b",
)
