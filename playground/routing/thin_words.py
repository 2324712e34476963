"""Rule ``thin_words_need_coverage`` of the offline router's relevance (issue 23, near neighbours).

A near neighbour shares a word or two with the question -- a description word, a parameter's
word, a name word matched only in part -- while most of what the question asks about is not in
its text ("Calculate the hypotenuse ... lengths of the sides", "the population growth in
London" for ``forest_growth_forecast``). When a tool's words (its relevance without generic
verbs, :func:`playground.routing.offline.topic_points`) are worth less than one exact word of
its name (:attr:`Weights.name <playground.routing.scoring.Weights.name>`) and cover less than
:data:`THIN_SHARE` of the question's topic words, they do not make it fit on their own; a
structured value still does (decided first, :func:`playground.routing.offline.structured`).
A question with Hangul is not judged: Korean words match by their parts, and their counts
are not those the rule was set on.

Set on the BFCL dev bench: of the calls the words alone made, this stopped 35 of 166 calls on
near-neighbour should-not cases and 1 of 739 right selections. Measured with ``python
bench/bfcl.py --without thin_words_need_coverage``.
"""

from __future__ import annotations

from playground.routing.rule_switches import known_rule, rule_enabled

RULE_THIN_WORDS = known_rule(
    "thin_words_need_coverage",
    "relevance",
    "words worth less than one name word make a tool fit only covering half the topic",
)

#: The share of the question's topic words thin words must cover.
THIN_SHARE = 0.5
#: The fewest topic words a question must have for the rule to judge their share: a short
#: question's few words ('What does the note "groceries" say?') say too little (on the BFCL
#: dev bench the rule keeps 32 of its 35 near-neighbour stops with this floor).
MIN_TOPIC = 4


def thin(words: float, name_weight: float, covered: int, topic: int) -> bool:
    """True when rule ``thin_words_need_coverage`` says a tool's ``words`` (its topic points)
    do not make it fit: worth less than ``name_weight`` (one exact name word) and covering
    ``covered`` of ``topic`` topic words (at least :data:`MIN_TOPIC`), less than
    :data:`THIN_SHARE`."""
    return (
        words < name_weight
        and topic >= MIN_TOPIC
        and covered < THIN_SHARE * topic
        and rule_enabled(RULE_THIN_WORDS)
    )
