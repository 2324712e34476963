"""Rule ``kind_and_id_bridge`` of the offline router: a Korean question over tools documented
only in English, bridged by what needs no translation -- the kind of action asked for and an
identifier's shape.

"주문 HR20260001 상태 알려줘" over ``get_order_status(order_id)`` (English docs) called
nothing: no Korean word can match English text, so no tool was even filled. Two things carry
across languages without a word list of any domain: the request's kind of action (the Korean
request words of :data:`playground.routing.fill.lang.ko.ACTION_WORDS`: 알려줘 asks to read) and
an identifier written as is (``HR20260001``: a word of ASCII letters and digits). When the
question is Korean, no declaration has a Korean word, the request asks for kinds of action, and
exactly one tool does such a kind and takes a required parameter named for an identifier
(``order_id``, ``ticket_number``: its name's last word) while the question holds an identifier,
that tool is filled and gains :attr:`Weights.action <playground.routing.scoring.Weights.
action>` (a ``shape:kind_and_id`` match), and ``offline._fit`` takes the bridge as fitting once
its required values are filled. Two such tools and the bridge says nothing: the shapes do not
tell them apart. Measured: ``python bench/bfcl.py --without kind_and_id_bridge`` (BFCL dev is
English; the rule's cases are in ``tests/routing/cases/kind_and_id_bridge.json``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

from playground.routing import korean
from playground.routing.action_kind import read_request
from playground.routing.rule_switches import known_rule, rule_enabled
from playground.routing.shape_match import shape_match

RULE_BRIDGE = known_rule(
    "kind_and_id_bridge",
    "selection",
    "a Korean request over English tools: its kind of action and an identifier pick the one tool",
)

#: Where the bridge's match is recorded (``ScoreRow.matched``'s ``where``).
WHERE = "shape:kind_and_id"
#: The last words of a parameter name that say it holds an identifier (general English naming).
_ID_NAME_WORDS = frozenset({"id", "ids", "number", "num", "no", "code", "key"})
#: An identifier as written in any language's text: ASCII letters and digits (with joining
#: marks), at least three characters and one digit (HR20260001, ev-12, 12345).
_ID_RE = re.compile(r"(?<![\w-])(?=[\w-]*\d)[A-Za-z0-9][A-Za-z0-9_-]{2,}(?![\w-])", re.ASCII)


class BridgeTool(Protocol):
    """What the rule reads of a :class:`playground.routing.scoring.ToolIndex`."""

    action: str
    required: tuple[str, ...]


def _takes_id(tool: BridgeTool) -> bool:
    return any(
        (parts := korean.split_identifier(name)) and parts[-1].lower() in _ID_NAME_WORDS
        for name in tool.required
    )


def bridged_tool(
    tools: Sequence[BridgeTool], hangul_docs: bool, text: str, tokens: Sequence[korean.Token]
) -> int | None:
    """The index of the one tool the rule bridges ``text`` to (``tokens``: its
    :func:`korean.tokenize`; ``hangul_docs``: some declaration has a Korean word), or
    ``None``."""
    if hangul_docs or not korean.has_hangul(text) or not _ID_RE.search(text):
        return None
    if not rule_enabled(RULE_BRIDGE):
        return None
    kinds = read_request(text, tokens, [1.0] * len(tokens)).kinds
    found = [i for i, t in enumerate(tools) if t.action in kinds and _takes_id(t)]
    return found[0] if len(found) == 1 else None


def bridge_match(kind: str, points: float) -> dict[str, Any]:
    """The ``matched`` entry the bridge adds to its tool's row."""
    how = "the request's kind of action, and an identifier for its id parameter"
    return shape_match(kind, kind, WHERE, how, points)


def bridged(matched: Sequence[dict[str, Any]]) -> bool:
    """Whether a row's ``matched`` entries hold the bridge's."""
    return any(m["where"] == WHERE for m in matched)
