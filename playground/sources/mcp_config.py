"""Which MCP servers to connect to: the ``--mcp`` / ``--mcp-url`` / ``--mcp-config`` options.

A server is one :class:`McpServerSpec`: a stdio command (``command``, ``args``, ``env``) or a
Streamable HTTP endpoint (``url``, ``headers``). Specs come from

* ``--mcp "COMMAND ARG..."`` (split like a shell line, :func:`shlex.split`), named after the
  script or command (``mcp_shop_server``) unless that name is taken;
* ``--mcp-url URL`` with ``--mcp-header "Name: value"`` (repeatable; applied to every URL); a
  URL whose path ends in ``/sse`` is the legacy HTTP+SSE transport (protocol 2024-11-05);
* ``--mcp-config FILE``: the ``mcpServers`` JSON shape Claude Desktop, Cursor and VS Code use,
  ``{"mcpServers": {"name": {"command", "args", "env", "cwd"} | {"url", "headers"}}}`` (VS Code's
  ``{"servers": {...}}`` spelling is read too); ``--mcp-server NAME`` (repeatable) keeps only
  the named entries. An entry's ``"type": "sse"`` selects the legacy SSE transport
  (``"http"`` / ``"streamable-http"`` / ``"stdio"`` are read too).

Time (issue 21, item 1): an entry's ``timeout`` is the per-call limit in **milliseconds**, as
Claude Desktop, Cursor and VS Code write it; ``maxTotalTimeout`` (ms, MCP Inspector's name) bounds
a call whose progress notifications keep resetting that limit; ``toolTimeouts`` (``{tool: ms}``,
the playground's own key) overrides the limit of single tools. ``--mcp-timeout MS``,
``--mcp-max-total MS`` and ``--mcp-tool-timeout TOOL=MS`` set the same for every server and win
over the file. Defaults are MCP Inspector's: 10 s, reset on progress, at most 60 s in all.

Header and ``env`` values are secrets, and so are a URL's password and secret query values:
:meth:`McpServerSpec.describe` and every error message show them as ``[redacted]`` (issue 10,
"Security"; :data:`playground.core.redaction.REDACTED`). Malformed input raises :class:`UsageError`
with one line naming the file or option.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playground.core.redaction import REDACTED, redact_url, url_secrets
from playground.core.settings import MAX_TIME_LIMIT_S
from playground.errors import UsageError

#: A call's time limit when nothing sets one, in seconds (MCP Inspector's default request
#: timeout, ``MCP_SERVER_REQUEST_TIMEOUT`` = 10000 ms).
DEFAULT_MCP_TIMEOUT_S = 10.0
#: The longest a call may run while progress notifications keep resetting its limit, in seconds
#: (MCP Inspector's ``MCP_REQUEST_MAX_TOTAL_TIMEOUT`` = 60000 ms).
DEFAULT_MCP_MAX_TOTAL_S = 60.0
#: What a server name may not hold: anything but letters and digits of any script (``str.isalnum``:
#: 한글 is letters), ``_`` and ``-``. The name is shown as ``mcp:NAME`` and in messages (so no
#: space, punctuation, control or bidi character) and prefixes clashing tool names in the ASCII
#: form :func:`ascii_server_name` gives; it never names a file.
_NAME_UNSAFE = re.compile(r"[^\w-]+")
#: MCP logging levels (RFC 5424 severities, MCP spec "Utilities: logging"), least severe first.
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
#: The ``type`` values of an mcpServers entry (Claude Code / Cursor / VS Code spellings).
_TRANSPORT_TYPES = ("stdio", "http", "streamable-http", "streamableHttp", "sse")


@dataclass(frozen=True)
class McpServerSpec:
    """One MCP server to connect to.

    ``name``: how the server is named in labels (``mcp:NAME``), load problems and clash
    prefixes. Stdio: ``command`` (the executable), ``args``, ``env`` (exactly the variables
    given to the server on top of a minimal base; values are secret) and ``cwd``. HTTP:
    ``url`` and ``headers`` (values are secret). ``origin``: where the spec came from
    (``"--mcp"``, ``"--mcp-url"``, or the config file's path).
    """

    name: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    origin: str = ""
    sse: bool = False
    timeout_s: float | None = None
    max_total_s: float | None = None
    tool_timeouts: dict[str, float] = field(default_factory=dict)
    named_by_user: bool = False
    #: the name before a ``_2`` suffix made it unique among the specs (``--mcp`` / ``--mcp-url``
    #: names are provisional: see :func:`playground.sources.mcp_source.merge_sources`)
    base_name: str = ""
    roots: tuple[str, ...] = ()
    elicit_file: str = ""
    log_level: str = ""
    #: the protocol era: ``handshake`` (2025 ``initialize``) or ``auto`` (``server/discover``
    #: first, the 2026-07-28 stateless era when offered); ``""``: PLAYGROUND_MCP_PROTOCOL
    protocol: str = ""

    @property
    def transport(self) -> str:
        """``"stdio"``, ``"http"`` (Streamable HTTP) or ``"sse"`` (the legacy HTTP+SSE
        transport of protocol 2024-11-05)."""
        if not self.url:
            return "stdio"
        return "sse" if self.sse else "http"

    def timeout_for(self, tool: str) -> float:
        """The time limit of ``tool``'s calls in seconds: its ``toolTimeouts`` entry, else the
        server's ``timeout``, else :data:`DEFAULT_MCP_TIMEOUT_S`."""
        found = self.tool_timeouts.get(tool, self.timeout_s)
        return DEFAULT_MCP_TIMEOUT_S if found is None else found

    def max_total_for(self, tool: str) -> float:
        """The longest a call of ``tool`` may run while progress resets its limit (seconds):
        ``maxTotalTimeout``, else :data:`DEFAULT_MCP_MAX_TOTAL_S`, never below the limit."""
        total = DEFAULT_MCP_MAX_TOTAL_S if self.max_total_s is None else self.max_total_s
        return max(total, self.timeout_for(tool))

    def describe(self) -> str:
        """One line for the user, secrets redacted: ``shop: stdio python server.py env
        {KEY=[redacted]}`` or ``api: http https://… headers {Authorization: [redacted]}``."""
        if self.url:
            text = f"{self.name}: {self.transport} {redact_url(self.url)}"
            if self.headers:
                text += " headers {" + ", ".join(f"{k}: {REDACTED}" for k in self.headers) + "}"
            return text
        text = f"{self.name}: stdio {shlex.join([self.command, *self.args])}"
        if self.env:
            text += " env {" + ", ".join(f"{k}={REDACTED}" for k in self.env) + "}"
        return text


def redact(text: str, spec: McpServerSpec) -> str:
    """``text`` with the secrets of ``spec`` replaced by ``[redacted]``: its URL's password
    and secret query values (:func:`~playground.core.redaction.url_secrets`; the URL quoted
    whole is shown as :func:`~playground.core.redaction.redact_url` shows it) and every
    header and env value (4+ characters each), for any message about the server — a URL it
    could not reach, its own words."""
    text = redact_url(text)  # a URL quoted whole, this server's or another's
    for value in [*url_secrets(spec.url), *spec.headers.values(), *spec.env.values()]:
        if len(value) >= 4:
            text = text.replace(value, REDACTED)
    return text


def safe_server_name(raw: str) -> str:
    """``raw`` with each run of characters a server name may not hold (:data:`_NAME_UNSAFE`)
    made one ``_``, ``_`` stripped from the ends (``""`` when nothing is left):
    ``"Acme Shop!"`` → ``"Acme_Shop"``, ``"한글 서버"`` → ``"한글_서버"``."""
    return _NAME_UNSAFE.sub("_", raw).strip("_")


def ascii_server_name(name: str) -> str:
    """``name`` in the letters every provider takes in a tool name (``[A-Za-z0-9_-]``), for the
    ``server__tool`` prefix of a clashing tool: ``name`` itself when it is ASCII, else its
    Punycode (RFC 3492) after the IDNA ``xn--`` mark: ``"한글"`` → ``"xn--bj0bj06e"``."""
    if name.isascii():
        return name
    return "xn--" + name.encode("punycode").decode("ascii")


def _name_for(raw: str, taken: set[str]) -> tuple[str, str]:
    """``(name unique in taken, the base it was made from)``; the name is added to ``taken``."""
    base = safe_server_name(Path(raw).stem or raw) or "mcp"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name, base


def parse_header(raw: str) -> tuple[str, str]:
    """``"Name: value"`` → ``("Name", "value")`` (both stripped; the value may hold colons).

    Raises :class:`UsageError` quoting what was given (:func:`shown_header`: its value and
    anything that looks like a secret are ``[redacted]``) and saying what is wrong: no ``:``,
    no name before it, or a name with a space."""
    name, sep, value = raw.partition(":")
    name = name.strip()
    if not sep:
        why = "it has no ':' between the name and the value"
    elif not name:
        why = "it has no name before the ':'"
    elif any(c.isspace() for c in name):
        why = f"the name {name!r} has a space in it"
    else:
        return name, value.strip()
    raise UsageError(
        f"--mcp-header {shown_header(raw)!r} is not 'Name: value': {why} "
        "(a header name with no spaces, a colon, then the value)"
    )


_FIRST_WORD = re.compile(r"([^\s=]+)(\s*=\s*|\s+)\S")
#: Longest part of a malformed --mcp-header quoted in its error (characters).
SHOWN_HEADER_CHARS = 80


def shown_header(raw: str) -> str:
    """``raw`` (a ``--mcp-header`` text) as an error may quote it.

    What follows a ``:`` is a header value, so ``[redacted]``. With no ``:``, what follows a
    first word (up to a space or ``=``) that names a secret (``Authorization``, ``X-Api-Key``,
    ``token``; ``playground.core.redaction.is_secret_name``) is ``[redacted]`` too, and so is
    every part that looks like a key (``Bearer …``, ``sk-…``; ``redaction.KEY_PATTERN``).
    Cut to :data:`SHOWN_HEADER_CHARS` characters."""
    from playground.core.redaction import KEY_PATTERN, is_secret_name

    text = raw.strip()
    name, sep, value = text.partition(":")
    if sep:
        text = f"{name}: {REDACTED}" if value.strip() else f"{name}:"
    else:
        first = _FIRST_WORD.match(text)
        if first and is_secret_name(first.group(1)):
            text = first.group(1) + first.group(2) + REDACTED
    from playground.core.canonical import shorten

    return shorten(KEY_PATTERN.sub(REDACTED, text), SHOWN_HEADER_CHARS)


def stdio_spec(line: str, taken: set[str]) -> McpServerSpec:
    """A spec from one ``--mcp "COMMAND ARG..."`` value; named after the script (the first
    argument ending in ``.py``/``.js``/``.ts``) or the command. Raises :class:`UsageError`."""
    try:
        parts = shlex.split(line)
    except ValueError as exc:
        raise UsageError(f"--mcp {line!r}: cannot split the command line: {exc}") from None
    if not parts:
        raise UsageError('--mcp needs a command, e.g. --mcp "python fixtures/mcp_shop_server.py"')
    script = next((p for p in parts[1:] if p.endswith((".py", ".js", ".mjs", ".ts"))), parts[0])
    name, base = _name_for(script, taken)
    return McpServerSpec(
        name=name, command=parts[0], args=tuple(parts[1:]), origin="--mcp", base_name=base
    )


#: The range of a time limit in milliseconds, as the errors say it.
MS_RANGE = f"above 0, at most {MAX_TIME_LIMIT_S * 1000:,.0f}"


def _seconds_of_ms(value: Any) -> float | None:
    """``value`` (milliseconds) as seconds when it is a number in :data:`MS_RANGE` (not a
    bool, not NaN), else ``None``. The one range check of every MCP time limit."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) / 1000 if 0 < value <= MAX_TIME_LIMIT_S * 1000 else None


def _ms(value: Any, where: str, what: str) -> float | None:
    """A millisecond value of a config entry as seconds (``None`` when absent)."""
    if value is None:
        return None
    seconds = _seconds_of_ms(value)
    if seconds is None:
        raise UsageError(f"{where}: {what!r} must be a number of milliseconds {MS_RANGE}")
    return seconds


def _time_fields(entry: dict[str, Any], where: str) -> dict[str, Any]:
    tools = entry.get("toolTimeouts") or {}
    if not isinstance(tools, dict):
        raise UsageError(f"{where}: 'toolTimeouts' must be an object of tool: milliseconds")
    per_tool = {str(k): _ms(v, where, f"toolTimeouts.{k}") for k, v in tools.items()}
    return {
        "timeout_s": _ms(entry.get("timeout"), where, "timeout"),
        "max_total_s": _ms(entry.get("maxTotalTimeout"), where, "maxTotalTimeout"),
        "tool_timeouts": {k: v for k, v in per_tool.items() if v is not None},
    }


def _protocol_field(entry: dict[str, Any], where: str) -> str:
    """An entry's ``"protocol"`` (``handshake`` / ``auto``, as ``--mcp-protocol``), ``""``
    when absent. Raises :class:`UsageError` for another value."""
    value = entry.get("protocol")
    if value is None:
        return ""
    from playground.core.settings import BadSetting, mcp_protocol

    try:
        return mcp_protocol(value if isinstance(value, str) else repr(value))
    except BadSetting as exc:
        raise UsageError(f"{where}: 'protocol' {value!r}: {exc}") from None


def is_sse_url(url: str) -> bool:
    """Whether ``url`` names a legacy SSE endpoint: its path ends in ``/sse`` (the path the
    SDK's ``sse_client`` servers and ``server-everything`` serve it at)."""
    path = re.sub(r"^https?://[^/]*", "", url).split("?")[0].rstrip("/")
    return path.endswith("/sse")


def http_spec(url: str, headers: dict[str, str], taken: set[str]) -> McpServerSpec:
    """A spec from one ``--mcp-url``; named after the host (the ``serverInfo.name`` the server
    gives replaces it at connection). A URL ending in ``/sse`` is the legacy SSE transport.
    Raises :class:`UsageError` for a URL that is not ``http(s)://``."""
    if not re.match(r"^https?://[^/\s]+", url):
        raise UsageError(f"--mcp-url {redact_url(url)!r}: expected an http:// or https:// URL")
    host = re.sub(r"^https?://", "", url).split("/")[0].rsplit("@", 1)[-1].split(":")[0]
    name, base = _name_for(host.replace(".", "_"), taken)
    return McpServerSpec(
        name=name,
        base_name=base,
        url=url,
        headers=dict(headers),
        origin="--mcp-url",
        sse=is_sse_url(url),
    )


def _str_dict(value: Any, where: str, what: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise UsageError(f"{where}: {what!r} must be an object of strings")
    bad = [k for k, v in value.items() if not isinstance(v, (str, int, float, bool))]
    if bad:
        raise UsageError(f"{where}: {what}.{bad[0]} must be a string, got {REDACTED}")
    return {k: str(v) for k, v in value.items()}


def config_specs(path: str | Path, taken: set[str]) -> list[McpServerSpec]:
    """The servers of an ``mcpServers`` file (Claude Desktop, Cursor; VS Code's ``servers``).

    Entries with ``"disabled": true`` are skipped. Raises :class:`UsageError` naming the file
    and entry for a missing file, bad JSON (a file over 16 MB or nested deeper than 100
    levels included: :mod:`playground.core.json_files`) or an entry with neither ``command`` nor ``url``.
    """
    from playground.core.canonical import JsonInputError
    from playground.core.json_files import read_json_file

    file = Path(path)
    try:  # a BOM is allowed; a huge or deeply nested file is refused in one line
        data = read_json_file(file)
    except JsonInputError as exc:
        raise UsageError(f"--mcp-config {file}: {exc}") from None
    servers = data.get("mcpServers", data.get("servers")) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise UsageError(f"--mcp-config {file}: {_shape_problem(data)}")
    specs: list[McpServerSpec] = []
    for name, entry in servers.items():
        where = f"{file}: mcpServers.{name}"
        if not isinstance(entry, dict):
            raise UsageError(f"{where}: must be an object with 'command' or 'url'")
        if entry.get("disabled") is True:
            continue
        if not name or _NAME_UNSAFE.search(name):
            raise UsageError(
                f"{where}: a server name uses letters and digits (of any script), '_' or '-'"
                f"{f', e.g. {safe_server_name(name)!r}' if safe_server_name(name) else ''}"
            )
        if name in taken:
            raise UsageError(f"{where}: another server is already named {name!r}; rename one")
        taken.add(name)
        times = {**_time_fields(entry, where), "protocol": _protocol_field(entry, where)}
        kind = entry.get("type", entry.get("transport"))
        if kind is not None and kind not in _TRANSPORT_TYPES:
            raise UsageError(
                f"{where}: 'type' must be one of {', '.join(_TRANSPORT_TYPES)}, got {kind!r}"
            )
        if isinstance(entry.get("url"), str):
            url = entry["url"]
            specs.append(
                McpServerSpec(
                    name=name,
                    url=url,
                    headers=_str_dict(entry.get("headers"), where, "headers"),
                    origin=str(file),
                    sse=kind == "sse" or (kind is None and is_sse_url(url)),
                    named_by_user=True,
                    **times,
                )
            )
            continue
        command, args = entry.get("command"), entry.get("args", [])
        if command is None and "url" in entry:
            raise UsageError(f"{where}: 'url' must be a string, got {_json_type(entry['url'])}")
        if command is None:
            raise UsageError(f"{where}: needs a 'command' (stdio) or a 'url' (Streamable HTTP)")
        if not isinstance(command, str):
            raise UsageError(f"{where}: 'command' must be a string, got {_json_type(command)}")
        if not command.strip():
            raise UsageError(
                f"{where}: 'command' is empty; give the program that starts the server"
            )
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise UsageError(f"{where}: 'args' must be a list of strings")
        cwd = entry.get("cwd")
        specs.append(
            McpServerSpec(
                name=name,
                command=command,
                args=tuple(args),
                env=_str_dict(entry.get("env"), where, "env"),
                cwd=cwd if isinstance(cwd, str) else None,
                origin=str(file),
                named_by_user=True,
                **times,
            )
        )
    return specs


#: The ``mcpServers`` shape, as the messages show it (balanced: each ``{`` closed).
EXPECTED_SHAPE = (
    '{"mcpServers": {"NAME": {"command": "...", "args": [...], "env": {...}}}} '
    '(or {"url": "...", "headers": {...}} for a server over HTTP)'
)


def _json_type(value: Any) -> str:
    """``a JSON number``: the JSON type of a parsed value, for messages."""
    from playground.core.canonical import json_type_name

    return f"a JSON {json_type_name(value)}"


def _shape_problem(data: Any) -> str:
    """Why ``data`` (a parsed config file) has no ``mcpServers`` object, and the shape wanted."""
    if isinstance(data, dict):
        key = "mcpServers" if "mcpServers" in data else "servers" if "servers" in data else ""
        got = f"'{key}' is {_json_type(data[key])}" if key else "no 'mcpServers' key"
    else:
        got = f"the file holds {_json_type(data)}"
    return f"{got}; expected {EXPECTED_SHAPE}"


def server_specs(
    commands: Iterable[str] = (),
    urls: Iterable[str] = (),
    headers: Iterable[str] = (),
    configs: Iterable[str | Path] = (),
    only: Iterable[str] = (),
    timeout_ms: float | None = None,
    max_total_ms: float | None = None,
    tool_timeouts: Iterable[str] = (),
    roots: Iterable[str | Path] = (),
    elicit_file: str | Path | None = None,
    log_level: str | None = None,
    protocol: str | None = None,
) -> list[McpServerSpec]:
    """All specs from the CLI options, in the order config files, ``--mcp``, ``--mcp-url``.

    ``timeout_ms`` (``--mcp-timeout``), ``max_total_ms`` (``--mcp-max-total``) and
    ``tool_timeouts`` (``--mcp-tool-timeout TOOL=MS``, repeatable) apply to every server and
    win over a config file's ``timeout`` / ``maxTotalTimeout`` / ``toolTimeouts``.
    ``roots`` (``--root DIR``, repeatable): the folders offered as MCP roots (default: the
    working directory). ``elicit_file`` (``--elicit FILE``): the answers to elicitation
    requests (see :mod:`playground.sources.mcp_client`); without it every request is declined.
    ``log_level`` (``--mcp-log-level``): sent as ``logging/setLevel`` to each server that
    offers logging, right after ``initialize``. ``protocol`` (``--mcp-protocol``):
    ``handshake`` or ``auto`` (any case), for every server; a config entry's ``"protocol"`` is
    used where the option is not given.

    ``only`` (``--mcp-server NAME``, repeatable) keeps the config entries with those names;
    a name that matches nothing raises :class:`UsageError` listing the names there are, and
    so does a config file without any server (``{"mcpServers": {}}``).
    """
    taken: set[str] = set()
    from_configs = _chosen(_from_config_files(configs, taken), list(only))
    header_map = dict(parse_header(h) for h in headers)
    specs = from_configs + [stdio_spec(line, taken) for line in commands]
    specs += [http_spec(url, header_map, taken) for url in urls]
    if header_map and not list(urls):
        raise UsageError("--mcp-header applies to --mcp-url servers; no --mcp-url was given")
    import dataclasses

    folders = _root_folders(roots)
    answers = _elicit_answers(elicit_file)
    if log_level is not None and log_level not in LOG_LEVELS:
        raise UsageError(f"--mcp-log-level {log_level!r}: one of {', '.join(LOG_LEVELS)}")
    era = _protocol_option(protocol)
    return [
        dataclasses.replace(
            with_times(s, timeout_ms, max_total_ms, tool_timeouts),
            roots=folders,
            elicit_file=answers,
            log_level=log_level or "",
            protocol=era or s.protocol,
        )
        for s in specs
    ]


def _from_config_files(configs: Iterable[str | Path], taken: set[str]) -> list[McpServerSpec]:
    """The specs of every ``--mcp-config`` file in order (:func:`config_specs`; names added to
    ``taken``). Raises :class:`UsageError` for a file without a server, else the command would
    quietly fall back to ./tools."""
    from_configs = []
    for path in configs:
        found = config_specs(path, taken)
        if not found:  # else the command would quietly fall back to ./tools
            raise UsageError(f"--mcp-config {path}: no server in its mcpServers")
        from_configs += found
    return from_configs


def _chosen(from_configs: list[McpServerSpec], wanted: list[str]) -> list[McpServerSpec]:
    """The config entries ``--mcp-server`` names (all when it is not given). Raises
    :class:`UsageError` for a name no config file has, listing the names there are."""
    if not wanted:
        return from_configs
    names = [s.name for s in from_configs]
    missing = [n for n in wanted if n not in names]
    if missing:
        raise UsageError(
            f"--mcp-server {missing[0]!r}: no such server in the --mcp-config file(s); "
            f"there are: {', '.join(names) or '(none)'}"
        )
    return [s for s in from_configs if s.name in wanted]


def _root_folders(roots: Iterable[str | Path]) -> tuple[str, ...]:
    """``--root`` folders as absolute paths; :class:`UsageError` for one that is no folder."""
    folders = tuple(str(Path(r).resolve()) for r in roots)
    for folder in folders:
        if not Path(folder).is_dir():
            raise UsageError(f"--root {folder}: not a folder")
    return folders


def _elicit_answers(elicit_file: str | Path | None) -> str:
    """The ``--elicit`` file's path as given (``""`` without one), after checking it is a
    readable JSON file (garbage — huge, deeply nested, not JSON — is refused now, not at the
    first request); :class:`UsageError` otherwise."""
    if elicit_file is not None and not Path(elicit_file).is_file():
        raise UsageError(f"--elicit {elicit_file}: no such file")
    if elicit_file is not None:  # garbage (huge, deeply nested, not JSON) is refused now
        from playground.core.canonical import JsonInputError
        from playground.core.json_files import read_json_file

        try:
            read_json_file(elicit_file)
        except JsonInputError as exc:
            raise UsageError(f"--elicit {elicit_file}: {exc}") from None
    return str(elicit_file or "")


def _protocol_option(protocol: str | None) -> str:
    """``--mcp-protocol``'s value made ``handshake`` / ``auto`` (``""`` when not given).
    Raises :class:`UsageError` for another word."""
    if protocol is None:
        return ""
    from playground.core.settings import BadSetting, mcp_protocol

    try:
        return mcp_protocol(protocol)
    except BadSetting as exc:
        raise UsageError(f"--mcp-protocol {protocol!r}: {exc}") from None


def parse_tool_timeout(raw: str) -> tuple[str, float]:
    """``"TOOL=MS"`` → ``("TOOL", seconds)``. Raises :class:`UsageError`."""
    tool, sep, value = raw.rpartition("=")
    try:
        seconds = _seconds_of_ms(float(value))
    except ValueError:
        seconds = None
    if not sep or not tool.strip() or seconds is None:
        raise UsageError(
            f"--mcp-tool-timeout {raw!r}: expected TOOL=MILLISECONDS ({MS_RANGE}), "
            "e.g. get_report=60000"
        )
    return tool.strip(), seconds


def with_times(
    spec: McpServerSpec,
    timeout_ms: float | None = None,
    max_total_ms: float | None = None,
    tool_timeouts: Iterable[str] = (),
) -> McpServerSpec:
    """``spec`` with the CLI's time options applied over its own (see :func:`server_specs`).
    Raises :class:`UsageError` for a value that is not a positive number of milliseconds."""
    import dataclasses

    changes: dict[str, Any] = {}
    if timeout_ms is not None:
        changes["timeout_s"] = _ms(timeout_ms, "--mcp-timeout", "MS")
    if max_total_ms is not None:
        changes["max_total_s"] = _ms(max_total_ms, "--mcp-max-total", "MS")
    per_tool = dict(parse_tool_timeout(t) for t in tool_timeouts)
    if per_tool:
        changes["tool_timeouts"] = {**spec.tool_timeouts, **per_tool}
    return dataclasses.replace(spec, **changes) if changes else spec
