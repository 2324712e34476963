"""The core: what a tool is and the single door every call passes, whatever runs the body.

It owns the contracts (:mod:`.contracts` and their helpers: declarations, schemas, type
formats, effects, examples), argument and result validation (:mod:`.validation`, with the
compiled validators in :mod:`.validators`), the gate (:mod:`.gate`: validate, cache, run,
check, retry, record), outcomes and records (:mod:`.outcome`, :mod:`.record`), and the
provider wire shapes (:mod:`.wire` and its helpers). It also owns the interface the gate calls
a body through — the :class:`~playground.core.toolsource.ToolSource` protocol and its plain-data
results, the :class:`~playground.core.registry.Registry` of loaded contracts, and the
:class:`~playground.core.runner.InProcessRunner` for a contract built by hand — so that the
sources (:mod:`playground.sources`) and the history (:mod:`playground.history`) depend on the
core and never the other way round. It imports no other ``playground`` package and no UI
library.
"""
