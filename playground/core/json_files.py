"""JSON files the user hands the playground (``--mcp-config``, ``--elicit``, ``--prices``, an
``eval --resume`` file's lines, the synonyms file), read with bounds: a file larger than
:data:`MAX_JSON_BYTES` is refused before it is read whole (``/dev/zero`` included), and a
document nested deeper than its limit (:data:`playground.core.canonical.MAX_DEPTH` unless
said) is refused — each with one line saying why, never a ``RecursionError`` or a hang (issue
28 item 7: deep JSON). Syntax is ``json``'s own (a repeated key keeps the last value, as every
JSON tool reading such a file does); the stricter :func:`playground.core.canonical.parse_json`
is for arguments and case lines, where it is bounded the same way.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, BinaryIO

from playground.core.canonical import (
    MAX_DEPTH,
    MAX_JSON_BYTES,
    JsonInputError,
    json_depth_problem,
    too_big_text,
    utf8_over,
)


def open_for_reading(path: str | Path) -> BinaryIO:
    """``open(path, "rb")`` that never waits for a writer: a FIFO nobody writes to reads as
    empty instead of blocking the command forever (opened with ``O_NONBLOCK``, then read
    blocking, so a pipe that has a writer, ``<(cat config.json)``, is read whole). Raises
    :class:`OSError` as ``open`` does."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_json_text(path: str | Path, limit: int = MAX_JSON_BYTES) -> str:
    """The text of the file at ``path`` (UTF-8, a BOM allowed), at most ``limit`` bytes.

    Raises :class:`JsonInputError` (one line, without the path: the caller names the file)
    for a file that cannot be read (``cannot read: No such file or directory``), is larger
    than ``limit`` (a device or FIFO stops being read at ``limit`` + 1 bytes) or is not UTF-8
    (``not UTF-8 text (invalid start byte at byte 3)``).
    """
    try:
        with open_for_reading(path) as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise JsonInputError(f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise JsonInputError(too_big_text(limit))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JsonInputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def load_json(text: str, depth: int = MAX_DEPTH, limit: int = MAX_JSON_BYTES) -> Any:
    """Parse ``text`` as JSON, bounded: at most ``limit`` bytes of UTF-8 and ``depth`` levels.

    Raises :class:`JsonInputError` with one line: ``not valid JSON (line 2, column 5):
    Expecting value``, ``nested deeper than 100 levels``, ``larger than 16 MB ...``, or a lone
    surrogate in a string. Never ``RecursionError``.
    """
    if utf8_over(text, limit):
        raise JsonInputError(too_big_text(limit))
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonInputError(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
        ) from None
    except RecursionError:
        raise JsonInputError(f"nested deeper than {depth} levels") from None
    except ValueError as exc:  # an integer with more than 4,300 digits
        raise JsonInputError(f"not usable JSON: {' '.join(str(exc).split())[:160]}") from None
    problem = json_depth_problem(value, depth)
    if problem:
        raise JsonInputError(problem)
    return value


def read_json_file(path: str | Path, depth: int = MAX_DEPTH, limit: int = MAX_JSON_BYTES) -> Any:
    """:func:`read_json_text` then :func:`load_json`: the JSON document in the file at
    ``path``. Raises :class:`JsonInputError` with one line (without the path)."""
    return load_json(read_json_text(path, limit), depth, limit)
