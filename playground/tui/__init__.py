"""tui layer."""
