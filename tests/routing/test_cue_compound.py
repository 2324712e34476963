"""Rule ``cue_compound_no_value`` (:mod:`playground.routing.cue_compound`) (the routing cases are
in cases/cue_compound_no_value.json)."""

from __future__ import annotations

from playground.routing.cue_compound import compound


def _compound(question: str, value: str, param: str = "cell_type") -> bool:
    return compound(value, question.index(value), question, param)


def test_one_lower_case_word_right_after_a_word_is_a_compound() -> None:
    assert _compound("Calculate the cell density in a sample", "density")
    assert _compound("all multi-player games released in 2019", "released", "game_name")


def test_after_a_function_word_or_not_one_lower_case_word_it_is_a_value() -> None:
    assert not _compound("the punishments for the crime of theft", "theft")
    assert not _compound("the cell compartments of the nucleus", "nucleus")
    assert not _compound("the lawyer John Doe", "John Doe")
    assert not _compound("run the command ls2", "ls2")
    # after the head of the parameter's name: an apposition, "the colour teal"
    assert not _compound("the paint colour teal", "teal", "colour")
    assert not _compound("the cell neuron", "neuron", "cell")
