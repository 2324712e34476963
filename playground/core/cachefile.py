"""Writing a file of the playground's cache folder: atomically, and never an error.

Every cache (declarations, schema checks, remembered package facts, compiled tool modules,
parsed TCSS) writes its files the same way: into a temporary file of the same folder, then
renamed over the name (``os.replace``), so a reader never sees half a file and two processes
writing the same entry each leave a whole one. A cache that cannot be written only means the
work is done again, so nothing here raises.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_cache_file(path: Path, data: bytes | str) -> bool:
    """Write ``data`` (bytes, or text written as UTF-8) to ``path`` atomically, creating its
    folder; ``True`` when written, ``False`` (never an error) on any OS error -- a read-only
    or full disk, a file where the folder should be."""
    blob = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:16]}-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
        return True
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False
