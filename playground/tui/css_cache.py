"""Parsed TCSS kept between apps and between runs (docs/performance.md, "Parsed TCSS kept").

Textual parses every CSS source -- the app's TCSS files and each widget class's
``DEFAULT_CSS`` -- once per :class:`~textual.css.stylesheet.Stylesheet`, that is once per app:
~30-40 ms of the TUI's start (the first screen's and the Call view's rules), paid again by every
run and by every app a process builds (the test suite builds hundreds). :class:`ParsedCss`
replaces the stylesheet's own parse cache (``Stylesheet._parse_cache``, consulted by
``Stylesheet._parse_rules`` with the key ``(css, read_from, is_default_rules, tie_breaker,
scope)``) by one that also looks in

* a memo shared by the apps of this process, and
* ``css/`` of the playground's cache folder (:func:`playground.core.declcache.cache_dir`), one
  pickle per parsed source;

both keyed by that key, the stylesheet's variables (the theme's colours are substituted while
parsing), and the installed Textual and Python versions. A rule set is only read after it is
parsed (Textual shares them between the rule maps of one stylesheet already). A missing,
corrupt or unwritable file only means parsing (never an error); a source whose rules have
errors is never stored, so Textual reports them as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import Any

from textual.css.stylesheet import Stylesheet

#: Parsed sources shared by the apps of this process: digest -> rule sets.
_MEMO: dict[str, list[Any]] = {}

SUBDIR = "css"


def _installed_textual() -> str:
    """What identifies the installed Textual: its parser module's path, size and modification
    time (an upgrade rewrites it; reading ``textual.__version__`` costs a metadata lookup)."""
    import textual.css.parse

    path = textual.css.parse.__file__ or ""
    with contextlib.suppress(OSError):
        stat = os.stat(path)
        return f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}"
    return path


_STAMP: list[str] = []


def _stamp(variables: dict[str, str]) -> str:
    """The part of every key that is not the source: the variables, Textual and Python."""
    if not _STAMP:
        _STAMP.append(f"{_installed_textual()}\0{sys.version}")
    text = repr((sorted(variables.items()), _STAMP[0]))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def _digest(key: tuple[Any, ...], stamp: str) -> str:
    text = repr(key) + stamp
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:40]


def _folder() -> Path:
    from playground.core.declcache import cache_dir

    return cache_dir() / SUBDIR


class ParsedCss:
    """A ``Stylesheet._parse_cache`` (``[key]``, ``[key] = rules``, ``clear()``) that also
    reads and writes the process memo and the disk cache (see the module docstring)."""

    def __init__(self, stylesheet: Stylesheet) -> None:
        self._stylesheet = stylesheet
        #: Textual's own cache: the sources this stylesheet parsed or found (every re-parse
        #: asks again for each of its sources)
        self._local: dict[tuple[Any, ...], list[Any]] = {}
        self._stamp: str | None = None
        self._folder: Path | None = None

    def _file(self, digest: str) -> Path:
        if self._folder is None:
            self._folder = _folder()
        return self._folder / f"{digest}.pickle"

    def _digest(self, key: tuple[Any, ...]) -> str:
        if self._stamp is None:
            self._stamp = _stamp(dict(self._stylesheet._variables))
        return _digest(key, self._stamp)

    def __getitem__(self, key: tuple[Any, ...]) -> list[Any]:
        rules = self._local.get(key)
        if rules is not None:
            return rules
        digest = self._digest(key)
        rules = _MEMO.get(digest)
        if rules is None:
            with contextlib.suppress(Exception):  # unreadable, corrupt, foreign classes
                loaded = pickle.loads(self._file(digest).read_bytes())
                if isinstance(loaded, list):
                    rules = _MEMO[digest] = loaded
        if rules is None:
            raise KeyError(key)
        self._local[key] = rules
        return rules

    def __setitem__(self, key: tuple[Any, ...], rules: list[Any]) -> None:
        self._local[key] = rules
        if any(rule.errors for rule in rules):
            return  # reported by Textual; never kept beyond this stylesheet
        digest = self._digest(key)
        _MEMO[digest] = rules
        _store(self._file(digest), rules)

    def clear(self) -> None:
        """New variables (a theme change): parse again under them."""
        self._local.clear()
        self._stamp = None


def _store(file: Path, rules: list[Any]) -> None:
    """Write the pickled ``rules`` to ``file``
    (:func:`~playground.core.cachefile.write_cache_file`); give up silently on any error."""
    from playground.core.cachefile import write_cache_file

    try:
        blob = pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a rule Textual built that pickle cannot carry: parse it next time
        return
    write_cache_file(file, blob)


def keep_parsed_css(stylesheet: Stylesheet) -> None:
    """Give ``stylesheet`` the shared, on-disk parse cache (before it parses anything)."""
    stylesheet._parse_cache = ParsedCss(stylesheet)  # type: ignore[assignment]
