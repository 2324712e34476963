"""The ``defaults`` phase: a required value the declaration settles -- a default stated
in the description ("default is 10", "기본값 5") (:func:`stated_default`) or a count parameter
left at one."""

from __future__ import annotations

import json
import re
from typing import Any

from playground.routing.fill.numbers import as_number
from playground.routing.fill.rules import enabled
from playground.routing.fill.specs import Fill, ParamSpec

#: A parameter that sizes the result (how many rows/results/items to return): its name or its
#: description says so. General English and Korean wording, no domain words.
_COUNT_NAME_RE = re.compile(
    r"^(?:limit|max_?\w*|top_?[kn]?|page_?size|per_?page|n_?results|num_?results|count)$", re.I
)
_COUNT_DOC_RE = re.compile(
    r"how\s+many\b.*\breturn|(?:max(?:imum)?|number)\s+of\s+(?:results|rows|items|records|entries)|"
    r"돌려받을|반환할|돌려줄|최대\s*\S*\s*(?:건|개|곳|수)",
    re.I,
)


#: A default the description states in words: "Default is true", "Defaults to 'cm'", "default:
#: 5", "(default 0)", "기본값은 20" / "기본값: 'seoul'" (seed 002 says it belongs in the schema's
#: ``default``; many declarations write it in the description instead).
_STATED_DEFAULT_RE = re.compile(
    r"\b(?:defaults?|by\s+default)(?:\s+value)?\s*(?:is|to|=|:|will\s+be|of)?\s*"
    r"|기본\s*값\s*(?:은|는|이|:|=)?\s*|기본으로\s*",
    re.I,
)
_STATED_VALUE_RE = re.compile(
    r"'([^']{1,40})'|\"([^\"]{1,40})\"|‘([^’]{1,40})’|“([^”]{1,40})”|`([^`]{1,40})`|"
    r"([-+]?\d[\d,]*(?:\.\d+)?(?![\w.]*\d))|([^\W\d_][\w/°-]*)"
)
#: Words after "default is" that are not a value ("Default is the current date", "default if
#: nothing specified", "Default is empty if not specified", "default is null").
_NOT_DEFAULT_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "if",
        "when",
        "none",
        "null",
        "empty",
        "current",
        "not",
        "no",
        "nothing",
        "unspecified",
        "set",
        "given",
        "provided",
        "used",
    ]
)
_BOOL_WORDS = {"true": True, "false": False, "yes": True, "no": False}
_ZERO_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3}


def stated_default(spec: ParamSpec) -> tuple[Any, str] | None:
    """The default ``spec``'s description states in words, as a value of its type:
    ``(value, the words)`` or ``None`` when it states none or the value does not fit (a boolean
    takes only true/false, a number only digits or zero..three, an enum only a listed value, a
    string a quoted text or one word; "Default is the current date" states no value).
    The rule: :data:`_STATED_DEFAULT_RE`; seed 002 (a default belongs in the declaration)."""
    for m in _STATED_DEFAULT_RE.finditer(spec.doc):
        v = _STATED_VALUE_RE.match(spec.doc, m.end())
        if v is None:
            continue
        quoted = next((g for g in v.groups()[:5] if g is not None), None)
        digits, word = v.group(6), v.group(7)
        said = spec.doc[m.start() : v.end()]
        raw = quoted if quoted is not None else digits if digits is not None else word
        if raw is None or (word is not None and word.lower() in _NOT_DEFAULT_WORDS):
            continue
        low = raw.strip().lower()
        value: Any
        if "boolean" in spec.types and low in _BOOL_WORDS:
            value = _BOOL_WORDS[low]
        elif {"integer", "number"} & set(spec.types) and quoted is None:
            if low in _ZERO_WORDS:
                value = _ZERO_WORDS[low]
            elif digits is None:
                continue
            else:
                value = as_number(digits.replace(",", ""), spec.types)
                if not isinstance(value, (int, float)):
                    continue
        elif ("string" in spec.types or not spec.types) and (
            quoted is not None or word is not None
        ):
            value = raw.strip()
        else:
            continue
        if spec.enum and value not in spec.enum:
            continue
        return value, said
    return None


def fill_defaults(specs: list[ParamSpec], question: str, fill: Fill) -> Fill:
    """Required values the question does not give but the declaration settles (rule
    ``default``; what a user expects instead of being asked): the schema's ``default`` (seed
    002: "기본값은 20" belongs in ``default``); else the default its description states in
    words (:func:`stated_default`: "Default is true"); else, for an integer that sizes the result
    (:data:`_COUNT_NAME_RE` / :data:`_COUNT_DOC_RE`: ``limit: 돌려받을 매장 수``) with a
    ``maximum``, that maximum -- the most the tool allows, so nothing the user asked about is
    cut off ("KB-101 서울 재고" -> ``limit=5``). The evidence has no span in the question
    (``[-1, -1]``) and is weak (it says nothing about which tool is meant). Returns ``fill``."""
    for spec in specs:
        if spec.name in fill.args or not spec.required or not enabled("default"):
            continue
        if spec.has_default:
            value, detail = spec.default, "not in the question; the schema's default"
        elif (stated := stated_default(spec)) is not None:
            value, detail = stated[0], f"not in the question; its description says {stated[1]!r}"
        elif (
            "integer" in spec.types
            and spec.maximum is not None
            and (_COUNT_NAME_RE.match(spec.name) or _COUNT_DOC_RE.search(spec.doc))
        ):
            value = int(spec.maximum)
            detail = (
                "not in the question; it sizes the result, so the most the schema allows "
                f"(maximum {value})"
            )
        else:
            continue
        fill.args[spec.name] = value
        fill.evidence[spec.name] = {
            "rule": "default",
            "span": [-1, -1],
            "text": json.dumps(value, ensure_ascii=False),
            "detail": detail,
        }
    return fill
