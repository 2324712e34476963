"""Dates and times written in the question, in the format the parameter declares: ISO
dates and datetimes, clock times with offsets, relative days ("tomorrow", "next Friday",
"내일") and the strftime format a description states (:func:`date_format`)."""

from __future__ import annotations

import datetime as _dt
import functools
import re
from collections.abc import Iterator
from typing import Any

from playground.routing import korean, values
from playground.routing.fill import naive
from playground.routing.fill.specs import ParamSpec

_DATE_DOC_RE = re.compile(r"\bdate\b|날짜|일자", re.I)


MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
DATE_SPAN_RE = re.compile(
    r"\b(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|"
    rf"{MONTH}\s*\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s*\d{{4}})?|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}(?:,?\s*\d{{4}})?|"
    rf"\d{{4}},?\s+{MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?)(?![\w/-])",
    re.I,
)
_TIME_SPAN_RE = re.compile(
    r"(?:\bat\s+|\baround\s+)?\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\b\.?|"
    r"\b(\d{1,2}):(\d{2})(?![0-9A-Za-z])|"  # "09:15을": a particle may follow
    r"\b(?:at\s+)?(\d{1,2})\s+in\s+the\s+(morning|afternoon|evening|night)|"
    r"(오전|오후|아침|저녁|밤)?\s*(\d{1,2})\s*시(?:\s*(\d{1,2})\s*분|\s*(반))?",
    re.I,
)
#: A date and time written as ISO 8601 / RFC 3339 ("2024-06-03T07:00:00+02:00",
#: "2024-06-03 07:00", "2024-06-03T07:00Z"): one value, never a date and a separate clock.
_ISO_DATETIME_RE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\w:+-])",
    re.I,
)
#: A zone said in the question that fixes the offset of a ``time``/``date-time`` value.
_UTC_RE = re.compile(r"\b(?:UTC|GMT|Z(?:ulu)?\s+time)\b")
#: A date or time format written in a description ("in the format of 'YYYY-MM-DD'",
#: "dd/mm/yyyy HH:MM", "MM-DD-YYYY", "ISO-8601 ... '2023-04-15T13:45:00Z'").
_FORMAT_TOKEN_RE = re.compile(
    r"(?<![A-Za-z])(?:[YyMmDd]{2,4}[-/. ][YyMmDd]{2,4}(?:[-/. ][YyMmDd]{2,4})?)"
    r"(?:[ T][Hh]{2}:[Mm]{2}(?::[Ss]{2})?Z?)?(?![A-Za-z])"
)
_FORMAT_WORDS_RE = re.compile(
    r"\b(month|day|year)([-/. ])(month|day|year)[-/. ](month|day|year)\b", re.I
)
_ISO_EXAMPLE_RE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?")


def _strftime_of(token: str) -> str:
    """``'dd/mm/yyyy HH:MM'`` -> ``'%d/%m/%Y %H:%M'`` (MMM -> %b; MM after HH: -> minutes)."""
    m = re.search(r"[ T](?=[Hh])", token)
    date_part, sep, time_part = (
        (token[: m.start()], m.group(), token[m.end() :]) if m else (token, "", "")
    )
    for pat, rep in (("Y{3,4}", "%Y"), ("YY", "%y"), ("MMM", "%b"), ("MM", "%m"), ("DD", "%d")):
        date_part = re.sub(pat, rep, date_part, flags=re.I)
    for pat, rep in (("HH", "%H"), ("MM", "%M"), ("SS", "%S")):
        time_part = re.sub(pat, rep, time_part, flags=re.I)
    return date_part + sep + time_part


@functools.lru_cache(maxsize=4096)
def date_format(spec: ParamSpec) -> str | None:
    """The ``strftime`` format a date parameter wants, from its description (a format token or
    an ISO example), else from ``format: date``/``date-time``; ``None`` when nothing says."""
    m = _FORMAT_TOKEN_RE.search(spec.doc)
    if m:
        return _strftime_of(m.group())
    w = _FORMAT_WORDS_RE.search(spec.doc)
    if w:  # "The date (month-day-year)": the order said in words, with its separator
        parts = {"month": "%m", "day": "%d", "year": "%Y"}
        return w.group(2).join(parts[w.group(k).lower()] for k in (1, 3, 4))
    ex = _ISO_EXAMPLE_RE.search(spec.doc)
    if ex:
        v = ex.group()
        if "T" in v or " " in v:
            fmt = "%Y-%m-%dT%H:%M" if "T" in v else "%Y-%m-%d %H:%M"
            fmt += ":%S" if v.count(":") == 2 else ""
            return fmt + ("Z" if v.endswith("Z") else "")
        return "%Y-%m-%d"
    if spec.format == "date-time" or re.search(r"ISO[- ]?8601", spec.doc):
        return "%Y-%m-%dT%H:%M:%S"
    if spec.format == "date":
        return "%Y-%m-%d"
    return None


