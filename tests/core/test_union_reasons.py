"""A value for a discriminated union (pydantic's ``Field(discriminator=...)``, any ``anyOf`` /
``oneOf`` whose branches fix a field with ``const`` or ``enum``) is judged against the branch it
chose: the reason names what that branch lacks, never another branch's required field."""

from __future__ import annotations

import pytest

PAYMENTS = '''
from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field


class Card(BaseModel):
    kind: Literal["card"]
    number: Annotated[str, Field(pattern=r"^[0-9]{16}$")]


class Transfer(BaseModel):
    kind: Literal["transfer"]
    iban: str


def pay(amount: int, method: Annotated[Union[Card, Transfer], Field(discriminator="kind")]) -> dict:
    """Pay an amount in won."""
    return {"paid": amount, "by": method.kind}


__tools__ = [pay]
__contracts__ = {"pay": {"side_effects": True}}
'''


@pytest.fixture
def gate(make_gate):
    return make_gate(PAYMENTS, name="payments")


def reasons(record):
    return [(r["code"], r["path"]) for r in record.reasons]


def test_the_branch_the_value_chose_says_what_is_missing(gate):
    transfer = gate.call("pay", {"amount": 5, "method": {"kind": "transfer"}})
    assert reasons(transfer) == [("missing:method.iban", "/method/iban")]
    card = gate.call("pay", {"amount": 5, "method": {"kind": "card"}})
    assert reasons(card) == [("missing:method.number", "/method/number")]
    assert not transfer.body_ran and not card.body_ran


def test_a_bad_field_of_the_chosen_branch_is_the_reason(gate):
    record = gate.call("pay", {"amount": 5, "method": {"kind": "card", "number": "12"}})
    assert reasons(record) == [("pattern:method", "/method/number")]


def test_a_value_no_branch_takes_is_told_every_branch(gate):
    record = gate.call("pay", {"amount": 5, "method": {"kind": "cheque"}})
    assert reasons(record) == [("allowed:method", "/method/kind")]
    assert 'Use one of ["card","transfer"]' in record.message
    ok = gate.call("pay", {"amount": 5, "method": {"kind": "transfer", "iban": "DE89"}})
    assert (ok.ok, ok.value) == (True, {"paid": 5, "by": "transfer"})
