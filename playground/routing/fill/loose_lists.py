"""Loose rules for lists: word lists for array parameters, numbered parameters
(``first_number`` ...) from a series, and array parameters from value runs."""

from __future__ import annotations

from playground.routing import values
from playground.routing.fill.fits import fitted_value
from playground.routing.fill.labels import label_words, near_score
from playground.routing.fill.loose_state import LooseFill
from playground.routing.fill.ordinals import numbered_groups
from playground.routing.fill.specs import ParamSpec, plain_string
from playground.routing.fill.word_series import (
    item_spec,
    quoted_series,
    string_array,
    value_runs_of,
    word_series,
)


def loose_word_lists(st: LooseFill) -> None:
    """A word list ("Microsoft and Google") for a string array whose words label it, or for
    a required one."""
    open_specs, text, toks, fill, used, found, intent, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.used,
        st.found,
        st.intent,
        st.give,
    )
    # a word list ("Microsoft and Google") for a string array whose words label it, or for a
    # required one
    for spec in open_specs:
        if spec.name in fill.args or not string_array(spec) or spec.item_enum:
            continue
        name_w, doc_w = label_words(spec)
        chosen: tuple[float, list[tuple[int, int]], list[str]] | None = None
        for spans in word_series(text, used + list(intent)) + quoted_series(text, found):
            start, end = spans[0][0], spans[-1][1]
            listed = [text[a:b] for a, b in spans]
            if not values.outside((start, end), used) or any(
                v.start < b and a < v.end and not (a <= v.start and v.end <= b)
                for v in found.strings
                for a, b in spans
            ):
                continue  # "San Francisco, California and ...": an item cuts through a name
            near = 2 * near_score(toks, start, end, name_w) + near_score(toks, start, end, doc_w)
            if chosen is None or near > chosen[0]:
                chosen = (near, spans, listed)
        if chosen is not None and (chosen[0] > 0 or spec.required):
            near, spans, listed = chosen
            start, end = spans[0][0], spans[-1][1]
            give(
                spec,
                listed,
                "list",
                start,
                end,
                f"the words listed with commas and 'and'/'or' ({len(listed)} items)"
                + ("; next to its words" if near else ""),
            )
            used.extend(spans)  # the items ("five 'burgers' and six ...": six stays a value)


def loose_numbered(st: LooseFill) -> None:
    """Numbered arrays (coord1, coord2) take as many written lists, numbered strings (color1,
    color2) a word list of as many items, in order."""
    open_specs, text, toks, fill, used, intent, cands, labels, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.used,
        st.intent,
        st.cands,
        st.labels,
        st.give,
    )
    # numbered arrays (coord1, coord2) take as many written lists, in order
    for members in numbered_groups(open_specs).values():
        written = [v for v in cands if v.kind == "list" and values.outside((v.start, v.end), used)]
        if (
            len(members) == len(written)
            and all("array" in s.types and s.name not in fill.args for s in members)
            and all(fitted_value(s, v) is not None for s, v in zip(members, written, strict=True))
        ):
            for spec, v in zip(members, written, strict=True):
                give(
                    spec,
                    v.value,
                    "list",
                    v.start,
                    v.end,
                    "a written list, in the order of the numbers",
                )
                used.append((v.start, v.end))
    # numbered strings (color1, color2) take a word list of as many items, in order
    for members in numbered_groups(open_specs).values():
        if len(members) < 2 or not all(
            plain_string(s) and s.name not in fill.args for s in members
        ):
            continue
        lists = [
            sp
            for sp in word_series(text, used + list(intent))
            if len(sp) == len(members) and values.outside((sp[0][0], sp[-1][1]), used)
        ]
        if lists:
            sp = max(
                lists,
                key=lambda x: sum(
                    near_score(toks, x[0][0], x[-1][1], labels[s.name][0] | labels[s.name][1])
                    for s in members
                ),
            )
            for spec, (a, b) in zip(members, sp, strict=True):
                give(spec, text[a:b], "string", a, b, "a word list, in the order of the numbers")
                used.append((a, b))


def loose_array(st: LooseFill, spec: ParamSpec) -> bool:
    """An array takes the remaining values of its item type (``18 and 12`` -> ``[18, 12]``);
    with several runs and several arrays, the run its words label. True when it took some."""
    open_specs, text, toks, fill, cands, labels, taken, give = (
        st.open_specs,
        st.text,
        st.toks,
        st.fill,
        st.cands,
        st.labels,
        st.taken,
        st.give,
    )
    if "array" not in spec.types:
        return False
    free = [
        (ci, v)
        for ci, v in enumerate(cands)
        if ci not in taken and fitted_value(item_spec(spec), v) is not None
    ]
    value_runs = value_runs_of(text, sorted(free, key=lambda p: p[1].start))
    arrays = [o for o in open_specs if "array" in o.types and o.name not in fill.args]
    how = "values of the item type"
    if len(value_runs) > 1 and len(arrays) > 1:
        # "dataset_A with the values 12, 24, 36 and dataset_B with the values 15, 30":
        # each array takes the run its words label (else the first run left)
        name_w, doc_w = labels[spec.name]
        free = max(
            value_runs,
            key=lambda r: (
                # only the words before a run label it (the next run's label
                # follows this one)
                2 * near_score(toks, r[0][1].start, len(text) + 1, name_w, before=6)
                + near_score(toks, r[0][1].start, len(text) + 1, doc_w, before=6),
                -r[0][1].start,
            ),
        )
        how = "values listed together, next to its words"
    if len(free) >= 2 or (free and spec.required):
        for ci, _ in free:
            taken.add(ci)
        items = [fitted_value(item_spec(spec), v) for _, v in free]
        give(
            spec,
            items,
            "list",
            free[0][1].start,
            free[-1][1].end,
            f"{len(items)} {how}",
        )
        return True
    return False
