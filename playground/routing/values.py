"""Value candidates in a question: what an argument could be, with its span and its shape.

The offline router fills arguments the way a reader would: it first finds every value written
in the question, then gives each value to the parameter whose words stand next to it
(:func:`playground.routing.fill.pipeline.fill_loose`). This module owns the first half:

* :func:`numbers` -- digits with signs, decimals, thousands separators (``1,000``, ``-3``,
  ``9.8``), a percent sign (``5%`` -> 5, marked ``percent``) and the unit word after it
  (``6cm``, ``5 seconds``), plus number words: English (``three``, ``twenty five``,
  ``a dozen``) and Korean (``세 개``, ``두 번째``, ``다섯``); sino-Korean digits (``삼``) are not
  read (they are too often parts of other words).
* :func:`quoted` -- text in quotes (``'x'``, ``"x"``, ``“x”``, ``‘x’``, backticks).
* :func:`assignments` -- ``name = value`` / ``name: value`` pairs (``a=1, b=-3``).
* :func:`names` -- runs of capitalised words (``New York City``, ``Taylor Swift``,
  ``Maroon 5``), URLs, e-mail addresses, file paths, identifiers with separators
  (``Europe/Warsaw``, ``com.example.app``, ``v1.2.3``; :func:`identifiers`) and codes with
  digits (``L-1001``).

Each candidate is a :class:`Value` with the character span it covers in the question. Rules
are regular expressions; no dictionary of a domain. Deterministic.
"""

from __future__ import annotations

import ast
import itertools
import re
from dataclasses import dataclass
from typing import Any

from playground.routing import korean


@dataclass(frozen=True)
class Value:
    """One value written in the question.

    ``kind``: ``number`` | ``quoted`` | ``name`` | ``url`` | ``email`` | ``path`` |
    ``identifier`` | ``code`` | ``list``. ``value``: the parsed value (int or float for numbers, a list for a bracketed
    list, str otherwise). ``start``/``end``:
    its span in the question (characters). ``unit``: the word right after a number (lower
    case, may be ``""``). ``percent``: the number carried a ``%``."""

    kind: str
    value: int | float | str | list[Any]
    start: int
    end: int
    text: str
    unit: str = ""
    percent: bool = False


def outside(span: tuple[int, int], used: list[tuple[int, int]]) -> bool:
    """True when the question span ``span`` (``[start, end)``, characters) overlaps none of the
    spans in ``used`` (the spans other values already took)."""
    start, end = span
    return all(end <= a or start >= b for a, b in used)


