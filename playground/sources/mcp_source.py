"""An MCP server as a tool source (docs/design.md, "tool source"; issue 10).

:class:`McpSource` implements :class:`~playground.core.toolsource.ToolSource` over the official
``mcp`` SDK: a server process (its pipes bridged by :mod:`playground.sources.mcp_stdio`, which
starts the process before the SDK is imported) or ``streamable_http_client`` (a URL), and a
``ClientSession`` for ``initialize``, ``tools/list`` and ``tools/call``. No protocol code here.
Nothing here imports the SDK at module level: :func:`start_mcp_servers` starts the stdio
servers first, and the SDK loads while they boot.

The SDK is async; the playground is not. Each source owns one background thread running an
asyncio event loop; the connection lives in one task of that loop (the SDK's context managers
are entered and left there), and :meth:`McpSource.call` submits one coroutine per call and
waits for it with a bound. Several sources start concurrently (:func:`load_sources`).

Calls: the time limit is the SDK's request read timeout; when it passes, the SDK sends
``notifications/cancelled`` and the call is ``timed_out`` (→ ``transient``). The source then
pings the server; a stdio server that does not answer within ``cancel_grace_s`` is stopped (its
stdin closed, then its process tree killed) and started again. A server that closes the
connection mid-call gives a run ``stopped`` with the server named, and the next call restarts
it. The server's stderr is kept per server (:meth:`McpSource.stderr_text`); what it wrote
during a call is the run's ``output``.

Security (issue 10, item 6): a stdio server's environment is exactly the configured ``env``
plus a minimal base — ``PATH``, ``HOME``, the locale variables, and the SDK's own safe set
(``LOGNAME``, ``SHELL``, ``TERM``, ``USER``: ``mcp_stdio.SDK_INHERITED_ENV``, equal to
``mcp.client.stdio.DEFAULT_INHERITED_ENV_VARS``);
never the playground's API keys unless configured. Header and env values never appear in
labels, problems or outputs (``[redacted]``). The playground opens no listening port.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from playground.core import outcome as oc
from playground.core.contracts import Contract, check_schema
from playground.core.effects import from_annotations
from playground.core.registry import Registry
from playground.core.toolsource import (
    PRINTED_LIMIT,
    BodyRun,
    LoadProblem,
    LoadResult,
    RaisedError,
    bounded_output,
)
from playground.errors import LoadError
from playground.sources.capped_log import CappedLog
from playground.sources.mcp_config import (
    McpServerSpec,
    ascii_server_name,
    redact,
    safe_server_name,
)

#: Environment variables every stdio server gets from the playground's own environment.
BASE_ENV = ("PATH", "HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ")
#: Most bytes of a server's stderr read for one call's ``printed`` (what ``bounded_output``
#: keeps, :data:`~playground.core.toolsource.PRINTED_LIMIT` characters, fits in it)
STDERR_READ_BYTES = 4 * PRINTED_LIMIT
#: Seconds to wait beyond a call's own limit before the sync side gives up on the loop.
CALL_GRACE_S = 2.0
#: Most ``tools/list`` pages read at one listing (a server whose cursors never end is cut off).
MAX_LIST_PAGES = 100
#: Seconds a cancelled call (ctrl+c) may take to send ``notifications/cancelled`` and end.
CANCEL_WAIT_S = 2.0

# The SDK logs a traceback for every non-protocol stdout line; the source reports those itself
# (as a load problem or in the run's output), so the SDK's records are not printed by default.
logging.getLogger("mcp").addHandler(logging.NullHandler())


@dataclass
class McpContract(Contract):
    """A contract whose body is ``tools/call`` on an MCP server.

    ``server``: the server's name. ``tool_name``: the tool's name on the server (the contract's
    ``name`` differs only when a clash made the playground prefix it). ``title``: the tool's
    title (``title`` or ``annotations.title``). ``annotations``: the tool's annotations as JSON
    (``readOnlyHint`` …). ``mcp_tool``: the tool as the server listed it (JSON, by alias).
    """

    server: str = ""
    tool_name: str = ""
    title: str = ""
    annotations: dict[str, Any] = field(default_factory=dict)
    mcp_tool: dict[str, Any] = field(default_factory=dict, repr=False)
    max_total_s: float = 60.0


def contract_from_tool(
    spec: McpServerSpec, tool: dict[str, Any], timeout_s: float | None = None
) -> McpContract:
    """An :class:`McpContract` from one listed tool (JSON by alias: ``inputSchema`` …).

    ``timeout_s``: the time limit in seconds; ``None`` takes the spec's
    (:meth:`McpServerSpec.timeout_for`: the tool's own, the server's ``timeout``, else MCP
    Inspector's 10 s). ``max_total_s`` is :meth:`McpServerSpec.max_total_for`.

    Raises :class:`LoadError` naming the server and tool when ``inputSchema`` or
    ``outputSchema`` is not a valid JSON Schema.
    """
    name = tool["name"]
    label = f"mcp:{spec.name}.{name}"
    params = tool.get("inputSchema") or {"type": "object", "properties": {}}
    check_schema(label, "inputSchema", params)
    returns = tool.get("outputSchema")
    if returns is not None:
        check_schema(label, "outputSchema", returns)
    annotations = dict(tool.get("annotations") or {})
    effects = from_annotations(name, tool.get("description") or "", annotations)
    return McpContract(
        name=name,
        description=tool.get("description") or "",
        parameters=params,
        fn=_not_local(spec.name, name),
        returns=returns,
        effects=effects.kind,
        effects_basis=effects.basis,
        effects_evidence=effects.evidence,
        idempotent=effects.idempotent,
        timeout_s=spec.timeout_for(name) if timeout_s is None else timeout_s,
        max_total_s=max(spec.max_total_for(name), timeout_s or 0.0),
        source=f"mcp:{spec.name}",
        origin="mcp",
        server=spec.name,
        tool_name=name,
        title=tool.get("title") or annotations.get("title") or "",
        annotations=annotations,
        mcp_tool=tool,
    )


def _not_local(server: str, tool: str) -> Callable[..., Any]:
    def body(**_: Any) -> Any:
        raise RuntimeError(f"{tool} runs on MCP server {server!r}: call it through its McpSource")

    body.__name__ = tool
    return body


def _leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def connection_closed(exc: BaseException) -> bool:
    """Whether ``exc`` is the SDK's own "Connection closed" (the stream ended), not a server's
    JSON-RPC error that happens to use the same code, -32000, the usual "server error" of
    JSON-RPC implementations (which keeps its message and never restarts the server)."""
    import mcp.types as types
    from mcp.shared.exceptions import MCPError

    return (
        isinstance(exc, MCPError)
        and exc.code == types.CONNECTION_CLOSED
        and exc.message == "Connection closed"
        and getattr(exc, "data", None) is None
    )


class McpSource:
    """One MCP server as a :class:`ToolSource` (stdio or Streamable HTTP).

    ``spec``: the server. ``connect_timeout_s``: the bound on start + ``initialize`` +
    ``tools/list`` (seconds). ``timeout_s``: the time limit given to every contract, or
    ``None`` for the spec's own (``timeout`` / ``toolTimeouts`` of its mcpServers entry,
    ``--mcp-timeout``; :meth:`McpServerSpec.timeout_for`). ``cancel_grace_s``: how long a server may take to answer a ping
    after a cancelled call before a stdio server is killed and restarted.

    Observable state, for the TUI and tests: ``notices`` (non-protocol stdout lines, server log
    messages, list changes, restarts — secrets redacted), ``progress`` (``(tool, progress,
    total, message)`` events), ``tools_changed`` (a ``tools/list_changed`` arrived since the last
    load), ``restarts`` (how many times the server was restarted), ``server_calls`` (``tools/call``
    requests sent). Callbacks ``on_progress(tool, progress, total, message)`` and
    ``on_tools_changed()`` run on the source's loop thread.
    """

    def __init__(
        self,
        spec: McpServerSpec,
        *,
        connect_timeout_s: float = 15.0,
        timeout_s: float | None = None,
        cancel_grace_s: float = 1.0,
    ) -> None:
        self.spec = spec
        self.label = f"mcp:{spec.name}"
        self.connect_timeout_s = connect_timeout_s
        self.timeout_s = timeout_s
        self.cancel_grace_s = cancel_grace_s
        self.notices: list[str] = []
        self.progress: list[tuple[str, float, float | None, str | None]] = []
        self.tools_changed = False
        self.restarts = 0
        self.server_calls = 0
        self.on_progress: Callable[[str, float, float | None, str | None], None] | None = None
        self.on_tools_changed: Callable[[], None] | None = None
        self.on_relisted: Callable[[LoadResult], None] | None = None
        #: answers the server's sampling requests (the selected router); None refuses them
        self.sampler: Callable[[dict[str, Any]], dict[str, Any]] | None = None
        self.exchanges: list[dict[str, Any]] = []
        #: answers elicitation/create for a person (the TUI's form); None: --elicit FILE or decline
        self.elicitor: Callable[[str, Any], dict[str, Any]] | None = None
        #: the resource_link blocks of the results so far, newest last (the TUI opens them)
        self.links: list[dict[str, Any]] = []
        #: one line per tools/list_changed acted on: the server and the tools added / removed
        self.list_changes: list[str] = []
        #: held while the tools are listed again: a call's end and the TUI relist one at a time
        self._relisting = threading.Lock()
        self._running: _CallState | None = None
        self.protocol_version = ""
        self.server_name = ""
        self.list_fault = ""
        #: one line per tools/list entry left out at the last listing (not an MCP tool)
        self.list_problems: list[str] = []
        self._http_status: int | None = None
        self._http_retry_after: float | None = None
        self._http_note = ""
        self._contracts: dict[str, McpContract] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._end_sdk_log: Callable[[], None] = lambda: None
        self._session: Any = None
        self._dispatcher: Any = None
        self._stop: asyncio.Event | None = None
        self._conn_task: asyncio.Task[None] | None = None
        self._conn_lock: asyncio.Lock | None = None
        self._broken = ""
        self._closed = False
        self._stage = "initialize"  # the lifecycle request under way while starting
        self._health: asyncio.Task[None] | None = None
        # Closed in close(); a pipe read as fast as it is written, so the server can never
        # block on stderr, and bounded, so it can never fill the disk (core/capped_log)
        self._stderr = CappedLog() if spec.transport == "stdio" else None
        self._stderr_pos = 0
        self._stderr_dropped = 0  # CappedLog.dropped when the log was last read
        self._noise_said = 0  # notices already said as warnings (unsaid_noise)
        self._early: concurrent.futures.Future[Any] | None = None
        self._process: Any = None
        # the current server process, for the exit guard below (it must not hold self)
        self._live: list[Any] = [None]
        weakref.finalize(self, _end_unclosed, self._live)

    # ---- the loop thread -------------------------------------------------------------------

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(
                target=loop.run_forever, name=f"mcp-{self.spec.name}", daemon=True
            )
            thread.start()
            self._loop, self._thread = loop, thread
            from playground.sources.sdk_log import keep_sdk_log

            assert thread.ident is not None  # started
            self._end_sdk_log = keep_sdk_log(thread.ident, _weak_note(self))
            weakref.finalize(self, self._end_sdk_log)
        return self._loop

    def _sdk_note(self, text: str) -> None:
        """A line of the SDK's client log about this source (:mod:`playground.sources.sdk_log`)."""
        self.notices.append(redact(f"{self.label}: {text}", self.spec)[:500])

    def _submit(self, coro: Any) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self._ensure_loop())

    # ---- connecting --------------------------------------------------------------------------

    def environment(self) -> dict[str, str]:
        """The environment given to a stdio server on top of the SDK's safe base: ``PATH``,
        ``HOME`` and the locale from the playground's environment, then the configured ``env``."""
        env = {k: os.environ[k] for k in BASE_ENV if k in os.environ}
        env.update(self.spec.env)
        return env

    def start_process(self) -> None:
        """Start a stdio server's process now, without importing the SDK (see
        :mod:`playground.sources.mcp_stdio`), so that it boots while the playground imports the
        SDK and its own modules; the next :meth:`load` connects to it. Does not wait; a process
        that cannot start is reported by that load. No-op for an HTTP server, a closed source,
        or a source already started or connected."""
        if (
            self.spec.transport != "stdio"
            or self._closed
            or self._early is not None
            or self._conn_task is not None
        ):
            return
        self._early = self._submit(self._spawn())

    async def _spawn(self) -> Any:
        from playground.sources.mcp_stdio import inherited_environment, spawn

        self._process = await spawn(
            self.spec.command,
            self.spec.args,
            inherited_environment() | self.environment(),
            self.spec.cwd,
            self._stderr.writer if self._stderr is not None else None,
        )
        self._live[0] = self._process
        return self._process

    @property
    def server_pid(self) -> int | None:
        """The process id of the stdio server while it runs (``None`` before it started, after
        it ended, and for an HTTP server)."""
        process = self._process
        if process is None or process.returncode is not None:
            return None
        return int(process.pid)

    async def _take_process(self) -> Any:
        """The process :meth:`start_process` started (once), else a new one."""
        early, self._early = self._early, None
        if early is not None:
            return await asyncio.wrap_future(early)
        return await self._spawn()

    async def _discard_early(self) -> None:
        """Stop a process started early that no load took (a source closed before loading)."""
        from playground.sources.mcp_stdio import stop_process

        early, self._early = self._early, None
        if early is not None:
            with contextlib.suppress(Exception):
                await stop_process(await asyncio.wrap_future(early))

    async def _on_http_response(self, response: Any) -> None:
        """httpx2's response hook: keep the status and ``Retry-After`` of the last response
        that was not 2xx, and note an SSE stream where Streamable HTTP was expected, so that a
        failure can name its real cause (the SDK turns an HTTP 404 into a JSON-RPC "Not
        Found")."""
        status = int(response.status_code)
        if status < 300:
            return
        self._http_status = status
        self._http_note = f"HTTP {status} {response.reason_phrase or ''}".strip()
        from playground.core.outcome import retry_after_of

        class _Carrier(Exception):
            pass

        carrier = _Carrier()
        carrier.headers = response.headers  # type: ignore[attr-defined]
        self._http_retry_after = retry_after_of(carrier)

    def _http_client(
        self, headers: dict[str, str] | None = None, timeout: Any = None, auth: Any = None
    ) -> Any:
        """An ``httpx2.AsyncClient`` with the spec's headers and the response hook (the SDK's
        ``McpHttpClientFactory`` shape, for ``sse_client``)."""
        import httpx2

        return httpx2.AsyncClient(
            headers={**self.spec.headers, **(headers or {})},
            timeout=timeout or httpx2.Timeout(30.0, read=300.0),
            auth=auth,
            event_hooks={"response": [self._on_http_response]},
        )

    async def _open(self, stack: contextlib.AsyncExitStack) -> Any:
        from playground.sources.mcp_imports import load_client_packages

        load_client_packages()  # the SDK's client modules without its server
        if self.spec.transport == "stdio":
            from playground.sources.mcp_stdio import process_streams

            process = await self._take_process()
            read, write = await stack.enter_async_context(process_streams(process))
        elif self.spec.transport == "sse":  # the legacy HTTP+SSE transport (2024-11-05)
            from mcp.client.sse import sse_client

            read, write = await stack.enter_async_context(
                sse_client(self.spec.url, httpx_client_factory=self._http_client)
            )
        else:
            from mcp.client.streamable_http import streamable_http_client

            client = self._http_client()
            await stack.enter_async_context(client)
            read, write = await stack.enter_async_context(
                streamable_http_client(self.spec.url, http_client=client)
            )
        from mcp.client.session import ClientSession

        from playground.sources.mcp_client import ClientFeatures
        from playground.sources.mcp_listing import listing_dispatcher

        # the session's JSON-RPC layer, kept for a task's tools/call (core/mcp_tasks); it
        # keeps each raw tools/list result too (sources/mcp_listing)
        self._dispatcher = listing_dispatcher(read, write)

        client = ClientFeatures(
            self.spec,
            note=self._client_note,
            sampler=lambda: self.sampler,
            on_exchange=self._client_exchange,
            elicitor=lambda: self.elicitor,
            on_wait=self._person_asked,
        )
        return await stack.enter_async_context(
            ClientSession(
                dispatcher=self._dispatcher,
                # 2026-07-28 asks for log messages per request (no logging/setLevel)
                log_level=self.spec.log_level or None,  # type: ignore[arg-type]  # checked
                logging_callback=self._on_log,
                message_handler=self._on_message,
                # roots only when --root offers folders: a server that reads roots (the
                # filesystem server) replaces its own allowed folders with them
                list_roots_callback=client.list_roots if self.spec.roots else None,
                elicitation_callback=client.elicit,
                sampling_callback=client.sample,
            )
        )

    def _client_note(self, text: str) -> None:
        """A server request the client answered (elicitation, sampling): in the MCP log, and
        in the warnings of the call running now."""
        self.notices.append(redact(f"{self.label}: {text}", self.spec)[:500])
        state = self._running
        if state is not None:
            state.notes.append(text)

    def _client_exchange(self, exchange: dict[str, Any]) -> None:
        """A sampling request and its answer: kept in ``exchanges`` (the TUI's step list) and
        in the record of the call running now (``mcp.sampling``)."""
        self.exchanges.append(exchange)
        state = self._running
        if state is not None:
            state.sampling.append(exchange)

    def _person_asked(self, waiting: bool) -> None:
        """A person is answering the server (``True``): the running call's limit is moved to
        its maximum total; answered (``False``): the limit starts again."""
        state = self._running
        if state is not None and state.limit is not None:
            state.limit(waiting)

    async def _connection(self, ready: asyncio.Future[list[dict[str, Any]]]) -> None:
        import anyio

        assert self._stop is not None
        try:
            async with contextlib.AsyncExitStack() as stack:
                session = await self._open(stack)
                with anyio.fail_after(self.connect_timeout_s):
                    self._stage = "initialize"
                    await _negotiate(session, self.spec.protocol)
                    self.protocol_version = str(session.protocol_version or "")
                    modern = self.protocol_version in _modern_versions()
                    if self.spec.log_level and not modern and _offers_logging(session):
                        await _set_log_level(session, self.spec.log_level)
                    info = session.server_info
                    self.server_name = str(getattr(info, "name", "") or "")
                    self._stage = "tools/list"
                    tools = await self._list_tools(session)
                self._session, self._broken = session, ""
                ready.set_result(tools)
                await self._stop.wait()
        except BaseException as exc:  # a server that fails in any way is a problem, not a crash
            if not ready.done():
                ready.set_exception(_leaf(exc) if isinstance(exc, Exception) else ConnectionError())
            elif not self._closed:
                self._broken = self._describe(_leaf(exc))
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
        finally:
            self._session = None

    async def _tools_page(
        self, session: Any, params: Any, cursor: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """One ``tools/list`` page: its tools (JSON by alias) and ``nextCursor``. A page the
        SDK refuses is read again from the raw result, entry by entry
        (:func:`~playground.sources.mcp_listing.read_tools_page`): its well-formed tools are
        kept (and handed to the SDK as an accepted page's are:
        :func:`~playground.sources.mcp_listing.absorb_kept_tools`, so that their ``tools/call``
        carries its ``Mcp-Param-*`` headers) and each refused entry is a line of
        ``list_problems``; so is each entry the SDK dropped from a page it accepted (an
        invalid ``x-mcp-header`` in the 2026-07-28 era)."""
        from pydantic import ValidationError

        from playground.sources.mcp_listing import (
            absorb_kept_tools,
            dropped_problems,
            read_tools_page,
            why_refused,
        )

        try:
            page = await session.list_tools(params=params)
        except ValidationError as exc:
            raw = getattr(self._dispatcher, "tool_pages", {}).pop(cursor, None)
            if raw is None:
                raise
            read = read_tools_page(raw, self.protocol_version)
            self.list_problems += read.problems or [f"tools/list refused: {why_refused(exc)}"]
            complete = cursor is None and read.next_cursor is None
            absorb_kept_tools(session, read.tools, complete=complete)  # their Mcp-Param-* headers
            return read.tools, read.next_cursor
        tools = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in page.tools]
        raw = getattr(self._dispatcher, "tool_pages", {}).pop(cursor, None)
        names = [t["name"] for t in tools]
        self.list_problems += dropped_problems(raw, names, self.protocol_version)
        return tools, page.next_cursor

    async def _list_tools(self, session: Any) -> list[dict[str, Any]]:
        """Every page of ``tools/list``. A cursor the server already sent, or more than
        :data:`MAX_LIST_PAGES` pages, ends the listing with the tools so far, and
        ``list_fault`` names the server's fault (issue 21, item 4); else ``list_fault`` is
        ``""``. Entries that are no MCP tool are left out, each named in ``list_problems``
        (:meth:`_tools_page`)."""
        import mcp.types as types

        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        seen: set[str] = set()
        self.list_fault = ""
        self.list_problems = []
        for page_number in range(1, MAX_LIST_PAGES + 1):
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            page_tools, cursor = await self._tools_page(session, params, cursor)
            tools += page_tools
            if not cursor:
                return tools
            if cursor in seen:
                self.list_fault = (
                    f"tools/list page {page_number} sent the nextCursor {cursor[:60]!r} again: "
                    f"the server's pagination loops; listing stopped with the {len(tools)} "
                    "tool(s) listed so far"
                )
                return tools
            seen.add(cursor)
        self.list_fault = (
            f"tools/list still sent a nextCursor after {MAX_LIST_PAGES} pages; listing stopped "
            f"with the {len(tools)} tool(s) listed so far"
        )
        return tools

    async def _start(self) -> list[dict[str, Any]]:
        """Start the connection task and wait for ``initialize`` + ``tools/list``."""
        loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        if self._conn_lock is None:
            self._conn_lock = asyncio.Lock()
        ready: asyncio.Future[list[dict[str, Any]]] = loop.create_future()
        self._conn_task = loop.create_task(self._connection(ready))
        try:
            return await asyncio.wait_for(asyncio.shield(ready), self.connect_timeout_s + 5.0)
        except BaseException:
            await self._stop_connection()
            raise

    async def _stop_connection(self) -> None:
        if self._stop is not None:
            self._stop.set()
        task, self._conn_task = self._conn_task, None
        if task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 10.0)
        self._session = None

    async def _restart(self, why: str) -> None:
        assert self._conn_lock is not None
        async with self._conn_lock:
            await self._stop_connection()
            if self._closed:  # close() came meanwhile: a new process would outlive it
                return
            self.restarts += 1
            self.notices.append(f"{self.label}: restarted ({why})")
            try:
                await self._start()
            except Exception as exc:
                self._broken = self._start_failure(exc)

    # ---- notifications -----------------------------------------------------------------------

    async def _on_log(self, params: Any) -> None:
        self.notices.append(
            redact(f"{self.label}: log {params.level}: {params.data}", self.spec)[:500]
        )

    async def _on_message(self, message: Any) -> None:
        import mcp.types as types

        if isinstance(message, Exception):
            self.notices.append(
                redact(f"{self.label}: {_non_protocol_text(message)}", self.spec)[:500]
            )
        elif isinstance(message, types.ToolListChangedNotification):
            self.tools_changed = True
            self.notices.append(f"{self.label}: the server's tool list changed")
            if self.on_tools_changed is not None:
                self.on_tools_changed()

    # ---- stderr ------------------------------------------------------------------------------

    def stderr_text(self) -> str:
        """Everything the server wrote to stderr so far (stdio servers; ``""`` for HTTP)."""
        if self._stderr is None or self._stderr.closed:
            return ""
        self._stderr.settle()
        data = os.pread(self._stderr.fileno(), 1 << 24, 0)
        text = redact(data.decode("utf-8", "replace"), self.spec)
        if self._stderr.dropped:
            text += f"\n[{self._stderr.dropped:,} more bytes of stderr dropped: past the cap]\n"
        return text

    def _stderr_since(self, pos: int) -> tuple[str, int]:
        """What the server wrote to stderr from byte ``pos`` of the kept log (at most
        :data:`STDERR_READ_BYTES` of it, redacted) and where the log ends now: the next read
        starts there, so a flood's rest never shows as a later call's output."""
        text, end, _ = self._stderr_read(pos)
        return text, end

    def _stderr_read(self, pos: int) -> tuple[str, int, int]:
        """``(text, end, written)``: :meth:`_stderr_since`, and how many bytes the server wrote
        from ``pos`` on (those past the cap counted: :attr:`CappedLog.dropped`) — more than
        ``text`` holds when the output was cut."""
        if self._stderr is None or self._stderr.closed:
            return "", pos, 0
        self._stderr.settle()
        fd = self._stderr.fileno()
        end = max(pos, os.fstat(fd).st_size)
        data = os.pread(fd, min(STDERR_READ_BYTES, end - pos), pos)
        dropped = self._stderr.dropped - self._stderr_dropped
        self._stderr_dropped = self._stderr.dropped
        text = redact(data.decode("utf-8", "replace"), self.spec)
        return text, end, end - pos + dropped

    def _stderr_tail(self, lines: int = 3) -> str:
        tail = [ln.strip() for ln in self.stderr_text().splitlines() if ln.strip()][-lines:]
        return " | ".join(tail)

    # ---- ToolSource --------------------------------------------------------------------------

    def _describe(self, exc: BaseException) -> str:
        from mcp.shared.exceptions import MCPError

        if connection_closed(exc):
            text = "the server closed the connection"
        elif isinstance(exc, TimeoutError):
            text = f"no answer to initialize within {self.connect_timeout_s:g} s"
        elif isinstance(exc, FileNotFoundError):
            text = f"cannot start {self.spec.command!r}: command not found"
        elif isinstance(exc, OSError) and self.spec.transport == "stdio":
            text = f"cannot start {self.spec.command!r}: {exc.strerror or exc}"
        elif self.spec.transport != "stdio" and self._http_status is not None:
            text = self._http_cause()
        elif self.spec.transport != "stdio" and not isinstance(exc, MCPError):
            text = f"cannot reach {self.spec.url}: {oc.exception_text(_leaf(exc))}"
        else:
            text = oc.exception_text(exc)
        return redact(text, self.spec)

    def _http_cause(self) -> str:
        """What the last non-2xx HTTP answer says about a failed connection: the status, and
        for 404 / 405 which endpoint the URL probably is not (issue 21, item 4)."""
        status = self._http_status
        text = f"{self.spec.url} answered {self._http_note}"  # redacted by the callers
        if status == 404:
            text += " (no MCP endpoint at this path"
            if self.spec.transport == "http":
                text += "; Streamable HTTP servers usually serve /mcp, legacy SSE ones /sse"
            text += ")"
        elif status == 405 and self.spec.transport == "http":
            text += (
                " (the path refuses POST: it may be a legacy SSE endpoint; use a URL ending in "
                '/sse or "type": "sse" in the mcpServers entry)'
            )
        elif status in (401, 403):
            text += " (not authorised: check the --mcp-header / headers values)"
        return text

    def _start_failure(self, exc: BaseException) -> str:
        from mcp import MCPError

        text = self._describe(exc)
        if self.spec.transport != "stdio" and self._http_status is not None:
            return redact(f"{self._stage} failed: {self._http_cause()}", self.spec)
        if isinstance(exc, MCPError) and not connection_closed(exc):
            # a JSON-RPC error where the MCP lifecycle expects a result: name the request, and
            # for initialize say what the command probably is (cat echoes the request back, and
            # the SDK's own "Method not found" reply to it comes back as the answer)
            stage = self._stage
            text = f"{stage} failed with the JSON-RPC error {exc.code} {exc.message!r}"
            if stage == "initialize" and self.spec.transport == "stdio":
                text += (
                    "; the command does not answer as an MCP server does (a stdio server "
                    "replies to initialize with its capabilities; a program that echoes its "
                    "input, such as cat, gives this error)"
                )
            text = redact(text, self.spec)
        stdout_noise = [n for n in self.notices if "non-protocol text" in n]
        if stdout_noise:
            text += f"; it {stdout_noise[-1].split(': ', 1)[-1]}"
        tail = self._stderr_tail()
        if tail:
            text += f"; stderr: {tail}"
        return text

    def load(self) -> LoadResult:
        """Start the server (or connect), ``initialize`` and list its tools.

        Returns the contracts (one per tool) and load problems naming the server
        (``mcp:NAME``): a server that cannot start, exits at start, never answers
        ``initialize`` within ``connect_timeout_s``, or a tool with an invalid schema. A server
        that wrote non-protocol text to stdout and then worked gets a warning quoting the
        text (at most 120 characters), not a problem: the server is usable. Never raises.
        """
        if self._closed:
            return LoadResult(problems=[LoadProblem(self.label, "the source is closed")])
        before = len(self.notices)
        try:
            tools = self._submit(self._start()).result(self.connect_timeout_s + 15.0)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            return LoadResult(problems=[LoadProblem(self.label, self._start_failure(exc))])
        self._stderr_pos = self._stderr_since(0)[1]
        if not self.spec.named_by_user and self.server_name:
            self.rename(self.server_name)
        result = self._contracts_of(tools)
        noise = [n for n in self.notices[before:] if "non-protocol text" in n]
        if noise:
            result.warnings.append(LoadProblem(self.label, _noise_warning(noise[0])))
        self._noise_said = len(self.notices)  # said as a load warning, not again
        return result

    def unsaid_noise(self) -> list[str]:
        """The non-protocol text the server wrote to stdout since the load (or the last time
        this was asked), one warning line each: ``mcp:NAME: wrote non-protocol text to stdout:
        '…' (stdout is for JSON-RPC messages only; …)``. The command line prints them as
        ``warning:`` lines when it ends."""
        fresh = self.notices[self._noise_said :]
        self._noise_said = len(self.notices)
        return [f"{self.label}: {_noise_warning(n)}" for n in fresh if "non-protocol text" in n]

    def _contracts_of(self, tools: list[dict[str, Any]]) -> LoadResult:
        self.tools_changed = False
        result = LoadResult()
        contracts: dict[str, McpContract] = {}
        for tool in tools:
            try:
                contract = contract_from_tool(self.spec, tool, self.timeout_s)
            except LoadError as exc:
                result.problems.append(LoadProblem(self.label, str(exc)))
                continue
            if contract.tool_name in contracts and not self.list_fault:
                # tools/list names it twice: say which is kept (a looping cursor's repeats are
                # that fault's, already named)
                result.problems.append(
                    LoadProblem(
                        self.label,
                        f"tools/list lists {contract.tool_name!r} more than once; the last "
                        "listing is used (tool names must be unique: MCP spec, tools)",
                    )
                )
            contracts[contract.tool_name] = contract
        result.contracts = list(contracts.values())
        self._contracts = contracts
        result.problems += [
            LoadProblem(self.label, redact(p, self.spec)) for p in self.list_problems
        ]
        if self.list_fault:
            result.problems.append(LoadProblem(self.label, self.list_fault))
        return result

    def rename(self, name: str) -> None:
        """Name the server ``name`` (made safe: letters and digits of any script, ``_``, ``-``:
        :func:`~playground.sources.mcp_config.safe_server_name`) in its label,
        spec and contracts: a server started from ``--mcp`` / ``--mcp-url`` takes the
        ``serverInfo.name`` it gives (issue 21, item 4); an mcpServers key is never replaced."""
        import dataclasses

        safe = safe_server_name(name) or self.spec.name
        if safe == self.spec.name:
            return
        old = self.label
        self.spec = dataclasses.replace(self.spec, name=safe)
        self.label = f"mcp:{safe}"
        self.notices[:] = [
            f"{self.label}{n[len(old) :]}" if n.startswith(f"{old}:") else n for n in self.notices
        ]
        for contract in self._contracts.values():
            contract.server, contract.source = safe, self.label

    def refresh(self) -> LoadResult:
        """List the tools again on the live connection (after ``tools/list_changed``), without
        restarting the server; falls back to :meth:`load` when there is no connection."""
        session = self._session
        if session is None or self._closed:
            return self.load()
        try:
            tools = self._submit(self._list_tools(session)).result(self.connect_timeout_s)
        except Exception as exc:
            return LoadResult(problems=[LoadProblem(self.label, self._describe(exc))])
        return self._contracts_of(tools)

    def contracts(self) -> list[McpContract]:
        """The contracts of the last successful load, in the server's order."""
        return list(self._contracts.values())

    def reload(self) -> LoadResult:
        """Disconnect (stopping a stdio server) and load again."""
        if self._loop is not None and not self._closed:
            with contextlib.suppress(Exception):
                self._submit(self._stop_connection()).result(15.0)
        return self.load()

    def call(self, contract: Contract, args: dict[str, Any], timeout_s: float) -> BodyRun:
        """``tools/call`` on the server; returns a :class:`BodyRun` and never raises.

        ``timeout_s``: the limit in seconds without an answer; each ``notifications/progress``
        the server sends for the call starts it again (MCP Inspector's "reset timeout on
        progress"), up to the contract's ``max_total_s`` in all (issue 21, item 1). When it
        passes, ``notifications/cancelled`` goes to the server and the run is ``timed_out``.
        ctrl+c (``KeyboardInterrupt`` in the waiting thread) sends ``notifications/cancelled``
        too and returns a run with ``cancelled`` set.

        ``value``: ``structuredContent`` or the content blocks (see
        :mod:`playground.sources.mcp_results`). ``error``: an ``isError`` result (the server's
        text verbatim) or a JSON-RPC error, classified by its code and HTTP status.
        ``stopped``: the connection ended during the call. ``output``: what the server wrote
        to stderr meanwhile, and non-protocol stdout lines. ``protocol``: the record's ``mcp``
        field (server, ``protocolVersion``, the result as sent, progress, time limits).
        ``warnings``: blocks a provider's format cannot carry, ``structuredContent`` with
        empty ``content``, a tool list that changed (listed again at once).
        """
        started = time.perf_counter()
        tool = contract.tool_name if isinstance(contract, McpContract) else contract.name
        max_total_s = max(getattr(contract, "max_total_s", timeout_s), timeout_s)
        if self._closed:
            return BodyRun(error=self._down_error("the source is closed"), stopped="closed")
        execution = getattr(contract, "mcp_tool", {}).get("execution") or {}
        as_task = execution.get("taskSupport") == "required"
        pos = self._stderr_pos
        notices_before = len(self.notices)
        state = _CallState(tool, started, as_task=as_task)
        self._running = state
        # the submit is inside the try: a ctrl+c that lands as the call is handed to the loop
        # (the request may already be on its way) is a cancelled call too, not a lost record
        future: concurrent.futures.Future[Any] | None = None
        try:
            future = self._submit(self._call(tool, args, timeout_s, max_total_s, state))
            kind, payload = future.result(self.connect_timeout_s + max_total_s + CALL_GRACE_S)
        except concurrent.futures.TimeoutError:
            if future is not None:
                future.cancel()
            kind, payload = "timeout", None
        except KeyboardInterrupt:  # ctrl+c: cancel on the server, then report it
            kind, payload = self._cancel(future, state), None
        except Exception as exc:
            kind, payload = "down", self._describe(exc)
        run = BodyRun()
        protocol = self._protocol_of(state, timeout_s, max_total_s)
        if kind in ("ok", "is_error"):
            self._fill_result(run, protocol, kind, payload, tool)
        else:
            self._fill_failure(run, protocol, kind, payload, state)
        run.protocol = protocol
        run.warnings += state.notes
        self._running = None
        if self.tools_changed and not self._closed:
            run.warnings += self._relist_after_change()
        text, self._stderr_pos, written = self._stderr_read(pos)
        extra = [n for n in self.notices[notices_before:] if "non-protocol text" in n]
        run.warnings += [_noise_warning(n) for n in extra]
        noise = "".join(f"{n}\n" for n in extra)
        read = len(text.encode("utf-8", "replace"))
        cut = written > read  # only the start was read, or the log's cap was passed
        total = written + len(noise.encode("utf-8", "replace")) if cut else None
        run.output = bounded_output(text + noise, total)
        run.duration_ms = (time.perf_counter() - started) * 1000
        return run

    def _protocol_of(
        self, state: _CallState, timeout_s: float, max_total_s: float
    ) -> dict[str, Any]:
        """The record's ``mcp`` field before the result: server, version, transport, limits,
        and what the call saw (progress, sampling exchanges, the task)."""
        protocol: dict[str, Any] = {
            "server": self.spec.name,
            "protocolVersion": self.protocol_version,
            "transport": self.spec.transport,
            "timeout_s": timeout_s,
            "max_total_s": max_total_s,
        }
        if state.progress:
            protocol["progress"] = state.progress
        if state.sampling:
            protocol["sampling"] = state.sampling
        if state.task_run is not None:
            protocol["task"] = state.task_run.to_json()
        return protocol

    def _fill_result(
        self, run: BodyRun, protocol: dict[str, Any], kind: str, payload: Any, tool: str
    ) -> None:
        """An answered call (``ok`` / ``is_error``): the result as sent (unless over the
        result cap), its value or the tool's own error, the content warnings, its links."""
        from playground.core.wire_content import content_gaps
        from playground.sources.mcp_results import (
            empty_content_warning,
            error_of_result,
            result_as_sent,
            result_cap_bytes,
            result_value,
            too_big_message,
        )

        refused = too_big_message(tool, payload, result_cap_bytes())
        if refused:  # bounded like a Python result: never copied into the record
            run.refused, run.refused_message = "too_big", refused
            return
        protocol["result"] = result_as_sent(payload)
        content = protocol["result"].get("content") or []
        warning = empty_content_warning(payload)
        if warning:
            run.warnings.append(warning)
        self.links += [
            {**block, "tool": tool}
            for block in content
            if isinstance(block, dict) and block.get("type") == "resource_link"
        ]
        if kind == "ok":
            run.value = result_value(payload)
            run.warnings += content_gaps(content)
        else:
            run.error = error_of_result(self.spec.name, payload)

    def _fill_failure(
        self, run: BodyRun, protocol: dict[str, Any], kind: str, payload: Any, state: _CallState
    ) -> None:
        """A call without a result: a JSON-RPC error (by its code and HTTP status), a time
        limit, ctrl+c, a closed or absent server, or a result the SDK's types refuse."""
        from playground.sources.mcp_results import error_of_rpc

        if kind == "rpc":
            code, message, data = payload
            run.error = error_of_rpc(
                self.spec.name,
                code,
                redact(message, self.spec),
                self._http_status,
                self._http_retry_after,
                data,
            )
        elif kind == "timeout":
            run.timed_out = True
            protocol["cancelled"] = state.cancel_reason or "timed out"
            run.stopped = f"cancelled with notifications/cancelled ({protocol['cancelled']})"
        elif kind == "cancelled":
            run.cancelled = True
            protocol["cancelled"] = "cancelled by the user (ctrl+c)"
            run.stopped = (
                f"cancelled by the user after {time.perf_counter() - state.started:.1f} s; "
                + (
                    "before the request was sent: nothing went to the server"
                    if state.unsent
                    else "notifications/cancelled sent to the server"
                )
            )
        elif kind == "closed":
            run.stopped = "the server closed the connection"
            run.error = self._down_error(
                f"{self.label} closed the connection during the call (it will be restarted "
                "on the next call)"
            )
        elif kind == "down":
            run.stopped = "server not running"
            run.error = self._down_error(f"{self.label} is not running: {payload}")
        else:  # "malformed"
            run.error = RaisedError(
                type_name="McpProtocolError",
                text=f"McpProtocolError: {self.label} sent a malformed tools/call result: "
                f"{payload}",
                kind=oc.RAISED,
                reason="malformed_result",
                details={"server": self.spec.name},
            )

    # ---- resources and prompts (issue 21, item 6) -------------------------------------------

    def request(self, method: str, **params: Any) -> Any:
        """One client request on the live connection, as JSON (by alias): ``resources/list``
        (every page; templates too: ``{"resources", "resourceTemplates"}``),
        ``resources/read`` (``uri``), ``prompts/list`` (every page) or ``prompts/get``
        (``name``, ``arguments``). Raises :class:`LoadError` with one line naming the server
        for a server that is down or answers with an error."""
        from mcp import MCPError

        async def ask() -> Any:
            session = await self._session_for_call()
            dump: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_none": True}
            if method == "resources/list":
                found: dict[str, list[Any]] = {"resources": [], "resourceTemplates": []}
                caps = session.server_capabilities
                if caps is None or caps.resources is None:
                    return found
                page = await session.list_resources()
                found["resources"] += [r.model_dump(**dump) for r in page.resources]
                with contextlib.suppress(MCPError):
                    templates = await session.list_resource_templates()
                    found["resourceTemplates"] += [
                        t.model_dump(**dump) for t in templates.resource_templates
                    ]
                return found
            if method == "resources/read":
                return (await session.read_resource(params["uri"])).model_dump(**dump)
            if method == "prompts/list":
                caps = session.server_capabilities
                if caps is None or caps.prompts is None:
                    return {"prompts": []}
                return {
                    "prompts": [
                        p.model_dump(**dump) for p in (await session.list_prompts()).prompts
                    ]
                }
            if method == "prompts/get":
                got = await session.get_prompt(params["name"], params.get("arguments") or None)
                return got.model_dump(**dump)
            raise ValueError(method)

        try:
            return self._submit(ask()).result(self.connect_timeout_s + 30.0)
        except MCPError as exc:
            raise LoadError(f"{self.label}: {method} failed: {exc.message} ({exc.code})") from None
        except Exception as exc:
            raise LoadError(f"{self.label}: {method} failed: {self._describe(exc)}") from None

    def cancel_current(self) -> bool:
        """Cancel the call running now, from any thread (the TUI's cancel key): the SDK sends
        ``notifications/cancelled`` and that call returns a run with ``cancelled`` set.
        Returns whether a call was running."""
        state, loop = self._running, self._loop
        if state is None or state.task is None or loop is None:
            return False
        state.user_cancelled = True
        loop.call_soon_threadsafe(state.task.cancel)
        return True

    def cancel(self) -> None:
        """Stop the call running now (ctrl+c in the TUI, which shows its own ``cancelled``
        record and drops this call's result): :meth:`cancel_current`, so the SDK sends the
        server ``notifications/cancelled`` and the request's progress stops being reported.
        Safe from any thread, with or without a running call."""
        self.cancel_current()

    def _cancel(self, future: concurrent.futures.Future[Any] | None, state: _CallState) -> str:
        """ctrl+c during a call: cancel its task on the loop (the SDK then sends
        ``notifications/cancelled`` for the request) and wait up to :data:`CANCEL_WAIT_S` for
        that to go out. ``future`` is ``None`` when the ctrl+c came while the call was being
        handed to the loop: a call whose task has not started yet sees ``user_cancelled`` and
        sends nothing (:meth:`_call`). Returns ``"cancelled"``."""
        state.user_cancelled = True
        task = state.task
        if task is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(task.cancel)
            if future is not None:
                with contextlib.suppress(BaseException):
                    future.result(CANCEL_WAIT_S)
        else:
            state.unsent = True  # the task, when it starts, sees user_cancelled and returns
            if future is not None:
                future.cancel()
        return "cancelled"

    def _relist_after_change(self) -> list[str]:
        """``tools/list_changed`` arrived: list the tools again now, tell ``on_relisted`` (the
        registry), and say what changed, for the record; ``[]`` when another thread listed
        them again meanwhile (one relisting per change, never two at once)."""
        with self._relisting:
            if not self.tools_changed or self._closed:
                return []
            return self._relist()

    def _relist(self) -> list[str]:
        before = set(self._contracts)
        result = self.refresh()
        if self.on_relisted is not None:
            self.on_relisted(result)
        after = {c.tool_name for c in result.contracts if isinstance(c, McpContract)}
        added, removed = sorted(after - before), sorted(before - after)
        change = []
        if added:
            change.append("added " + ", ".join(added))
        if removed:
            change.append("removed " + ", ".join(removed))
        line = (
            f"{self.label} sent notifications/tools/list_changed; its tools were listed again"
            + (f": {'; '.join(change)}" if change else " (no tool added or removed)")
        )
        self.list_changes.append(line)
        return [line]

    def relist_if_changed(self) -> list[str]:
        """List the tools again if a ``tools/list_changed`` came since the last listing (for a
        command that ran no call after it: ``check``, ``eval``). Returns :attr:`list_changes`,
        one line per change acted on in this process."""
        if self.tools_changed and not self._closed:
            self._relist_after_change()
        return list(self.list_changes)

    def _down_error(self, text: str) -> RaisedError:
        tail = self._stderr_tail()
        if tail:
            text += f"; stderr: {tail}"
        return RaisedError(
            type_name="McpServerError",
            text=f"McpServerError: {redact(text, self.spec)}",
            kind=oc.RAISED,
            reason="server_down",
            details={"server": self.spec.name},
        )

    async def _session_for_call(self) -> Any:
        """The live session; restarts a server that closed the connection or was never up."""
        if self._conn_lock is None:
            self._conn_lock = asyncio.Lock()
        health = self._health
        if health is not None and not health.done():
            with contextlib.suppress(Exception):
                await health  # a cancelled call's server is checked (and restarted) first
        async with self._conn_lock:
            if self._session is not None and not self._broken:
                return self._session
            if self._conn_task is not None or self._broken:
                self.restarts += 1
                self.notices.append(f"{self.label}: restarted ({self._broken or 'not running'})")
            await self._stop_connection()
            await self._start()
            return self._session

    async def _call(
        self,
        tool: str,
        args: dict[str, Any],
        timeout_s: float,
        max_total_s: float,
        state: _CallState,
    ) -> tuple[str, Any]:
        """One ``tools/call``: ``(kind, payload)`` with kind ``ok`` / ``is_error`` (the
        result), ``rpc`` (``(code, message, data)``), ``timeout``, ``cancelled``, ``closed``,
        ``down`` or ``malformed``. The limit is an anyio cancel scope whose deadline each
        progress notification moves to ``timeout_s`` from now, never past ``max_total_s``
        from the start; the SDK's own read timeout is ``max_total_s``. Leaving the scope makes
        the SDK send ``notifications/cancelled``."""
        import mcp.types as types
        from mcp.shared.exceptions import MCPError

        state.task = asyncio.current_task()
        if state.user_cancelled:  # ctrl+c while the call was being handed over (see _cancel)
            return "cancelled", None
        try:
            session = await self._session_for_call()
        except Exception as exc:
            return "down", self._start_failure(exc)

        limit = _Limit(timeout_s, max_total_s)
        scope = limit.scope
        state.limit = limit.hold

        async def progress(done: float, total: float | None, message: str | None) -> None:
            at_ms = round(limit.elapsed() * 1000, 1)
            state.progress.append(
                {"progress": done, "total": total, "message": message, "at_ms": at_ms}
            )
            limit.restart()
            self.progress.append((tool, done, total, message))
            self._show_progress(tool, done, total, message)

        def alive(polls: int, message: str) -> None:  # a task's status: shown, and a sign of life
            limit.restart()
            self._show_progress(tool, polls, None, message)

        self.server_calls += 1
        self._http_status = self._http_retry_after = None
        result: Any = None
        try:
            with scope:
                if state.as_task:
                    result = await self._task_call(session, tool, args, max_total_s, alive)
                else:
                    result = await session.send_request(
                        types.CallToolRequest(
                            params=types.CallToolRequestParams(name=tool, arguments=args)
                        ),
                        types.CallToolResult,
                        request_read_timeout_seconds=max_total_s,
                        progress_callback=progress,
                    )
        except asyncio.CancelledError:
            if state.user_cancelled:
                return "cancelled", None
            raise
        except MCPError as exc:
            if exc.code == types.REQUEST_TIMEOUT:
                return self._timed_out(session, state, max_total_s, max_total_s)
            if connection_closed(exc):
                self._broken = "the server closed the connection"
                return "closed", None
            return "rpc", (exc.code, exc.message, getattr(exc, "data", None))
        except Exception as exc:  # a result the SDK's types refuse
            return "malformed", " ".join(str(exc).split())[:300]
        if scope.cancelled_caught or result is None:
            return self._timed_out(session, state, limit.elapsed(), max_total_s, timeout_s)
        if result.is_error:
            return "is_error", result
        return "ok", result

    def _show_progress(
        self, tool: str, done: float, total: float | None, message: str | None
    ) -> None:
        if self.on_progress is not None:
            self.on_progress(tool, done, total, message)

    def _timed_out(
        self,
        session: Any,
        state: _CallState,
        elapsed: float,
        max_total_s: float,
        timeout_s: float | None = None,
    ) -> tuple[str, Any]:
        """A call past its limit (``timeout_s`` without news, or ``max_total_s`` in all, after
        ``elapsed`` seconds): say which in ``state.cancel_reason`` and check the server's
        health (a ping; :meth:`_check_after_cancel`). Returns ``("timeout", None)``."""
        if timeout_s is None or elapsed >= max_total_s - 0.01:
            state.cancel_reason = f"no result within the maximum total time of {max_total_s:g} s"
        else:
            state.cancel_reason = (
                f"no result or progress within {timeout_s:g} s, after {elapsed:.1f} s"
            )
        self._health = asyncio.get_running_loop().create_task(self._check_after_cancel(session))
        return "timeout", None

    async def _task_call(
        self,
        session: Any,
        tool: str,
        args: dict[str, Any],
        max_total_s: float,
        alive: Callable[[int, str], None],
    ) -> Any:
        """A task-augmented call polled to its end (:class:`~playground.sources.mcp_tasks.TaskRun`):
        each ``tasks/get`` answer with a new status or message starts the limit again and goes
        to ``on_progress`` with the message ``task STATUS: statusMessage`` (kept in the record's
        ``mcp.task``, not in its ``progress``, which holds only the server's
        ``notifications/progress``)."""
        from playground.sources.mcp_tasks import TaskRun

        state = self._running

        def on_status(status: str, message: str | None) -> None:
            alive(len(run.statuses), f"task {status}" + (f": {message}" if message else ""))

        run = TaskRun(session, self._dispatcher, self.protocol_version, on_status)
        if state is not None:
            state.task_run = run
        return await run.run(tool, args, max_total_s)

    async def _check_after_cancel(self, session: Any) -> None:
        """After a cancelled call: ping; a stdio server that does not answer within
        ``cancel_grace_s`` is killed and restarted (issue 10, item 4)."""
        from mcp import MCPError

        try:
            await asyncio.wait_for(session.send_ping(), self.cancel_grace_s)
            return
        except MCPError:  # an error answer is an answer (2026-07-28 has no ping)
            return
        except Exception:
            pass
        if session is not self._session or self._closed:  # closing: never start it again
            return
        if self.spec.transport == "stdio":
            await self._restart(
                f"no answer within {self.cancel_grace_s:g} s after a cancelled call; killed"
            )
        else:
            self._broken = "no answer after a cancelled call"

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called (calls then return ``stopped="closed"``)."""
        return self._closed

    def close(self) -> None:
        """Stop the server (stdio) or end the HTTP session, and the loop thread. Idempotent."""
        if self._closed:
            return
        self._closed = True
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None:
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._discard_early(), loop).result(15.0)
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._stop_connection(), loop).result(15.0)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(5.0)
            if not thread.is_alive():
                loop.close()
        self._end_sdk_log()
        if self._stderr is not None:
            self._stderr.close()


def _weak_note(source: McpSource) -> Callable[[str], None]:
    """``source._sdk_note`` without keeping ``source`` alive (the SDK's logger outlives it)."""
    method = weakref.WeakMethod(source._sdk_note)

    def note(text: str) -> None:
        bound = method()
        if bound is not None:
            bound(text)

    return note


def _modern_versions() -> tuple[str, ...]:
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    return tuple(MODERN_PROTOCOL_VERSIONS)


async def _negotiate(session: Any, protocol: str = "") -> None:
    """The protocol era (issue 21, item 4): the ``initialize`` handshake, or with ``protocol``
    ``auto`` (``--mcp-protocol``, a config entry's ``"protocol"``; ``""``: the setting
    ``PLAYGROUND_MCP_PROTOCOL``) first ``server/discover`` (``ClientSession.discover``: the
    2026-07-28 stateless era, no handshake), falling back to ``initialize`` when the server
    answers it with an error (a 2025 server)."""
    from mcp import MCPError

    from playground.core.settings import setting

    if (protocol or setting("PLAYGROUND_MCP_PROTOCOL", "handshake")) == "auto":
        try:
            await session.discover()
            return
        except (MCPError, RuntimeError):
            pass
    await session.initialize()


def _offers_logging(session: Any) -> bool:
    """Whether the server's capabilities include logging (the SDK warns that the capability
    is deprecated from protocol 2026-07-28; this client speaks the 2025 handshake era)."""
    import warnings

    caps = session.server_capabilities
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return caps is not None and caps.logging is not None


async def _set_log_level(session: Any, level: str) -> None:
    """``logging/setLevel`` (without the SDK's deprecation warning of the 2026 era)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        await session.set_logging_level(level)


class _Limit:
    """A call's time limit: an anyio cancel scope whose deadline is ``timeout_s`` from the
    start, moved to ``timeout_s`` from now by each sign of life (:meth:`restart`), never past
    ``max_total_s`` from the start. Created on the source's loop."""

    def __init__(self, timeout_s: float, max_total_s: float) -> None:
        import anyio

        self._now = anyio.current_time
        self.timeout_s, self.max_total_s = timeout_s, max_total_s
        self.start = self._now()
        self.scope = anyio.CancelScope(deadline=self.start + timeout_s)

    def elapsed(self) -> float:
        """Seconds since the call started."""
        return self._now() - self.start

    def restart(self) -> None:
        """A progress notification or a new task status: the limit starts again."""
        self.scope.deadline = min(self._now() + self.timeout_s, self.start + self.max_total_s)

    def hold(self, waiting: bool) -> None:
        """A person is answering the server (``True``): only the maximum total bounds the call;
        answered (``False``): the limit starts again."""
        if waiting:
            self.scope.deadline = self.start + self.max_total_s
        else:
            self.restart()


@dataclass
class _CallState:
    """One call's shared state between the caller's thread and the loop: its task (for a
    ctrl+c cancel), the progress notifications so far, and why it was cancelled."""

    tool: str
    started: float
    task: asyncio.Task[Any] | None = None
    progress: list[dict[str, Any]] = field(default_factory=list)
    user_cancelled: bool = False
    #: the ctrl+c came before the call's task started: the request is never sent
    unsent: bool = False
    cancel_reason: str = ""
    notes: list[str] = field(default_factory=list)
    sampling: list[dict[str, Any]] = field(default_factory=list)
    as_task: bool = False
    limit: Callable[[bool], None] | None = None  # hold / restart the limit (a person asked)
    task_run: Any = None  # the TaskRun of a task-augmented call (core/mcp_tasks)


def _end_unclosed(live: list[Any]) -> None:
    """When a source is collected or the interpreter exits without :meth:`McpSource.close`
    (a command that failed midway): SIGTERM its stdio server's process group, so that a server
    that ignores its stdin closing is not left running as an orphan, then release its watchdog
    (which SIGKILLs what is left of the group: the processes its tools started)."""
    from playground.sources.mcp_stdio import release_watchdog

    process = live[0]
    if process is not None:
        if process.returncode is None:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGTERM)
        release_watchdog(int(process.pid))


