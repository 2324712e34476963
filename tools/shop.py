"""하루마켓 shop tools: the four example tools of seeds 000 and 001.

Plain Python (standard library only), importable without the playground package. The data
is two CSV files read with :mod:`csv` at the first call, not at import:

* ``orders.csv``   -- ``get_order_status`` and ``track_shipping`` (seed 000: two tools over one
  row, split by concern: "what was bought, which stage" vs "where is the parcel").
* ``products.csv`` -- ``search_products`` and ``check_stock`` (seed 001).

The folder is ``<repo>/fixtures`` (``Path(__file__).resolve().parent.parent / "fixtures"``),
else ``./fixtures`` (a copy of this file run from the repository), or ``$PLAYGROUND_FIXTURES``
(read at every call, so tests can point the tools at copies). Files are cached per ``(path,
mtime, size)``, so an edited copy is read again.

Each function's docstring is the description the model reads (google-genai puts the whole
docstring, ``Args:`` included, into the declaration -- seed 001), so the docstrings follow the
seeds' pattern: what it does, when to use it, when not (pointing at the alternative tool),
and each argument's format with an example. The result shapes are declared as JSON Schema in
``__contracts__`` below; in short (amounts and prices are integers in 원):

* ``get_order_status`` -> ``{found, order_id, product_name, option, quantity, amount,
  ordered_at, status}``, or ``{found: False, message}`` for an unknown order id.
* ``track_shipping`` -> ``{found, order_id, shipped, status, courier, tracking_no, shipped_at,
  delivered_at}`` (``delivered_at`` is ``None`` until delivered); ``shipped: False`` plus a
  ``message`` when there is no tracking number yet or the order was cancelled; ``{found:
  False, message}`` for an unknown id.
* ``search_products`` -> ``{keyword, count, total_matches, rows: [...] (at most 5)}`` plus a
  ``note`` when nothing matched or when rows were cut (seed 002: an empty result carries a note).
* ``check_stock`` -> ``{found, product_id, product_name, stock, in_stock}`` (``in_stock`` is
  computed by the code: ``stock > 0``, seed 001), or ``{found: False, message}``.

An everyday failure (an unknown id) is returned as a fact, never raised (seed 000). A missing
or unreadable fixture file raises ``FileNotFoundError`` with the path in the message.

Results never contain the recipient's name, address or phone (seed 000, "필요한 것만 돌려준다");
the ``additionalProperties: false`` in the returns schemas makes the contract say so too.
"""

import csv
import functools
import os
from pathlib import Path

FIXTURES_ENV = "PLAYGROUND_FIXTURES"
MAX_SEARCH_ROWS = 5  # seed 001: search results are cut to 5 rows (.head(5))
ORDER_STATUSES = ["결제완료", "배송준비", "배송중", "배송완료", "취소"]


