"""Writing report files into a folder safely.

``playground report --out DIR`` writes ``tool_report.json`` and ``tool_report.md``. It must not
destroy what is there or be turned into a write elsewhere: an existing file is kept unless
``force`` is given, a name that is a symbolic link pointing out of ``DIR`` is refused (even with
``force``), and each file is written to a temporary file in ``DIR`` and moved into place with
``os.replace``, which replaces a link itself and never writes through it. Every name is
checked before anything is written, so a refusal leaves ``DIR`` as it was.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from playground.errors import UsageError


def write_files(
    out_dir: str | Path, files: Mapping[str, str], *, force: bool = False
) -> list[Path]:
    """Write ``files`` (``{file name: UTF-8 text}``) into ``out_dir`` (created if missing);
    return the paths in order.

    Raises :class:`UsageError` (one line) when a name is not a plain file name, when a file
    exists and ``force`` is false ("... exists; use --force to overwrite it"), when a name is a
    symbolic link that resolves outside ``out_dir``, or when the folder cannot be written.
    """
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        root = out.resolve(strict=True)
    except OSError as exc:
        raise UsageError(f"cannot write the report into {out}: {exc.strerror or exc}") from None
    if not root.is_dir():
        raise UsageError(f"cannot write the report into {out}: not a folder")
    targets: list[Path] = []
    for name in files:
        if Path(name).name != name or name in ("", ".", ".."):
            raise UsageError(f"{name!r} is not a plain file name")
        path = out / name
        if path.is_symlink():
            resolved = path.resolve()
            if not resolved.is_relative_to(root):
                raise UsageError(
                    f"{path} is a symbolic link to {resolved}, outside {out}; not writing through it"
                )
        if os.path.lexists(path) and not force:
            raise UsageError(f"{path} exists; use --force to overwrite it")
        if path.is_dir() and not path.is_symlink():
            raise UsageError(f"{path} is a folder")
        targets.append(path)
    for path, text in zip(targets, files.values(), strict=True):
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=out)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, path)
        except OSError as exc:
            if "tmp" in locals() and os.path.exists(tmp):
                os.unlink(tmp)
            raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    return targets
