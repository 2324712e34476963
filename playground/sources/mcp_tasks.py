"""Task-augmented ``tools/call`` (MCP spec 2025-11-25, "Tasks"; issue 21, item 6).

A tool listed with ``execution.taskSupport: "required"`` runs only as a task: the client sends
``tools/call`` with ``params.task`` (``{"ttl": ms}``), the server answers at once with a
``CreateTaskResult`` (``{"task": {"taskId", "status", "pollInterval", ...}}``), the client polls
``tasks/get`` until the status is terminal (``completed``, ``failed``, ``cancelled``) or
``input_required``, then ``tasks/result`` gives the tool's ``CallToolResult`` (the server
sends any elicitation it needs while that request is open). Stopping the call sends
``tasks/cancel``.

The SDK (``mcp`` 2.3.0) checks every ``tools/call`` result against the 2025-11-25
``CallToolResult`` — its method table leaves tasks out, so its ``ClientSession`` refuses a
``CreateTaskResult`` (no ``content``). The first request therefore goes through the session's
dispatcher (``Dispatcher.send_raw_request``, the SDK's own JSON-RPC layer) and its answer is
validated with the SDK's ``CreateTaskResult`` type; ``tasks/get``, ``tasks/result`` and
``tasks/cancel`` go through ``ClientSession.send_request`` with the SDK's task types.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

#: Statuses after which ``tasks/result`` is asked (it blocks until the task ends).
RESULT_STATUSES = ("completed", "failed", "input_required")
#: Bounds on the server's ``pollInterval`` (seconds): never busier, never sleepier than this.
MIN_POLL_S, MAX_POLL_S = 0.05, 1.0
#: The ``ttl`` asked for a task (milliseconds): how long the server keeps it.
TASK_TTL_MS = 600_000
#: Seconds ``tasks/cancel`` may take when a call is stopped.
CANCEL_WAIT_S = 1.5


class TaskRun:
    """One task-augmented call. ``session``: the SDK ``ClientSession``; ``dispatcher``: its
    dispatcher; ``version``: the negotiated protocol version (sent as the HTTP header);
    ``on_status(status, message)``: called when a ``tasks/get`` answer changes the status or its
    message (the caller shows it and counts it as a sign of life: a task with no news for the
    call's limit is cancelled). After :meth:`run`: ``task_id``, ``statuses`` (``{"status",
    "statusMessage"}`` per poll that changed them) and ``cancel_sent`` (``tasks/cancel`` went
    out)."""

    def __init__(
        self,
        session: Any,
        dispatcher: Any,
        version: str,
        on_status: Callable[[str, str | None], None],
    ) -> None:
        self.session, self.dispatcher, self.version = session, dispatcher, version
        self.on_status = on_status
        self.task_id = ""
        self.statuses: list[dict[str, Any]] = []
        self.cancel_sent = False
        self._done = False

    def to_json(self) -> dict[str, Any]:
        """The record's ``mcp.task``: ``{"taskId", "statuses", "cancelled"?}``."""
        data: dict[str, Any] = {"taskId": self.task_id, "statuses": self.statuses}
        if self.cancel_sent:
            data["cancelled"] = "tasks/cancel sent"
        return data

    async def run(self, tool: str, args: dict[str, Any], read_timeout_s: float) -> Any:
        """Create the task, poll it, and return its ``CallToolResult`` (SDK type). Raises
        ``MCPError`` for a JSON-RPC error (the SDK's), ``ValueError`` for an answer that is no
        ``CreateTaskResult``; when cancelled (a time limit, ctrl+c) sends ``tasks/cancel``
        first."""
        import mcp.types as types
        from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER

        params = {"name": tool, "arguments": args, "task": {"ttl": TASK_TTL_MS}}
        opts: dict[str, Any] = {
            "timeout": read_timeout_s,
            "headers": {MCP_PROTOCOL_VERSION_HEADER: self.version},
        }
        raw = await self.dispatcher.send_raw_request("tools/call", params, opts)
        if "task" not in raw:  # the server ran it at once: a plain result
            return types.CallToolResult.model_validate(raw)
        task = types.CreateTaskResult.model_validate(raw).task
        self.task_id = task.task_id
        self._seen(task.status, task.status_message)
        try:
            while task.status not in (*RESULT_STATUSES, "cancelled"):
                wait_s = (task.poll_interval or 1000) / 1000
                await asyncio.sleep(min(max(wait_s, MIN_POLL_S), MAX_POLL_S))
                task = await self.session.send_request(
                    types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=self.task_id)),
                    types.GetTaskResult,
                )
                self._seen(task.status, task.status_message)
            if task.status == "cancelled":
                self._done = True
                raise ValueError(f"the server cancelled task {self.task_id}")
            result = await self.session.send_request(
                types.GetTaskPayloadRequest(
                    params=types.GetTaskPayloadRequestParams(task_id=self.task_id)
                ),
                types.CallToolResult,
                request_read_timeout_seconds=read_timeout_s,
            )
            self._done = True
            return result
        except BaseException:
            if not self._done:
                await self._cancel()
            raise

    def _seen(self, status: str, message: str | None) -> None:
        entry = {"status": status, "statusMessage": message}
        if not self.statuses or entry != self.statuses[-1]:
            self.statuses.append(entry)
            self.on_status(status, message)

    async def _cancel(self) -> None:
        """``tasks/cancel``, shielded from the cancellation that stops the call (a time limit
        or ctrl+c) and bounded to :data:`CANCEL_WAIT_S`."""
        import anyio
        import mcp.types as types

        self.cancel_sent = True
        request = types.CancelTaskRequest(
            params=types.CancelTaskRequestParams(task_id=self.task_id)
        )
        with (
            anyio.CancelScope(shield=True),
            anyio.move_on_after(CANCEL_WAIT_S),
            contextlib.suppress(Exception),
        ):
            await self.session.send_request(request, types.CancelTaskResult)
