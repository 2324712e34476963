"""A refused argument is not copied over and over into its record (issue 28 item 7): the
message (and so each provider's wire view) quotes at most 200 characters of it; only ``args``
(as given) and ``canonical_args`` hold it whole."""

from __future__ import annotations

import json

SCHEMA_PATTERN = '''
from typing import Annotated
from pydantic import Field


def lookup(sku: Annotated[str, Field(pattern=r"^[A-Z]{2}-[0-9]{3}$")]) -> dict:
    """Look a product up.

    Args:
        sku: product SKU, e.g. "KB-101"
    """
    return {"sku": sku}


__tools__ = [lookup]
'''


def test_a_5000_character_refused_value_is_quoted_short(make_gate):
    gate = make_gate(SCHEMA_PATTERN, name="shop_sku", wire=True)
    value = "x" * 5000
    record = gate.call("lookup", {"sku": value})
    assert record.verdict == "pattern:sku"
    data = record.to_json()
    whole = [k for k, v in data.items() if value in json.dumps(v, ensure_ascii=False)]
    assert whole == ["args", "canonical_args"]
    text = json.dumps(data, ensure_ascii=False)
    assert text.count("x" * 1000) == 10  # 5 in args, 5 in canonical_args: nowhere else
    assert '"' + "x" * 198 + "…" in record.message
    assert len(record.message) < 1000
