"""The table of the offline router's argument-filling rules: one row per rule, naming it, the
schema shapes it serves, the phase that runs it and its weight class.

Each row is registered with :func:`playground.routing.rule_switches.known_rule` at import, so
``bench/bfcl.py --without RULE`` / ``--only RULE`` can switch it, and the code that applies a
rule asks :func:`enabled` first. A rule's *name* is also the ``rule`` of the evidence it writes
(``Fill.evidence[arg]["rule"]``), which is how the explanation says why a value was taken.

Phases, in the order :func:`playground.routing.scoring` runs them for one tool:

``structured``  declared shapes (enum, pattern, format, examples, codes) -- ``pipeline.fill_structured``
``loose``       values the question writes next to a parameter's words -- ``pipeline.fill_loose``
``free_text``   the text a free-text parameter (query, keyword) takes -- ``free_text.fill_free_text``
``defaults``    a required value the declaration settles -- ``defaults.fill_defaults``
``calls``       how many calls one question makes (``offline``: series, clauses, counts)

Weight: ``weak`` evidence (a value that merely fits a type) adds ``scoring.Weights.integer`` to
a tool's score and its span stays usable by other tools; ``strong`` evidence (a value in the
declared shape) adds ``scoring.Weights.argument``.
"""

from __future__ import annotations

from dataclasses import dataclass

from playground.routing.rule_switches import known_rule, rule_enabled


@dataclass(frozen=True)
class FillRule:
    """One argument-filling rule: ``name`` (also its evidence's ``rule``), ``phase`` (see the
    module docstring), ``serves`` (the schema shapes it fills, in words), ``weak`` (its
    weight class) and ``summary`` (one line)."""

    name: str
    phase: str
    serves: str
    weak: bool
    summary: str


RULES: tuple[FillRule, ...] = (
    # structured: the declared shape of the parameter says what the value looks like
    FillRule(
        "enum", "structured", "string/number enum", False, "an enum value written in the question"
    ),
    FillRule(
        "enum_words", "structured", "string enum", True, "an enum value written in other words"
    ),
    FillRule(
        "action_enum",
        "structured",
        "string enum of kinds of action",
        True,
        "the enum value of the kind of action the request asks for",
    ),
    FillRule(
        "pattern", "structured", "string with pattern", False, "text matching the declared pattern"
    ),
    FillRule(
        "sibling_pattern",
        "structured",
        "string without a shape, named as another tool's parameter with a pattern",
        False,
        "text matching the pattern the other declarations give a parameter of the same name",
    ),
    FillRule("format", "structured", "string with format", False, "a value in the declared format"),
    FillRule("example", "structured", "string with examples", False, "text shaped like an example"),
    FillRule(
        "prefix",
        "structured",
        "string with a prefix in its examples",
        False,
        "a code with the examples' prefix",
    ),
    FillRule("word", "structured", "string with examples", False, "a word like the examples"),
    FillRule("lowercase", "structured", "lower-case string", True, "the only lower-case word"),
    FillRule(
        "listed", "structured", "string listing its choices", True, "a choice the description lists"
    ),
    FillRule("unit", "structured", "string named unit(s)", True, "a unit word the question uses"),
    FillRule(
        "coded",
        "structured",
        "integer/string with coded choices",
        True,
        "a choice of a 'code = meaning' list",
    ),
    FillRule(
        "year", "structured", "string named year/season", True, "a year or season written out"
    ),
    FillRule("integer", "structured", "integer/number", True, "the one number of the question"),
    FillRule(
        "result_count",
        "structured",
        "integer sizing the result",
        False,
        "'the last 3 commits': how many results to return",
    ),
    FillRule("enum_list", "structured", "array of enum", True, "the enum values listed"),
    FillRule(
        "template", "structured", "string template", True, "a value assembled from a template"
    ),
    FillRule(
        "coordinate",
        "structured",
        "number latitude/longitude",
        True,
        "a coordinate written with N/S/E/W",
    ),
    FillRule(
        "language", "structured", "string language code", False, "a language name as its code"
    ),
    FillRule("state", "structured", "string state code", True, "a US state name as its code"),
    FillRule(
        "command",
        "structured",
        "string command line",
        False,
        "a shell command written in the question",
    ),
    FillRule(
        "identifier",
        "structured",
        "string id/zone/path/url/version",
        False,
        "an identifier with separators, kept whole",
    ),
    FillRule(
        "source_target",
        "structured",
        "string source/target pair",
        False,
        "'from X to Y' to the source and target parameters",
    ),
    FillRule(
        "joined_list",
        "structured",
        "string of comma-separated values",
        False,
        "values listed in the question, joined with commas",
    ),
    FillRule(
        "counted_items",
        "structured",
        "array of strings + array of their integer counts",
        False,
        "'three pumpkins and two dozen eggs' as items and counts",
    ),
    # loose: the question's values paired with the parameters whose words stand next to them
    FillRule("assign", "loose", "any", True, "a value written as name=value"),
    FillRule("number", "loose", "integer/number", True, "a number next to the parameter's words"),
    FillRule(
        "string", "loose", "string", True, "a name or quoted text next to the parameter's words"
    ),
    FillRule("list", "loose", "array", True, "values listed together"),
    FillRule("date", "loose", "date/time string", True, "a date or time in words, as ISO"),
    FillRule("cue", "loose", "string", True, "the text after the parameter's own word"),
    FillRule("boolean", "loose", "boolean", True, "true when the parameter's words are asked for"),
    FillRule("position", "loose", "required any", True, "a fitting value left, in schema order"),
    FillRule("modifier", "loose", "string", True, "the word modifying the parameter's noun"),
    FillRule("leftover", "loose", "required string", True, "the words no tool's vocabulary took"),
    FillRule("object", "loose", "object", True, "the fields the question names"),
    # free text and defaults
    FillRule("free_text", "free_text", "free-text string", False, "the question's content words"),
    FillRule(
        "default", "defaults", "required with a default", True, "the declared or stated default"
    ),
    # how many calls
    FillRule("series", "calls", "any", False, "one call per listed value ('Seoul and Busan')"),
    FillRule("clauses", "calls", "any", False, "one call per clause asking again"),
    FillRule(
        "series_groups",
        "calls",
        "any",
        False,
        "each listed value's call takes its group's values ('7 in easy mode and 3 in hard')",
    ),
    FillRule(
        "ordinal_parts",
        "calls",
        "any",
        False,
        "one call per ordinal part ('the first ..., the second ...')",
    ),
    FillRule("stated_count", "calls", "any", False, "as many calls as a spelled count says"),
    FillRule(
        "number_order",
        "calls",
        "numbered parameters",
        False,
        "numbered parameters in the order written",
    ),
)

for _rule in RULES:
    known_rule(_rule.name, f"values:{_rule.phase}", _rule.summary)

#: Evidence rules whose value is weak (see the module docstring).
WEAK_RULES = frozenset(r.name for r in RULES if r.weak)
#: Weak rules but the two that read the question's only number or lower-case word: the labels a
#: free-text quote takes over from an optional parameter.
LOOSE_RULES = WEAK_RULES - {"integer", "lowercase"}


def enabled(name: str) -> bool:
    """Whether argument rule ``name`` applies now (:func:`rule_switches.rule_enabled`)."""
    return rule_enabled(name)
