"""The pairing of the ``loose`` phase: every value candidate scored against every open
parameter (units, labels, names, kinds, range roles; weights in :mod:`.weights`) and the best
pairs given first."""

from __future__ import annotations

import re
from typing import Any

from playground.routing import korean, places
from playground.routing.fill.dates import MONTH, is_date_param
from playground.routing.fill.fits import fitted_value
from playground.routing.fill.labels import (
    COUNTS_RE,
    GENERIC_NAME_WORDS,
    is_counted_noun,
    near_score,
)
from playground.routing.fill.lang import SINGULARS
from playground.routing.fill.loose_state import LooseFill
from playground.routing.fill.place_parts import NEXT_PART_RE, PLACE_CUE_RE, PLACE_DOC_RE
from playground.routing.fill.roles import role_cue_at, role_of
from playground.routing.fill.specs import ParamSpec, bare
from playground.routing.fill.units import TIME_PARAM_RE, TIME_UNITS, per_unit
from playground.routing.fill.weights import PAIRING as W
from playground.routing.rule_switches import known_rule, rule_enabled
from playground.routing.values import Value


def _unit_score(spec: ParamSpec, v: Value, labels: tuple[set[str], set[str]]) -> tuple[float, str]:
    """A number's unit word in the parameter's words (``W.unit``), or a time unit where the
    parameter takes a time (its name says so more than its words)."""
    if v.kind != "number" or not v.unit:
        return 0.0, ""
    name_w, doc_w = labels
    unit = korean.stem(v.unit.split("/")[0])
    unit = SINGULARS.get(unit.lower(), unit)  # "one child" for children
    words = {SINGULARS.get(w.lower(), w) for w in name_w | doc_w}
    if any(korean.match_quality(unit, w)[0] >= 0.7 for w in words) and not per_unit(
        v.unit, spec.name + " " + spec.doc
    ):
        return W.unit, f"unit {v.unit!r} is in its description"
    if unit.lower() in TIME_UNITS and TIME_PARAM_RE.search(spec.name + " " + spec.doc):
        score = W.time_in_name if TIME_PARAM_RE.search(spec.name) else W.time_in_doc
        return score, f"a time in {v.unit!r} where the parameter takes a time"
    return 0.0, ""


def _label_score(st: LooseFill, spec: ParamSpec, v: Value, role: str) -> list[tuple[float, str]]:
    """Evidence from the words around ``v``: a number counting the parameter's noun ("three
    personality traits" for trait_count), its words next to it, its own word inside a name,
    and a from/to cue opening its end of a range (``role``)."""
    toks, text = st.toks, st.text
    name_w, doc_w = st.labels[spec.name]
    out: list[tuple[float, str]] = []
    if (
        v.kind == "number"
        and "integer" in spec.types
        and COUNTS_RE.search(spec.name)
        and is_counted_noun(toks, v.end, name_w | doc_w)
    ):
        out.append((W.counted_noun, "it counts the parameter's noun"))
    near = W.name_word * near_score(toks, v.start, v.end, name_w) + near_score(
        toks, v.start, v.end, doc_w
    )
    if near:
        out.append((near, "next to its words"))
    if v.kind in ("name", "quoted") and any(
        korean.stem(t.surface) in name_w - GENERIC_NAME_WORDS
        for t in toks
        if v.start <= t.start and t.end <= v.end
    ):
        out.append((W.own_word_in_name, "its own word is part of the name"))
    if role and role_cue_at(text, v.start) == role:
        why = f"after a word that opens its {role} ('from'/'to', 'between ... and')"
        out.append((W.role_cue, why))
    label = _AS_LABEL_RE.match(text, v.end)
    if label and rule_enabled(RULE_AS_LABEL) and korean.stem(label.group(1)) in name_w | doc_w:
        out.append((W.as_label, f"followed by 'as {label.group(1)}'"))
    return out


#: Rule ``as_label``: "David Leitch as the director" -- the word after "as" labels the value.
RULE_AS_LABEL = known_rule(
    "as_label",
    "values:loose",
    "a value followed by 'as (the) WORD' goes to the parameter that WORD names",
)
_AS_LABEL_RE = re.compile(r"\s+as\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?([A-Za-z]+)\b", re.I)


def _name_score(st: LooseFill, spec: ParamSpec, v: Value) -> list[tuple[float, str]]:
    """Evidence for a name: after in/at/near where the parameter wants a place, a known city
    for a parameter named city ("of Seattle, that city where Mr. Gates works"; GeoNames), or
    written in its examples' 'X, Y' shape ("in Chennai, Tamil Nadu" for 'City, State')."""
    if v.kind != "name":
        return []
    text, out = st.text, []
    about = spec.name + " " + spec.doc
    if (
        PLACE_DOC_RE.search(about)
        and not re.search(r"e-?mail|메일", about, re.I)
        and PLACE_CUE_RE.search(text[max(0, v.start - 12) : v.start])
    ):
        out.append((W.place_cue, "a name after in/at/near where the parameter wants a place"))
    if (
        "city" in korean.split_identifier(spec.name.lower())
        and places.city(v.text.split(",")[0]) is not None
    ):
        out.append((W.known_city, f"a city in {places.SOURCE}"))
    if spec.joined > 0 and (
        v.text.count(",") == spec.joined or ("," not in v.text and NEXT_PART_RE.match(text, v.end))
    ):
        out.append((W.joined_shape, "written in its examples' 'X, Y' shape"))
    return out


