"""Schema lint: seed 002's rules on a deliberately bad module, on clean modules, on the bundled
shop tools, and the personal-data and overlap rules in detail."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from playground.batch.lint import lint_contract, lint_exit_code, lint_registry
from playground.batch.lint_base import ERROR, INFO, WARNING, content_words
from playground.batch.lint_rules import has_boundary, overlaps, personal_key
from playground.core.contracts import Contract
from playground.core.registry import Registry
from playground.sources.loading import load_registry

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "decl-cache"))


BAD = '''
def get_data(customer_id: str) -> dict:
    """고객 주문과 환불 내역 데이터를 가져온다.

    Args:
        customer_id: 고객 번호
    """
    return {}


def do_refund_and_notify(order_id: str, amount: int, reason: str = "late", since: str = "", limit: int = 20) -> dict:
    """주문을 환불하고 고객에게 환불 알림을 보낸다. 고객 주문 환불 문의에 쓴다.

    Args:
        order_id: 주문번호. 'ORD-'로 시작하는 8자리.
        amount: 환불 금액. 1에서 500000 사이.
        reason: 사유. damaged, late, wrong 중 하나.
        since: 이 날짜 이후 주문만. YYYY-MM-DD.
        limit: 돌려받을 건수. 기본값은 20.
    """
    return {}


__tools__ = [get_data, do_refund_and_notify]
__contracts__ = {
    "do_refund_and_notify": {
        "returns": {
            "type": "object",
            "properties": {
                "refund_id": {"type": "string"},
                "recipient": {"type": "object", "properties": {"address": {"type": "string"}}},
                "product_name": {"type": "string"},
            },
        }
    }
}
'''


def write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


@pytest.fixture
def bad_findings(tmp_path: Path):
    registry = load_registry([write(tmp_path, "bad_tools", BAD)])
    assert registry.problems == []
    return lint_registry(registry)


def by(findings, rule):
    return [f for f in findings if f.rule == rule]


def advice(findings):
    """The findings but the info-level ones (what blocks a provider's strict: true, which
    nearly every schema has; tests/batch/test_lint_providers.py covers those)."""
    return [f for f in findings if f.severity != INFO]


def test_a_return_annotation_with_a_shape_declares_the_result(tmp_path: Path):
    source = '''
        from typing import Annotated

        from pydantic import BaseModel, Field

        class Slot(BaseModel):
            room: str
            start: str

        def next_slot(room: str) -> Slot:
            """The next free slot of a room."""
            return Slot(room=room, start="09:00")

        def raw_slot(room: str) -> dict:
            """The next free slot of a room, as a dict."""
            return {"room": room}

        def slot_times(room: str) -> tuple[str, str]:
            """The next slot's start and end."""
            return ("09:00", "09:30")

        def few_slots(room: str) -> Annotated[list[Slot], Field(max_length=3)]:
            """At most three free slots."""
            return []

        def all_slots(room: str) -> list[Slot]:
            """Every free slot."""
            return []

        __tools__ = [next_slot, raw_slot, slot_times, few_slots, all_slots]
    '''
    registry = load_registry([write(tmp_path, "slots", source)])
    assert registry.problems == []
    findings = lint_registry(registry)
    assert [f.tool for f in by(findings, "returns-undeclared")] == ["raw_slot"]  # "-> dict"
    # a tuple is no list of rows; a list with max_length is bounded
    assert [f.tool for f in by(findings, "returns-unbounded")] == ["all_slots"]
    assert sorted(f.tool for f in by(findings, "empty-no-note")) == ["all_slots", "few_slots"]


def test_bad_module_rule_ids(bad_findings):
    rules = {(f.rule, f.location) for f in bad_findings}
    assert ("name-vague", "get_data") in rules
    assert ("name-vague", "do_refund_and_notify") in rules
    assert ("name-two-things", "do_refund_and_notify") in rules
    assert ("returns-undeclared", "get_data.returns") in rules
    assert ("returns-personal-data", "do_refund_and_notify.returns.recipient") in rules
    assert ("returns-personal-data", "do_refund_and_notify.returns.recipient.address") in rules
    assert not any(f.location.endswith("product_name") for f in bad_findings)
    assert ("description-no-boundary", "get_data.description") in rules
    assert ("description-no-boundary", "do_refund_and_notify.description") in rules
    assert ("optional-undocumented", "do_refund_and_notify.reason") in rules


def test_two_things_is_an_error_and_sets_the_exit_code(bad_findings):
    two = by(bad_findings, "name-two-things")
    assert [f.severity for f in two] == [ERROR]
    assert "do_refund + notify" in two[0].suggestion
    assert bad_findings[0].severity == ERROR  # errors sort first
    assert lint_exit_code(bad_findings) == 1


def test_prose_constraints_name_the_schema_keyword(bad_findings):
    prose = {f.location: f for f in by(bad_findings, "prose-constraint")}
    assert set(prose) == {
        "do_refund_and_notify.order_id",
        "do_refund_and_notify.amount",
        "do_refund_and_notify.reason",
        "do_refund_and_notify.since",
    }  # limit: "기본값은 20" is also in the schema (the signature's default), so it is not flagged
    assert '"pattern": "^ORD\\-"' in prose["do_refund_and_notify.order_id"].suggestion
    assert '"minimum": 1, "maximum": 500000' in prose["do_refund_and_notify.amount"].suggestion
    assert '"enum": ["damaged", "late", "wrong"]' in prose["do_refund_and_notify.reason"].suggestion
    assert '"format": "date"' in prose["do_refund_and_notify.since"].suggestion
    # the finding points at the docstring's Args line of that parameter
    src = prose["do_refund_and_notify.amount"].source
    line = BAD.splitlines().index("        amount: 환불 금액. 1에서 500000 사이.") + 1
    assert src.endswith(f":{line}")


def test_default_in_prose_only_is_flagged():
    registry = Registry()
    registry.add(
        Contract(
            "list_orders",
            "List recent orders. Not for shipping.",
            {
                "type": "object",
                "properties": {
                    "limit": {
                        "type": "integer",
                        "description": "How many. 기본값은 20. Omit it unless the user says.",
                    }
                },
            },
            lambda limit=20: {},
            returns={"type": "object"},
        )
    )
    [finding] = advice(lint_registry(registry))
    assert (finding.rule, finding.location) == ("prose-constraint", "list_orders.limit")
    assert "no default" in finding.message and '"default": 20' in finding.suggestion


def test_finding_fields(bad_findings):
    f = by(bad_findings, "name-vague")[0]
    data = f.to_json()
    assert set(data) == {"rule", "severity", "tool", "location", "source", "message", "suggestion"}
    assert data["severity"] == WARNING
    assert data["source"].split(":")[0].endswith("bad_tools.py")


def test_schema_keywords_silence_prose_rules(tmp_path: Path):
    source = '''
    def lookup_order(order_id: str, status: str = "pending") -> dict:
        """Look up one order by id. Do not use it for shipping questions (use track_order).

        Args:
            order_id: starts with ORD-, e.g. ORD-1234
            status: one of pending, shipped. Defaults to pending. Omit it unless the user names one.
        """
        return {"order_id": order_id}

    TOOLS = {
        "count_stock": {
            "fn": lookup_order,
            "description": "Count units of one SKU. Not for orders.",
            "args": {
                "sku": {"type": "str", "required": True, "pattern": "^[A-Z]{2}$",
                        "description": "starts with two capitals"},
                "limit": {"type": "int", "min": 1, "max": 5, "description": "between 1 and 5; omit for 5"},
                "day": {"type": "str", "format": "date", "description": "YYYY-MM-DD; leave out for today"},
            },
            "returns": {"keys": {"sku": "str", "count": "int"}},
            "side_effects": False,
        },
    }
    '''
    registry = load_registry([write(tmp_path, "ok_tools", source)])
    findings = lint_contract(registry, "count_stock")
    assert [f.rule for f in findings if f.rule == "prose-constraint"] == []
    assert advice(findings) == []


def test_function_prose_without_schema_keyword_is_flagged_with_the_signature_fix(tmp_path: Path):
    source = '''
    def lookup_order(order_id: str) -> dict:
        """Look up one order. Not for shipping.

        Args:
            order_id: starts with ORD-, e.g. ORD-1234
        """
        return {}

    __tools__ = [lookup_order]
    __contracts__ = {"lookup_order": {"returns": {"type": "object"}, "side_effects": False}}
    '''
    registry = load_registry([write(tmp_path, "fn_tools", source)])
    [finding] = advice(lint_registry(registry))
    assert (finding.rule, finding.location) == ("prose-constraint", "lookup_order.order_id")
    assert 'Field(pattern="^ORD\\-")' in finding.suggestion


def test_bundled_shop_tools_only_explained_warnings():
    """The shop tools pass with three warnings, all right per seed 002: the order and product
    ids are described as "'HR'로 시작한다" / "'P'로 시작한다" in the docstring, but the schema
    (built by google-genai from ``order_id: str``) carries no ``pattern``, so the gate does not
    enforce the prefix. Everything else (names, boundaries, returns, notes) is clean."""
    registry = load_registry([REPO / "tools" / "shop.py"])
    findings = lint_registry(registry)
    assert {(f.rule, f.location) for f in advice(findings)} == {
        ("prose-constraint", "get_order_status.order_id"),
        ("prose-constraint", "track_shipping.order_id"),
        ("prose-constraint", "check_stock.product_id"),
    }
    assert all(f.severity == WARNING for f in advice(findings))
    # what a strict declaration would need is info: it never changes the exit code
    assert {f.rule for f in findings if f.severity == INFO} == {"openai-strict", "anthropic-strict"}
    assert lint_exit_code(findings) == 0
    assert lint_exit_code(findings, strict=True) == 1


def test_inventory_legacy_tool_is_flagged_for_its_name():
    registry = load_registry([REPO / "tools" / "inventory.py"])
    rules = {(f.rule, f.location) for f in lint_registry(registry)}
    assert ("name-version", "legacy_stock") in rules
    assert ("name-verb-object", "legacy_stock") in rules
    assert ("name-verb-object", "stock_lookup") not in rules  # object + verb-noun is accepted
    assert ("empty-no-note", "stock_lookup.returns.rows") in rules


def _registry(n: int) -> Registry:
    registry = Registry()
    for i in range(n):
        registry.add(
            Contract(
                name=f"get_item_{chr(97 + i % 26)}{i}",
                description="Get one item. Not for orders.",
                parameters={"type": "object", "properties": {}},
                fn=lambda: {},
                returns={"type": "object"},
            )
        )
    return registry


@pytest.mark.parametrize("n, severity", [(10, None), (11, WARNING), (30, WARNING), (31, ERROR)])
def test_tool_count_thresholds(n, severity):
    counts = [f for f in lint_registry(_registry(n)) if f.rule == "tool-count"]
    assert [f.severity for f in counts] == ([severity] if severity else [])


@pytest.mark.parametrize(
    "name, rules",
    [
        ("search", {"name-verb-object"}),
        ("handler", {"name-verb-object", "name-vague"}),
        ("query_v2", {"name-version", "name-verb-object"}),  # query alone: no object
        ("queryV2", {"name-version", "name-verb-object"}),
        ("query_inventory", set()),
        ("get_data", {"name-vague"}),
        ("process_order", {"name-vague"}),
        ("order_manager", {"name-vague", "name-verb-object"}),
        ("search_orders", set()),
        ("get_customer_profile", set()),
        ("stock_lookup", set()),
        ("cancel_subscription", set()),
    ],
)
def test_name_rules(name, rules):
    registry = Registry()
    registry.add(
        Contract(
            name=name,
            description="Does one thing. Not for anything else.",
            parameters={"type": "object", "properties": {}},
            fn=lambda: {},
            returns={"type": "object"},
        )
    )
    assert {f.rule for f in advice(lint_registry(registry))} == rules


@pytest.mark.parametrize(
    "key, personal",
    [
        ("product_name", False),
        ("store_name", False),
        ("courier_name", False),
        ("name", True),
        ("full_name", True),
        ("customer_name", True),
        ("recipient_name", True),
        ("recipient_id", True),
        ("address", True),
        ("shipping_address", True),
        ("store_address", False),
        ("email", True),
        ("phone", True),
        ("courier_phone", False),
        ("ip_address", False),
        ("tracking_no", False),
        ("주소", True),
        ("수령인", True),
        ("매장주소", False),
        ("상품이름", False),
        ("이름", True),
    ],
)
def test_personal_key(key, personal):
    assert personal_key(key) is personal


def test_overlap_and_boundary_measures():
    a = Contract(
        "stock_lookup", "SKU와 지역으로 매장별 재고를 조회한다.", {"type": "object"}, lambda: 0
    )
    b = Contract(
        "legacy_stock", "SKU와 지역으로 매장별 재고를 전부 돌려준다.", {"type": "object"}, lambda: 0
    )
    c = Contract("send_notice", "Sends a notice e-mail.", {"type": "object"}, lambda: 0)
    names = ["stock_lookup", "legacy_stock", "send_notice"]
    assert overlaps(a, b, names)[0] == "stock"  # a shared name word is enough
    assert overlaps(a, c, names) == []
    assert {"sku", "지역", "매장별", "재고"} <= content_words(a.description)
    assert has_boundary("주문 조회에는 사용하지 않는다")
    assert has_boundary("Use it for stock. For orders call get_order_status.", ["get_order_status"])
    assert not has_boundary("재고를 조회한다.", ["legacy_stock"])


# --- names Gemini's API refuses (google-genai 3.6.1 types.py, FunctionDeclaration.name) ----------


def _named(name: str) -> Registry:
    registry = Registry()
    registry.add(
        Contract(
            name,
            "Look up an order. Not for shipping questions.",
            {"type": "object", "properties": {}},
            lambda: {},
            returns={"type": "object"},
        )
    )
    return registry


@pytest.mark.parametrize(
    ("name", "why", "suggestion"),
    [
        (
            "주문_조회",
            "starts with '주', not a letter a-z/A-Z or an underscore; holds characters outside "
            "a-z, A-Z, 0-9, _ . : - ('주', '문', '조', '회')",
            "rename it to an English verb_object name in ASCII (e.g. 주문_조회 → search_orders); keep the "
            "Korean in the description.",
        ),
        (
            "track shipping",
            "holds characters outside a-z, A-Z, 0-9, _ . : - (' ')",
            "rename it to ASCII snake_case, e.g. track_shipping.",
        ),
        (
            "2fa_check_code",
            "starts with '2', not a letter a-z/A-Z or an underscore",
            "rename it to ASCII snake_case, e.g. _2fa_check_code.",
        ),
        (
            "get_" + "order" * 26,
            "is 134 characters long (at most 128)",
            "rename it to ASCII snake_case, e.g. " + ("get_" + "order" * 26)[:128] + ".",
        ),
    ],
)
def test_a_name_gemini_refuses_is_an_error_with_a_suggestion(name, why, suggestion):
    [finding] = by(lint_registry(_named(name)), "gemini-name")
    assert finding.severity == ERROR and finding.location == name and finding.tool == name
    assert why in finding.message and "Gemini's API rejects the whole request" in finding.message
    assert finding.suggestion == suggestion
    assert lint_exit_code(lint_registry(_named(name))) == 1


@pytest.mark.parametrize(
    "name", ["get_order", "_private_lookup", "ns:orders.get-status", "a" * 128, "A1"]
)
def test_names_gemini_accepts(name):
    from playground.batch.lint_rules import gemini_name_problems

    assert gemini_name_problems(name) == []
    assert by(lint_registry(_named(name)), "gemini-name") == []


def test_the_rule_matches_the_installed_sdk_docstring():
    from google.genai import types

    from playground.batch.lint_base import RULES
    from playground.batch.lint_rules import GEMINI_NAME_MAX

    doc = types.FunctionDeclaration.model_fields["name"].description
    assert "Must start with a letter or an underscore" in doc
    assert "underscores, dots, colons and dashes" in doc
    assert f"maximum length of {GEMINI_NAME_MAX}" in doc
    assert RULES["gemini-name"][0] == ERROR


def test_the_omission_sentences_lint_asks_for_make_no_overlap():
    """Issue 11 kind 10: following optional-undocumented's advice ("Omit it unless ...") in two
    tools made description-no-boundary report them as overlapping on "omit" and "unless"."""

    def tool(name: str, text: str) -> Contract:
        return Contract(name, text, {"type": "object"}, lambda: 0)

    renew = tool("renew_loan", "Renew a loan by its id. weeks: Omit it unless the user asks.")
    cancel = tool("cancel_hold", "Cancel a hold by its id. reason: Omit it unless asked.")
    fines = tool("list_fines", "List fines. limit: 없으면 생략한다. Leave it out otherwise.")
    names = ["renew_loan", "cancel_hold", "list_fines"]
    assert overlaps(renew, cancel, names) == []
    assert overlaps(cancel, fines, names) == []
    assert not {"omit", "unless", "leave", "out", "생략한다"} & content_words(
        renew.description + " " + fines.description
    )
