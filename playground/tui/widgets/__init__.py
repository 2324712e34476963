"""Widgets of the Tool Playground TUI: each displays state given to it and posts messages up."""
