"""Cost of the offline router per question at 4, 30 and 300 contracts.

Run: ``python bench/bench_router.py [--repeat N]``. The 48 questions (:func:`questions`) are
asked of every set. Synthetic declarations are generated in the
shop's style (Korean description with what / when / when-not sentences, an ``Args:`` section
with a prefix and an example id, sometimes an enum or an integer limit); the 4-contract set is
the real ``tools/shop.py``. Timing uses :func:`time.perf_counter` over ``--repeat`` rounds of
every question, the three sets alternating (order reversed every other round); "cold" includes
building the per-declaration index (done once per registry version and kept on the router
instance); the wall and CPU medians reuse it. Prints ms per question and the ratios with their
goals (issue 8: 300 contracts <= 5x the time of 30; issue 12: <= 3 ms per question at 30).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playground.routing.base import Turn  # noqa: E402
from playground.routing.offline import OfflineRouter  # noqa: E402

SHOP_QUESTIONS = [
    "텀블러 주문한 거 어디쯤이에요? 주문번호 HR20260604",
    "에어프라이어 재고 있어요?",
    "P008 재고 있나요?",
    "배송비 얼마예요?",
    "Can you check the status of order HR20260644?",
    "쿠폰 발급 내역 조회해 주세요 CP-1234",
    "List all my orders",
    "What's the weather in Paris tomorrow?",
]

VERBS = [
    ("get", "조회한다"),
    ("search", "검색한다"),
    ("check", "확인한다"),
    ("list", "목록을 보여 준다"),
    ("cancel", "취소한다"),
    ("update", "변경한다"),
    ("track", "추적한다"),
    ("issue", "발급한다"),
]
OBJECTS = [
    ("order", "주문", "HR"),
    ("coupon", "쿠폰", "CP"),
    ("member", "회원", "MB"),
    ("review", "리뷰", "RV"),
    ("refund", "환불", "RF"),
    ("point", "적립금", "PT"),
    ("invoice", "세금계산서", "IV"),
    ("address", "배송지", "AD"),
    ("store", "매장", "ST"),
    ("notice", "공지", "NT"),
    ("event", "이벤트", "EV"),
    ("ticket", "문의", "TK"),
    ("gift", "선물", "GF"),
    ("subscription", "구독", "SB"),
    ("wishlist", "찜 목록", "WL"),
    ("cart", "장바구니", "CT"),
    ("payment", "결제", "PY"),
    ("delivery_slot", "배송 시간대", "DS"),
    ("warranty", "보증", "WR"),
    ("rental", "렌탈", "RT"),
]


def questions() -> list[str]:
    """The question set (48, deterministic): the shop's, then per object of :data:`OBJECTS` a
    Korean question with an id, an English one with an id, and every fourth a question no tool
    covers; the same questions for every set, so the sets differ only in their tools."""
    out = list(SHOP_QUESTIONS)
    for k, (obj, oko, prefix) in enumerate(OBJECTS):
        verb, vko = VERBS[k % len(VERBS)]
        out.append(
            f"{oko} {vko.split()[0].removesuffix('한다').removesuffix('을')} 부탁해요 {prefix}-{2000 + k}"
        )
        out.append(f"Please {verb} the {obj.replace('_', ' ')} {prefix}-{3000 + k}")
    return out[:48]


QUESTIONS = questions()


def synthetic(n: int) -> list[dict]:
    """``n`` plausible declarations (deterministic)."""
    out = []
    pairs = [(v, o) for o in OBJECTS for v in VERBS]
    for k in range(n):
        (verb, vko), (obj, oko, prefix) = pairs[k % len(pairs)]
        suffix = "" if k < len(pairs) else f"_v{k // len(pairs) + 1}"
        other = pairs[(k + 7) % len(pairs)]
        name = f"{verb}_{obj}{suffix}"
        props = {f"{obj}_id": {"type": "string"}}
        args = f"    {obj}_id: {oko} 번호. '{prefix}'로 시작한다. 예: {prefix}-{1000 + k}"
        if k % 3 == 0:
            props["status"] = {"type": "string", "enum": ["active", "closed"]}
            args += "\n    status: 상태 필터"
        if k % 4 == 0:
            props["limit"] = {"type": "integer", "minimum": 1, "maximum": 20}
            args += "\n    limit: 최대 건수, 1..20"
        out.append(
            {
                "name": name,
                "description": (
                    f"{oko} 번호로 {oko}을(를) {vko}.\n{oko} 관련 문의에 사용한다.\n"
                    f"{other[1][1]} {other[0][1]} 문의에는 사용하지 않는다"
                    f"({other[0][0]}_{other[1][0]}을 쓴다).\n\nArgs:\n{args}"
                ),
                "parameters": {"type": "object", "properties": props, "required": [f"{obj}_id"]},
            }
        )
    return out


def shop_declarations() -> list[dict]:
    from google.genai import types

    spec = importlib.util.spec_from_file_location("_bench_shop", ROOT / "tools" / "shop.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    decls = []
    for fn in module.__tools__:
        d = types.FunctionDeclaration.from_callable_with_api_option(
            callable=fn, api_option="GEMINI_API", use_json_schema=True
        ).model_dump(mode="json", exclude_none=True)
        decls.append(
            {
                "name": d["name"],
                "description": d["description"],
                "parameters": d["parameters_json_schema"],
            }
        )
    return decls


def measure(sets: list[tuple[str, list[dict]]], repeat: int) -> dict[str, dict[str, float]]:
    """Per set: cold ms (first question incl. indexing) and the median wall and CPU ms per
    question over ``repeat`` rounds; the sets alternate within each round."""
    routers = {}
    out: dict[str, dict[str, float]] = {}
    for label, decls in sets:
        routers[label] = OfflineRouter()
        t0 = time.perf_counter()
        routers[label].next_move([Turn(role="user", text=QUESTIONS[0])], decls)
        out[label] = {"cold": (time.perf_counter() - t0) * 1000}
    wall: dict[str, list[float]] = {label: [] for label, _ in sets}
    cpu: dict[str, list[float]] = {label: [] for label, _ in sets}
    for r in range(repeat):
        order = sets if r % 2 == 0 else list(reversed(sets))
        for label, decls in order:
            router = routers[label]
            w0, c0 = time.perf_counter(), time.process_time()
            for q in QUESTIONS:
                router.next_move([Turn(role="user", text=q)], decls)
            wall[label].append((time.perf_counter() - w0) * 1000 / len(QUESTIONS))
            cpu[label].append((time.process_time() - c0) * 1000 / len(QUESTIONS))
    for label in out:
        out[label]["wall"] = statistics.median(wall[label])
        out[label]["cpu"] = statistics.median(cpu[label])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeat", type=int, default=10, help="rounds over the question set (default 10)"
    )
    ns = parser.parse_args()
    sets = [("4 (shop)", shop_declarations()), ("30", synthetic(30)), ("300", synthetic(300))]
    res = measure(sets, ns.repeat)
    print(f"{len(QUESTIONS)} questions x {ns.repeat} rounds, the sets alternating")
    print(
        f"{'contracts':>10} | {'cold ms':>8} | {'wall ms/question':>16} | {'cpu ms/question':>15}"
    )
    print("-" * 60)
    for label, r in res.items():
        print(f"{label:>10} | {r['cold']:8.2f} | {r['wall']:16.3f} | {r['cpu']:15.3f}")
    for kind in ("cpu", "wall"):
        ratio = res["300"][kind] / res["30"][kind]
        print(
            f"300 vs 30 contracts ({kind} median): {ratio:.2f}x   goal <= 5x   {'met' if ratio <= 5 else 'NOT met'}"
        )
    for kind in ("cpu", "wall"):
        at30 = res["30"][kind]
        print(
            f"ms per question at 30 contracts ({kind} median): {at30:.3f}   goal <= 3 ms   "
            f"{'met' if at30 <= 3 else 'NOT met'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
