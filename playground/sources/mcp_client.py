"""The client side of MCP that a tool test needs (issue 21, item 6): roots, elicitation and
sampling, as the callbacks a ``ClientSession`` takes.

* Roots (``roots/list``): the folders given with ``--root DIR`` (repeatable), else the working
  directory, as ``file://`` URIs (MCP spec 2025-11-25, "Client features: roots").
* Elicitation (``elicitation/create``): answered from the ``--elicit FILE`` JSON —
  ``{"action": "accept" | "decline" | "cancel", "content": {...}}`` or just the content object
  (accepted) — after checking the content against the request's ``requestedSchema`` with
  jsonschema; without a file, or when the content does not fit, the request is declined. Each
  request and its answer become a note (:attr:`ClientFeatures.notes`).
* Sampling (``sampling/createMessage``): refused with a message saying why (the playground
  calls no model on a server's behalf), and noted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playground.sources.mcp_config import McpServerSpec


@dataclass
class ClientFeatures:
    """The callbacks for one server. ``spec``: its roots and elicitation answers. ``note``:
    called with one line per server request answered (for the record and the MCP log)."""

    spec: McpServerSpec
    note: Callable[[str], None] = print
    notes: list[str] = field(default_factory=list)

    def root_folders(self) -> list[str]:
        """The folders offered as roots: ``--root`` values, else the working directory."""
        return list(self.spec.roots) or [os.getcwd()]

    def _say(self, text: str) -> None:
        self.notes.append(text)
        self.note(text)

    async def list_roots(self, context: Any) -> Any:
        import mcp.types as types

        roots = [
            types.Root.model_validate(
                {"uri": Path(folder).as_uri(), "name": Path(folder).name or folder}
            )
            for folder in self.root_folders()
        ]
        return types.ListRootsResult(roots=roots)

    async def elicit(self, context: Any, params: Any) -> Any:
        import mcp.types as types

        message = str(getattr(params, "message", "") or "")
        schema = getattr(params, "requested_schema", None)
        asked = f"the server asked for input (elicitation: {message[:200]!r})"
        if not self.spec.elicit_file:
            self._say(f"{asked}; declined: no --elicit FILE gives an answer")
            return types.ElicitResult(action="decline")
        from playground.core.json_files import read_json_file

        try:  # read again at each request (edited meanwhile); bounded in size and depth
            answer = read_json_file(self.spec.elicit_file)
        except ValueError as exc:  # JsonInputError: one line
            self._say(f"{asked}; declined: --elicit {self.spec.elicit_file} unreadable ({exc})")
            return types.ElicitResult(action="decline")
        if isinstance(answer, dict) and answer.get("action") in ("accept", "decline", "cancel"):
            action, content = answer["action"], answer.get("content")
        else:
            action, content = "accept", answer
        if action == "accept":
            problem = _schema_problem(schema, content)
            if problem:
                self._say(f"{asked}; declined: the --elicit content {problem}")
                return types.ElicitResult(action="decline")
            self._say(f"{asked}; accepted with {json.dumps(content, ensure_ascii=False)[:200]}")
            return types.ElicitResult(action="accept", content=content)
        self._say(f"{asked}; answered {action} (from --elicit)")
        return types.ElicitResult(action=action)

    async def sample(self, context: Any, params: Any) -> Any:
        import mcp.types as types

        text = (
            "sampling/createMessage refused: the playground calls no model on an MCP "
            "server's behalf"
        )
        self._say(f"the server asked for a model completion; {text}")
        return types.ErrorData(code=types.INVALID_REQUEST, message=text)


def _schema_problem(schema: Any, content: Any) -> str:
    """``""`` when ``content`` fits ``schema`` (jsonschema), else why not (one line)."""
    if not isinstance(content, dict):
        return "is not an object"
    if not isinstance(schema, dict):
        return ""
    import jsonschema

    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema).iter_errors(content)
    )
    if error is None:
        return ""
    where = "/".join(str(p) for p in error.absolute_path) or "(root)"
    return f"does not fit the requested schema at {where}: {error.message}"
