"""Whether a value found in the question fits a parameter's declared type (:func:`fitted_value`),
and whether a number parameter takes a fraction rather than a percent (:func:`takes_fraction`)."""

from __future__ import annotations

import functools
import re
from typing import Any

from playground.routing.fill.specs import ParamSpec
from playground.routing.values import Value

_ID_NAME_RE = re.compile(r"(?:^|_)(?:id|number|num|no|code|zip|phone)$|[a-z]Id$|[a-z]Number$", re.I)
_PERCENT_DOC_RE = re.compile(r"percent|percentage|%|퍼센트|백분율|0\s*(?:to|-)\s*100", re.I)
_FRACTION_DOC_RE = re.compile(
    r"\b0?\.\d+\b|decimal|fraction|between\s+0\s+and\s+1|0\s*(?:to|-)\s*1\b|소수", re.I
)


@functools.lru_cache(maxsize=4096)
def takes_fraction(spec: ParamSpec) -> bool:
    """True when a percentage written in the question goes into ``spec`` as a fraction
    (``5%`` -> ``0.05``): a ``number`` parameter (not integer-only) whose description shows a
    decimal ("as a decimal", "E.g. 5% is 0.05", "between 0 and 1") or whose maximum is at most
    1, or a rate, probability, ratio or proportion that does not say it is in percent (BFCL dev:
    56 of 67 such answers are fractions; those in percent say so: "as a percentage")."""
    if "number" not in spec.types:
        return False
    doc = spec.name.replace("_", " ") + " " + spec.doc
    if _FRACTION_DOC_RE.search(spec.doc) or (spec.maximum is not None and spec.maximum <= 1):
        return True
    if _PERCENT_DOC_RE.search(doc):
        return False
    return bool(re.search(r"rate|probab|ratio|proportion|fraction|yield|return|share", doc, re.I))


def fitted_value(spec: ParamSpec, v: Value) -> Any:
    """``v`` as a value of ``spec``'s type, or ``None`` when it does not fit (a percentage
    becomes a fraction where :func:`takes_fraction` says so)."""
    types = spec.types or ("string",)
    if v.kind == "list" or "array" in types:  # a bracketed list goes only to an array
        return v.value if v.kind == "list" and "array" in types else None
    if v.kind == "number" and v.percent and takes_fraction(spec):
        assert isinstance(v.value, (int, float))
        return round(float(v.value) / 100, 12)
    if v.kind == "number":
        if "integer" in types and isinstance(v.value, int):
            return v.value
        if "number" in types:
            return v.value
        if "integer" in types and isinstance(v.value, float) and v.value.is_integer():
            return int(v.value)
        if "string" in types and isinstance(v.value, int) and _ID_NAME_RE.search(spec.name):
            return str(v.value)  # an identifier written in digits (docket_number 123456)
        return None
    if "string" in types:
        return str(v.value)
    return None
