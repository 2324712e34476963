"""Save a history entry as a case line (issue 14, "Save as case").

* a call → a ``check`` line (:mod:`playground.batch.check`)::

    {"tool", "args", "expect": {"verdict", "kind", "body_ran", "cache"[, "value"]},
     "declaration_hash": "<sha256>", "note": "history #12"}

  ``value`` is expected (a subset match) when the call returned one (kind ``ok`` or ``empty``),
  so a changed result fails the check naming the field. A ``hit`` is saved as ``stored``: a
  check file runs on a fresh cache, where the first identical call stores the result.
* a question → an ``eval`` line (:mod:`playground.batch.evalcases`) with the tool and the
  arguments the router chose first: ``{"question", "expect_tool" (null when it called none),
  "expect_args", "note"}``.

:func:`append_line` adds one line at the end of the file; the others stay as they were (the
whole file is written anew to a temporary file and renamed into place).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from playground.core.record import verdict_of
from playground.errors import UsageError


def check_line(
    record: Mapping[str, Any], declaration_hash: str | None, note: str = ""
) -> dict[str, Any]:
    """The ``check`` case for one call record (``CallRecord.to_json()``)."""
    cache = record.get("cache")
    expect: dict[str, Any] = {
        "verdict": verdict_of(record.get("verdict")),
        "kind": record.get("kind"),
        "body_ran": record.get("body_ran"),
        "cache": "stored" if cache == "hit" else cache,
    }
    if record.get("kind") in ("ok", "empty"):
        expect["value"] = record.get("value")
    line: dict[str, Any] = {
        "tool": record.get("tool"),
        "args": record.get("args"),
        "expect": expect,
    }
    if declaration_hash:
        line["declaration_hash"] = declaration_hash
    if note:
        line["note"] = note
    return line


def eval_line(episode: Mapping[str, Any], note: str = "") -> dict[str, Any]:
    """The ``eval`` case for a question episode: the router's first choice."""
    question = episode.get("question")
    if not isinstance(question, str):
        raise UsageError("only a question can become an eval case (this episode has none)")
    first: Mapping[str, Any] = {}
    for move in episode.get("moves") or []:
        calls = move.get("calls") if isinstance(move, Mapping) else None
        if calls:
            first = calls[0]
        break
    line: dict[str, Any] = {"question": question, "expect_tool": first.get("name") or None}
    if first and isinstance(first.get("args"), dict):
        line["expect_args"] = first["args"]
    if note:
        line["note"] = note
    return line


def case_for_entry(
    kind: str, data: Mapping[str, Any], hashes: Mapping[str, str], note: str = ""
) -> dict[str, Any]:
    """The case line for a history entry: :func:`check_line` for a call, :func:`eval_line`
    for a question episode. Raises :class:`UsageError` for a manual episode (``call
    --repair``): save its call instead, or save it as a golden episode."""
    if kind == "call":
        tool = data.get("tool")
        return check_line(data, hashes.get(tool) if isinstance(tool, str) else None, note)
    if data.get("question") is None:
        raise UsageError(
            "a manual episode (call --repair) has no question to save as an eval case; "
            "save it as a golden episode with call --repair --save FILE.json"
        )
    return eval_line(data, note)


def append_line(path: str | Path, case: Mapping[str, Any]) -> int:
    """Add ``case`` as one JSON line at the end of ``path`` (created when missing); a file
    whose last line has no line break gets one first. Returns the new line's number (1-based).

    The file is never appended to in place: the old content plus the new line is written to a
    temporary file in the same folder and renamed over it
    (:func:`~playground.batch.outfiles.write_text_atomic`), so a full disk or a crash leaves
    the old file whole, never half a line. Raises :class:`UsageError` when the file cannot be
    read or written, or is not a regular file."""
    from playground.batch.outfiles import write_text_atomic

    target = Path(path)
    text = json.dumps(case, ensure_ascii=False, default=repr) + "\n"
    try:
        content = target.read_bytes() if os.path.lexists(target) and target.is_file() else b""
    except OSError as exc:
        raise UsageError(f"cannot append to {target}: {exc.strerror or exc}") from None
    try:
        old = content.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"cannot append to {target}: it is not UTF-8 text") from None
    if old and not old.endswith("\n"):
        old += "\n"
    try:
        write_text_atomic(target, old + text, force=True)
    except UsageError as exc:
        raise UsageError(str(exc).replace("cannot write", "cannot append to", 1)) from None
    return old.count("\n") + 1
