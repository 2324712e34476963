"""Reading JSON Lines case files, shared by ``check`` (:mod:`playground.batch.check`) and
``eval`` (:mod:`playground.batch.evaluate`), so both accept and refuse the same text.

The rules (docs/design.md, "Case files"):

* The file is UTF-8; a leading byte-order mark is allowed (``utf-8-sig``: editors on Windows
  write one) and CRLF line ends are fine.
* Lines are split on ``\\n`` only (a raw U+2028 or form feed inside a JSON string does not
  start a new line, unlike :meth:`str.splitlines`); line numbers are the file's, from 1.
* Blank lines and lines starting with ``#`` are skipped.
* Each case line is read by :func:`playground.core.canonical.parse_json` (strict: no
  NaN/Infinity, no key repeated in one object, at most ``MAX_DEPTH`` levels, no lone
  surrogates such as ``"\\ud800"``) and must be a JSON object. A bad line is a per-line
  problem (a message), never an exception: the other lines still run. So is a line that is
  not UTF-8 (``not UTF-8 text (invalid start byte at byte 177 of the file)``) and a line
  larger than :data:`playground.core.canonical.MAX_JSON_BYTES` bytes, which is skipped
  without being read into memory (:func:`case_file_lines`).

No typer/rich/textual here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from playground.core import canonical
from playground.core.canonical import JsonInputError, json_type_name, parse_json
from playground.errors import UsageError

#: How much of an over-long line is read at a time while it is skipped, in bytes.
_SKIP_CHUNK = 1 << 20


def checked_case_path(path: str | Path) -> Path:
    """``path`` when it is a regular file; else :class:`UsageError` (the CLI exits 2): ``no
    such case file``, ``is a folder, not a case file (.jsonl)``, ``not a regular file``
    (``/dev/null``, a FIFO)."""
    path = Path(path)
    if not path.exists():
        raise UsageError(f"{path}: no such case file")
    if path.is_dir():
        raise UsageError(f"{path}: is a folder, not a case file (.jsonl)")
    if not path.is_file():
        raise UsageError(f"{path}: not a regular file (a case file is a .jsonl text file)")
    return path


def case_file_lines(path: str | Path) -> Iterator[tuple[int, str, str]]:
    """Each line of the case file at ``path`` that holds a case, read lazily:
    ``(line number from 1, stripped text, "")``, or ``(number, "", why)`` for a line that
    cannot be text: ``not UTF-8 text (invalid start byte at byte 177 of the file)`` (the byte
    counted from the file's start) or ``larger than 16 MB (...)`` — more than
    :data:`playground.core.canonical.MAX_JSON_BYTES` bytes, skipped a chunk at a time, so
    memory stays bounded however long the line. Blank and ``#`` lines are skipped (a comment
    need not be UTF-8); a BOM on the first line is dropped; lines end at ``\\n``, a ``\\r``
    before it dropped.

    Raises :class:`UsageError` when the file is missing, a folder, not a regular file or
    cannot be read (:func:`checked_case_path`).
    """
    path = checked_case_path(path)
    try:
        with path.open("rb") as handle:
            yield from _lines_of(handle)
    except OSError as exc:
        raise UsageError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _lines_of(handle: BinaryIO) -> Iterator[tuple[int, str, str]]:
    limit = canonical.MAX_JSON_BYTES
    offset, number = 0, 0  # offset: of the line being read, in bytes from the file's start
    while raw := handle.readline(limit + 2):
        number += 1
        start, offset = offset, offset + len(raw)
        comment = raw.lstrip().startswith(b"#")
        if not raw.endswith(b"\n") and len(raw) > limit + 1:  # over the limit: skip the rest
            offset += _skip_rest(handle)
            if not comment:
                yield number, "", canonical.too_big_text()
            continue
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8").strip()
        except UnicodeDecodeError as exc:
            if raw.strip() and not comment:
                where = f"at byte {start + exc.start} of the file"
                yield number, "", f"not UTF-8 text ({exc.reason} {where})"
            continue
        if text and not text.startswith("#"):
            yield number, text, ""


def _skip_rest(handle: BinaryIO) -> int:
    """Read past the end of the current line a chunk at a time; returns the bytes skipped."""
    skipped = 0
    while chunk := handle.readline(_SKIP_CHUNK):
        skipped += len(chunk)
        if chunk.endswith(b"\n"):
            break
    return skipped


def split_lines(text: str) -> list[str]:
    """``text`` cut at ``\\n`` (a trailing ``\\r`` of each line dropped); a leading BOM
    (U+FEFF) is dropped too (text given as text; files are read by :func:`case_file_lines`)."""
    text = text.removeprefix("\ufeff")
    return [line.removesuffix("\r") for line in text.split("\n")]


def case_lines(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """``(line number from 1, stripped text)`` for each line that holds a case (blank and
    ``#`` comment lines skipped)."""
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped


def parse_object(text: str) -> tuple[dict[str, Any] | None, str]:
    """Parse one case line: ``(object, "")``, or ``(None, why)`` with a one-line reason:
    ``not valid JSON (Expecting value at column 3)``, ``the key 'question' appears twice in one
    object (which one is meant?)``, ``nested deeper than 100 levels``, ``the string at
    $.question is not valid Unicode (...)``, ``a case must be a JSON object, got a JSON array``.
    Never raises."""
    try:
        data = parse_json(text)
    except JsonInputError as exc:
        why = str(exc)
        if why.startswith("not valid JSON: "):
            why = f"not valid JSON ({why[len('not valid JSON: ') :]})"
        return None, why
    if not isinstance(data, dict):
        return None, f"a case must be a JSON object, got a JSON {json_type_name(data)}"
    return data, ""


#: A file none of whose first this many case lines is a JSON object is not a case file: one
#: error line says so instead of one per line (a tool module or a CSV passed by mistake).
NOT_A_CASE_FILE_LINES = 10
#: The reasons of :func:`parse_object` (and :func:`case_file_lines`) that say a line is no
#: JSON object at all: a file in another encoding (a CP949 export) is not a case file either.
_NOT_AN_OBJECT = ("not valid JSON", "a case must be a JSON object", "not UTF-8 text")


class CaseFileGuard:
    """Watches the first case lines of a file: :meth:`see` raises :class:`UsageError` (exit 2)
    when the first :data:`NOT_A_CASE_FILE_LINES` are none of them a JSON object, and
    :meth:`finish` when a shorter file had none, naming the first reason and what a line of
    ``example`` looks like. Once a line is an object, nothing more is checked (a case file
    with a bad line reports that line, as before)."""

    def __init__(self, path: str | Path, example: str) -> None:
        self.path, self.example = path, example
        self.refused = 0
        self.first = ""
        self.done = False

    def see(self, number: int, why: str) -> None:
        """Case line ``number`` read with reason ``why`` (``""``: it is a case, or an object
        with another problem)."""
        if self.done:
            return
        if not why.startswith(_NOT_AN_OBJECT):
            self.done = True
            return
        self.refused += 1
        self.first = self.first or f"line {number}: {why}"
        if self.refused >= NOT_A_CASE_FILE_LINES:
            self._refuse(f"none of its first {NOT_A_CASE_FILE_LINES} lines is a JSON object")

    def finish(self) -> None:
        """The file ended: raises :class:`UsageError` when it had case lines and none of them
        was a JSON object (a three-line CSV, a JSON array on one line)."""
        if not self.done and self.refused:
            self._refuse(
                "its one line is not a JSON object"
                if self.refused == 1
                else f"none of its {self.refused} lines is a JSON object"
            )

    def _refuse(self, what: str) -> None:
        self.done = True
        raise UsageError(
            f"{self.path}: not a case file: {what} ({self.first}); write one JSON object a "
            f"line, e.g. {self.example}"
        )
