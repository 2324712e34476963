"""The TUI in a browser (``playground serve``, issue 26): textual-serve's server, with a token
rule, per-tab sessions and an end that leaves no process behind.

* Each browser tab opens its own websocket and textual-serve starts one TUI process for it
  (``COMMAND``, the same tool options for every tab): tabs are independent sessions on the
  same tools.
* Bound to a loopback address (127.0.0.1, ::1, localhost) the server takes any request from
  this machine. Bound to any other address it requires ``?token=TOKEN`` (a random
  ``secrets.token_urlsafe(24)``, printed once in the URL): a request without it (or with a
  wrong one) gets 403. The page that came with the right token gets it as an HttpOnly,
  SameSite=Strict cookie, so its scripts, styles and websocket pass too.
* The page is textual-serve's own (``serve_templates/app_index.html``) without its Google
  Fonts link: it requests nothing but this server.
* The page's URLs are built from the request's ``Host`` (textual-serve builds them from the
  bind address, which is ``0.0.0.0`` for "every address").
* Quitting (ctrl+c, SIGTERM) sends every session's TUI the quit message, waits up to
  :data:`QUIT_WAIT_S` for each, then kills what is left with its process group (the TUI's
  worker process with it). Whatever hangs, the server ends within :data:`STOP_DEADLINE_S`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import ipaddress
import logging
import os
import secrets
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

#: Seconds each session gets to quit when the server stops, before it is killed.
QUIT_WAIT_S = 3.0
#: Seconds the server gets to stop once asked (its sessions' quit and aiohttp's cleanup); past
#: them every session's process group is killed and the process exits (:func:`_force_end`).
STOP_DEADLINE_S = 12.0
TOKEN_COOKIE = "playground_token"
log = logging.getLogger("textual-serve")


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP addresses (127.0.0.0/8, ::1)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class _Session(AppService):
    """One browser tab's TUI process, started in its own process group and tracked so the
    server can end it."""

    live: set[_Session]

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_shell(
            self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            start_new_session=True,  # its own process group: the TUI and its worker
        )
        self.live.add(self)
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    def kill_group(self) -> None:
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)


def _force_end(sessions: list[_Session]) -> None:
    """The server did not stop within :data:`STOP_DEADLINE_S`: kill every session's process
    group, say so on stderr, and end this process (exit 0: it was asked to stop, and did)."""
    for session in sessions:
        session.kill_group()
    sys.stderr.write(
        f"warning: the server did not stop within {STOP_DEADLINE_S:g} s; its sessions were killed\n"
    )
    sys.stderr.flush()
    os._exit(0)


class PlaygroundServer(Server):
    """textual-serve's :class:`Server` for ``command`` on ``host``:``port``; ``token`` (``None``
    on a loopback address) is required in every request."""

    def __init__(self, command: str, host: str, port: int, token: str | None) -> None:
        super().__init__(
            command,
            host=host,
            port=port,
            title="Tool Playground",
            templates_path=str(Path(__file__).parent / "serve_templates"),
        )
        self.token = token
        self.sessions: set[_Session] = set()
        self.announce: Callable[[str], None] = lambda line: print(line, flush=True)
        #: the signal that stopped the server (SIGINT: ctrl+c; SIGTERM), once it has
        self.stopped_by: int | None = None

    def url(self) -> str:
        """The URL to open (with the token when one is required)."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/" + (f"?token={self.token}" if self.token else "")

    def initialize_logging(self) -> None:
        logging.basicConfig(level=logging.WARNING, format="%(message)s")

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        if self.token is not None:
            app.middlewares.append(self._require_token)
        return app

    @web.middleware
    async def _require_token(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        assert self.token is not None
        given = request.query.get("token") or request.cookies.get(TOKEN_COOKIE) or ""
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return web.Response(
                status=403, text="forbidden: open the URL with the token playground serve printed\n"
            )
        response = await handler(request)
        if request.query.get("token") and not response.prepared:
            response.set_cookie(
                TOKEN_COOKIE, self.token, httponly=True, samesite="Strict", path="/"
            )
        return response

    async def handle_index(self, request: web.Request) -> Any:
        # the page's script, style and websocket URLs follow the address the browser used
        self.public_url = f"{request.scheme}://{request.host}"
        return await super().handle_index(request)

    async def on_startup(self, app: web.Application) -> None:
        """Nothing: the line with the URL is printed once the port is bound (:meth:`run`)."""

    def serve(self, debug: bool = False) -> None:
        """Listen until ctrl+c or SIGTERM, then end every session; :attr:`stopped_by` is then
        the signal's number. Raises :class:`OSError` when the address cannot be bound (before
        anything is printed)."""
        self.debug = debug
        self.initialize_logging()
        asyncio.run(self.run())

    async def run(self) -> None:
        """Bind, print the URL once, serve until a stop signal, then clean up (sessions end
        in :meth:`on_shutdown`)."""
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()

        def stop_on(sig: int) -> None:
            self.stopped_by = self.stopped_by or sig
            stop.set()

        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop_on, sig)
        runner = web.AppRunner(await self._make_app(), handle_signals=False, shutdown_timeout=5)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
            where = "" if is_loopback(self.host) else f" (bound to {self.host}; token required)"
            self.announce(f"serving the playground on {self.url()}{where}; ctrl+c to stop")
            await stop.wait()
            # whatever hangs in the cleanup (a session that neither reads its quit message nor
            # ends, a handler that ignores cancellation), the server ends when asked
            deadline = threading.Timer(STOP_DEADLINE_S, _force_end, (list(self.sessions),))
            deadline.daemon = True
            deadline.start()
        finally:
            await runner.cleanup()

    async def on_shutdown(self, app: web.Application) -> None:
        await self.end_sessions()

    async def end_sessions(self) -> None:
        """Ask every session's TUI to quit; kill the process group of any still running after
        :data:`QUIT_WAIT_S`."""
        sessions = list(self.sessions)
        for session in sessions:
            with contextlib.suppress(Exception):  # a TUI that reads nothing: no wait on it
                await asyncio.wait_for(session.send_meta({"type": "quit"}), 1.0)
        for session in sessions:
            process = session._process
            if process is None:
                continue
            try:
                await asyncio.wait_for(process.wait(), QUIT_WAIT_S)
            except TimeoutError:
                session.kill_group()
            session.kill_group()  # a worker left in the group after the TUI quit

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: a websocket driving a new TUI process (textual-serve's handler, with the
        session tracked)."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = _int(request.query.get("width"), 80)
        height = _int(request.query.get("height"), 24)
        session: _Session | None = None
        try:
            await websocket.prepare(request)
            session = _Session(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=functools.partial(_close, websocket),
                download_manager=self.download_manager,
                debug=self.debug,
            )
            session.live = self.sessions
            await session.start(width, height)
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a broken tab must not stop the server
            log.warning("session ended: %s", error)
        finally:
            if session is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(session.stop(), QUIT_WAIT_S)
                session.kill_group()
                self.sessions.discard(session)
        return websocket


async def _close(websocket: web.WebSocketResponse) -> None:
    await websocket.close()


def _int(text: str | None, default: int) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def serve(command: str, host: str, port: int) -> int | None:
    """Serve ``command`` (a shell command line that opens the TUI) on ``host``:``port`` until
    ctrl+c or SIGTERM; a token is required unless ``host`` is a loopback address. Returns the
    number of the signal that stopped it."""
    token = None if is_loopback(host) else secrets.token_urlsafe(24)
    server = PlaygroundServer(command, host, port, token)
    server.serve()
    return server.stopped_by
