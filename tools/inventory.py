"""LabHub inventory tools: the two example tools of seed 003, with a contract table ``TOOLS``.

Plain Python (standard library only), importable without the playground package.

Data: ``stock.csv`` (columns ``sku, region, store, count``) in the fixtures folder --
``<repo>/fixtures`` (else ``./fixtures``), or the folder named by ``PLAYGROUND_FIXTURES`` (read
at every call, so tests can point the tools at a changed copy). It is read with :mod:`csv` at the first call,
cached per ``(path, mtime, size)``. ``STOCK`` is computed on attribute access (PEP 562
``__getattr__``): ``{(sku, region): [{"store": str, "count": int}, ...]}``, a fresh dict each
time.

The shipped ``stock.csv`` is shaped to show every result reason of seed 003:

* ``("KB-101", "seoul")`` has 7 rows, more than ``MAX_ROWS``: ``legacy_stock`` ignores any limit
  and breaks the declared ``max_len`` (``result:too_big``); ``stock_lookup`` honours ``limit``.
* ``("MN-303", "daejeon")`` has no rows (an allowed region): ``result:empty``.
* ``("HD-404", "busan")`` has a row with ``count`` -1 (a data-entry error in the legacy
  system): ``result:range`` against the contract's ``min`` count 0.

SKUs must match ``SKU_PATTERN`` (e.g. ``KB-101``; else ``pattern:sku``). Regions outside
``REGIONS`` (e.g. ``"jeju"``) are refused by the contract (``allowed:region``)
before a body runs; ``FALLBACK_REGION`` is what a repair may substitute (seed 003).
"""

import csv
import functools
import os
from pathlib import Path

FIXTURES_ENV = "PLAYGROUND_FIXTURES"
REGIONS = ["seoul", "busan", "daejeon"]
FALLBACK_REGION = REGIONS[0]
MAX_ROWS = 5


