import pytest

from playground.routing.rule_switches import known_rule, known_rules, rule_enabled, switched

A = known_rule("test_switch_a", "values", "a rule of this test")
B = known_rule("test_switch_b", "selection", "another rule of this test")


def test_rules_are_on_by_default_and_switched_per_block():
    assert rule_enabled(A) and rule_enabled(B)
    with switched(without=[A]):
        assert not rule_enabled(A)
        assert rule_enabled(B)
    with switched(only=[B]):
        assert not rule_enabled(A)
        assert rule_enabled(B)
    assert rule_enabled(A)


def test_an_unknown_or_twice_registered_rule_is_refused():
    with (
        pytest.raises(ValueError, match="unknown routing rule\\(s\\): no_such_rule"),
        switched(without=["no_such_rule"]),
    ):
        pass
    with pytest.raises(ValueError, match="registered twice"):
        known_rule(A, "selection", "a different rule")
    assert known_rule(A, "values", "a rule of this test") == A
    assert [r.name for r in known_rules() if r.name.startswith("test_switch")] == [B, A]
