"""Compiled tool modules, cached by the hash of their source (PEP 552's rule, in the
playground's cache folder rather than the tool's ``__pycache__``).

Tool modules are loaded from their source every time
(:class:`~playground.sources.tool_modules.SourceOnlyLoader`): Python's own byte-code cache is
judged by the source's modification time in whole seconds and its size, so an edit within the
same second to text of the same size was loaded stale after a reload. Compiling is most of a
small module's import (about 40 % of loading ``./tools``' three modules), paid by every
worker start and every reload. Here the code object is kept on disk under a key of the *source bytes*
-- what PEP 552's "checked hash-based" ``.pyc`` files compare -- so an edit of any kind is a
miss, and an unchanged module is read back with :mod:`marshal` instead of compiled:

* folder: ``code/`` in :func:`playground.core.declcache.cache_dir` (nothing is written into the
  tool's folder);
* file: ``<digest of the path>-<source hash>.code``; its header holds the interpreter's
  ``MAGIC_NUMBER``, the optimisation level, the source hash and the path, all checked on read;
  writing one removes that path's older files (the versions edited away);
* a missing, corrupt, foreign or unwritable file only means the source is compiled (never an
  error): the cache can never make loading fail or load other code than the source's.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import marshal
import sys
from collections.abc import Callable
from pathlib import Path
from types import CodeType

SUBDIR = "code"


def _folder() -> Path:
    from playground.core.declcache import cache_dir

    return cache_dir() / SUBDIR


def _header(source_hash: bytes, path: str) -> bytes:
    """What a cached file starts with: the interpreter's byte-code magic, the optimisation
    level, the source's hash (``importlib.util.source_hash``, 8 bytes) and the path."""
    encoded = path.encode("utf-8", "surrogateescape")
    return (
        importlib.util.MAGIC_NUMBER
        + bytes([sys.flags.optimize & 0xFF])
        + source_hash
        + len(encoded).to_bytes(4, "little")
        + encoded
    )


def _path_key(path: str) -> str:
    return hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:24]


def cached_code(
    source: bytes, path: str, compile_source: Callable[[bytes, str], CodeType]
) -> CodeType:
    """The code object of ``source`` (the bytes of the file at ``path``): read back from the
    cache when a file for exactly these bytes, this path and this interpreter is there, else
    ``compile_source(source, path)`` (its ``SyntaxError`` propagates, nothing is stored) and
    stored for next time. OS errors and unreadable files are never raised."""
    source_hash = importlib.util.source_hash(source)
    header = _header(source_hash, path)
    key = _path_key(path)
    file = _folder() / f"{key}-{source_hash.hex()}.code"
    with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
        blob = file.read_bytes()
        if blob.startswith(header):
            code = marshal.loads(blob[len(header) :])
            if isinstance(code, CodeType) and code.co_filename == path:
                return code
    code = compile_source(source, path)
    _store(file, key, header + marshal.dumps(code))
    return code


def _store(file: Path, key: str, blob: bytes) -> None:
    """Write ``blob`` to ``file`` (:func:`~playground.core.cachefile.write_cache_file`) and
    remove the other files of the same path key; give up silently on any OS error."""
    from playground.core.cachefile import write_cache_file

    if not write_cache_file(file, blob):
        return
    for old in file.parent.glob(f"{key}-*.code"):
        if old != file:
            with contextlib.suppress(OSError):
                old.unlink()