def fixtures_dir() -> Path:
    """``$PLAYGROUND_FIXTURES`` if set, else ``<repo>/fixtures``, else ``./fixtures`` (a copy)."""
    override = os.environ.get(FIXTURES_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    return _beside_or_here(Path(__file__).resolve().parent.parent / "fixtures")


@functools.lru_cache(maxsize=16)
def _read_csv_cached(path: str, mtime_ns: int, size: int) -> tuple[dict[str, str], ...]:
    with open(path, encoding="utf-8", newline="") as fh:
        return tuple(dict(row) for row in csv.DictReader(fh))


def _read_csv(filename: str) -> tuple[dict[str, str], ...]:
    """All rows of ``filename`` in the fixtures folder (cached by path, mtime and size)."""
    path = fixtures_dir() / filename
    try:
        st = path.stat()
    except OSError:
        raise FileNotFoundError(
            f"fixture file not found: {path} (set {FIXTURES_ENV} to a folder holding {filename})"
        ) from None
    return _read_csv_cached(str(path), st.st_mtime_ns, st.st_size)


def _find(filename: str, key: str, value: str) -> dict[str, str] | None:
    for row in _read_csv(filename):
        if row.get(key, "").strip().upper() == value:
            return row
    return None


def _blank(value: str | None) -> bool:
    return value is None or value.strip() == ""


def _order_not_found(order_id: str) -> dict:
    """An unknown order id is an everyday fact, not an error (seed 000): found False + message."""
    return {
        "found": False,
        "message": f"주문번호 {order_id} 를 찾을 수 없습니다. "
        "주문번호는 'HR'로 시작하는 10자리입니다(예: HR20260601). 고객에게 번호를 다시 확인해 주세요.",
    }


def get_order_status(order_id: str) -> dict:
    """하루마켓 주문번호로 주문 내역과 진행 단계를 조회한다.
    무엇을 샀는지(상품명·옵션·수량·결제 금액), 언제 주문했는지, 주문이 지금 어느 단계인지
    (결제완료·배송준비·배송중·배송완료·취소) 묻는 문의에 사용한다.
    택배가 어디쯤인지(where is my parcel), 택배사(courier)·송장번호·출고일·도착일을 묻는 문의에는
    사용하지 않는다(track_shipping을 쓴다).
    상품 정보(소재·가격) 문의에는 사용하지 않는다(search_products를 쓴다).
    재고 문의에도 사용하지 않는다(check_stock을 쓴다).

    Args:
        order_id: 하루마켓 주문번호. 'HR'로 시작한다. 예: HR20260601
    """
    wanted = str(order_id).strip()
    row = _find("orders.csv", "order_id", wanted.upper())
    if row is None:
        return _order_not_found(wanted)
    return {
        "found": True,
        "order_id": row["order_id"],
        "product_name": row["product_name"],
        "option": row["option"],
        "quantity": int(row["quantity"]),
        "amount": int(row["amount"]),
        "ordered_at": row["ordered_at"],
        "status": row["order_status"],
    }


def track_shipping(order_id: str) -> dict:
    """하루마켓 주문번호로 택배 배송 현황을 조회한다.
    택배(parcel)가 어디쯤인지, 언제 출고·도착했는지, 택배사(courier)와 송장번호를 묻는 문의에
    사용한다 (Where is my parcel? Which courier has it?).
    아직 출고 전이면 shipped가 false이고 송장이 없다는 안내가 함께 온다.
    무엇을 주문했는지, 결제 금액, 주문 단계만 묻는 문의에는 사용하지 않는다(get_order_status를 쓴다).
    주문번호 없이 묻는 일반 배송 안내(배송비, 배송 기간)에도 사용하지 않는다.

    Args:
        order_id: 하루마켓 주문번호. 'HR'로 시작한다. 예: HR20260601
    """
    wanted = str(order_id).strip()
    row = _find("orders.csv", "order_id", wanted.upper())
    if row is None:
        return _order_not_found(wanted)
    status = row["order_status"]
    if status == "취소":
        return {
            "found": True,
            "order_id": row["order_id"],
            "shipped": False,
            "status": status,
            "message": "취소된 주문이라 배송이 진행되지 않습니다. 송장도 발급되지 않았습니다.",
        }
    if _blank(row.get("tracking_no")):  # seed 000: a blank tracking number means "not shipped yet"
        return {
            "found": True,
            "order_id": row["order_id"],
            "shipped": False,
            "status": status,
            "message": "아직 출고 전이라 송장이 등록되지 않았습니다. 출고된 뒤 다시 조회하면 확인할 수 있습니다.",
        }
    return {
        "found": True,
        "order_id": row["order_id"],
        "shipped": True,
        "status": status,
        "courier": row["courier"],
        "tracking_no": row["tracking_no"],
        "shipped_at": row["shipped_at"] or None,
        "delivered_at": None if _blank(row.get("delivered_at")) else row["delivered_at"],
    }


def _product_row(row: dict[str, str]) -> dict:
    return {
        "product_id": row["product_id"],
        "product_name": row["product_name"],
        "category": row["category"],
        "price": int(row["price"]),
        "options": [o.strip() for o in row["options"].split("/") if o.strip()],
        "material": row["material"],
        "description": row["description"],
    }


def search_products(keyword: str) -> dict:
    """상품명·카테고리·설명에서 키워드로 하루마켓 판매 상품을 검색한다.
    상품의 가격(price), 옵션(색상·사이즈·용량 몇 리터), 특징, 소재 등 '상품 자체'와 하루마켓이
    파는(sell) 상품에 대한 문의에 사용한다.
    상품ID를 모르는 재고 문의는 먼저 이 도구로 상품ID를 찾은 뒤 check_stock을 부른다.
    주문·배송 상태 조회에는 사용하지 않는다. 결과는 최대 5건이다.

    Args:
        keyword: 검색어. 여러 단어면 모두 들어간 상품만 찾는다. 예: '텀블러', '이불커버', '운동화'
    """
    text = str(keyword).strip()
    words = [w.casefold() for w in text.split()]
    if not words:
        return {
            "keyword": text,
            "count": 0,
            "total_matches": 0,
            "rows": [],
            "note": "검색어가 비어 있습니다. 상품 이름이나 종류로 다시 검색하세요. 예: '텀블러'",
        }
    matches = []
    for row in _read_csv("products.csv"):
        haystack = " ".join((row["product_name"], row["category"], row["description"])).casefold()
        if all(w in haystack for w in words):
            matches.append(row)
    rows = [_product_row(r) for r in matches[:MAX_SEARCH_ROWS]]
    result: dict = {
        "keyword": text,
        "count": len(rows),
        "total_matches": len(matches),
        "rows": rows,
    }
    if not matches:
        result["note"] = (
            f"조건에 맞는 상품이 없습니다. 다른 검색어로 다시 찾아보세요 "
            f"(더 짧은 단어나 상품 종류, 예: '텀블러'). '{text}' 상품을 판매하지 않을 수도 있습니다."
        )
    elif len(matches) > MAX_SEARCH_ROWS:
        result["note"] = (
            f"검색 결과 {len(matches)}건 중 앞의 {MAX_SEARCH_ROWS}건만 보여 줍니다. "
            "더 구체적인 검색어로 좁혀 보세요."
        )
    return result


def check_stock(product_id: str) -> dict:
    """상품ID로 현재 재고 수량을 확인한다. 구매 가능 여부·교환 가능 여부·재입고 문의에 사용한다.
    상품ID를 모르고 상품 이름만 알면 먼저 search_products로 상품ID를 찾는다.
    주문·배송 상태 조회에는 사용하지 않는다.

    Args:
        product_id: 상품ID. 'P'로 시작한다. 예: P008
    """
    wanted = str(product_id).strip()
    row = _find("products.csv", "product_id", wanted.upper())
    if row is None:
        return {
            "found": False,
            "message": f"상품ID {wanted} 를 찾을 수 없습니다. 상품ID는 'P'로 시작합니다(예: P008). "
            "상품 이름만 알면 search_products로 먼저 상품ID를 찾으세요.",
        }
    stock = int(row["stock"])
    return {
        "found": True,
        "product_id": row["product_id"],
        "product_name": row["product_name"],
        "stock": stock,
        "in_stock": stock > 0,  # seed 001: what the code can decide, the code decides
    }


__tools__ = [get_order_status, track_shipping, search_products, check_stock]

_NOT_FOUND = {
    "type": "object",
    "properties": {"found": {"const": False}, "message": {"type": "string", "minLength": 1}},
    "required": ["found", "message"],
    "additionalProperties": False,
}

_ORDER_FOUND = {
    "type": "object",
    "properties": {
        "found": {"const": True},
        "order_id": {"type": "string", "pattern": "^HR[0-9]{8}$"},
        "product_name": {"type": "string"},
        "option": {"type": "string"},
        "quantity": {"type": "integer", "minimum": 1},
        "amount": {"type": "integer", "minimum": 0, "description": "결제 금액 (원)"},
        "ordered_at": {"type": "string", "description": "주문 일시, YYYY-MM-DD HH:MM"},
        "status": {"enum": ORDER_STATUSES},
    },
    "required": [
        "found",
        "order_id",
        "product_name",
        "option",
        "quantity",
        "amount",
        "ordered_at",
        "status",
    ],
    "additionalProperties": False,
}

_SHIPPING_FOUND = {
    "type": "object",
    "properties": {
        "found": {"const": True},
        "order_id": {"type": "string", "pattern": "^HR[0-9]{8}$"},
        "shipped": {"type": "boolean"},
        "status": {"enum": ORDER_STATUSES},
        "message": {"type": "string"},
        "courier": {"type": "string"},
        "tracking_no": {"type": "string", "minLength": 1},
        "shipped_at": {"type": ["string", "null"], "description": "출고일, YYYY-MM-DD"},
        "delivered_at": {
            "type": ["string", "null"],
            "description": "배송완료일, YYYY-MM-DD; 배송 전이면 null",
        },
    },
    "required": ["found", "order_id", "shipped", "status"],
    "additionalProperties": False,
    "if": {"properties": {"shipped": {"const": True}}},
    "then": {"required": ["courier", "tracking_no", "shipped_at", "delivered_at"]},
    "else": {"required": ["message"]},
}

_PRODUCT_ROW = {
    "type": "object",
    "properties": {
        "product_id": {"type": "string", "pattern": "^P[0-9]{3}$"},
        "product_name": {"type": "string"},
        "category": {"type": "string"},
        "price": {"type": "integer", "minimum": 0, "description": "판매가 (원)"},
        "options": {"type": "array", "items": {"type": "string"}},
        "material": {"type": "string"},
        "description": {"type": "string"},
    },
    "required": ["product_id", "product_name", "category", "price", "options"],
    "additionalProperties": False,
}

_STOCK_FOUND = {
    "type": "object",
    "properties": {
        "found": {"const": True},
        "product_id": {"type": "string", "pattern": "^P[0-9]{3}$"},
        "product_name": {"type": "string"},
        "stock": {"type": "integer", "minimum": 0, "description": "재고 수량 (개)"},
        "in_stock": {"type": "boolean"},
    },
    "required": ["found", "product_id", "product_name", "stock", "in_stock"],
    "additionalProperties": False,
}


def _found_or_not(found_schema: dict) -> dict:
    """``found: true`` -> ``found_schema``, else the not-found shape (``if/then/else``, not
    ``oneOf``, so a bad number inside a found result is reported as a range error, not a shape)."""
    return {
        "type": "object",
        "properties": {"found": {"type": "boolean"}},
        "required": ["found"],
        "if": {"properties": {"found": {"const": True}}, "required": ["found"]},
        "then": found_schema,
        "else": _NOT_FOUND,
    }


__contracts__ = {
    "get_order_status": {
        "returns": _found_or_not(_ORDER_FOUND),
        "side_effects": False,
        "cacheable": True,
        "timeout_s": 2.0,
    },
    "track_shipping": {
        "returns": _found_or_not(_SHIPPING_FOUND),
        "side_effects": False,
        "cacheable": True,
        "timeout_s": 2.0,
    },
    "search_products": {
        "returns": {
            "type": "object",
            "properties": {
                "keyword": {"type": "string"},
                "count": {"type": "integer", "minimum": 0, "description": "rows에 담긴 건수"},
                "total_matches": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "잘리기 전 전체 일치 건수",
                },
                "rows": {"type": "array", "items": _PRODUCT_ROW},
                "note": {"type": "string"},
            },
            "required": ["keyword", "count", "total_matches", "rows"],
            "additionalProperties": False,
            "max_rows": MAX_SEARCH_ROWS,
            "rows_key": "rows",
        },
        "side_effects": False,
        "cacheable": True,
        "timeout_s": 2.0,
    },
    "check_stock": {
        "returns": _found_or_not(_STOCK_FOUND),
        "side_effects": False,
        "cacheable": True,
        "timeout_s": 2.0,
    },
}


def _beside_or_here(beside: Path) -> Path:
    """``beside`` (``<repo>/fixtures``) when it is a folder, else ``./fixtures`` in the working
    directory when that is one: a copy of this file saved outside the repository (``cp
    tools/shop.py /tmp/shop_edited.py``) still reads the repository's data when the playground
    runs from the repository. Else ``beside`` (the error message names it)."""
    here = Path.cwd() / "fixtures"
    return beside if beside.is_dir() or not here.is_dir() else here
