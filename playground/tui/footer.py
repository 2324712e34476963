"""The app's footer: Textual's ``Footer``, recomposed only when the keys it shows change.

Textual's ``Footer`` removes and mounts all its keys again on every "bindings updated" signal
of its screen (each focus change, each screen resume), even when the keys it would show are the
same: until the contract list and the first form are drawn the TUI's footer was rebuilt five
times with the same keys (~15 ms of CPU each: mounting, styling and laying out ~10 keys).
:class:`KeysFooter` rebuilds only when what it would compose differs from what it shows
(docs/performance.md, "The footer rebuilt only when its keys change").
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer


class KeysFooter(Footer):
    """A ``Footer`` whose ``recompose`` is skipped while the keys it would show (each shown
    binding's key, description, action, enabled state, tooltip and group, the command
    palette's key, the compact style) equal those it shows."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: What the last compose showed (``None``: nothing composed yet).
        self.shown_keys: tuple[Any, ...] | None = None

    def keys_to_show(self) -> tuple[Any, ...]:
        """What :meth:`compose` would show now, as comparable data (``()`` before the
        bindings are ready, when Textual's footer composes nothing)."""
        if not self._bindings_ready:
            return ()
        active = self.screen.active_bindings
        shown = tuple(
            (
                binding.key,
                binding.description,
                binding.action,
                enabled,
                tooltip,
                binding.tooltip,
                None
                if binding.group is None
                else (binding.group.description, binding.group.compact),
            )
            for (_, binding, enabled, tooltip) in active.values()
            if binding.show
        )
        palette = (
            active.get(self.app.COMMAND_PALETTE_BINDING)
            if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE
            else None
        )
        palette_key = None
        if palette is not None:
            _, binding, enabled, tooltip = palette
            palette_key = (binding.key, binding.description, enabled, tooltip, binding.tooltip)
        return (shown, palette_key, self.compact)

    def compose(self) -> Any:
        self.shown_keys = self.keys_to_show()
        return super().compose()

    async def recompose(self) -> None:
        """Textual's ``recompose``, unless the keys to show are the ones shown."""
        if self.shown_keys is not None and self.children and self.keys_to_show() == self.shown_keys:
            return
        await super().recompose()
