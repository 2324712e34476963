"""Docstrings in every common style (issue 11 item 10): Google, NumPy, reST/Sphinx and Epydoc
are read with docstring_parser for argument descriptions and examples, by lint, argument
examples and :func:`playground.core.docstrings.parse_docstring` (the function the router reads)."""

from __future__ import annotations

import pytest

from playground.batch.lint import lint_registry
from playground.core.docstrings import parse_docstring
from playground.core.validation import arg_doc

STYLES = {
    "google": '''"""Renew a library loan.

    Args:
        loan_id: the loan, e.g. L-100
        days: extra days. Omit it for the default of 14.
    """''',
    "numpydoc": '''"""Renew a library loan.

    Parameters
    ----------
    loan_id : str
        the loan, e.g. L-100
    days : int, optional
        extra days. Omit it for the default of 14.
    """''',
    "rest": '''"""Renew a library loan.

    :param loan_id: the loan, e.g. L-100
    :param days: extra days. Omit it for the default of 14.
    """''',
    "epydoc": '''"""Renew a library loan.

    @param loan_id: the loan, e.g. L-100
    @param days: extra days. Omit it for the default of 14.
    """''',
}


def module(doc: str) -> str:
    return f"""
def renew_loan(loan_id: str, days: int = 14) -> dict:
    {doc}
    return {{"loan_id": loan_id, "days": days}}

__tools__ = [renew_loan]
__contracts__ = {{"renew_loan": {{"returns": {{"type": "object"}}}}}}
"""


@pytest.mark.parametrize("style", list(STYLES))
def test_every_style_is_read(style, make_gate):
    gate = make_gate(module(STYLES[style]), name=f"loan_{style}")
    contract = gate.registry.get("renew_loan")
    parts = parse_docstring(contract.description)
    assert parts.style == style
    assert parts.summary == "Renew a library loan."
    assert parts.args == {
        "loan_id": "the loan, e.g. L-100",
        "days": "extra days. Omit it for the default of 14.",
    }
    assert arg_doc(contract.description, "days") == "extra days. Omit it for the default of 14."
    # lint: no optional-undocumented (the prose says to omit it), no verb finding (renew)
    rules = {f.rule for f in lint_registry(gate.registry) if f.tool == "renew_loan"}
    assert "optional-undocumented" not in rules and "name-verb-object" not in rules
    # argument examples in fix hints come from the docstring, whole
    record = gate.call("renew_loan", {"loan_id": 5})
    assert 'e.g. {"loan_id":"L-100"}.' in record.message


def test_an_undocumented_optional_is_still_found(make_gate):
    doc = '''"""Renew a library loan.

    Parameters
    ----------
    loan_id : str
        the loan
    days : int
        extra days.
    """'''
    gate = make_gate(module(doc), name="loan_undoc")
    found = [(f.rule, f.location) for f in lint_registry(gate.registry)]
    assert ("optional-undocumented", "renew_loan.days") in found


def test_korean_section_headers_and_plain_text():
    parts = parse_docstring("재고를 조회한다.\n\n인자:\n    sku: 상품 코드. 예: KB-101\n")
    assert parts.args == {"sku": "상품 코드. 예: KB-101"} and parts.summary == "재고를 조회한다."
    assert parse_docstring("Just a sentence.").args == {}