def is_date_param(spec: ParamSpec) -> bool:
    """A string parameter that takes a date or a time: ``format`` date/date-time/time, a date
    format in its description, or a name word date/day/time/datetime (check_in_date,
    departure_time)."""
    if spec.format in ("date", "date-time", "time"):
        return True
    words = set(korean.split_identifier(spec.name.lower()))
    return bool(words & {"date", "datetime", "dateortime"}) or (
        bool(words & {"time", "day"}) and date_format(spec) is not None
    )


def clock_matches(text: str, pos: int = 0) -> Iterator[re.Match[str]]:
    """The :data:`_TIME_SPAN_RE` matches of ``text`` from ``pos``, with each ISO 8601 date and
    time (:data:`_ISO_DATETIME_RE`) read as its own clock only: "2024-06-03T07:00:00+02:00"
    gives 07:00, never "00:00" from its seconds or "02:00" from its offset. The rest of such a
    value is blanked in the text searched (same length: spans and groups stay those of
    ``text``). Every reader of a clock time in a question goes through here."""

    def clock_only(m: re.Match[str]) -> str:
        whole = m.group()
        return " " * 11 + whole[11:16] + " " * (len(whole) - 16)

    return _TIME_SPAN_RE.finditer(_ISO_DATETIME_RE.sub(clock_only, text), pos)


def clock_of(t: re.Match[str]) -> tuple[int, int] | None:
    """``(hour, minute)`` of a :data:`_TIME_SPAN_RE` match ("1pm", "13:00", "3 in the
    afternoon", "오후 1시 30분", "13시 반"); ``None`` when it is not a time of day."""
    g = t.groups()
    if g[8] is not None:  # Korean: [오전|오후|...] N시 [M분|반]
        hour, minute = int(g[8]), int(g[9] or (30 if g[10] else 0))
        if g[7] in ("오후", "저녁", "밤") and hour < 12:
            hour += 12
        if g[7] == "오전" and hour == 12:
            hour = 0
    else:
        hour = int(g[0] or g[3] or g[5])
        minute = int(g[1] or g[4] or 0)
        half = (g[2] or "").lower() or (
            "p" if (g[6] or "").lower() in ("afternoon", "evening", "night") else ""
        )
        if half == "p" and hour < 12:
            hour += 12
        if half == "a" and hour == 12:
            hour = 0
    return (hour, minute) if hour < 24 and minute < 60 else None


def _offset(text: str, when: _dt.datetime, doc: str = "") -> _dt.datetime:
    """``when`` with a UTC offset, as RFC 3339 ``time``/``date-time`` require (JSON Schema
    2020-12 §7.3.1): UTC when the question says UTC/GMT, else this machine's local zone at
    that moment (the zone the user who typed the question is in). ``when`` unchanged (naive)
    where the parameter described by ``doc`` takes a local time (:func:`naive.keeps_naive`)."""
    if naive.keeps_naive(doc, bool(_UTC_RE.search(text))):
        return when
    if _UTC_RE.search(text):
        return when.replace(tzinfo=_dt.UTC)
    return when.astimezone()


def _rfc3339(when: _dt.datetime, kind: str) -> str:
    """``when`` (with an offset) as RFC 3339 ``time`` or ``date-time``, seconds, ``Z`` for UTC."""
    out = (
        when.isoformat(timespec="seconds")
        if kind == "date-time"
        else (when.timetz().isoformat(timespec="seconds"))
    )
    return out[:-6] + "Z" if out.endswith("+00:00") else out


