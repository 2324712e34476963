"""A user's synonyms file: domain words the offline router should treat as the same.

The router knows a domain only from the declarations (issue 12: no domain vocabulary in library
code). When customers use words the declarations do not (English questions over Korean
docstrings, 색깔 for 옵션), a user may keep ``synonyms.json`` beside their tools::

    {"order": ["주문"], "stock": ["재고", "inventory"], "색깔": ["옵션"]}

Each key lists the words it stands for; matching goes both ways and counts ``Weights.glossary``
(0.8) of a direct match. Words are stemmed as the router stems them (``orders`` -> ``order``,
``주문은`` -> ``주문``), and an English word finds the entry of any of its forms by its Snowball
root (``"arrange"`` serves "arranged"; :func:`playground.routing.korean.translations`). :func:`find_synonyms` looks for the file beside a ``--tools`` path (the
folder itself, or a file's folder); :func:`load_synonyms` reads one file.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from playground.errors import UsageError
from playground.routing import korean

FILE_NAME = "synonyms.json"


#: The shape of ``synonyms.json`` (JSON Schema, checked with ``jsonschema``): an object whose
#: every key is a word and whose every value is a word or a non-empty list of words (a word:
#: a string with a non-blank character).
SCHEMA: dict[str, Any] = {
    "type": "object",
    "propertyNames": {"pattern": "\\S"},
    "additionalProperties": {
        "anyOf": [
            {"type": "string", "pattern": "\\S"},
            {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": "\\S"}},
        ]
    },
}


def load_synonyms(path: str | Path) -> dict[str, tuple[str, ...]]:
    """``{stem: (stems, ...)}`` from the JSON object at ``path`` (``{word: [words]}``, a single
    string allowed for one word). Raises :class:`UsageError` with one line naming the file and
    the place when it cannot be read, is not strict JSON (a key given twice is refused) or does
    not have the shape of :data:`SCHEMA` (an empty list, a blank word, a non-string)."""
    import jsonschema

    from playground.core.canonical import JsonInputError, parse_json
    from playground.core.json_files import read_json_text

    p = Path(path)
    try:
        text = read_json_text(p)  # at most 16 MB
    except JsonInputError as exc:
        raise UsageError(f"{p}: the synonyms file: {exc}") from None
    try:
        data = parse_json(text)
    except JsonInputError as exc:
        raise UsageError(f"{p}: {exc}") from None
    if not isinstance(data, dict):
        raise UsageError(f"{p}: expected a JSON object of {{word: [words]}}")
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(SCHEMA).iter_errors(data)
    )
    if error is not None:
        if error.schema_path and error.schema_path[0] == "propertyNames":
            raise UsageError(f"{p}: the key {error.instance!r} is not a word (blank)")
        raise UsageError(
            f"{p}: {error.absolute_path[0]!r} must map to a word or a non-empty list of words "
            '(each a non-blank string), as {"order": ["주문"]}'
        )
    out: dict[str, tuple[str, ...]] = {}
    for key, value in data.items():
        words = [value] if isinstance(value, str) else value
        stems = tuple(dict.fromkeys(s for w in words if (s := korean.stem(w.strip()))))
        if stems and (stem := korean.stem(key.strip())):
            out[stem] = stems
    return out


def find_synonyms(tools_paths: Iterable[str | Path]) -> dict[str, tuple[str, ...]]:
    """The synonyms of every ``synonyms.json`` beside the given tool paths, merged (later
    files add words); ``{}`` when there is none."""
    merged: dict[str, tuple[str, ...]] = {}
    for raw in tools_paths:
        p = Path(raw)
        folder = p if p.is_dir() else p.parent
        file = folder / FILE_NAME
        if file.is_file():
            for key, words in load_synonyms(file).items():
                merged[key] = tuple(dict.fromkeys(merged.get(key, ()) + words))
    return merged


def apply_synonyms(router: object, tools_paths: Iterable[str | Path]) -> None:
    """Give ``router`` the synonyms found beside ``tools_paths`` when it reads synonyms (has a
    ``synonyms`` attribute, as :class:`~playground.routing.offline.OfflineRouter` does); other
    routers are left alone. Raises :class:`UsageError` for an unreadable file."""
    if hasattr(router, "synonyms"):
        router.synonyms = find_synonyms(tools_paths)
