"""loop layer."""