def _time_of_day(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, str, int, int, str] | None:
    """The first unused time of day in ``text`` for a ``format: time`` parameter, written as
    RFC 3339 ``HH:MM:SS`` with an offset (``"1pm"`` -> ``13:00:00+09:00`` in Seoul)."""
    for t in clock_matches(text):
        clock = clock_of(t)
        if clock is None or not values.outside(t.span(), used):
            continue
        today = _dt.datetime.now()
        clocked = today.replace(hour=clock[0], minute=clock[1], second=0, microsecond=0)
        when = _offset(text, clocked, spec.doc)
        value = _rfc3339(when, "time")
        said = f"{t.group().strip()!r} as RFC 3339 time with the offset of " + (
            "UTC (the question says so)" if _UTC_RE.search(text) else "the local zone"
        )
        if when.tzinfo is None:
            said = f"{t.group().strip()!r} as a local time, no offset (its description says so)"
        return value, "date", t.start(), t.end(), said
    return None


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
#: "today is Monday April 25th 2023", "Today is monday 2022-10-20", "today is 20230929": the
#: day the question counts from.
_TODAY_RE = re.compile(
    r"(?i)\btoday\s+is\s+(?:(?P<wd>"
    + "|".join(_WEEKDAYS)
    + r"),?\s+)?(?P<d>\d{8}\b|"
    + DATE_SPAN_RE.pattern.replace("\\b(?:", "(?:", 1)
    + ")"
)
#: A day said relative to today: "tomorrow", "the day after tomorrow", "(the) upcoming /
#: next / coming / this Wednesday".
_RELATIVE_DAY_RE = re.compile(
    r"(?i)\b(?:(?P<after>the\s+day\s+after\s+tomorrow)|(?P<tomorrow>tomorrow)|"
    r"(?:the\s+)?(?:upcoming|next|coming|this)\s+(?P<wd>" + "|".join(_WEEKDAYS) + r"))\b"
)


def _relative_date(
    text: str, used: list[tuple[int, int]], fmt: str
) -> tuple[Any, str, int, int, str] | None:
    """A day said relative to a today the question states ("the forecast for the upcoming
    Wednesday, today is Monday April 25th 2023" -> 2023-04-27; "available tomorrow, today is
    20230929" -> 2023-09-30), written in ``fmt``; ``None`` when the question states no today
    or says no relative day. The next such weekday is at least one day ahead of the weekday
    the question says today is (of the date's own weekday when it names none)."""
    from dateutil import parser as dparser  # type: ignore[import-untyped]

    today_m = _TODAY_RE.search(text)
    rel = _RELATIVE_DAY_RE.search(text)
    if today_m is None or rel is None or not values.outside(rel.span(), used):
        return None
    raw = today_m.group("d")
    try:
        if re.fullmatch(r"\d{8}", raw):
            today = _dt.datetime.strptime(raw, "%Y%m%d")
        else:
            today = dparser.parse(raw.replace("of ", ""))
    except (ValueError, OverflowError):
        return None
    if rel.group("after"):
        ahead = 2
    elif rel.group("tomorrow"):
        ahead = 1
    else:
        # the weekday the user says today is counts, even when the date is another day's
        said_wd = today_m.group("wd")
        now = _WEEKDAYS.index(said_wd.lower()) if said_wd else today.weekday()
        ahead = (_WEEKDAYS.index(rel.group("wd").lower()) - now) % 7 or 7
    when = today + _dt.timedelta(days=ahead)
    start, end = rel.span()
    said = f"{rel.group()!r} counted from {today_m.group()!r}"
    if "%H" in fmt:
        t = next(clock_matches(text, max(0, start - 40)), None)
        clock = clock_of(t) if t else None
        if t and clock and abs(t.start() - end) < 40 and values.outside(t.span(), used):
            when = when.replace(hour=clock[0], minute=clock[1])
            said += f" and {t.group().strip()!r}"
    return when.strftime(fmt), "date", start, end, f"{said}, written as {fmt!r}"


def _iso_datetime(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, str, int, int, str] | None:
    """The first unused ISO 8601 date and time in ``text`` (:data:`_ISO_DATETIME_RE`), taken
    whole — its offset kept, the local zone's added when it has none — and written for the
    parameter: RFC 3339 ``date-time`` or ``time``, else its :func:`date_format` (``YYYY-MM-DD``
    for a date). Without this, "07:00:00+02:00" read as a clock gave "00:00"."""
    rfc = spec.format if spec.format in ("date-time", "time") else None
    fmt = date_format(spec) or "%Y-%m-%d"
    for m in _ISO_DATETIME_RE.finditer(text):
        # the part the parameter takes must be free: a date parameter may have taken the date
        # ("day" and "at" from one "2026-12-03T11:00:00+09:00")
        start, end = m.span()
        if rfc == "time":
            start += 11
        elif rfc is None and "%H" not in fmt:
            end = start + 10
        if not values.outside((start, end), used):
            continue
        raw = m.group()
        try:
            when = _dt.datetime.fromisoformat(raw.replace(",", ".").replace("z", "Z"))
        except ValueError:
            continue
        said = f"{raw!r} (ISO 8601 date and time"
        if rfc is not None:
            if when.tzinfo is None:
                when = _offset(text, when, spec.doc)
                said += "; the local zone's offset added" if when.tzinfo else "; kept local"
            value = _rfc3339(when, rfc)
            said += f"), written as RFC 3339 {rfc}"
        else:
            value = when.strftime(fmt)
            said += f"), written as {fmt!r}"
        return value, "date", start, end, said
    return None


