"""The ``calls`` phase for series: one call per item when the question lists several values
for one parameter ("the weather in Seoul, Busan and Jeju") -- lowercase words, dates, word
series, numbers, chains, rows."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from playground.routing import korean, values
from playground.routing.fill.leftover import LEFTOVER_STOP
from playground.routing.fill.loose_state import QuestionValues
from playground.routing.fill.place_parts import NEXT_PART_RE
from playground.routing.fill.rules import enabled
from playground.routing.fill.units import NOT_UNITS
from playground.routing.fill.word_series import SERIES_GAP_RE, word_series
from playground.routing.values import Value

#: Rules whose value is a word of the question (not a recognised name or number).
_WORD_RULES = frozenset({"leftover", "cue", "word", "modifier", "listed", "lowercase"})
#: One more item of a word list: after a comma or and/or, and itself followed by the list's
#: next separator, the sentence's end or a preposition ("units and height of" is no list).
_WORD_ITEM_RE = re.compile(
    r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:the\s+)?([a-z][a-z-]*)\b"
    r"(?=\s*(?:[,.?!;:)]|$)|\s+(?:and|or|in|at|for|on|with|from|to)\b)"
)


@dataclass
class _Series:
    """What :func:`series` reads and builds: the normalised question ``text``, its ``found``
    values (``pool`` by position, ``at`` by start), the filled ``args`` with their
    ``evidence`` and ``spans``, and the ``lists`` found per argument (``where``: the span of a
    list written in one piece; ``unitless``: number arguments cycling over unitless numbers)."""

    text: str
    found: QuestionValues
    args: dict[str, Any]
    evidence: dict[str, dict[str, Any]]
    spans: dict[str, tuple[int, int]]
    pool: list[Value]
    at: dict[int, Value]
    lists: dict[str, list[Any]] = field(default_factory=dict)
    where: dict[str, tuple[int, int]] = field(default_factory=dict)
    unitless: list[str] = field(default_factory=list)


def _listed_lowercase(st: _Series, name: str, start: int, end: int) -> bool:
    """A lowercase word listed with others ("gold, silver, platinum, and palladium"). True when
    the argument is such a word (listed or not)."""
    value = st.args.get(name)
    if not (
        st.at.get(start) is None
        and isinstance(value, str)
        and re.fullmatch(r"[a-z][a-z-]*", value)
        and st.evidence[name]["rule"] in _WORD_RULES
    ):
        return False
    words, reach = [value], end
    while m := _WORD_ITEM_RE.match(st.text, reach):
        w = m.group(1)
        if korean.is_stopword(korean.stem(w)) or w in LEFTOVER_STOP:
            break
        words.append(w)
        reach = m.end()
    if len(words) > 1:
        st.lists[name] = words
        st.where[name] = (start, reach)
    return True


def _listed_dates(st: _Series, name: str, start: int, end: int) -> bool:
    """Dates written as the parameter takes them, listed ("on 2022-01-01 and 2022-02-01").
    True when the argument is such a date."""
    value = st.args.get(name)
    ev = st.evidence[name]
    if not (isinstance(value, str) and ev["rule"] == "date" and ev["text"] == value):
        return False
    shape = re.sub(r"\d", r"\\d", re.escape(value))
    dates, reach = [value], end
    while m := re.match(r"(.{1,12}?)(" + shape + r")(?!\d)", st.text[reach:]):
        if not SERIES_GAP_RE.match(m.group(1)):
            break
        dates.append(m.group(2))
        reach += m.end()
    if len(dates) > 1:
        st.lists[name] = dates
        st.where[name] = (start, reach)
    return True


def _listed_words(st: _Series, name: str, start: int, end: int) -> bool:
    """A word list the value opens or ends ("navy, purple and maroon", "Berlin and Paris"),
    none of whose items another argument holds; "a weight of 85 kilograms and height of 180":
    another argument's name is no item; a name lists with names ("David Leitch and acted by
    ..." lists nothing). True when found."""
    value, text = st.args.get(name), st.text
    if not (isinstance(value, str) and name in st.args):
        return False
    others_at = [sp for n, sp in st.spans.items() if n != name]
    arg_words = {
        korean.stem(w.lower()) for n in st.args if n != name for w in korean.split_identifier(n)
    }
    listed = next(
        (
            sp
            for sp in word_series(text)
            if any(a <= start and end <= b for a, b in (sp[0], sp[-1]))
            and all(values.outside(item, others_at) for item in sp)
            and not any(
                korean.stem(w.lower()) in arg_words
                for a, b in sp
                for w in re.findall(r"[^\W\d_]+", text[a:b])
            )
            and (len(sp) > 2 or value[:1].islower() or not any(text[a].islower() for a, _b in sp))
        ),
        None,
    )
    if listed is None:
        return False
    st.lists[name] = [_id_of_item(value, text[a:b]) for a, b in listed]
    st.where[name] = (listed[0][0], listed[-1][1])
    return True


