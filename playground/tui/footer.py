"""The app's footer: Textual's ``Footer``, recomposed only when the keys it shows change.

Textual's ``Footer`` removes and mounts all its keys again on every "bindings updated" signal
of its screen (each focus change, each screen resume), even when the keys it would show are the
same: until the contract list and the first form are drawn the TUI's footer was rebuilt five
times with the same keys (~15 ms of CPU each: mounting, styling and laying out ~10 keys).
:class:`KeysFooter` rebuilds only when what it would compose differs from what it shows
(docs/performance.md, "The footer rebuilt only when its keys change").

Its keys also wait for the first loaded screen (``hold``): Textual's footer composes nothing
until its screen's first "bindings updated" signal and then rebuilds itself in a frame of its
own, a whole layout and paint of the screen (~50 ms of CPU) spent on the screen shown while
the tools load. A held footer skips that rebuild; :meth:`KeysFooter.show_keys` composes the
keys with the loaded list and form, in their batch (docs/performance.md, "The footer's keys
with the first loaded screen"). The app shows them after :data:`HOLD_LIMIT_S` whatever happens
(a module that takes long to import: the keys must be on screen).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer

#: The longest the footer's keys wait for the first loaded screen (seconds).
HOLD_LIMIT_S = 1.0


class KeysFooter(Footer):
    """A ``Footer`` whose ``recompose`` is skipped while the keys it would show (each shown
    binding's key, description, action, enabled state, tooltip and group, the command
    palette's key, the compact style) equal those it shows. ``hold``: no keys until
    :meth:`show_keys` (see the module docstring)."""

    def __init__(self, *args: Any, hold: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: What the last compose showed (``None``: nothing composed yet).
        self.shown_keys: tuple[Any, ...] | None = None
        #: keys held back until :meth:`show_keys`
        self.held = hold

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

    async def show_keys(self) -> None:
        """Stop holding the keys back and compose them now (a no-op when they are shown)."""
        if not self.held:
            return
        self.held = False
        if self.is_attached:
            self.set_reactive(Footer._bindings_ready, True)
            with self._context():  # composed as its own (a caller's compose binds its data)
                await self.recompose()

    async def recompose(self) -> None:
        """Textual's ``recompose``, unless the keys are held or the keys to show are the
        ones shown."""
        if self.held:
            return
        if self.shown_keys is not None and self.children and self.keys_to_show() == self.shown_keys:
            return
        await super().recompose()