_NUM_RE = re.compile(
    r"(?<![\w.^/])(?P<sign>[-+−])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\.\d+|\d+)"
    r"(?P<exp>[eE][-+−]?\d+)?"
    r"(?![\d^]|\.\d)(?P<pct>\s?%)?(?:\s?(?P<unit>[A-Za-z가-힣]+(?:/[A-Za-z]+(?:\^?\d)?)?))?"
)
#: Scale words after digits ("213 million", "8.5 billion"): the number is multiplied.
_DIGIT_SCALES = {
    "thousand": 1_000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
    "trillion": 10**12,
}
_AFTER_SCALE_RE = re.compile(r"\s+([A-Za-z가-힣]+)")
_ONES = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "dozen": 12,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_WORD_NUM_RE = re.compile(
    r"\b(?:(?:a|an)\s+)?(?:"
    + "|".join(sorted([*_ONES, *_TENS, *_SCALES], key=len, reverse=True))
    + r")(?:[\s-]+(?:and\s+)?(?:"
    + "|".join(sorted([*_ONES, *_TENS, *_SCALES], key=len, reverse=True))
    + r"))*\b(?:\s+(?P<unit>[A-Za-z]+))?",
    re.I,
)
#: Native Korean numerals (counting forms first: 한/두/세/네 before a counter or 번째).
_KO_NUM = {
    "열": 10,
    "하나": 1,
    "한": 1,
    "첫": 1,
    "둘": 2,
    "두": 2,
    "셋": 3,
    "세": 3,
    "넷": 4,
    "네": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "스무": 20,
    "스물": 20,
}
_KO_NUM_RE = re.compile(
    r"(?<![가-힣])(?P<num>열|하나|한|첫|둘|두|셋|세|넷|네|다섯|여섯|일곱|여덟|아홉|스무|스물)"
    r"\s?(?P<unit>번째|개|명|번|권|장|병|잔|대|건|가지|일|주|달|시간|분|살)"
)
#: Quoted text. A single quote touching a letter on its outer side is an apostrophe, not a
#: quote ("I'd like 'chicken dish'": the quote opens at 'chicken, not at I'd); inside a quote,
#: one between two letters is an apostrophe ('I love it! It's fresh.').
_QUOTED_RE = re.compile(
    r"(?<![A-Za-z])'((?:[^'\n]|(?<=[A-Za-z])'(?=[A-Za-z])){1,200})'(?![A-Za-z])|\"([^\"\n]{1,200})\"|“([^”\n]{1,200})”|"
    r"‘([^’\n]{1,200})’|`([^`\n]{1,200})`"
)
_ASSIGN_RE = re.compile(
    r"\b([A-Za-z_][A-Za-z0-9_]*)\s*(?:=|:)\s*(\"[^\"]*\"|'[^']*'|[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[A-Za-z][\w.-]*)"
)
#: "The song_id is abc_1": an identifier written as code (snake_case or camelCase) and "is".
_ASSIGN_IS_RE = re.compile(
    r"\b([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*)\s+is\s+"
    r"(\"[^\"]*\"|'[^']*'|[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w.])|[A-Za-z0-9][\w-]*(?:\.[\w-]+)*)"
)
_URL_RE = re.compile(r"\bhttps?://[^\s'\"<>]+[^\s'\"<>.,;:!?)]")
_EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
_PATH_RE = re.compile(
    r"(?<![\w/])(?:~|\.{1,2})?/(?:[\w.-]+/)*[\w.-]+|(?<![\w\\])[A-Za-z]:\\(?:[\w. -]+\\)*[\w.-]+|\b[\w-]+\.(?:txt|csv|json|py|pdf|png|jpe?g|xlsx?|docx?|md|log|ya?ml|html?|mp3|mp4|wav|zip)\b"
)
#: Identifiers written with separators, kept whole (never split into names or numbers): zone
#: and namespaced names ``Europe/Warsaw``, ``America/Argentina/Buenos_Aires``, ``owner/repo-2``
#: and relative paths ``docs/reports`` (a ``/`` between segments of two or more characters, the
#: first capitalised, some segment holding ``_``, ``-``, ``.`` or a digit, three segments or more,
#: or every segment three letters or more -- so ``km/h``, ``and/or``, ``yes/no`` stay words); dotted ids of
#: three or more segments (``com.example.app``, ``192.168.0.1``); ``scheme:id`` ids
#: (``urn:isbn:0451450523``, ``nginx:1.25``); versions ``v1.2``, ``1.2.3``, ``2.0.0-rc1``.
#: ASCII only, so a Korean particle after it (``Asia/Seoul에서``) is not part of it; the
#: ``scheme:`` of a colon id is lower case (``Note:Something`` is no id).
_IDENT_SEGMENT = r"[A-Za-z0-9][A-Za-z0-9_+-]*"
IDENTIFIER_RE = re.compile(
    r"(?<![A-Za-z0-9_/.:@-])(?:"
    rf"(?P<slash>{_IDENT_SEGMENT}(?:/{_IDENT_SEGMENT})+)"
    r"|(?P<dots>[A-Za-z0-9][\w-]*(?:\.[A-Za-z0-9][\w-]*){2,})"
    r"|(?P<colon>[a-z][a-z0-9.-]*(?::[A-Za-z0-9][\w.-]*)+)"
    r"|(?P<version>v\d+(?:\.\d+)+(?:-[A-Za-z0-9.]+)?)"
    r")(?![A-Za-z0-9_/@-]|[.:][A-Za-z0-9_])"
)


def identifiers(text: str) -> list[tuple[int, int]]:
    """The spans of the identifiers written in ``text`` (:data:`IDENTIFIER_RE`), in order."""
    out = []
    for m in IDENTIFIER_RE.finditer(text):
        if m.group("slash") is not None:
            parts = m.group("slash").split("/")
            marked = parts[0][0].isupper() or any(re.search(r"[_\-.\d]", p) for p in parts)
            if any(len(p) < 2 for p in parts) or not (
                marked or len(parts) > 2 or min(len(p) for p in parts) >= 3
            ):
                continue  # km/h, and/or, yes/no: words, not a name
            if all(p.isdigit() for p in parts):
                continue  # 3/4, 12/25: a fraction or a date
        dots = m.group("dots")
        if dots is not None and not re.search(r"[A-Za-z]", dots) and dots.count(".") < 3:
            continue  # 1.2.3 is a version only with a v, 12.03.2024 may be a date
        out.append(m.span())
    return out