_WRITTEN_KIND_RE = {
    "url": re.compile(r"url|link|address|주소", re.I),
    "email": re.compile(r"e-?mail|메일", re.I),
    "path": re.compile(r"path|file|dir|folder|파일|경로", re.I),
}


def _kind_score(spec: ParamSpec, v: Value) -> tuple[float, str]:
    """A URL, e-mail or path where the parameter wants one (an identifier such as
    ``docs/reports`` counts less as a path than a written one)."""
    kind = "path" if v.kind == "identifier" else v.kind
    rx = _WRITTEN_KIND_RE.get(kind)
    if rx is None or not rx.search(spec.name + " " + spec.doc):
        return 0.0, ""
    return (W.written_kind if kind == v.kind else W.identifier_as_path), (
        f"a {kind} where the parameter wants one"
    )


def _pair_score(st: LooseFill, spec: ParamSpec, v: Value, role: str) -> tuple[float, list[str]]:
    """How strongly the question pairs value ``v`` with ``spec`` (:data:`W`), and why."""
    hit = st.found.assigned.get(spec.name.lower())
    parts: list[tuple[float, str]] = []
    if hit is not None and hit.start == v.start:
        parts.append((W.assigned, f"written as {spec.name}="))
    parts.append(_unit_score(spec, v, st.labels[spec.name]))
    parts += _label_score(st, spec, v, role)
    parts += _name_score(st, spec, v)
    parts.append(_kind_score(spec, v))
    parts = [(score, why) for score, why in parts if score]
    return sum(score for score, _ in parts), [why for _, why in parts]


def _pairable(spec: ParamSpec, v: Value) -> Any:
    """``v`` as a value of ``spec`` when it may be paired with it, else None: not the
    parameter's own name quoted ("based on a 'question'"), no place name for a date ("to
    Paris" is no return_time; "April 2022" may be a date)."""
    value = fitted_value(spec, v)
    if value is None or (v.kind == "quoted" and bare(str(v.value)) == bare(spec.name)):
        return None
    if v.kind == "name" and is_date_param(spec) and not re.search(rf"\d|\b{MONTH}", str(v.value)):
        return None
    return value


def loose_pairs(st: LooseFill) -> list[tuple[float, int, int, Any, str]]:
    """Every (parameter, value) pairing with evidence, as ``(-score, spec index, candidate
    index, value, why)``. Start/end roles count only where the tool has both ends (from_year +
    to_year), not for a lone to_address; an optional value needs a label, not a mere
    neighbour (seed 002: a model leaves optional arguments empty unless the user gives them)."""
    roles = {sp.name: role_of(sp) for sp in st.specs}
    if not {"start", "end"} <= set(roles.values()):
        roles = {}
    pairs = []
    for si, spec in enumerate(st.open_specs):
        if spec.name in st.fill.args or "boolean" in spec.types or "object" in spec.types:
            continue
        for ci, v in enumerate(st.cands):
            value = _pairable(spec, v)
            if value is None:
                continue
            score, why = _pair_score(st, spec, v, roles.get(spec.name, ""))
            if score > 0 and (spec.required or score >= W.optional_floor):
                pairs.append((-score, si, ci, value, "; ".join(why)))
    return pairs


def loose_take_pairs(st: LooseFill, pairs: list[tuple[float, int, int, Any, str]]) -> None:
    """The pairs best first, each parameter and each value once; a name opened by the
    parameter's own words drops them ("UUID SUPERFANCY" for project)."""
    open_specs, fill, cands, labels, taken, give = (
        st.open_specs,
        st.fill,
        st.cands,
        st.labels,
        st.taken,
        st.give,
    )
    for neg, si, ci, value, said in sorted(pairs, key=lambda p: (p[0], p[1], p[2])):
        spec, v = open_specs[si], cands[ci]
        if spec.name in fill.args or ci in taken:
            continue
        taken.add(ci)
        rule = (
            "assign"
            if "written as" in said
            else {"number": "number", "list": "list"}.get(v.kind, "string")
        )
        if v.percent and value != v.value:
            said += f"; {v.text.strip()} as a fraction ({value})"
        start = v.start
        if v.kind == "name" and isinstance(value, str):
            # "UUID SUPERFANCY" for project ("The UUID of the project"), "Lawyer John Doe" for
            # name ("the lawyer's name"): the parameter's own words open the name, not the value
            lead = _label_lead(value, labels[spec.name])
            if lead:
                value, start = value[lead:], start + lead
                said += f"; without its own words {v.text[:lead].strip()!r}"
        give(spec, value, rule, start, v.end, f"{v.kind} {v.text!r}: {said} (score {-neg:.2f})")


def _label_lead(value: str, labels: tuple[set[str], set[str]]) -> int:
    """How many characters of ``value`` its leading label words take (words of the parameter's
    name or description, or id/uuid/number/no), when a capitalised word is left after them;
    0 when none."""
    words = labels[0] | labels[1] | {"id", "uuid", "number", "no"}
    end = 0
    for m in re.finditer(r"\S+\s+", value):
        if m.start() != end or korean.stem(m.group().strip(" .:#").lower()) not in words:
            break
        end = m.end()
    rest = value[end:][:1]
    return end if end and (rest.isupper() or rest.isdigit()) else 0
