"""An on-disk cache of the declarations google-genai builds for plain-function tools.

Building a declaration needs ``google.genai`` (about 1.3 s to import), which would make every
``playground list`` / ``call`` slow. The declaration depends only on the function's source, the
SDK version and the Python version, so it is cached as JSON:

* key: sha256 of (the bytes of the file defining the function, the function's qualified name,
  the installed ``google-genai`` version read with ``importlib.metadata`` -- no import -- and
  ``sys.version``);
* folder: ``$PLAYGROUND_CACHE_DIR``, else ``$XDG_CACHE_HOME/tool-playground``, else
  ``~/.cache/tool-playground``; one file ``declarations/<key>.json`` per function, and one
  per other fact about it kept the same way (:func:`cached_fact`: the schema of its return
  annotation);
* a hit never imports ``google.genai``; a missing, corrupt or unwritable cache is silently
  bypassed (the declaration is built again) -- the cache can never make loading fail.

A type hint imported from another module is not part of the key: after editing such a helper
module, delete the cache folder (or touch the tool module).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playground.core.cachefile import write_cache_file

CACHE_ENV = "PLAYGROUND_CACHE_DIR"
SUBDIR = "declarations"
FORMAT = 1  # bump when the stored JSON changes shape


def cache_dir() -> Path:
    """The playground's cache folder (see the module docstring for the order of precedence),
    from the playground's settings (:func:`playground.core.settings.current_environ`: in the worker, as
    they were before any tool module was imported)."""
    from playground.core.settings import current_environ

    env = current_environ()
    home = env.get("HOME", "").strip()
    base = Path(home) if home else Path.home()

    def expand(text: str) -> Path:
        return base / text[2:] if text == "~" or text.startswith("~/") else Path(text)

    explicit = env.get(CACHE_ENV, "").strip()
    if explicit:
        return expand(explicit)
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    if xdg:
        return expand(xdg) / "tool-playground"
    return base / ".cache" / "tool-playground"


#: ``sys.path`` as this module found it: the folders packages are installed in. The tool
#: folders the registry puts on ``sys.path`` later are left out of :func:`environment_stamp`
#: (else the worker process, which has them, and the playground process, which has not, would
#: each remove the other's remembered file and compute it again on every start).
_PACKAGE_PATH = tuple(sys.path)


def environment_stamp() -> str:
    """A digest of what decides which packages Python imports here: ``sys.version``,
    ``sys.prefix`` and the modification time (ns) of every folder of :data:`_PACKAGE_PATH`
    except the working directory. Installing, upgrading or removing a package adds or removes
    entries in its ``site-packages`` folder, which changes that folder's modification time, so
    the stamp changes with the installed packages; reading it costs a few ``stat`` calls."""
    parts = [sys.version, sys.prefix]
    cwd = os.getcwd()
    for entry in _PACKAGE_PATH:
        if not entry or entry == cwd:
            continue
        with contextlib.suppress(OSError):
            parts.append(f"{entry}\0{os.stat(entry).st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:32]


#: How many environment stamps :func:`remembered` keeps a file for, per name: several
#: virtualenvs (or Python versions) sharing one cache folder each keep theirs.
KEPT_STAMPS = 8


def remembered(name: str, compute: Callable[[], str]) -> str:
    """``compute()`` (a text about the installed packages, e.g. a version), remembered on disk
    for the current :func:`environment_stamp` in ``env/<name>-<stamp>`` of :func:`cache_dir`;
    when a new one is written, only the :data:`KEPT_STAMPS` most recently written files of
    ``name`` are kept (the environments that share the folder do not remove each other's, an
    upgraded one's old files go in time). A missing, unreadable or unwritable file only means
    ``compute`` runs (never an error)."""
    folder = cache_dir() / "env"
    path = folder / f"{name}-{environment_stamp()}"
    with contextlib.suppress(OSError, UnicodeDecodeError):
        return path.read_text(encoding="utf-8")
    text = compute()
    if write_cache_file(path, text):
        _drop_oldest(folder, name)
    return text


def _drop_oldest(folder: Path, name: str) -> None:
    """Remove ``name``'s remembered files beyond the :data:`KEPT_STAMPS` newest (by mtime)."""
    stamped = []
    for file in folder.glob(f"{name}-*"):
        with contextlib.suppress(OSError):
            stamped.append((file.stat().st_mtime_ns, file))
    stamped.sort(reverse=True)
    for _, old in stamped[KEPT_STAMPS:]:
        with contextlib.suppress(OSError):
            old.unlink()


def _read_genai_version() -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version("google-genai")
    except importlib.metadata.PackageNotFoundError:
        return "none"


@functools.lru_cache(maxsize=1)
def genai_version() -> str:
    """The installed google-genai version, without importing it (``"none"`` if not installed).

    Read once per process and remembered per environment (:func:`remembered`):
    ``importlib.metadata`` costs ~25 ms to import, ~2 ms per lookup.
    """
    return remembered("google-genai-version", _read_genai_version)


def declaration_key(fn: Callable[..., Any]) -> str | None:
    """The cache key of ``fn``'s declaration, or ``None`` when it cannot be keyed (no source
    file, a callable object without ``__qualname__``)."""
    name = getattr(fn, "__qualname__", None)
    if not isinstance(name, str) or not inspect.isfunction(fn):
        return None
    try:
        source = inspect.getsourcefile(fn)
        data = Path(source).read_bytes() if source else None
    except (OSError, TypeError):
        return None
    if data is None:
        return None
    h = hashlib.sha256()
    for part in (
        data,
        name.encode(),
        genai_version().encode(),
        sys.version.encode(),
        str(FORMAT).encode(),
    ):
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / SUBDIR / f"{key}.json"


def load(key: str) -> dict[str, Any] | None:
    """The cached declaration for ``key``, or ``None`` (missing, unreadable or corrupt)."""
    try:
        data = json.loads(_path(key).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    decl = data.get("declaration")
    if not isinstance(decl, dict) or not isinstance(decl.get("name"), str):
        return None
    return decl


def _write(path: Path, data: dict[str, Any]) -> bool:
    """Write ``data`` as JSON to ``path`` atomically; ``False`` (never an error) when it cannot."""
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError):
        return False
    return write_cache_file(path, text)


def store(key: str, declaration: dict[str, Any]) -> bool:
    """Write ``declaration`` under ``key`` atomically; ``False`` (never an error) when it cannot."""
    return _write(_path(key), {"format": FORMAT, "declaration": declaration})


def cached_fact(fn: Callable[..., Any], kind: str, build: Callable[[], Any]) -> Any:
    """A JSON value about ``fn`` (``kind`` names which, e.g. ``"returns"``) from the cache, or
    ``build()`` stored for next time under the declaration's key plus ``kind``.

    Like the declaration, it depends only on the function's source, the SDK and Python
    versions; a hit imports nothing. A value JSON cannot hold, or a cache that cannot be
    written, only means ``build`` runs again next time; what ``build`` raises propagates.
    """
    key = declaration_key(fn)
    if key is None:
        return build()
    path = _path(hashlib.sha256(f"{key}\0{kind}".encode()).hexdigest())
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("format") == FORMAT and "value" in data:
            return data["value"]
    except (OSError, ValueError, RecursionError):  # a damaged cache file: built again
        pass
    value = build()
    _write(path, {"format": FORMAT, "value": value})
    return value


def cached_declaration(
    fn: Callable[..., Any], build: Callable[[Callable[..., Any]], dict[str, Any]]
) -> dict[str, Any]:
    """``fn``'s declaration from the cache, or ``build(fn)`` stored for next time.

    ``build`` is normally :func:`playground.core.contracts.sdk_declaration_for`; what it raises
    (``LoadError`` for a type hint the SDK cannot describe) propagates and nothing is stored.
    """
    key = declaration_key(fn)
    if key is not None:
        hit = load(key)
        if hit is not None:
            return hit
    decl = build(fn)
    if key is not None:
        store(key, decl)
    return decl
