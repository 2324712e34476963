r"""What a parameter's description shows of its values: the examples it gives ("예: P008",
"e.g. 'KB-101'", "such as 'Austin, TX'") (:func:`extract_examples`), the shape of an ID-like
example as a regex (:func:`shape_regex`: ``P008`` -> ``P\d{2,4}``) and a stated prefix
("'HR'로 시작한다", "starts with 'ORD-'") (:func:`find_prefix`)."""

from __future__ import annotations

import re

_EXAMPLE_RE = re.compile(
    r"(?:예시|예)\s*[:：)]\s*|예를\s*들어\s*,?\s*|예시\s+|"
    r"\b(?:e\.g\.|eg\.|for example|for instance|example(?![.\w/-])|such as)\s*[:,]?\s*|"
    # "like 'KB-101'", and "like 010-1234-5678": an unquoted value only when it has a digit and
    # a separator inside (an identifier's shape), never a word ("like any other")
    r"\blike\s+(?=[\"'“‘`]|(?=(?:\w+[-_./:])+\w)[\w./:-]*\d)",
    re.I,
)
_PREFIX_RES = (
    re.compile(r"['\"‘’“”`]([A-Za-z0-9-]+)['\"‘’“”`]\s*(?:로|으로)\s*시작"),
    re.compile(r"\b([A-Z][A-Z0-9-]*)\s*(?:로|으로)\s*시작"),
    re.compile(r"(?:starts?|begins?)\s+with\s+['\"`]?([A-Za-z0-9-]+)['\"`]?", re.I),
    re.compile(r"prefix(?:ed)?\s+(?:with\s+|of\s+)?['\"`]([A-Za-z0-9-]+)['\"`]", re.I),
)


def extract_examples(text: str) -> list[str]:
    """Example values written after 예:/예시:/e.g./example in ``text``, quotes stripped.

    ``"상품ID. 'P'로 시작한다. 예: P008"`` -> ``['P008']``; ``"검색어. 예: '텀블러', '이불커버'"``
    -> ``['텀블러', '이불커버']``.
    """
    out: list[str] = []
    for m in _EXAMPLE_RE.finditer(text or ""):
        rest = text[m.end() :]
        quoted = _QUOTED_EXAMPLE_RE.match(rest)
        if quoted:  # 'San Francisco, CA', 'P013': each quoted value whole, commas and all
            parts = re.findall(r"['\"‘“`]([^'\"’”`]{1,40})['\"’”`]", quoted.group())
        else:
            rest = re.split(r"(?<=[^\d])\.\s|[.。]\s*$|\n|;", rest, maxsplit=1)[0]
            parts = []
            for part in re.split(r",|/|\bor\b|또는", rest):
                # "e.g. Seattle, WA": an abbreviation after a comma qualifies the value before
                if parts and _QUALIFIER_RE.fullmatch(part.strip().rstrip(".")) and part[:1] == " ":
                    parts[-1] = parts[-1].rstrip() + "," + part.rstrip(".")
                else:
                    parts.append(part)
        for part in parts:
            value = part.strip().strip("'\"‘’“”`()[] .")
            if value and len(value) <= 40 and value not in out:
                out.append(value)
    return out


_QUOTED_EXAMPLE_RE = re.compile(
    r"\s*(?:['\"‘“`][^'\"’”`\n]{1,40}['\"’”`](?:\s*(?:,|/|or|또는)\s*)?)+"
)
_QUALIFIER_RE = re.compile(r"[A-Z]{2,3}")


def shape_regex(example: str) -> str | None:
    """A regex for values shaped like an ID-like ``example`` (letters literal, each digit run
    ``\\d{n-1,n+1}``); ``None`` when the example has no digit or is not ASCII letters/digits/-_.

    ``P008`` -> ``P\\d{2,4}``; ``KB-101`` -> ``KB\\-\\d{2,4}``; ``HR20260601`` -> ``HR\\d{7,9}``.
    """
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", example or "") or not re.search(r"\d", example):
        return None
    parts = []
    for run in re.findall(r"\d+|[A-Za-z]+|[^A-Za-z0-9]", example):
        if run.isdigit():
            n = len(run)
            parts.append(rf"\d{{{max(1, n - 1)},{n + 1}}}")
        else:
            parts.append(re.escape(run))
    return "".join(parts)


def find_prefix(text: str) -> str | None:
    """The prefix a description says values start with ("'HR'로 시작한다", "starts with 'HR'")."""
    for rx in _PREFIX_RES:
        m = rx.search(text or "")
        if m:
            return m.group(1)
    return None