def _noise_warning(notice: str) -> str:
    """The warning for one non-protocol notice (``mcp:NAME: wrote non-protocol text …``)."""
    return (
        f"{notice.split(': ', 1)[-1]} (stdout is for JSON-RPC messages only; a server should "
        "log to stderr)"
    )


def _non_protocol_text(exc: Exception) -> str:
    """``wrote non-protocol text to stdout: '…'`` for a line the SDK could not parse."""
    errors = getattr(exc, "errors", None)
    line: Any = None
    if callable(errors):
        with contextlib.suppress(Exception):
            found = errors()
            line = found[0].get("input") if found else None
    shown = repr(line)[:120] if isinstance(line, str) else oc.exception_text(exc, 160)
    return f"wrote non-protocol text to stdout: {shown}"


@dataclass
class SourcesLoad:
    """What :func:`load_sources` gave: ``contracts`` (names unique), ``problems`` and
    ``choices`` (one line per contract renamed because of a clash, for the user to see) and
    ``warnings`` (faults that did not stop a server: :class:`LoadResult`)."""

    contracts: list[Contract] = field(default_factory=list)
    problems: list[LoadProblem] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)
    warnings: list[LoadProblem] = field(default_factory=list)


def prefixed_name(server: str, tool: str) -> str:
    """``server__tool``: a name every provider accepts (ASCII letters, digits, ``_``, ``-``),
    a server named in another script written in Punycode (``xn--bj0bj06e__search``:
    :func:`~playground.sources.mcp_config.ascii_server_name`)."""
    return f"{ascii_server_name(server)}__{tool}"