#: A Korean date: "2026년 12월 3일", "12월 3일" (the year as :func:`date_value` finds it).
_KO_DATE_RE = re.compile(r"(?:(?P<y>\d{4})\s*년\s*)?(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일")


def _written_dates(text: str, year: int) -> list[tuple[int, int, str, _dt.datetime, str]]:
    """Every date written in ``text``, in order: ``(start, end, as written, the date, how it
    was read)``; English and numeric ones (:data:`DATE_SPAN_RE`) parsed by ``dateutil``, Korean
    ones (:data:`_KO_DATE_RE`) by their 년/월/일; a date without a year in ``year``. A date that
    does not exist (2월 30일) is left out."""
    from dateutil import parser as dparser

    out = []
    for m in DATE_SPAN_RE.finditer(text):
        try:
            when = dparser.parse(m.group().replace("of ", ""), default=_dt.datetime(year, 1, 1))
        except (ValueError, OverflowError):
            continue
        out.append((m.start(), m.end(), m.group(), when, "parsed by dateutil"))
    for m in _KO_DATE_RE.finditer(text):
        try:
            when = _dt.datetime(int(m.group("y") or year), int(m.group("m")), int(m.group("d")))
        except ValueError:
            continue
        out.append((m.start(), m.end(), m.group(), when, "read as 년/월/일"))
    return sorted(out, key=lambda found: found[0])


def date_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]] | None = None
) -> tuple[Any, str, int, int, str] | None:
    """The first unused date written in ``text`` (with a time near it when the format has one),
    parsed with ``dateutil`` and written in the parameter's format (:func:`date_format`;
    ISO ``YYYY-MM-DD`` when none is said). ``format: time`` takes a time of day and
    ``format: date-time`` gets an offset, so the value passes the format (RFC 3339)."""

    used = used or []
    iso = _iso_datetime(spec, text, used)
    if iso is not None:
        return iso
    if spec.format == "time":
        return _time_of_day(spec, text, used)
    fmt = date_format(spec) or ("%Y-%m-%dT%H:%M:%S" if spec.format == "date-time" else "%Y-%m-%d")
    # "from 2023 April 4th to April 8th": a date without a year takes the year another date
    # of the question says; else this year
    said_years = [
        y.group() for d in DATE_SPAN_RE.finditer(text) for y in re.finditer(r"\b\d{4}\b", d.group())
    ] + [m.group("y") for m in _KO_DATE_RE.finditer(text) if m.group("y")]
    year = int(said_years[0]) if said_years else _dt.date.today().year
    relative = _relative_date(text, used, fmt)
    if relative is not None:
        return relative
    for start, end, raw, when, how in _written_dates(text, year):
        if not values.outside((start, end), used):
            continue
        span = (start, end)
        said = f"{raw!r}"
        if "%H" in fmt:
            t = next(clock_matches(text, max(0, start - 40)), None)
            clock = clock_of(t) if t else None
            if (
                t
                and clock
                and abs(t.start() - end) < 40
                and values.outside(t.span(), used + [span])
            ):
                when = when.replace(hour=clock[0], minute=clock[1])
                said += f" and {t.group().strip()!r}"
                start, end = min(start, t.start()), max(end, t.end())
        if spec.format == "date-time" and not re.search(r"%z|Z$", fmt):
            when = _offset(text, when, spec.doc)
            value = _rfc3339(when, "date-time")
            said += (
                " (RFC 3339 date-time: with the offset of the local zone unless UTC is said)"
                if when.tzinfo
                else " (a local date-time, no offset: its description says so)"
            )
        else:
            value = when.strftime(fmt)
        return value, "date", start, end, f"{said} {how}, written as {fmt!r}"
    if spec.format == "date-time":  # a time of day alone ("at 13:00"): today at that time
        found = _time_of_day(spec, text, used)
        if found is not None:
            value, rule, start, end, said = found
            day = _dt.date.today().isoformat()
            return f"{day}T{value}", rule, start, end, f"{said}, today ({day})"
    return None
