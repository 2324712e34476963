"""Tool sources: where tool bodies run — tool modules in a worker process or in this process, and MCP servers.

This package owns every implementation of the core's :class:`~playground.core.toolsource.ToolSource`
protocol: loading ``--tools`` modules (:mod:`.tool_modules`, :mod:`.loading`), the ``--in-process``
source (:mod:`.in_process`), the worker process with its pipe protocol and captured output
(:mod:`.worker`, :mod:`.worker_main`, :mod:`.worker_output`), and MCP servers (configuration in
:mod:`.mcp_config`, the stdio transport in :mod:`.mcp_stdio`, the client session in
:mod:`.mcp_client`, result mapping in :mod:`.mcp_results`, the source in :mod:`.mcp_source`,
the deferred SDK imports in :mod:`.mcp_imports`; :mod:`.capped_log` keeps a server's stderr).
It depends only on :mod:`playground.core`, never on the history, routing or UI layers. The
interface itself — the protocol, :class:`~playground.core.toolsource.BodyRun`,
:class:`~playground.core.toolsource.RaisedError`, :class:`~playground.core.toolsource.LoadResult`
and the :class:`~playground.core.registry.Registry` that holds sources — stays in core, because
the gate (the single door every call passes) calls a source through it; the gate never imports
this package. The one source the gate builds itself, for a contract made by hand with no source,
is the core's :class:`~playground.core.runner.InProcessRunner`, which
:class:`~playground.sources.in_process.InProcessSource` extends with module loading.
"""
