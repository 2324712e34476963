"""routing layer."""
