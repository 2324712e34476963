"""Tests for the example tool modules (tools/shop.py, inventory.py, flaky.py) and the fixtures.

The tool modules are imported by path (they are plain files, not a package) and exercised on
the shipped fixtures; tests that change data work on copies via ``PLAYGROUND_FIXTURES``.
"""

import csv
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
FIXTURES = ROOT / "fixtures"
PERSONAL = ("recipient_name", "recipient_address", "recipient_phone")
LIMIT_KEYS = ("max_rows", "rows_key", "max_bytes")
SHOP_TOOLS = {"get_order_status", "track_shipping", "search_products", "check_stock"}


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"example_tools_{name}", TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _default_fixtures(monkeypatch):
    monkeypatch.delenv("PLAYGROUND_FIXTURES", raising=False)


@pytest.fixture(scope="module")
def shop():
    return _load("shop")


@pytest.fixture(scope="module")
def inventory():
    return _load("inventory")


@pytest.fixture()
def flaky():
    module = _load("flaky")
    module.reset_flaky()
    return module


def _csv(name: str) -> list[dict[str, str]]:
    with open(FIXTURES / name, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _jsonl(name: str) -> list[dict]:
    lines = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _orders() -> dict[str, dict[str, str]]:
    return {r["order_id"]: r for r in _csv("orders.csv")}


def _products() -> dict[str, dict[str, str]]:
    return {r["product_id"]: r for r in _csv("products.csv")}


def _valid(module, tool: str, value) -> None:
    returns = module.__contracts__[tool]["returns"]
    schema = {k: v for k, v in returns.items() if k not in LIMIT_KEYS}
    jsonschema.validate(value, schema)


# --- fixtures: the data itself -------------------------------------------------------------


def test_orders_csv_covers_every_status_with_consistent_rows():
    orders, products = _orders(), _products()
    assert len(orders) >= 40
    assert list(_csv("orders.csv")[0]) == [
        "order_id",
        "ordered_at",
        "product_id",
        "product_name",
        "option",
        "quantity",
        "amount",
        "order_status",
        "courier",
        "tracking_no",
        "shipped_at",
        "delivered_at",
        "recipient_name",
        "recipient_address",
        "recipient_phone",
    ]
    assert {r["order_status"] for r in orders.values()} == {
        "결제완료",
        "배송준비",
        "배송중",
        "배송완료",
        "취소",
    }
    for oid, r in orders.items():
        assert re.fullmatch(r"HR\d{8}", oid)
        p = products[r["product_id"]]
        assert r["product_name"] == p["product_name"]
        assert r["option"] in p["options"].split("/")
        assert int(r["amount"]) == int(p["price"]) * int(r["quantity"])
        assert re.fullmatch(r"010-0000-\d{4}", r["recipient_phone"])
        shipped = r["order_status"] in ("배송중", "배송완료")
        assert bool(r["tracking_no"]) == shipped, oid
        assert bool(r["delivered_at"]) == (r["order_status"] == "배송완료"), oid
    assert any(
        r["order_status"] == "배송중" and "텀블러" in r["product_name"] for r in orders.values()
    )


def test_products_csv_has_the_demo_products():
    products = _products()
    assert len(products) >= 30
    assert all(re.fullmatch(r"P\d{3}", pid) for pid in products)
    names = [p["product_name"] for p in products.values()]
    for word in ("텀블러", "이불커버", "운동화"):
        assert any(word in n for n in names), word
    assert sum("에어프라이어" in n for n in names) == 1
    assert sum(int(p["stock"]) == 0 for p in products.values()) >= 3


# --- shop: orders ---------------------------------------------------------------------------


def test_get_order_status_returns_what_was_bought(shop):
    result = shop.get_order_status("HR20260604")
    assert result == {
        "found": True,
        "order_id": "HR20260604",
        "product_name": "스테인리스 진공 텀블러 500ml",
        "option": "블랙",
        "quantity": 1,
        "amount": 18900,
        "ordered_at": "2026-06-02 22:33",
        "status": "배송중",
    }
    assert shop.get_order_status(" hr20260604 ")["order_id"] == "HR20260604"


def test_unknown_order_is_a_fact_not_an_error(shop):
    for tool in (shop.get_order_status, shop.track_shipping):
        result = tool("HR99999999")
        assert result["found"] is False
        assert result["message"].startswith("주문번호 HR99999999 를 찾을 수 없습니다.")
        assert set(result) == {"found", "message"}


def test_track_shipping_in_transit_and_delivered(shop):
    moving = shop.track_shipping("HR20260604")
    assert moving == {
        "found": True,
        "order_id": "HR20260604",
        "shipped": True,
        "status": "배송중",
        "courier": "롯데택배",
        "tracking_no": "60834578967",
        "shipped_at": "2026-06-03",
        "delivered_at": None,
    }
    done = shop.track_shipping("HR20260601")
    assert (
        done["shipped"] is True
        and done["delivered_at"] == "2026-06-03"
        and done["status"] == "배송완료"
    )


@pytest.mark.parametrize(
    "order_id, status", [("HR20260629", "배송준비"), ("HR20260638", "결제완료")]
)
def test_track_shipping_before_dispatch_says_not_shipped(shop, order_id, status):
    result = shop.track_shipping(order_id)
    assert result["found"] is True and result["shipped"] is False and result["status"] == status
    assert "아직 출고 전" in result["message"]
    assert "tracking_no" not in result


def test_track_shipping_cancelled_order_says_so(shop):
    result = shop.track_shipping("HR20260607")
    assert result["found"] is True and result["shipped"] is False and result["status"] == "취소"
    assert "취소" in result["message"]


def test_no_personal_data_in_any_result(shop):
    orders = _orders()
    secrets = [r[k] for r in orders.values() for k in PERSONAL]
    results = []
    for oid in orders:
        results += [shop.get_order_status(oid), shop.track_shipping(oid)]
    for pid in _products():
        results.append(shop.check_stock(pid))
    for word in ("텀블러", "주방", "가전", "침구", "스테인리스"):
        results.append(shop.search_products(word))
    assert shop.search_products("김하늘")["rows"] == []  # a recipient's name finds nothing
    for result in results:
        text = json.dumps(result, ensure_ascii=False)
        assert not set(result) & set(PERSONAL)
        assert not any(key in text for key in PERSONAL)
        leaked = [s for s in secrets if s in text]
        assert not leaked, (result, leaked)


def test_every_order_result_matches_its_declared_schema(shop):
    for oid in _orders():
        _valid(shop, "get_order_status", shop.get_order_status(oid))
        _valid(shop, "track_shipping", shop.track_shipping(oid))
    _valid(shop, "get_order_status", shop.get_order_status("nope"))
    _valid(shop, "track_shipping", shop.track_shipping("nope"))
    with pytest.raises(jsonschema.ValidationError):  # the schema forbids extra keys (a leak)
        _valid(shop, "track_shipping", {**shop.track_shipping("HR20260604"), "recipient_name": "x"})


# --- shop: products ---------------------------------------------------------------------------


def test_search_products_returns_at_most_five_rows_with_ids(shop):
    result = shop.search_products("주방")
    assert result["count"] == 5 and result["total_matches"] == 7 and len(result["rows"]) == 5
    assert all(re.fullmatch(r"P\d{3}", row["product_id"]) for row in result["rows"])
    assert "7건 중" in result["note"]
    row = shop.search_products("텀블러")["rows"][0]
    assert row == {
        "product_id": "P001",
        "product_name": "스테인리스 진공 텀블러 500ml",
        "category": "주방",
        "price": 18900,
        "options": ["화이트", "블랙", "네이비", "민트"],
        "material": "스테인리스 304",
        "description": "이중 진공 단열로 보온 6시간·보냉 12시간을 유지한다. 뚜껑을 분리해 세척할 수 있다.",
    }
    assert "stock" not in row


@pytest.mark.parametrize(
    "keyword, ids",
    [
        ("텀블러", ["P001", "P002", "P025", "P026"]),
        ("에어프라이어", ["P007"]),
        ("스테인리스 텀블러", ["P001"]),  # every word must match
        ("bpa", ["P002"]),  # case-insensitive, description searched
        ("침구", ["P003", "P004", "P012", "P013"]),  # category searched
        ("운동화", ["P005", "P006", "P017", "P018"]),
    ],
)
def test_search_products_matching(shop, keyword, ids):
    result = shop.search_products(keyword)
    assert [r["product_id"] for r in result["rows"]] == ids
    assert result["count"] == len(ids) and "note" not in result


@pytest.mark.parametrize("keyword", ["냉장고", "텀블러 냉장고", "   "])
def test_search_products_empty_result_carries_a_note(shop, keyword):
    result = shop.search_products(keyword)
    assert result["rows"] == [] and result["count"] == 0
    assert result["note"]
    if keyword.strip():
        assert result["note"].startswith("조건에 맞는 상품이 없습니다. 다른 검색어로")
    _valid(shop, "search_products", result)


def test_check_stock_computes_in_stock(shop):
    assert shop.check_stock("P007") == {
        "found": True,
        "product_id": "P007",
        "product_name": "바스켓형 에어프라이어 5.5L",
        "stock": 8,
        "in_stock": True,
    }
    assert shop.check_stock("p008")["in_stock"] is False
    for pid, row in _products().items():
        result = shop.check_stock(pid)
        assert result["stock"] == int(row["stock"]) and result["in_stock"] is (
            int(row["stock"]) > 0
        )
        _valid(shop, "check_stock", result)
    missing = shop.check_stock("P999")
    assert missing["found"] is False and "search_products" in missing["message"]


def test_shop_contracts_and_docstrings(shop):
    assert [f.__name__ for f in shop.__tools__] == [
        "get_order_status",
        "track_shipping",
        "search_products",
        "check_stock",
    ]
    search = shop.__contracts__["search_products"]["returns"]
    assert search["max_rows"] == 5 and search["rows_key"] == "rows"
    for name in ("get_order_status", "track_shipping", "check_stock"):
        assert shop.__contracts__[name]["returns"]["required"] == ["found"]
    docs = {f.__name__: f.__doc__ for f in shop.__tools__}
    for name, doc in docs.items():
        assert "Args:" in doc and "사용하지 않는다" in doc and "예:" in doc, name
    assert "'P'로 시작한다. 예: P008" in docs["check_stock"]
    assert "'HR'로 시작한다. 예: HR20260601" in docs["track_shipping"]
    assert (
        "track_shipping" in docs["get_order_status"]
        and "get_order_status" in docs["track_shipping"]
    )
    assert docs["search_products"].startswith(
        "상품명·카테고리·설명에서 키워드로 하루마켓 판매 상품을 검색한다."
    )
    assert "예: '텀블러', '이불커버', '운동화'" in docs["search_products"]


def test_shop_reads_fixtures_from_the_override_folder(shop, tmp_path, monkeypatch):
    for name in ("orders.csv", "products.csv"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    text = (tmp_path / "products.csv").read_text(encoding="utf-8")
    (tmp_path / "products.csv").write_text(text.replace(",8\nP008", ",0\nP008"), encoding="utf-8")
    assert shop.check_stock("P007")["in_stock"] is True
    monkeypatch.setenv("PLAYGROUND_FIXTURES", str(tmp_path))
    assert shop.check_stock("P007") == {**shop.check_stock("P007"), "stock": 0, "in_stock": False}
    monkeypatch.setenv("PLAYGROUND_FIXTURES", str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="nowhere"):
        shop.get_order_status("HR20260604")


# --- inventory ---------------------------------------------------------------------------------


def test_inventory_data_has_the_seed_003_cases(inventory):
    assert inventory.REGIONS == ["seoul", "busan", "daejeon"]
    assert inventory.REGIONS[0] == inventory.FALLBACK_REGION and inventory.MAX_ROWS == 5
    stock = inventory.STOCK
    assert len(stock[("KB-101", "seoul")]) > inventory.MAX_ROWS
    assert ("MN-303", "daejeon") not in stock and ("MN-303", "seoul") in stock
    assert all(region in inventory.REGIONS for _, region in stock)
    assert stock[("KB-101", "busan")] == [
        {"store": "서면점", "count": 6},
        {"store": "해운대점", "count": 3},
        {"store": "동래점", "count": 8},
    ]
    assert min(r["count"] for r in stock[("HD-404", "busan")]) < 0  # the result:range demo
    stock[("KB-101", "busan")].clear()  # STOCK is a fresh copy: mutating it changes nothing
    assert len(inventory.STOCK[("KB-101", "busan")]) == 3


def test_stock_lookup_honours_limit_and_legacy_stock_does_not(inventory):
    result = inventory.stock_lookup("KB-101", "seoul", 3)
    assert result == {
        "sku": "KB-101",
        "region": "seoul",
        "rows": [
            {"store": "강남점", "count": 12},
            {"store": "홍대점", "count": 4},
            {"store": "잠실점", "count": 7},
        ],
    }
    assert (
        len(inventory.stock_lookup("KB-101", "seoul", inventory.MAX_ROWS)["rows"])
        == inventory.MAX_ROWS
    )
    legacy = inventory.legacy_stock("KB-101", "seoul")
    assert len(legacy["rows"]) == 7 > inventory.MAX_ROWS
    assert inventory.stock_lookup("MN-303", "daejeon", 3)["rows"] == []


def test_inventory_contract_table(inventory):
    table = inventory.TOOLS
    assert set(table) == {"stock_lookup", "legacy_stock"}
    lookup = table["stock_lookup"]
    assert (
        lookup["fn"] is inventory.stock_lookup
        and table["legacy_stock"]["fn"] is inventory.legacy_stock
    )
    assert set(lookup["args"]) == {"sku", "region", "limit"}
    assert lookup["args"]["region"]["allowed"] == inventory.REGIONS
    limit = lookup["args"]["limit"]
    assert (limit["type"], limit["required"], limit["min"], limit["max"]) == (
        "int",
        True,
        1,
        inventory.MAX_ROWS,
    )
    assert set(table["legacy_stock"]["args"]) == {"sku", "region"}
    for entry in table.values():
        assert entry["returns"]["keys"] == {"sku": "str", "region": "str", "rows": "list"}
        assert entry["returns"]["rows"] == {
            "max_len": 5,
            "item": {"store": "str", "count": "int"},
            "min": {"count": 0},
        }
        assert "사용하지 않는다" in entry["description"]
        assert re.fullmatch(entry["args"]["sku"]["pattern"], "KB-101")


def test_inventory_reads_the_override_folder(inventory, tmp_path, monkeypatch):
    (tmp_path / "stock.csv").write_text(
        "sku,region,store,count\nZZ-001,busan,테스트점,4\n", encoding="utf-8"
    )
    monkeypatch.setenv("PLAYGROUND_FIXTURES", str(tmp_path))
    assert inventory.STOCK == {("ZZ-001", "busan"): [{"store": "테스트점", "count": 4}]}
    assert inventory.stock_lookup("KB-101", "seoul", 3)["rows"] == []
    (tmp_path / "stock.csv").write_text(
        "sku,region,store,count\nZZ-001,busan,테스트점,many\n", encoding="utf-8"
    )
    with pytest.raises(ValueError, match="count must be an integer"):
        inventory.stock_lookup("ZZ-001", "busan", 1)


# --- flaky ----------------------------------------------------------------------------------------


def test_flaky_lookup_fails_then_succeeds_per_item(flaky):
    for attempt in (1, 2):
        with pytest.raises(flaky.TransientToolError, match=f"call {attempt}") as info:
            flaky.flaky_lookup("A-100")
        assert info.value.kind == "transient"
    assert flaky.flaky_lookup("A-100") == {"item_id": "A-100", "found": True, "calls_so_far": 3}
    assert flaky.flaky_lookup("B-200", failures=0)["found"] is True
    flaky.reset_flaky()
    with pytest.raises(flaky.TransientToolError):
        flaky.flaky_lookup("A-100")


def test_each_flaky_tool_fails_its_own_way(flaky, monkeypatch):
    with pytest.raises(PermissionError):
        flaky.forbidden_lookup("A-100")
    with pytest.raises(KeyError, match="price"):
        flaky.broken_lookup("A-100")
    empty = flaky.empty_search("keyboard")
    assert empty["rows"] == [] and empty["keyword"] == "keyboard" and empty["note"]
    slept = []
    monkeypatch.setattr(flaky.time, "sleep", slept.append)
    assert flaky.slow_lookup("A-100")["found"] is True
    assert slept == [3.0] and slept[0] > flaky.__contracts__["slow_lookup"]["timeout_s"] == 1.0


@pytest.mark.parametrize("status", [429, 500, 503, 401, 403])
def test_http_lookup_carries_the_status(flaky, status):
    with pytest.raises(flaky.HttpStatusError) as info:
        flaky.http_lookup("A-100", status=status)
    assert info.value.status_code == status and str(info.value).startswith(str(status))
    assert "server error" not in str(info.value).lower() or status == 500


def test_http_lookup_403_server_error_and_success(flaky):
    with pytest.raises(flaky.HttpStatusError, match="server error") as info:
        flaky.http_lookup("A-100", status=403, server_error=True)
    assert info.value.status_code == 403
    assert flaky.http_lookup("A-100", status=200) == {
        "item_id": "A-100",
        "found": True,
        "http_status": 200,
    }
    assert [f.__name__ for f in flaky.__tools__] == [
        "slow_lookup",
        "flaky_lookup",
        "forbidden_lookup",
        "empty_search",
        "padded_search",
        "broken_lookup",
        "http_lookup",
    ]
    assert set(flaky.__contracts__) == {f.__name__ for f in flaky.__tools__}


def test_tool_modules_import_without_playground_and_read_lazily():
    code = (
        "import importlib.util, sys\n"
        "for name in ('shop', 'inventory', 'flaky'):\n"
        f"    spec = importlib.util.spec_from_file_location(name, {str(TOOLS)!r} + '/' + name + '.py')\n"
        "    spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('playground', 'pandas', 'google')]\n"
        "assert not bad, bad\n"
    )
    env = {"PLAYGROUND_FIXTURES": "/nonexistent/folder", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd="/"
    )
    assert done.returncode == 0, done.stderr


# --- case files --------------------------------------------------------------------------------


def test_routing_cases(shop):
    cases = _jsonl("routing_cases.jsonl")
    orders, products = _orders(), _products()
    positives = [c for c in cases if c["expect_tool"] is not None]
    negatives = [c for c in cases if c["expect_tool"] is None]
    assert len(positives) >= 20 and len(negatives) >= 20
    for case in cases:
        assert set(case) <= {"question", "expect_tool", "expect_args"} and case["question"].strip()
        assert case["expect_tool"] in SHOP_TOOLS | {None}
        args = case.get("expect_args", {})
        assert isinstance(args, dict)
        if "order_id" in args:
            assert args["order_id"] in orders and args["order_id"] in case["question"]
        if "product_id" in args:
            assert args["product_id"] in products and args["product_id"] in case["question"]
        if "keyword" in args:
            assert shop.search_products(args["keyword"])["count"] >= 1
    for tool in SHOP_TOOLS:
        assert sum(c["expect_tool"] == tool for c in positives) >= 4, tool
    demo = [
        c for c in positives if c["expect_tool"] == "track_shipping" and "텀블러" in c["question"]
    ]
    assert demo
    order = orders[demo[0]["expect_args"]["order_id"]]
    assert order["order_status"] == "배송중" and "텀블러" in order["product_name"]
    assert any(re.search(r"[A-Za-z]{4}", c["question"]) for c in negatives)  # English too
    assert any(re.search(r"[가-힣]", c["question"]) for c in negatives)


CHECK_KINDS = {
    "ok",
    "empty",
    "invalid_args",
    "bad_result",
    "transient",
    "permission",
    "raised",
    "unknown_tool",
}
VERDICT = re.compile(
    r"^valid$|^shape$|^unknown_tool$|^(missing|unknown|type|allowed|range|pattern|format):\w+$"
)


@pytest.mark.parametrize("name", ["shop_checks.jsonl", "inventory_checks.jsonl"])
def test_check_case_files_are_well_formed(shop, inventory, name):
    cases = _jsonl(name)
    known = SHOP_TOOLS | set(inventory.TOOLS)
    for case in cases:
        assert set(case) == {"tool", "args", "expect"}
        expect = case["expect"]
        assert set(expect) <= {"kind", "verdict", "body_ran", "cache", "ok"}
        assert expect.get("kind", "ok") in CHECK_KINDS
        assert VERDICT.match(expect.get("verdict", "valid")), expect
        assert expect.get("cache", "skip") in {"miss", "hit", "stored", "skip"}
        assert isinstance(expect.get("body_ran", True), bool) and isinstance(
            expect.get("ok", True), bool
        )
        if case["tool"] not in known:
            assert expect["kind"] == "unknown_tool" and expect["verdict"] == "unknown_tool"
        if expect.get("kind") == "invalid_args":
            assert expect["body_ran"] is False and expect["verdict"]
    verdicts = {c["expect"].get("verdict", "").split(":")[0] for c in cases}
    assert {"missing", "type", "unknown", "shape", "unknown_tool"} <= verdicts
    assert any(c["expect"].get("cache") == "stored" for c in cases)
    hits = [c for c in cases if c["expect"].get("cache") == "hit"]
    assert hits and all(c["expect"]["body_ran"] is False for c in hits)


def test_inventory_checks_cover_the_seed_003_reasons():
    cases = _jsonl("inventory_checks.jsonl")
    verdicts = {c["expect"].get("verdict") for c in cases}
    assert {
        "missing:limit",
        "type:limit",
        "allowed:region",
        "range:limit",
        "unknown:foo",
        "shape",
        "unknown_tool",
    } <= verdicts
    assert any(
        c["tool"] == "legacy_stock" and c["expect"].get("kind") == "bad_result" for c in cases
    )
    assert any(c["expect"].get("kind") == "empty" for c in cases)
    first, again = cases[0], cases[1]
    assert first["args"] == again["args"] and list(first["args"]) != list(
        again["args"]
    )  # same args, other order
    assert (first["expect"]["cache"], again["expect"]["cache"]) == ("stored", "hit")
