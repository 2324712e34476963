"""Argument filling from the question using only the declaration (playground.routing.fill)."""

from __future__ import annotations

import re

from playground.routing.fill.docs import described
from playground.routing.fill.examples import extract_examples, find_prefix, shape_regex
from playground.routing.fill.free_text import fill_free_text
from playground.routing.fill.pipeline import fill_structured
from playground.routing.fill.specs import ParamSpec, param_specs


def test_the_description_recovers_args_section():
    doc = "재고를 확인한다.\n사용한다.\n\nArgs:\n    product_id: 상품ID. 'P'로 시작한다.\n        예: P008\n    limit: 최대 건수\n\nReturns:\n    dict"
    parts = described(doc)
    assert parts.summary == "재고를 확인한다. 사용한다."
    assert parts.args == {"product_id": "상품ID. 'P'로 시작한다. 예: P008", "limit": "최대 건수"}
    assert parts.other == "dict"


def test_examples_shapes_and_prefixes():
    assert extract_examples("상품ID. 'P'로 시작한다. 예: P008") == ["P008"]
    assert extract_examples("검색어. 예: '텀블러', '이불커버', '운동화'") == [
        "텀블러",
        "이불커버",
        "운동화",
    ]
    assert extract_examples('product SKU. e.g. "KB-101"') == ["KB-101"]
    assert shape_regex("P008") == r"P\d{2,4}"
    assert re.fullmatch(shape_regex("KB-101"), "KB-1234")
    assert shape_regex("텀블러") is None
    assert find_prefix("하루마켓 주문번호. 'HR'로 시작한다.") == "HR"
    assert find_prefix("Order id, starts with 'ORD-'") == "ORD-"
    assert find_prefix("그냥 문자열") is None


def _specs(props, required=(), docs=None):
    return param_specs(
        {"type": "object", "properties": props, "required": list(required)}, docs or {}
    )


def test_pattern_is_searched_unanchored_and_not_inside_words():
    specs = _specs({"sku": {"type": "string", "pattern": r"^[A-Z]{2}-\d{3}$"}}, ["sku"])
    fill = fill_structured(specs, "stock of KB-101 in seoul please")
    assert fill.args == {"sku": "KB-101"}
    assert fill.evidence["sku"]["rule"] == "pattern" and fill.evidence["sku"]["span"] == [9, 15]
    assert fill_structured(specs, "XKB-1012").args == {}


def test_enum_format_and_integer_rules():
    specs = _specs(
        {
            "region": {"type": "string", "enum": ["seoul", "busan"]},
            "since": {"type": "string", "format": "date"},
            "email": {"type": "string", "format": "email"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 5},
        }
    )
    fill = fill_structured(specs, "Busan 매장 2026-06-01 이후 3개만, 답장은 a.b@example.com 으로")
    assert fill.args == {
        "region": "busan",
        "since": "2026-06-01",
        "email": "a.b@example.com",
        "limit": 3,
    }
    assert {k: v["rule"] for k, v in fill.evidence.items()} == {
        "region": "enum",
        "since": "format",
        "email": "format",
        "limit": "integer",
    }
    assert fill_structured(specs, "2026-13-45 에 10개").args == {}  # bad date, 10 > maximum


def test_example_shape_upper_cases_and_prefix_needs_a_digit():
    specs = _specs(
        {"order_id": {"type": "string"}},
        ["order_id"],
        {"order_id": "하루마켓 주문번호. 'HR'로 시작한다. 예: HR20260601"},
    )
    fill = fill_structured(specs, "hr20260604 어디쯤이에요")
    assert fill.args == {"order_id": "HR20260604"}
    assert fill.evidence["order_id"]["rule"] == "example"
    assert "upper-cased" in fill.evidence["order_id"]["detail"]
    p_only = _specs(
        {"product_id": {"type": "string"}}, ["product_id"], {"product_id": "starts with 'P'"}
    )
    assert fill_structured(p_only, "What is the Price?").args == {}
    assert fill_structured(p_only, "is PX12 in stock").args == {"product_id": "PX12"}


def test_free_text_keeps_content_words_minus_intent_and_values():
    specs = _specs(
        {"keyword": {"type": "string"}}, ["keyword"], {"keyword": "검색어. 예: '텀블러'"}
    )
    assert specs[0].free_text
    q = "에어프라이어 재고 있어요?"
    fill = fill_free_text(
        specs, q, fill_structured(specs, q), [], {(7, 9): "matched check_stock description"}
    )
    assert fill.args == {"keyword": "에어프라이어"}
    assert fill.missing == []
    dropped = fill.evidence["keyword"]["detail"]["dropped"]
    assert {"word": "재고", "why": "matched check_stock description"} in dropped
    empty = fill_free_text(specs, "안녕하세요", fill_structured(specs, "안녕하세요"), [], {})
    assert empty.args == {} and empty.missing == ["keyword"]


def test_plain_string_param_is_not_free_text():
    spec = _specs({"name": {"type": "string"}}, ["name"])[0]
    assert isinstance(spec, ParamSpec) and not spec.free_text