_CODE_RE = re.compile(
    r"(?<![\w-])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+(?![\w-])|(?<![\w-])[A-Z]{1,4}\d{2,}(?![\w-])|(?<![\w-])(?=[A-Z0-9]*[A-Z]\d)\d[A-Z0-9]{3,}(?![\w-])"
)
_NAME_WORD = r"(?:[A-Z][\w'’&.-]*|\d+(?!\d|[/.-]\d)(?:st|nd|rd|th)?)"
_NAME_RE = re.compile(
    rf"(?<![\w'’])[A-Z][\w'’&.-]*(?:(?:\s+(?:of|de|la|du|von|van|the)\s+|\s+|,\s(?=[A-Z]{{2}}\b)){_NAME_WORD})*"
)
#: Capitalised words that start sentences or are function words, never a name by themselves.
_NOT_NAMES = frozenset(
    [
        "I",
        "What",
        "Which",
        "Who",
        "Whom",
        "Whose",
        "When",
        "Where",
        "Why",
        "How",
        "Can",
        "Could",
        "Would",
        "Will",
        "Should",
        "Shall",
        "May",
        "Might",
        "Must",
        "Do",
        "Does",
        "Did",
        "Is",
        "Are",
        "Was",
        "Were",
        "Be",
        "Please",
        "Find",
        "Get",
        "Give",
        "Tell",
        "Show",
        "Calculate",
        "Compute",
        "Determine",
        "Estimate",
        "Predict",
        "Retrieve",
        "Fetch",
        "Search",
        "Look",
        "Check",
        "List",
        "Create",
        "Make",
        "Book",
        "Order",
        "Let",
        "Help",
        "Provide",
        "Return",
        "Generate",
        "Convert",
        "Identify",
        "Send",
        "Set",
        "Update",
        "Add",
        "Delete",
        "Remove",
        "Play",
        "Plan",
        "Suggest",
        "Recommend",
        "Locate",
        "Display",
        "Also",
        "And",
        "Or",
        "The",
        "A",
        "An",
        "In",
        "On",
        "At",
        "For",
        "From",
        "To",
        "With",
        "By",
        "Of",
        "If",
        "Then",
        "Hey",
        "Hi",
        "Hello",
        "Thanks",
        "Thank",
        "My",
        "Our",
        "Your",
        "It",
        "This",
        "That",
        "These",
        "Those",
        "There",
        "Here",
        "Okay",
        "OK",
        "Yes",
        "No",
        "Now",
        "Today",
        "Tomorrow",
        "Yesterday",
        "What's",
        "I'm",
        "I'd",
        "Use",
        "Using",
        "Run",
        "Open",
        "Start",
        "Stop",
        "Need",
        "Want",
        "Analyze",
        "Evaluate",
        "Solve",
        "Translate",
        "Draw",
    ]
)


def english_number(text: str) -> int | None:
    """The number English words write ("five", "twenty five", "a hundred"), or ``None`` when
    ``text`` is not only number words."""
    return _english_words(text)