class PendingServers:
    """MCP servers starting in the background, one thread each (:func:`start_mcp_servers`).

    ``sources``: one :class:`McpSource` per spec. :meth:`results` waits for every load.
    Starting them before the rest of a command loads lets each server boot while the
    playground imports its own modules.
    """

    def __init__(self, specs: Iterable[McpServerSpec], **options: float) -> None:
        self.sources = [McpSource(spec, **options) for spec in specs]
        for source in self.sources:  # before the SDK is imported: see McpSource.start_process
            source.start_process()
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, len(self.sources)), thread_name_prefix="mcp-load"
        )
        self._futures = [self._pool.submit(source.load) for source in self.sources]

    def results(self) -> list[LoadResult]:
        """Each source's :class:`LoadResult`, in order (waits; never raises for a server)."""
        try:
            return [future.result() for future in self._futures]
        finally:
            self._pool.shutdown(wait=False)


def start_mcp_servers(specs: Iterable[McpServerSpec], **options: float) -> PendingServers:
    """Start connecting to every server in ``specs`` now, concurrently; see
    :class:`PendingServers`. ``options``: :class:`McpSource` keyword arguments."""
    return PendingServers(specs, **options)


def merge_sources(
    sources: list[McpSource], results: list[LoadResult], taken: Iterable[str] = ()
) -> SourcesLoad:
    """Merge the load results of ``sources``, renaming clashes.

    ``taken``: names already registered (e.g. from ``--tools`` modules). A tool whose name is
    taken, or listed by two servers, is registered as ``server__tool`` on every server that
    has it, and a line in ``choices`` says so. A source that fails adds its problems; the
    others keep working.
    """
    out = SourcesLoad()
    used = {s.spec.name for s in sources if s.spec.named_by_user}
    results = [
        _named_uniquely(source, result, used)
        for source, result in zip(sources, results, strict=True)
    ]
    taken_names = set(taken)
    counts: dict[str, int] = {}
    for result in results:
        for c in result.contracts:
            counts[c.name] = counts.get(c.name, 0) + 1
    for source, result in zip(sources, results, strict=True):
        out.problems += result.problems
        out.warnings += result.warnings
        for contract in result.contracts:
            if contract.name in taken_names or counts[contract.name] > 1:
                new = prefixed_name(source.spec.name, contract.name)
                out.choices.append(
                    f"{source.label}: tool {contract.name!r} is also defined elsewhere; "
                    f"registered as {new!r}"
                )
                contract.name = new
            out.contracts.append(contract)
        taken_names.update(c.name for c in result.contracts)
    return out


