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

:func:`append_line` adds one line at the end of the file and never rewrites the others.
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
    """Append ``case`` as one JSON line to ``path`` (created when missing) in a single write
    with ``O_APPEND``; a file whose last line has no line break gets one first. Returns the
    new line's number (1-based). Raises :class:`UsageError` when the file cannot be written."""
    target = Path(path)
    text = json.dumps(case, ensure_ascii=False, default=repr) + "\n"
    try:
        with open(target, "ab+") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            lines = 0
            if size:
                fh.seek(0)
                content = fh.read()
                lines = content.count(b"\n")
                if not content.endswith(b"\n"):
                    text = "\n" + text
                    lines += 1
            fh.write(text.encode("utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot append to {target}: {exc.strerror or exc}") from None
    return lines + 1