def fixtures_dir() -> Path:
    """``$PLAYGROUND_FIXTURES`` if set, else ``<repo>/fixtures``, else ``./fixtures`` (a copy)."""
    override = os.environ.get(FIXTURES_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    return _beside_or_here(Path(__file__).resolve().parent.parent / "fixtures")


@functools.lru_cache(maxsize=8)
def _read_stock_cached(
    path: str, mtime_ns: int, size: int
) -> tuple[tuple[str, str, str, int], ...]:
    out = []
    with open(path, encoding="utf-8", newline="") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            try:
                count = int(row["count"])
            except (KeyError, TypeError, ValueError):
                raise ValueError(
                    f"{path}:{line}: count must be an integer, got {row.get('count')!r}"
                ) from None
            out.append((row["sku"].strip(), row["region"].strip(), row["store"].strip(), count))
    return tuple(out)


def _stock_rows() -> tuple[tuple[str, str, str, int], ...]:
    path = fixtures_dir() / "stock.csv"
    try:
        st = path.stat()
    except OSError:
        raise FileNotFoundError(
            f"fixture file not found: {path} (set {FIXTURES_ENV} to a folder holding stock.csv)"
        ) from None
    return _read_stock_cached(str(path), st.st_mtime_ns, st.st_size)


def load_stock() -> dict[tuple[str, str], list[dict]]:
    """``{(sku, region): [{"store", "count"}, ...]}`` from ``stock.csv``, rows in file order.

    Raises ``FileNotFoundError`` when the file is missing, ``ValueError`` for a non-integer count.
    """
    stock: dict[tuple[str, str], list[dict]] = {}
    for sku, region, store, count in _stock_rows():
        stock.setdefault((sku, region), []).append({"store": store, "count": count})
    return stock


def __getattr__(name: str):
    if name == "STOCK":
        return load_stock()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _rows_for(sku: str, region: str) -> list[dict]:
    return load_stock().get((str(sku).strip().upper(), str(region).strip()), [])


def stock_lookup(sku: str, region: str, limit: int) -> dict:
    """Store-by-store stock of one SKU in one region, at most ``limit`` stores.

    Args:
        sku: product SKU, two capital letters, a dash, three digits. e.g. "KB-101"
        region: one of REGIONS ("seoul", "busan", "daejeon")
        limit: how many store rows to return, 1..MAX_ROWS (5)

    Returns ``{"sku", "region", "rows": [{"store": str, "count": int (units)}, ...]}`` with at
    most ``limit`` rows; ``rows`` is empty when the SKU has no stock record in that region.
    """
    return {
        "sku": str(sku).strip().upper(),
        "region": region,
        "rows": _rows_for(sku, region)[: max(int(limit), 0)],
    }


def legacy_stock(sku: str, region: str) -> dict:
    """The old stock lookup: every store row of one SKU in one region, with no limit.

    Args:
        sku: product SKU. e.g. "KB-101"
        region: one of REGIONS

    Returns the same shape as :func:`stock_lookup` but ignores any limit, so it can return more
    than ``MAX_ROWS`` rows (seed 003 keeps it to show why results are checked: ``too_big``).
    """
    return {"sku": str(sku).strip().upper(), "region": region, "rows": _rows_for(sku, region)}


SKU_PATTERN = "^[A-Z]{2}-[0-9]{3}$"
_SKU_DESCRIPTION = "상품 SKU. 상품 라벨에 적힌 값 그대로. 예: KB-101"
_REGION_DESCRIPTION = "재고를 볼 지역. 고객이 말한 도시를 영문 소문자로. 예: seoul"
_RETURNS = {
    "keys": {"sku": "str", "region": "str", "rows": "list"},
    "rows": {"max_len": MAX_ROWS, "item": {"store": "str", "count": "int"}, "min": {"count": 0}},
}

# Inputs for `playground report` (seed 003 step 8) that only this data knows: a call whose
# result is empty with the shipped stock.csv (the report's `gave_up` figure).
REPORT_PROBES = {
    "empty": {"tool": "stock_lookup", "args": {"sku": "MN-303", "region": "daejeon", "limit": 2}}
}

# The contract table of seed 003: one place for name, arguments, result shape and callable.
TOOLS = {
    "stock_lookup": {
        "fn": stock_lookup,
        "description": (
            "SKU와 지역으로 매장별 재고 수량을 최대 limit곳까지 조회한다. "
            "특정 상품이 어느 매장에 몇 개 있는지 묻는 문의에 사용한다. "
            "주문·배송 조회나 상품 검색에는 사용하지 않는다. "
            "legacy_stock 대신 이 도구를 쓴다(legacy_stock은 개수 제한이 없다)."
        ),
        "args": {
            "sku": {
                "type": "str",
                "required": True,
                "pattern": SKU_PATTERN,
                "description": _SKU_DESCRIPTION,
            },
            "region": {
                "type": "str",
                "required": True,
                "allowed": REGIONS,
                "description": _REGION_DESCRIPTION,
            },
            "limit": {
                "type": "int",
                "required": True,
                "min": 1,
                "max": MAX_ROWS,
                "description": "돌려받을 매장 수. 예: 3",
            },
        },
        "returns": _RETURNS,
        "side_effects": False,
        "cacheable": True,
        "timeout_s": 2.0,
    },
    "legacy_stock": {
        "fn": legacy_stock,
        "description": (
            "SKU와 지역으로 매장별 재고를 전부 돌려주는 예전 조회 도구. 개수 제한(limit)이 없어 "
            "결과가 계약의 최대 행 수를 넘을 수 있다. 새 호출에는 사용하지 않는다 — stock_lookup을 쓴다."
        ),
        "args": {
            "sku": {
                "type": "str",
                "required": True,
                "pattern": SKU_PATTERN,
                "description": _SKU_DESCRIPTION,
            },
            "region": {
                "type": "str",
                "required": True,
                "allowed": REGIONS,
                "description": _REGION_DESCRIPTION,
            },
        },
        "returns": _RETURNS,
        "side_effects": False,
        "cacheable": True,
        "timeout_s": 2.0,
    },
}


def _beside_or_here(beside: Path) -> Path:
    """``beside`` (``<repo>/fixtures``) when it is a folder, else ``./fixtures`` in the working
    directory when that is one: a copy of this file saved outside the repository (``cp
    tools/inventory.py /tmp/inventory_edited.py``) still reads the repository's data when the playground
    runs from the repository. Else ``beside`` (the error message names it)."""
    here = Path.cwd() / "fixtures"
    return beside if beside.is_dir() or not here.is_dir() else here
