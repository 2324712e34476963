"""Schema checks remembered across commands, next to the declaration cache.

Checking a contract's schema against the JSON Schema metaschema
(:func:`playground.core.contracts.check_schema`) costs about 10 ms per schema, so every command
re-checking every contract made loading 300 tools take seconds. A schema's validity depends only
on its content and on the checker, so a schema found valid is remembered on disk:

* key: sha256 of (the canonical JSON of the schema -- keys sorted, Hangul as is --, the
  installed ``jsonschema`` and ``jsonschema-specifications`` versions read with
  ``importlib.metadata``, the format checks jsonschema can run here, ``sys.version`` -- the
  ``regex`` format compiles patterns with Python's ``re`` --, and :data:`FORMAT`);
* folder: ``schemas/`` in :func:`playground.core.declcache.cache_dir`; one file ``<key>`` per
  valid schema, holding the key itself;
* only a schema made of plain JSON data (exact ``dict`` with ``str`` keys, ``list``, ``str``,
  ``int``, ``float``, ``bool``, ``None``) gets a key: a tuple, say, serialises like a list but
  the metaschema refuses it, so such a schema is always checked;
* invalid schemas are never remembered (they are re-checked and reported every time); a missing,
  corrupt or unwritable cache is silently bypassed -- the cache can never make loading fail, and
  it can never turn an invalid schema into a valid one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from playground.core import declcache
from playground.core.cachefile import write_cache_file

SUBDIR = "schemas"
FORMAT = 1  # bump when what a key covers changes

_PLAIN = (str, int, float, bool, type(None))


@functools.lru_cache(maxsize=1)
def _checker_identity() -> bytes:
    """What, besides the schema, decides a metaschema check: read once per process and
    remembered per environment (:func:`declcache.remembered`), so that a command whose schemas
    are all known valid never imports ``jsonschema`` (~100 ms with its format checkers)."""
    return declcache.remembered("jsonschema-checker", _read_checker_identity).encode()


def _read_checker_identity() -> str:
    import importlib.metadata

    from jsonschema import FormatChecker

    versions = []
    for package in ("jsonschema", "jsonschema-specifications"):
        try:
            versions.append(f"{package}={importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{package}=none")
    formats = ",".join(sorted(FormatChecker.checkers))
    return "\n".join([*versions, formats, sys.version, str(FORMAT)])


def _is_plain(value: Any) -> bool:
    """Whether ``value`` is plain JSON data (see the module docstring); iterative."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            if any(type(k) is not str for k in item):
                return False
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind not in _PLAIN:
            return False
    return True


@functools.lru_cache(maxsize=1)
def _validator_code() -> bytes:
    """The source of the playground's validator (``validation.py``, ``ecma.py``): part of the
    key of a check made with :func:`playground.core.validators.validator_for`."""
    here = Path(__file__).resolve().parent
    parts = []
    for name in ("validation.py", "ecma.py"):
        try:
            parts.append((here / name).read_bytes())
        except OSError:
            parts.append(b"?")
    return b"\0".join(parts)


def schema_key(schema: dict[str, Any], *, against: str = "metaschema") -> str | None:
    """The cache key of a validity check, or ``None`` when it cannot be keyed (not plain JSON
    data, or text that cannot be encoded). ``against="metaschema"``: ``schema`` checked against
    the JSON Schema metaschema; ``against="own schema"``: ``schema`` is ``{"schema": S,
    "value": V}``, the value ``V`` (a parameter's default) checked against ``S`` with the
    playground's validator (its source is part of the key)."""
    if not _is_plain(schema):
        return None
    try:
        text = json.dumps(schema, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        data = text.encode("utf-8")
    except (TypeError, ValueError, RecursionError):
        return None
    h = hashlib.sha256()
    parts = [_checker_identity(), data]
    if against != "metaschema":
        parts[1:1] = [against.encode(), _validator_code()]
    for part in parts:
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


def _path(key: str) -> Path:
    return declcache.cache_dir() / SUBDIR / key


def known_valid(key: str) -> bool:
    """Whether a schema with ``key`` was found valid before (``False`` when the file is missing,
    unreadable or holds anything but the key)."""
    try:
        return _path(key).read_text(encoding="ascii").strip() == key
    except (OSError, ValueError):
        return False


def remember_valid(key: str) -> bool:
    """Record that the schema with ``key`` is valid, atomically; ``False`` (never an error) when
    it cannot be written."""
    return write_cache_file(_path(key), key)
