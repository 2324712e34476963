"""``pattern`` is an ECMA-262 regular expression (issue 11 item 11; JSON Schema 2020-12 §6.3.3)."""

from __future__ import annotations

import pytest

from playground.core.ecma import EcmaValidator, ecma_search, is_ecma

SKU = "^[A-Z]{2}-[0-9]{3}$"


@pytest.mark.parametrize(
    "pattern, text, matches",
    [
        (SKU, "KB-101", True),
        (SKU, "KB-101\n", False),  # Python's $ matched before the final newline
        (r"^\d{3}$", "١٢٣", False),  # ECMA \d is ASCII only; Python's is Unicode
        (r"^\w+$", "재고", False),
        ("^[가-힣]+$", "재고", True),
        ("KB", "xxKBxx", True),  # unanchored: JSON Schema patterns search
        ("(?P<x>a)", "a", True),  # Python-only syntax falls back to re
        # the u flag (JSON Schema Core §6.4): Unicode property classes and astral characters
        (r"^\p{L}+$", "안녕", True),
        (r"^\p{L}+$", "a1", False),
        (r"^\p{Lu}{2}$", "KB", True),
        ("^.$", "😀", True),  # one code point, two UTF-16 units
        (r"^\d$", "٣", False),  # \d stays ASCII with the u flag
        (r"^\-\d$", "-1", True),  # an identity escape the u flag refuses compiles without it
    ],
)
def test_ecma_semantics(pattern, text, matches):
    assert ecma_search(pattern, text) is matches


def test_is_ecma():
    assert is_ecma(SKU) and not is_ecma("(?P<x>a)")


def test_validator_refuses_a_trailing_newline():
    v = EcmaValidator({"type": "object", "properties": {"sku": {"type": "string", "pattern": SKU}}})
    assert v.is_valid({"sku": "KB-101"})
    errors = list(v.iter_errors({"sku": "KB-101\n"}))
    assert [e.validator for e in errors] == ["pattern"]


def test_the_gate_refuses_it_and_never_runs_the_body(inventory_gate):
    record = inventory_gate.call("stock_lookup", {"sku": "KB-101\n", "region": "seoul", "limit": 2})
    assert (record.kind, record.verdict, record.body_ran) == ("invalid_args", "pattern:sku", False)
    ok = inventory_gate.call("stock_lookup", {"sku": "KB-101", "region": "seoul", "limit": 2})
    assert ok.kind == "ok" and ok.body_ran is True
