"""The value rules that take a misfit out of a tool's fill after the loose phase (issue 23:
"a value that fits no parameter's shape is not a value"), run in one declared order.

Each rule is a module of its own with its case file under ``tests/routing/cases/``:
``quantity_fits_unit`` (:mod:`playground.routing.unit_dimension`), ``labelled_number``
(:mod:`playground.routing.number_label`), ``series_one_parameter``
(:mod:`playground.routing.series_split`), ``closed_list_values``
(:mod:`playground.routing.closed_list`), ``date_parts_no_numbers``
(:mod:`playground.routing.date_parts`), ``sentence_start_no_name``
(:mod:`playground.routing.sentence_start`) and ``cue_compound_no_value``
(:mod:`playground.routing.cue_compound`). Each takes its misfits out of the fill (a required one
joins ``fill.missing``) only when the fill lacks nothing; a tool left lacking a value only for
that is asked about only if it is relevant apart from it (:meth:`playground.routing.offline.
OfflineRouter._fits`, :attr:`playground.routing.scoring.ScoreRow.dropped`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from playground.routing.closed_list import RULE_CLOSED_LIST, drop_unlisted
from playground.routing.cue_compound import RULE_CUE_COMPOUND, drop_compounds
from playground.routing.date_parts import RULE_DATE_PARTS, drop_date_parts
from playground.routing.fill.specs import Fill, ParamSpec
from playground.routing.number_label import RULE_LABELLED_NUMBER, drop_labelled_elsewhere
from playground.routing.rule_switches import rule_enabled
from playground.routing.sentence_start import RULE_SENTENCE_START, drop_first_words
from playground.routing.series_split import RULE_SERIES_ONE, drop_torn_series
from playground.routing.unit_dimension import RULE_UNIT_DIMENSION, drop_unit_misfits


def drop_value_misfits(
    specs: Sequence[ParamSpec],
    fill: Fill,
    question: str,
    matched: Sequence[Mapping[str, Any]],
) -> list[str]:
    """Run every switched-on misfit rule (see the module docstring) on ``fill`` in order;
    ``matched`` is the tool's row's matches (:attr:`playground.routing.scoring.ScoreRow.
    matched`). Returns the parameters taken out, in the order the rules took them."""
    dropped: list[str] = []
    if fill.missing or not fill.args:  # not called anyway, or nothing to judge
        return dropped
    if rule_enabled(RULE_UNIT_DIMENSION):
        dropped += drop_unit_misfits(specs, fill, question)
    if rule_enabled(RULE_LABELLED_NUMBER):
        dropped += drop_labelled_elsewhere(specs, fill, question, matched)
    if rule_enabled(RULE_SERIES_ONE):
        dropped += drop_torn_series(specs, fill, question)
    if rule_enabled(RULE_CLOSED_LIST):
        dropped += drop_unlisted(specs, fill)
    if rule_enabled(RULE_DATE_PARTS):
        dropped += drop_date_parts(specs, fill, question)
    if rule_enabled(RULE_SENTENCE_START):
        dropped += drop_first_words(specs, fill, question)
    if rule_enabled(RULE_CUE_COMPOUND):
        dropped += drop_compounds(specs, fill, question)
    return dropped
