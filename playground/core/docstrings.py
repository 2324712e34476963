"""Docstrings in every common style, read with ``docstring_parser``.

google-genai copies a function's whole docstring into the declaration's ``description`` and
leaves the parameters' own descriptions empty (seed 001), so the argument prose lives in the
docstring. :func:`parse_docstring` reads Google (``Args:``), NumPy (``Parameters`` + dashes),
reST/Sphinx (``:param x:``) and Epydoc (``@param x:``) with ``docstring_parser``'s automatic
style detection; a Google-like section the library does not know (Korean headers ``인자:`` /
``매개변수:``) is read by a small fallback. Lint (``optional-undocumented``, ``prose-constraint``,
the verb rule's description words), argument examples in fix hints and the TUI form read it
through :func:`playground.core.validation.arg_doc`; the router should read it here too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

_KO_SECTION = re.compile(r"^(\s*)(인자|매개변수)\s*:\s*$")
_ARG_LINE = re.compile(r"^\s*([A-Za-z_가-힣][\w가-힣]*)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


@dataclass(frozen=True)
class DocParts:
    """A docstring split: ``summary`` (short + long description, before any section),
    ``args`` (``{name: text}``, continuation lines joined with a space), ``returns`` (the
    returns text), ``other`` (raises, examples and other sections, one line each) and
    ``style`` (``google`` | ``numpydoc`` | ``rest`` | ``epydoc`` | ``plain``)."""

    summary: str
    args: dict[str, str] = field(default_factory=dict)
    returns: str = ""
    other: str = ""
    style: str = "plain"


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


@lru_cache(maxsize=1024)
def parse_docstring(text: str) -> DocParts:
    """Parse ``text`` (a docstring or a tool description) into :class:`DocParts`; never raises
    (an unparseable docstring is all summary)."""
    import docstring_parser  # at first use: a command that parses no docstring never pays it

    text = text or ""
    try:
        parsed = docstring_parser.parse(text)
    except (docstring_parser.ParseError, ValueError, IndexError):
        return DocParts(summary=text.strip())
    args = {p.arg_name: _one_line(p.description) for p in parsed.params if p.arg_name}
    style = parsed.style.name.lower() if parsed.style is not None and args else "plain"
    summary = "\n\n".join(
        x for x in (parsed.short_description, parsed.long_description) if x
    ).strip()
    if not args:
        fallback = _korean_sections(text)
        if fallback:
            args, style = fallback, "google"
            head = re.split(r"^\s*(?:인자|매개변수)\s*:\s*$", text, maxsplit=1, flags=re.M)[0]
            summary = head.strip()
    returns = _one_line(parsed.returns.description) if parsed.returns else ""
    other = [
        _one_line(m.description)
        for m in parsed.meta
        if m.description
        and not isinstance(m, (docstring_parser.DocstringParam,))
        and m is not parsed.returns
    ]
    return DocParts(summary, args, returns, " ".join(o for o in other if o), style)


def _korean_sections(text: str) -> dict[str, str]:
    args: dict[str, str] = {}
    inside, header, current = False, 0, None
    for line in text.splitlines():
        m = _KO_SECTION.match(line)
        if m:
            inside, header, current = True, len(m.group(1)), None
            continue
        if not inside or not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent <= header:
            inside = False
            continue
        am = _ARG_LINE.match(line)
        if am and (current is None or indent <= header + 4):
            current = am.group(1)
            args[current] = am.group(2).strip()
        elif current is not None:
            args[current] = (args[current] + " " + line.strip()).strip()
    return args


def arg_text(description: str, arg: str) -> str:
    """The prose a docstring gives for argument ``arg`` in any style, or ``""``."""
    return parse_docstring(description or "").args.get(arg, "")
