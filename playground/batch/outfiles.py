"""Writing the user's files safely: never over an existing file without ``force``, always
through a temporary file in the same folder renamed into place (issue 28 item 4).

:func:`write_text_atomic` writes one file (golden files, saved records, case files, the TUI's
saves); :func:`refuse_existing` checks a path before a command runs anything.

``playground report --out DIR`` writes ``tool_report.json`` and ``tool_report.md``. It must not
destroy what is there or be turned into a write elsewhere: an existing file is kept unless
``force`` is given, a name that is a symbolic link pointing out of ``DIR`` is refused (even with
``force``), and each file is written to a temporary file in ``DIR`` and moved into place with
``os.replace``, which replaces a link itself and never writes through it. Every name is
checked before anything is written, so a refusal leaves ``DIR`` as it was.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from playground.errors import UsageError


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: The permission bits of a new file: ``0o666`` less the process's umask (what ``open`` gives).
NEW_FILE_MODE = 0o666 & ~_umask()


def refuse_existing(path: str | Path, *, force: bool = False, option: str = "--force") -> None:
    """Raise :class:`UsageError` (one line) when writing ``path`` would destroy something: an
    existing file without ``force`` ("... exists; use --force to overwrite it"), or — even with
    ``force`` — a folder, a device, a FIFO or a socket (only regular files are replaced)."""
    target = Path(path)
    try:
        info = target.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise UsageError(f"{target} is a folder: give a file name")
    if not (stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode)):
        raise UsageError(
            f"{target} is not a regular file (a device, FIFO or socket); not writing it"
        )
    if stat.S_ISLNK(info.st_mode):
        with contextlib.suppress(OSError):
            if not stat.S_ISREG(target.stat().st_mode):
                raise UsageError(f"{target} is a link to something that is not a regular file")
    if not force:
        raise UsageError(f"{target} exists; use {option} to overwrite it")


def write_text_atomic(
    path: str | Path, text: str, *, force: bool = False, option: str = "--force"
) -> Path:
    """Write ``text`` (UTF-8) to ``path``: into a temporary file in the same folder, flushed to
    disk, then renamed over ``path`` with ``os.replace`` — so a full disk or a crash leaves the
    old file whole and a reader never sees half a file. A replaced file keeps its permission
    bits; a new one gets :data:`NEW_FILE_MODE`. Returns ``path``.

    Raises :class:`UsageError` (one line) from :func:`refuse_existing` (``force`` and
    ``option`` as there) and when the folder or the file cannot be written (the temporary file
    is removed)."""
    target = Path(path)
    refuse_existing(target, force=force, option=option)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mode = NEW_FILE_MODE
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


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
        refuse_existing(path, force=True)  # a device, a FIFO: never replaced
        targets.append(path)
    for path, text in zip(targets, files.values(), strict=True):
        write_text_atomic(path, text, force=True)
    return targets
