"""A user's synonyms file: domain words the offline router should treat as the same.

The router knows a domain only from the declarations (issue 12: no domain vocabulary in library
code). When customers use words the declarations do not (English questions over Korean
docstrings, 색깔 for 옵션), a user may keep ``synonyms.json`` beside their tools::

    {"order": ["주문"], "stock": ["재고", "inventory"], "색깔": ["옵션"]}

Each key lists the words it stands for; matching goes both ways and counts ``Weights.glossary``
(0.8) of a direct match. Words are stemmed as the router stems them (``orders`` -> ``order``,
``주문은`` -> ``주문``). :func:`find_synonyms` looks for the file beside a ``--tools`` path (the
folder itself, or a file's folder); :func:`load_synonyms` reads one file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from playground.errors import UsageError
from playground.routing import korean

FILE_NAME = "synonyms.json"


def load_synonyms(path: str | Path) -> dict[str, tuple[str, ...]]:
    """``{stem: (stems, ...)}`` from the JSON object at ``path`` (``{word: [words]}``, a single
    string allowed for one word). Raises :class:`UsageError` with one line naming the file when
    it cannot be read or is not such an object."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{p}: cannot read the synonyms file ({exc.__class__.__name__})") from exc
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{p}: not JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    if not isinstance(data, dict):
        raise UsageError(f"{p}: expected a JSON object of {{word: [words]}}")
    out: dict[str, tuple[str, ...]] = {}
    for key, value in data.items():
        words = [value] if isinstance(value, str) else value
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise UsageError(f"{p}: {key!r} must map to a word or a list of words")
        stems = tuple(dict.fromkeys(korean.stem(w.strip()) for w in words if w.strip()))
        if key.strip() and stems:
            out[korean.stem(key.strip())] = stems
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