_ID_WORD_RE = re.compile(r"\S*\d\S*")


def _id_of_item(value: str, item: str) -> str:
    """An item of a listed series as the value it lists: when the value is one word with a digit
    (an id: ``n1``) and the item holds exactly one such word among plain ones ("delete note
    n2"), that word -- the verb and the noun around an id are the clause's, not the id's."""
    if not _ID_WORD_RE.fullmatch(value):
        return item
    ids = _ID_WORD_RE.findall(item)
    words = item.split()
    if len(ids) == 1 and len(words) > 1 and all(w == ids[0] or w.isalpha() for w in words):
        return str(ids[0])
    return item


def _unit_written_once(st: _Series, first: Value, free: list[Value], same: list[Any]) -> None:
    """ "10, 20 and 30 years": the unit written once after the last of a list counts for the
    unitless numbers listed before it (prepended to ``same``)."""
    nums_before = [v for v in free if v.kind == "number" and v.end <= first.start]
    head = first
    for v in reversed(nums_before):
        if (v.unit and v.unit not in NOT_UNITS) or not re.fullmatch(
            r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)", st.text[v.end : head.start]
        ):
            break
        same.insert(0, v.value)
        head = v


def _listed_numbers(st: _Series, name: str, first: Value, free: list[Value]) -> None:
    """A number with a unit word lists the other numbers with the same unit ("20 minutes and
    15 minutes"); a number without one cycles with the other unitless arguments."""
    value = st.args[name]
    unit = first.unit.split("/")[0]
    if not unit or unit in NOT_UNITS:
        st.unitless.append(name)
        return
    same_v = [v for v in free if v.kind == "number" and v.unit.split("/")[0] == unit]
    same = [v.value for v in same_v]
    if len(same) == 1:
        _unit_written_once(st, first, free, same)
    if len(same) > 1 and all(
        not isinstance(x, float) or isinstance(value, float) or not x.is_integer() for x in same
    ):
        st.lists[name] = same
        if len(same_v) == len(same) and all(
            SERIES_GAP_RE.match(st.text[x.end : y.start]) for x, y in itertools.pairwise(same_v)
        ):
            st.where[name] = (same_v[0].start, same_v[-1].end)


def _listed_chain(st: _Series, name: str, start: int, first: Value, free: list[Value]) -> None:
    """The values of the first one's kind that follow it joined by commas, and/or, 와/과/랑
    (:data:`SERIES_GAP_RE`); a name that took its qualifier ("Naples, Florida") gives each
    item its own; "Seattle, Washington" (a name after a comma alone) qualifies, lists nothing."""
    value, text = st.args[name], st.text
    chain, reach = [value], max(first.end, st.spans[name][1])
    gaps: list[str] = []
    for v in free:
        if v.start < reach:
            continue
        if v.kind != first.kind and not {v.kind, first.kind} <= {"name", "quoted"}:
            break
        if not SERIES_GAP_RE.match(re.sub(r"[\"'‘’“”`]", "", text[reach : v.start])):
            break  # ('"Climate Change" and "AI"': the quotes are no gap)
        gaps.append(text[reach : v.start])
        item = str(v.value)
        if first.kind == "name" and isinstance(value, str) and "," in value:
            m = NEXT_PART_RE.match(text, v.end)
            if m:
                item = text[v.start : m.end()]
        chain.append(item)
        reach = v.start + len(item)
    if (
        len(chain) == 2
        and first.kind == "name"
        and re.fullmatch(r"\s*,\s*", gaps[0])
        and not re.match(r"\s*,?\s*(?:and|or|&)\b", text[reach:])
    ):
        return
    if len(chain) > 1:
        st.lists[name] = chain
        st.where[name] = (start, reach)


def _listed_values(st: _Series, name: str, start: int) -> None:
    """Numbers (:func:`_listed_numbers`) or values of one kind (:func:`_listed_chain`) listed
    after the argument's own value; an identifier written in digits ("Case No 28473 and
    64725") lists like a string; a value that is not that candidate ("2022-04-27" is a date,
    not 2022) lists nothing."""
    value, first = st.args.get(name), st.at.get(start)
    if first is None or isinstance(value, (list, dict, bool)) or name not in st.args:
        return
    digits_id = first.kind == "number" and isinstance(value, str) and value == str(first.value)
    if (first.kind == "number") != isinstance(value, (int, float)) and not digits_id:
        return
    others = {sp for n, sp in st.spans.items() if n != name}
    free = [v for v in st.pool if (v.start, v.end) not in others or v is first]
    if first.kind == "number" and not digits_id:
        _listed_numbers(st, name, first, free)
    else:
        _listed_chain(st, name, start, first, free)


#: What stands between two bare numbers of one list: a comma, and/or ("2017, 2018 and 2019").
_BARE_GAP_RE = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)")