def _english_words(text: str) -> int | None:
    total, current = 0, 0
    seen = False
    for word in re.split(r"[\s-]+", text.lower()):
        if word in ("a", "an"):
            continue
        if word == "and":
            continue
        if word in _ONES:
            current += _ONES[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word in _SCALES:
            current = max(current, 1) * _SCALES[word]
            if _SCALES[word] >= 1000:
                total, current = total + current, 0
        else:
            return None
        seen = True
    return total + current if seen else None


def numbers(text: str) -> list[Value]:
    """Every number written in ``text`` (digits or words), in order of position."""
    out: list[Value] = []
    for m in _NUM_RE.finditer(text):
        if re.match(r"[A-Za-z]\^", text[m.end("num") : m.end("num") + 2]):
            continue  # "2x^2": a term of an expression, not a number
        raw = m.group("num").replace(",", "")
        value: int | float = float(raw) if "." in raw else int(raw)
        if m.group("exp"):  # 1e-9, 2.5E6
            value = float(raw + m.group("exp").replace("−", "-"))
        sign = m.group("sign")
        # a sign right after a letter, a digit or ")" is an operator or a range (3x-1, 1-5)
        signed = bool(sign) and (
            m.start() == 0 or not (text[m.start() - 1].isalnum() or text[m.start() - 1] == ")")
        )
        unit = (m.group("unit") or "").lower()
        end = m.end("exp") if m.group("exp") else m.end("num")
        if unit in _DIGIT_SCALES:  # "213 million" -> 213000000, its unit the word after
            scaled = value * _DIGIT_SCALES[unit]
            value = int(scaled) if float(scaled).is_integer() else scaled
            end = m.end("unit")
            after = _AFTER_SCALE_RE.match(text, end)
            unit = after.group(1).lower() if after else ""
        if signed and sign in "-−" and value > 0:
            value = -value
        start = m.start() if signed else m.start("num")
        out.append(Value("number", value, start, end, m.group(), unit, bool(m.group("pct"))))
    taken = [(v.start, v.end) for v in out]
    for m in _WORD_NUM_RE.finditer(text):
        words = m.group(0)[: m.start("unit") - m.start()] if m.group("unit") else m.group(0)
        n = _english_words(words.strip())
        if n is None or words.strip().lower() in ("a", "an"):
            continue
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        if words.strip().lower() in ("one",) and not m.group("unit"):
            continue  # "one" alone is mostly a pronoun ("the one with ...")
        out.append(
            Value(
                "number",
                n,
                m.start(),
                m.start() + len(words.rstrip()),
                words.strip(),
                (m.group("unit") or "").lower(),
            )
        )
    for m in _KO_NUM_RE.finditer(text):
        out.append(
            Value("number", _KO_NUM[m.group("num")], m.start(), m.end(), m.group(), m.group("unit"))
        )
    return sorted(out, key=lambda v: v.start)


#: Text a question marks as given word for word without quotes: after "verbatim:" or "word for
#: word:" up to the end of its line ("create todo with the following words verbatim: go for
#: shopping at 9 pm"; "the following data: 85, 90" is not one: its values are read by kind).
_VERBATIM_RE = re.compile(
    r"(?i)\b(?:verbatim|word\s+for\s+word)\s*:[ \t]*"
    r"(?P<v>[^\n'\"“”‘’`\[\]{}]+?)[ \t.]*(?=\n|$)"
)


def quoted(text: str) -> list[Value]:
    """Text between quotes, without the quotes (span: the inside), and :func:`verbatim` text."""
    out = []
    for m in _QUOTED_RE.finditer(text):
        g = next(i for i in range(1, 6) if m.group(i) is not None)
        out.append(Value("quoted", m.group(g), m.start(g), m.end(g), m.group(g)))
    out.extend(verbatim(text))
    return sorted(out, key=lambda v: v.start)


def verbatim(text: str) -> list[Value]:
    """Text marked as given word for word without quotes (:data:`_VERBATIM_RE`: at most 20
    words, no quotes inside), as ``quoted`` values: kept whole, commas and all."""
    out = []
    for m in _VERBATIM_RE.finditer(text):
        said = m.group("v")
        if said.strip() and len(said.split()) <= 20:
            out.append(Value("quoted", said, m.start("v"), m.end("v"), said))
    return out


def assignments(text: str) -> dict[str, Value]:
    """``{lowercased name: value}`` for ``name = value``, ``name: value`` and -- for a name
    written as code (``song_id``, ``userId``) -- ``name is value`` in ``text``."""
    out: dict[str, Value] = {}
    for m in itertools.chain(_ASSIGN_RE.finditer(text), _ASSIGN_IS_RE.finditer(text)):
        raw = m.group(2).strip("'\"")
        parsed: int | float | str = raw
        if re.fullmatch(r"[-+]?\d[\d,]*(?:\.\d+)?", raw):
            plain = raw.replace(",", "")
            parsed = float(plain) if "." in plain else int(plain)
        out.setdefault(
            m.group(1).lower(),
            Value(
                "number" if not isinstance(parsed, str) else "name",
                parsed,
                m.start(2),
                m.end(2),
                raw,
            ),
        )
    return out


def names(text: str) -> list[Value]:
    """URLs, e-mails, paths, codes with digits and capitalised word runs, in order."""
    out: list[Value] = []
    taken: list[tuple[int, int]] = []

    def add(kind: str, start: int, end: int) -> None:
        if any(a < end and start < b for a, b in taken):
            return
        taken.append((start, end))
        out.append(Value(kind, text[start:end], start, end, text[start:end]))

    for kind, rx in (("url", _URL_RE), ("email", _EMAIL_RE), ("path", _PATH_RE)):
        for m in rx.finditer(text):
            add(kind, m.start(), m.end())
    for start, end in identifiers(text):
        add("identifier", start, end)
    for m in _CODE_RE.finditer(text):
        add("code", m.start(), m.end())
    for m in _NAME_RE.finditer(text):
        words = m.group().split()
        start, end = m.start(), m.end()
        # "at The Plaza", "The Weeknd's": a capital The inside a sentence is part of the name
        inside = re.search(r"[a-z,]\s+$", text[:start]) is not None
        while (
            words
            and not (words[0] == "The" and inside and len(words) > 1)
            and (words[0] in _NOT_NAMES or words[0].lower() in ("of", "the", "and"))
        ):
            start = text.index(words[0], start) + len(words[0])
            start += len(text[start:]) - len(text[start:].lstrip())
            words = words[1:]
        # a year after a name is the time of it, not part of it ("London 2022", "NBA 2021")
        while words and (
            words[-1].lower() in ("of", "the", "and", "&")
            or (
                len(words) > 1
                and re.fullmatch(r"(?:1[5-9]|20)\d\d", words[-1])
                and not re.match(r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)", words[-2])
            )
        ):
            end = text.rindex(words[-1], start, end)
            end = len(text[:end].rstrip())
            words = words[:-1]
        if not words or all(w.isdigit() for w in words):
            continue
        # a sentence ends inside the run ("Simon Curtis. It should"): the name ends there
        # (not after an initial or abbreviation: "K. Brown", "D.C.", "Mr. Gates")
        stop = re.search(r"(?<=[a-z]{2})[.!?]\s", text[start:end])
        if stop:
            end = start + stop.start()
        value = text[start:end].rstrip(".,'’")
        # "Germany's team": a possessive before its noun; "from McDonald's.": the name itself
        if value.endswith("'s") and re.match(r"\s+\w", text[start + len(value) :]):
            value = value[:-2]
        if len(value) < 2 or korean.is_stopword(value.lower()):
            continue
        add("name", start, start + len(value))
    return sorted(out, key=lambda v: v.start)


_LIST_RE = re.compile(r"\[(?:[^\[\]]|\[[^\[\]]*\])*\]")


def lists(text: str) -> list[Value]:
    """Bracketed lists written as literals (``[10, 15, 12]``, ``['a', 'b']``, ``[[1, 2], [3,
    4]]``), read with :func:`ast.literal_eval` (values only, never code); others are skipped."""
    out = []
    for m in _LIST_RE.finditer(text):
        try:
            value = ast.literal_eval(m.group().replace("−", "-"))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        if isinstance(value, list) and value:
            out.append(Value("list", value, m.start(), m.end(), m.group()))
    for m in _TUPLE_RE.finditer(text):
        if any(v.start < m.end() and m.start() < v.end for v in out):
            continue
        items: list[Any] = []
        for n in _TUPLE_ITEM_RE.finditer(m.group()):
            x = float(n.group(1).replace("−", "-"))
            x = -abs(x) if (n.group(2) or "").upper() in ("S", "W") else x
            items.append(int(x) if x.is_integer() and "." not in n.group(1) else x)
        out.append(Value("list", items, m.start(), m.end(), m.group()))
    return sorted(out, key=lambda v: v.start)


#: A tuple of numbers in parentheses ("(3, 4)", "(33.4484 N, 112.0740 W)"); a coordinate's
#: S or W makes it negative (the usual sign convention of latitude and longitude).
_TUPLE_NUM = r"\s*[-+−]?\d+(?:\.\d+)?\s*°?\s*(?:[NSEWnsew]\b)?\s*"
_TUPLE_RE = re.compile(rf"\((?:{_TUPLE_NUM},)+{_TUPLE_NUM}\)")
_TUPLE_ITEM_RE = re.compile(r"([-+−]?\d+(?:\.\d+)?)\s*°?\s*([NSEWnsew]\b)?")
