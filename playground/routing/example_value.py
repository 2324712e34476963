"""Rule ``example_value_needs_words`` of the offline router's relevance (issue 23, near
neighbours: a tool chosen on a generic shared word).

A question word equal to an example a parameter's description gives (argument rule ``word``:
"Boston" for a ``start_location`` whose example is "Boston") is a structured value, and a
structured value makes a tool fit the question (rule ``relevant_by_value``): an id of its
example's shape is a cue (seed 001). But a plain word equal to an example -- a city, a name --
is a value any question may hold; it says the question is about this tool only when the tool's
words also match something the question asks about. When the tool's text matches none of the
question's topic words (:attr:`ScoreRow.covered <playground.routing.scoring.ScoreRow.covered>`
is 0: "the current traffic situation from Boston driving to New York" over
``route_estimate_time``; "the forecast for London" over ``get_coordinates_from_city``), such a
value does not make it fit; other structured values (an enum, a pattern, a format, an example's
shape) still do.

Measured on the BFCL dev bench (``python bench/bfcl.py --without example_value_needs_words``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from playground.routing.rule_switches import known_rule, rule_enabled

RULE_EXAMPLE_VALUE = known_rule(
    "example_value_needs_words",
    "relevance",
    "a word equal to a parameter's example makes a tool fit only if its words match a topic word",
)

#: The argument rule whose value is a question word equal to a parameter's example.
EXAMPLE_WORD_RULE = "word"


def example_word_only(evidence: Mapping[str, Mapping[str, Any]], covered: int) -> bool:
    """True when rule ``example_value_needs_words`` takes ``evidence``'s structured values
    (``{arg: {rule, ...}}``, those :func:`playground.routing.offline.structured` counts) as no
    sign of relevance: every one of them is an example word and the tool's text matched none of
    the question's topic words (``covered``)."""
    return (
        covered == 0
        and rule_enabled(RULE_EXAMPLE_VALUE)
        and bool(evidence)
        and all(ev.get("rule") == EXAMPLE_WORD_RULE for ev in evidence.values())
    )