def _named_uniquely(source: McpSource, result: LoadResult, used: set[str]) -> LoadResult:
    """Give ``source`` a name not in ``used`` (the mcpServers keys given, and the names of the
    sources named before it; its own is added), by the names in use once the servers answered:
    an mcpServers key as given; else the ``serverInfo.name`` it gave, or — a server that failed
    or gave none — the name of its command or host without the ``_2`` suffix it got while the
    others were still unnamed. The first of two alike keeps the name, the next gets
    ``NAME_2``, ``NAME_3`` … Returns ``result`` with its problems under the new label."""
    if source.spec.named_by_user:
        return result
    given = safe_server_name(source.server_name)
    base = given or source.spec.base_name or source.spec.name
    name, n = base, 2
    while name in used:
        name, n = f"{base}_{n}", n + 1
    used.add(name)
    old = source.label
    source.rename(name)
    if source.label == old:
        return result
    label = source.label
    problems = [replace(p, where=label) if p.where == old else p for p in result.problems]
    warnings = [replace(p, where=label) if p.where == old else p for p in result.warnings]
    return replace(result, problems=problems, warnings=warnings)


def load_sources(sources: Iterable[McpSource], taken: Iterable[str] = ()) -> SourcesLoad:
    """Load several sources concurrently (one thread each) and merge their contracts
    (:func:`merge_sources`)."""
    sources = list(sources)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(sources))) as pool:
        results = list(pool.map(lambda s: s.load(), sources))
    return merge_sources(sources, results, taken)


