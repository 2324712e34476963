"""Importing the ``mcp`` SDK's client modules without its server (issue 10, performance).

Python runs a package's ``__init__`` before any of its submodules, and the SDK's two
``__init__`` files on the client's path import far more than a client uses: ``mcp/__init__.py``
imports the whole SDK, and ``mcp/client/__init__.py`` imports ``mcp.client.client.Client``,
whose in-memory transport imports the SDK's server (``mcp.server``: starlette, uvicorn,
sse-starlette, jsonschema, httpx). Together that is ~0.25 s of CPU of the ~0.7 s the client
modules cost (measured with ``/usr/bin/time``, mcp 2.3).

:func:`load_client_packages` puts the two packages in ``sys.modules`` with their ``__init__``
not yet run, so that ``import mcp.client.session`` (and ``mcp.shared.*``, ``mcp.types``,
``mcp.client.streamable_http``, …) load only themselves and what they import. A package's
``__init__`` then runs, into the same module object, the first time one of its own names is
asked for (``from mcp import ClientSession``, ``mcp.Client``) — by PEP 562's module
``__getattr__`` — so any later user of the SDK sees the complete packages, and every class is
the one object ``sys.modules`` holds. Nothing changes when a package is already imported.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import types
from typing import Any

#: The packages whose ``__init__`` is deferred, parents first.
DEFERRED_PACKAGES = ("mcp", "mcp.client")

_lock = threading.Lock()


def _deferred(name: str) -> types.ModuleType | None:
    """A module object for package ``name`` that runs its ``__init__`` on the first missing
    attribute; ``None`` when the package cannot be found."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return None
    module = importlib.util.module_from_spec(spec)  # __spec__, __path__, __file__; no code run
    loader = spec.loader
    init_lock = threading.RLock()  # another thread asking meanwhile waits for the __init__
    started: list[bool] = []

    def __getattr__(attr: str) -> Any:  # PEP 562: only for names not (yet) in the module
        with init_lock:
            if not started:  # (a name asked for by the __init__ itself is simply missing)
                started.append(True)
                loader.exec_module(module)  # the package's own __init__, into this module
                module.__dict__.pop("__getattr__", None)
        try:
            return module.__dict__[attr]
        except KeyError:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}") from None

    module.__dict__["__getattr__"] = __getattr__
    return module


def load_client_packages(packages: tuple[str, ...] = DEFERRED_PACKAGES) -> None:
    """Register ``packages`` (default :data:`DEFERRED_PACKAGES`; parents first) with their
    ``__init__`` deferred (see the module docstring), unless already imported. Thread-safe and
    idempotent; call it before the first ``mcp`` import of a process. The fixture servers pass
    ``mcp.server`` too (``fixtures/sdk_packages.py``)."""
    with _lock:
        for name in packages:
            if name in sys.modules:
                continue
            module = _deferred(name)
            if module is None:
                return  # not installed: the import that follows raises as usual
            sys.modules[name] = module
            parent, _, child = name.rpartition(".")
            if parent:
                setattr(sys.modules[parent], child, module)
