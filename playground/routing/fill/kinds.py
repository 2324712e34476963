"""Parameters of a well-known kind: a latitude or longitude (``coordinate``), a language
code (``language``), a US state code (``state_code``) and a command line (``command``)."""

from __future__ import annotations

import re
from typing import Any

from playground.routing import command_line, languages, places, values
from playground.routing.fill.specs import ParamSpec, plain_string

_LAT_NAME_RE = re.compile(r"(?i)^(?:lat|latitude)$|_lat(?:itude)?$|^lat(?:itude)?_")
_LON_NAME_RE = re.compile(
    r"(?i)^(?:lon|lng|long|longitude)$|_(?:lon|lng|longitude)$|^(?:lon|lng|longitude)_"
)
#: A coordinate with its hemisphere: "37.8651 N", "119.5383 W", "48.8584° N".
_HEMISPHERE_RE = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d+)?)\s*°?\s*([NSEW])\b")


def coordinate_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``coordinate``: for a latitude (longitude) parameter, the first number written with
    a N/S (E/W) hemisphere; south and west are negative ("119.5383 W" -> -119.5383)."""
    if _LAT_NAME_RE.search(spec.name):
        sides = "NS"
    elif _LON_NAME_RE.search(spec.name):
        sides = "EW"
    else:
        return None
    for m in _HEMISPHERE_RE.finditer(text):
        if m.group(2) in sides and values.outside(m.span(), used):
            value = float(m.group(1)) * (-1 if m.group(2) in "SW" else 1)
            return value, {
                "rule": "coordinate",
                "span": list(m.span()),
                "text": m.group(),
                "detail": f"{m.group()!r}: hemisphere {m.group(2)}"
                + ("; south and west are negative" if value < 0 else ""),
            }
    return None


def takes_language_code(spec: ParamSpec) -> bool:
    """True when ``spec`` takes language codes: its enum values (or, without an enum, its
    examples) are all shaped like codes and it says language
    (:func:`playground.routing.languages.wants_code`)."""
    return ("string" in spec.types or not spec.types) and languages.wants_code(
        spec.name, spec.doc, spec.enum or spec.examples
    )


def language_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``language``: the code of a language the question names ("in Spanish" ->
    ``es-ES`` among ``en-US``/``es-ES``; "from English to French" -> ``en`` for the source,
    ``fr`` for the target), from :mod:`playground.routing.languages`."""
    found = languages.named(text, used)
    if not found:
        return None
    values = list(spec.enum or spec.examples)
    got = languages.pick(spec.name, text, found, values)
    if got is None and not spec.enum:
        # examples only ("'en' for English"): any language's code, not just the examples'
        got = languages.pick(spec.name, text, found, [f.code for f in found])
    if got is None:
        return None
    value, lang = got
    return value, {
        "rule": "language",
        "span": [lang.start, lang.end],
        "text": lang.word,
        "detail": f"{lang.word} -> {lang.code} from {languages.SOURCE}",
    }


_STATE_CODE_DOC_RE = re.compile(
    r"\bstate\s+(?:abbreviation|code)|two[- ]letter\s+(?:U\.?S\.?\s+)?state", re.I
)


def takes_state_code(spec: ParamSpec) -> bool:
    """True when ``spec`` is a plain string parameter that wants a US state's two-letter code:
    its description says "state abbreviation"/"state code"/"two-letter state", or every
    example it gives is one (``such as 'CA' for California``)."""
    if not plain_string(spec) or not (spec.examples or "state" in spec.doc.lower()):
        return False
    if _STATE_CODE_DOC_RE.search(spec.doc):
        return True
    return bool(spec.examples) and all(places.is_state_code(e) for e in spec.examples)


def state_code_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``state``: for a parameter that wants a US state's code (:func:`takes_state_code`),
    the state the question names ("in California" -> ``CA``; the code from
    :mod:`playground.routing.places`)."""
    found = places.state_named(text, used)
    if found is None:
        return None
    start, end, name, code = found
    return code, {
        "rule": "state",
        "span": [start, end],
        "text": name,
        "detail": f"{name} -> {code} from {places.SOURCE}",
    }


def takes_command_line(spec: ParamSpec) -> bool:
    """True when ``spec`` is a plain string parameter that takes a command line
    (:func:`playground.routing.command_line.takes_command`)."""
    return plain_string(spec) and command_line.takes_command(spec.name, spec.doc)


def command_value(
    spec: ParamSpec, text: str, used: list[tuple[int, int]]
) -> tuple[Any, dict[str, Any]] | None:
    """Rule ``command``: for a parameter that takes a command line
    (:func:`playground.routing.command_line.takes_command`), the whole command the question
    writes ("using the exact command shutdown /s /t 0" -> ``shutdown /s /t 0``), not its first
    path-like piece; :func:`playground.routing.command_line.command_span` says which spans."""
    span = command_line.command_span(text, used)
    if span is None:
        return None
    return span.text, {
        "rule": "command",
        "span": [span.start, span.end],
        "text": span.text,
        "detail": span.why,
    }