def add_mcp_servers(
    registry: Registry, servers: PendingServers | Iterable[McpServerSpec], **options: float
) -> tuple[list[McpSource], list[str]]:
    """Register the contracts of MCP servers (started now, or already by
    :func:`start_mcp_servers`), loading concurrently.

    ``options``: :class:`McpSource` keyword arguments (``connect_timeout_s`` …) when
    ``servers`` are specs. Each source joins ``registry.sources`` (so ``registry.close()``
    stops it) and each contract's ``tool_source`` is its server, as
    :meth:`~playground.core.registry.Registry.add_source` does; the loads were already made
    concurrently, and names clashing with the registry's are prefixed
    (:func:`merge_sources`). Problems go to ``registry.problems``, warnings to
    ``registry.warnings``. Returns the sources and the
    clash choices.
    """
    pending = servers if isinstance(servers, PendingServers) else PendingServers(servers, **options)
    sources = pending.sources
    if not sources:
        return [], []
    loaded = merge_sources(sources, pending.results(), taken=registry.names())
    by_server = {source.spec.name: source for source in sources}
    registry.sources.extend(sources)
    for contract in loaded.contracts:
        assert isinstance(contract, McpContract)
        contract.tool_source = by_server[contract.server]
        registry.add(contract)
    registry.problems.extend(loaded.problems)
    registry.warnings.extend(loaded.warnings)
    for source in sources:
        source.on_relisted = lambda result, source=source: relisted_into(registry, source, result)
    return sources, loaded.choices


def relisted_into(registry: Registry, source: McpSource, result: LoadResult) -> None:
    """Replace ``source``'s contracts in ``registry`` by those of a new listing (after
    ``tools/list_changed``), so a tool the server added is callable at once. The listing's
    problems replace ``source``'s in ``registry.problems`` (each of its problems comes from
    its listing: a fault still there is named once, a fault the server mended is gone); its
    warnings join ``registry.warnings``, once each. The command line (after a call) and the
    TUI (on the notification) both relist through here."""
    for name in [n for n, c in registry.contracts.items() if c.tool_source is source]:
        del registry.contracts[name]
    registry.problems[:] = [p for p in registry.problems if p.where != source.label]
    for contract in result.contracts:
        contract.tool_source = source
        if contract.name in registry.contracts:
            contract.name = prefixed_name(source.spec.name, contract.name)
        registry.add(contract)
    registry.problems.extend(result.problems)
    registry.warnings.extend(w for w in result.warnings if w not in registry.warnings)
