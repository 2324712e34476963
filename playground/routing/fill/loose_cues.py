"""Loose rules led by cue words: dates and times, "label: value" cues, modifiers of a
noun, booleans from a flag's words (with negation) and a parameter's cue span."""

from __future__ import annotations

import re

from playground.routing import korean, values
from playground.routing.fill.cue_spans import COLON_END_RE, cue_span
from playground.routing.fill.dates import clock_matches, clock_of, date_value, is_date_param
from playground.routing.fill.labels import GENERIC_NAME_WORDS
from playground.routing.fill.loose_state import LooseFill
from playground.routing.fill.specs import ParamSpec, plain_string
from playground.routing.fill.units import NOT_UNITS

_NEGATION_RE = re.compile(
    r"\b(?:not|no|without|don'?t|doesn'?t|never|exclude|excluding)\b|않|없이|말고", re.I
)


#: Verbs that open a flag's name (include_forecast, has_late_check_in, allow_transfer): the
#: rest of the name says what the flag is about.
_FLAG_VERBS = frozenset(
    [
        "is",
        "has",
        "have",
        "include",
        "with",
        "use",
        "enable",
        "allow",
        "should",
        "show",
        "get",
        "return",
        "apply",
        "need",
        "want",
        "do",
        "can",
        "add",
        "sort",
        "only",
        "want",
        "force",
        "consider",
        "account",
    ]
)


def loose_dates(st: LooseFill) -> None:
    """Dates first: "April 25th 2023" is a date for a date parameter, not a name for
    another; a free-form time ("at 12pm" for ``time``) is the clock time as HH:MM."""
    open_specs, text, used, give = st.open_specs, st.text, st.used, st.give
    # dates first: "April 25th 2023" is a date for a date parameter, not a name for another
    for spec in open_specs:
        if ("string" in spec.types or not spec.types) and is_date_param(spec):
            dated = date_value(spec, text, used)
            if dated is not None:
                value, rule, start, end, detail = dated
                give(spec, value, rule, start, end, detail)
                used.append((start, end))
        elif plain_string(spec) and "time" in korean.split_identifier(spec.name.lower()):
            # a free-form time ("at 12pm" for time): the clock time as HH:MM
            for t in clock_matches(text):
                clock = clock_of(t)
                if clock is not None and values.outside(t.span(), used):
                    said = f"{t.group().strip()!r} as a clock time (HH:MM)"
                    give(spec, f"{clock[0]:02d}:{clock[1]:02d}", "date", *t.span(), said)
                    used.append(t.span())
                    break


def loose_colon_cues(st: LooseFill) -> None:
    """ "the answer to the question:\n\nLogistic regression is ...": text a colon introduces
    after the parameter's own word is its value, before any name inside it is paired."""
    open_specs, text, toks, fill, used, labels, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.used,
        st.labels,
        st.give,
    )
    # "the answer to the question:\n\nLogistic regression is ...": text a colon introduces
    # after the parameter's own word is its value, before any name inside it is paired
    for spec in open_specs:
        if spec.name in fill.args or not plain_string(spec):
            continue
        cue = cue_span(spec, text, toks, labels[spec.name][0])
        if (
            cue is not None
            and COLON_END_RE.search(text[: cue[0]])
            and values.outside(cue[:2], used)
        ):
            give(
                spec,
                text[cue[0] : cue[1]],
                "cue",
                cue[0],
                cue[1],
                f"after its word {cue[2]!r} and a colon",
            )
            used.append(cue[:2])


def loose_modifiers(st: LooseFill) -> None:
    """Required words still empty: the word that modifies its noun ("a single room")."""
    open_specs, text, toks, fill, used, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.used,
        st.give,
    )
    for spec in open_specs:  # required words still empty: the word that modifies its noun
        if spec.name not in fill.args and spec.required and plain_string(spec):
            modifier = _modifier_of(spec, text, toks, used)
            if modifier is not None:
                start, end, head = modifier
                give(
                    spec,
                    text[start:end],
                    "modifier",
                    start,
                    end,
                    f"the word before its noun {head!r}",
                )


def loose_boolean(st: LooseFill, spec: ParamSpec) -> None:
    """A boolean is true when every word of its name but a leading flag verb is in the
    question (include_forecast needs "forecast"), false after a negation."""
    text, toks, give = st.text, st.toks, st.give
    # every word of its name but a leading flag verb must be in the question
    # (include_forecast needs "forecast"; tax_exempt needs "tax" and "exempt")
    parts = [korean.stem(p) for p in korean.split_identifier(spec.name) if len(p) > 1]
    needed = [w for k, w in enumerate(parts) if not (k == 0 and w in _FLAG_VERBS)]
    needed = [w for w in needed if korean.is_content(w)] or needed

    def in_question(w: str) -> bool:
        return any(
            t.stem == w or (len(w) > 3 and korean.match_quality(t.stem, w)[0] >= 0.7) for t in toks
        )

    if not needed or not all(in_question(w) for w in needed):
        return
    for tok in toks:
        if tok.stem in needed or any(
            korean.match_quality(tok.stem, w)[0] >= 0.7 for w in needed if len(w) > 3
        ):
            window = text[max(0, tok.start - 25) : tok.start]
            value = not _NEGATION_RE.search(window)
            give(
                spec,
                value,
                "boolean",
                tok.start,
                tok.end,
                f"its word {tok.surface!r}" + ("" if value else " after a negation"),
            )
            break


def loose_cue(st: LooseFill, spec: ParamSpec) -> None:
    """A string with no candidate takes the span after its own name word (``the function
    3x^2 + 2x - 1`` -> ``3x^2 + 2x - 1``, rule ``cue``), unless another parameter took that
    span ("a branch named feature-x" is ``branch_name``, not ``base_branch`` too)."""
    text, toks, cands, labels, taken, give = (
        st.text,
        st.toks,
        st.cands,
        st.labels,
        st.taken,
        st.give,
    )
    if not ("string" in spec.types or not spec.types):
        return
    cue = cue_span(spec, text, toks, labels[spec.name][0])
    given = [tuple(ev["span"]) for ev in st.fill.evidence.values() if "span" in ev]
    if cue is not None and values.outside(
        cue[:2], [(c.start, c.end) for i, c in enumerate(cands) if i in taken] + given
    ):
        give(spec, text[cue[0] : cue[1]], "cue", cue[0], cue[1], f"after its word {cue[2]!r}")
        return


def _modifier_of(
    spec: ParamSpec, text: str, tokens: list[korean.Token], used: list[tuple[int, int]]
) -> tuple[int, int, str] | None:
    """``(start, end, noun)`` of the lowercase word (or a single capital letter: "in C key")
    right before the noun the parameter is named for ("a single room" for ``room_type``,
    "constitutional law" for ``field_of_law``): an English modifier stands before its noun. Only for required strings nothing else filled."""
    heads = {
        korean.stem(p.lower())
        for p in korean.split_identifier(spec.name)
        if len(p) > 2 and p.lower() not in GENERIC_NAME_WORDS and korean.is_content(p.lower())
    }
    for tok in tokens:
        if tok.stem.lower() not in heads or korean.has_hangul(tok.surface):
            continue
        m = re.search(r"(?<![\w-])([a-z][a-z-]*[a-z]|[A-Z])\s+$", text[: tok.start])
        if not m or not values.outside(m.span(1), used):
            continue
        word = m.group(1)
        if (
            (korean.is_stopword(word) and (len(word) > 1 or word in ("A", "I")))
            or korean.stem(word) in heads
            or word in NOT_UNITS
        ):
            continue
        return m.start(1), m.end(1), tok.surface
    return None
