"""The result cache: successes only, keyed by tool name plus canonical JSON arguments.

Seed 003, step 5: "성공만 기억합니다" — remembering failures would block the repaired retry; the
key is order-insensitive (``json.dumps(args, sort_keys=True, ensure_ascii=False)``). A contract
marked ``side_effects`` (or ``cacheable=False``) is never cached; the gate enforces that, and
empties the cache when such a body ran (:meth:`ResultCache.forget_values`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playground.core.canonical import cache_key, copy_json


@dataclass
class ResultCache:
    """An in-memory map ``cache_key → JSON value`` with hit/miss counters.

    Values are deep-copied in and out (:func:`~playground.core.canonical.copy_json`), so a
    caller mutating a value cannot change the cache.
    """

    entries: dict[str, Any] = field(default_factory=dict)
    #: the MCP content blocks sent with a stored value (images, audio, resources), under the
    #: same key: a hit must put on the wire what the server sent, not the value alone
    content: dict[str, list[Any]] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0

    @staticmethod
    def key(tool: str, args: Any, canonical: str | None = None) -> str:
        """The key for ``tool`` called with ``args`` (see :func:`canonical.cache_key`)."""
        return cache_key(tool, args, canonical)

    def lookup(self, key: str) -> tuple[bool, Any]:
        """``(True, value)`` on a hit, ``(False, None)`` on a miss; counts both."""
        if key in self.entries:
            self.hits += 1
            return True, copy_json(self.entries[key])
        self.misses += 1
        return False, None

    def store(self, key: str, value: Any, content: list[Any] | None = None) -> None:
        """Remember a successful value under ``key``, with the MCP ``content`` blocks it came
        with (``None`` for a Python tool)."""
        self.entries[key] = copy_json(value)
        if content is not None:
            self.content[key] = copy_json(content)
        else:
            self.content.pop(key, None)

    def content_of(self, key: str) -> list[Any] | None:
        """A copy of the content blocks stored with ``key``'s value, or ``None``."""
        blocks = self.content.get(key)
        return None if blocks is None else copy_json(blocks)

    def forget_values(self) -> int:
        """Forget every stored value, keep the counters; returns how many were forgotten.

        The gate calls it after the body of a tool with side effects ran: a booking, a write
        or a delete may change what any read returns, so a cached read would be stale (a
        serious cache invalidates on writes; the memo of seed 003 only ever served reads)."""
        count = len(self.entries)
        self.entries.clear()
        self.content.clear()
        return count

    def clear(self) -> None:
        """Forget everything and reset the counters."""
        self.entries.clear()
        self.content.clear()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self.entries)