def _one_run(st: _Series, nums_v: list[Value]) -> bool:
    """ "the player with id 3142 ... in seasons 2017, 2018 and 2019": one run of three or more
    bare numbers written as a list (:data:`_BARE_GAP_RE` between them; the last may carry the
    unit written once: "15, 20 and 30 years") that holds one unitless argument's value lists
    that argument alone; the others keep theirs. True when found."""
    runs: list[list[Value]] = []
    for v in nums_v:
        if (
            runs
            and (not runs[-1][-1].unit or runs[-1][-1].unit in NOT_UNITS)
            and _BARE_GAP_RE.fullmatch(st.text[runs[-1][-1].end : v.start])
        ):
            runs[-1].append(v)  # "15, 20 and 30 years": the unit written once after the last
        else:
            runs.append([v])
    long = [r for r in runs if len(r) >= 3]
    if len(long) != 1:
        return False
    run = long[0]
    inside = [n for n in st.unitless if run[0].start <= st.spans[n][0] < run[-1].end]
    if len(inside) != 1:
        return False
    st.lists[inside[0]] = [v.value for v in run]
    st.where[inside[0]] = (run[0].start, run[-1].end)
    return True


def _cycle_unitless(st: _Series) -> None:
    """Numbers without units cycle over the arguments they fill ("3 and 4, 5 and 12" for
    ``a``, ``b`` -> two calls); "seasons 2018 and 2020": one list written in one piece."""
    if not st.unitless:
        return
    taken = {sp for n, sp in st.spans.items() if n not in st.unitless}
    nums_v = [
        v
        for v in st.found.numbers
        if (v.start, v.end) not in taken
        and (not v.unit or v.unit in NOT_UNITS)
        and v.start >= min(st.spans[n][0] for n in st.unitless)
    ]
    nums = [v.value for v in nums_v]
    p = len(st.unitless)
    written = [v for v in st.found.numbers if (v.start, v.end) not in taken]
    if p > 1 and _one_run(st, written):
        return
    if len(nums) > p and len(nums) % p == 0:
        order = sorted(st.unitless, key=lambda n: st.spans[n][0])
        for j, name in enumerate(order):
            st.lists[name] = nums[j::p]
        if p == 1 and all(
            SERIES_GAP_RE.match(st.text[x.end : y.start]) for x, y in itertools.pairwise(nums_v)
        ):
            st.where[st.unitless[0]] = (nums_v[0].start, nums_v[-1].end)


def _series_rows(st: _Series) -> list[dict[str, Any]]:
    """The argument dicts for the lists found: lists written apart ("Lakers and Bulls in
    seasons 2018 and 2020") ask for every pairing; lists written interleaved, or
    "respectively", pair in order (arguments listing ``k`` values vary together)."""
    args, lists, where = st.args, st.lists, st.where
    ranges = sorted(where[n] for n in lists if n in where)
    if (
        len(lists) > 1
        and len(ranges) == len(lists)
        and all(a[1] <= b[0] for a, b in itertools.pairwise(ranges))
        and not re.search(r"\brespectively\b|각각", st.text, re.I)
    ):
        rows = [dict(args)]
        for name in sorted(lists, key=lambda n: where[n]):
            rows = [{**row, name: item} for row in rows for item in lists[name]]
        return rows
    k = max(len(c) for c in lists.values())
    out = []
    for i in range(k):
        row = dict(args)
        for name, chain in lists.items():
            if len(chain) == k:
                row[name] = chain[i]
        out.append(row)
    return out


def series(
    question: str, args: dict[str, Any], evidence: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The calls a question asks for when it lists several values of an argument (BFCL
    ``parallel``: "weather in Seoul and Busan" -> two calls). Only values no other argument
    took count. Per filled argument: a number with a unit word lists the other numbers with
    the same unit ("20 minutes and 15 minutes"); numbers without units cycle over the
    arguments they fill ("3 and 4, 5 and 12" for ``a``, ``b`` -> two calls); a string lists
    the values of its kind that follow it joined by commas, and/or or 와/과/랑
    (:data:`SERIES_GAP_RE`). With ``k > 1`` values somewhere the answer is ``k`` argument
    dicts -- arguments listing ``k`` values vary together, in the order written; the others
    repeat. Returns ``[args]`` when nothing is listed. Array arguments never split."""
    if not enabled("series"):
        return [args]
    text = korean.normalize(question)
    found = QuestionValues.of(text)
    pool = sorted(found.numbers + found.strings, key=lambda v: v.start)
    spans = {name: (ev["span"][0], ev["span"][1]) for name, ev in evidence.items()}
    st = _Series(text, found, args, evidence, spans, pool, {v.start: v for v in pool})
    for name, (start, end) in spans.items():
        if not (
            _listed_lowercase(st, name, start, end)
            or _listed_dates(st, name, start, end)
            or _listed_words(st, name, start, end)
        ):
            _listed_values(st, name, start)
    _cycle_unitless(st)
    return _series_rows(st) if st.lists else [args]
