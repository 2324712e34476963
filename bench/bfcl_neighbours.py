"""Near-neighbour should-not cases for ``bench/bfcl.py``: the functions most like an entry's own.

For each entry of a category the pool is every other function of that category (one per BFCL
name). The entry's own tool is turned into a query -- its name split into words and its
description -- and scored by the offline router's own index (:func:`playground.routing.scoring.
score_question` over the pool); the :data:`NEIGHBOURS` best by relevance, excluding the entry's
own function and any function that is the same tool under another entry or another name, are the
near neighbours. The same tool: the same name, the same description, or a relevance to the own
tool's query of at least :data:`SAME_TOOL_SHARE` of the own tool's, either way round (``math_gcd``
and ``number_theory_gcd`` score 0.82 of each other, ``book_hotel`` and ``hotel_booking`` 0.68;
``play_song`` on its own query scores ``play_spotify_song`` 0.94 of itself; while
``prediction_evolution`` scores 0.29 of ``calculate_bacteria_evolution_rate``: near, not the
same). BFCL's dev categories hold many such twins; a twin can answer the question, so pairing
with it would count a right call as a false selection. The entry's question over those declarations is a
should-not case: its tool is absent, the nearest tools are there.
"""

from __future__ import annotations

from typing import Any

from playground.routing import korean
from playground.routing.request_verb import RULE_REQUEST_VERB
from playground.routing.rule_switches import also_without
from playground.routing.scoring import Weights, build_index, score_question

#: Rules that read a question's request, which a declaration turned into a query is not: its
#: name's first word ("get" of get_order_status) would count as the request's verb.
NOT_FOR_QUERIES = (RULE_REQUEST_VERB,)
#: How many near neighbours make up one should-not case.
NEIGHBOURS = 3
#: A function scoring at least this share of the own tool's relevance on the own tool's query is
#: the same tool under another name (a twin), not a near neighbour.
SAME_TOOL_SHARE = 0.5


def _query(decl: dict[str, Any]) -> str:
    """The words of a declaration as a question: its name's parts and its description."""
    name = " ".join(korean.split_identifier(str(decl.get("name", ""))))
    return f"{name}. {decl.get('description') or ''}"


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """True when two declarations are one tool (same name or same description)."""
    da = " ".join(str(a.get("description") or "").lower().split())
    db = " ".join(str(b.get("description") or "").lower().split())
    return a["name"] == b["name"] or (bool(da) and da == db)


def near_neighbours(
    own: list[list[dict[str, Any]]], k: int = NEIGHBOURS
) -> list[list[dict[str, Any]]]:
    """Per entry (``own[i]``: the declarations of entry ``i``), the ``k`` declarations of the
    other entries most similar to its first declaration by the router's index (relevance, then
    name), never one that is the same tool (:func:`_same`, :data:`SAME_TOOL_SHARE`)."""
    pool: dict[str, dict[str, Any]] = {}
    for decls in own:
        for d in decls:
            pool.setdefault(d["name"], d)
    w = Weights()
    idx = build_index(list(pool.values()), w)
    shares: dict[str, dict[str, float]] = {}

    def share(a: str) -> dict[str, float]:
        """Each pooled tool's relevance to ``a``'s query, as a share of ``a``'s own."""
        if a not in shares:
            with also_without(NOT_FOR_QUERIES):
                rows, _words = score_question(idx, _query(pool[a]), w)
            itself = next((r.relevance for r in rows if r.name == a), 0.0) or 1.0
            shares[a] = {r.name: r.relevance / itself for r in rows}
        return shares[a]

    out = []
    for decls in own:
        mine = decls[0]["name"]
        ranked = sorted(share(mine).items(), key=lambda kv: (-kv[1], kv[0]))
        picked: list[dict[str, Any]] = []
        for name, near in ranked:
            d = pool[name]
            if near <= 0 or any(_same(d, m) for m in decls):
                continue
            if max(near, share(name).get(mine, 0.0)) >= SAME_TOOL_SHARE:
                continue
            picked.append(d)
            if len(picked) == k:
                break
        out.append(picked)
    return out
