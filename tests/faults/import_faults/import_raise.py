"""A tool module that raises while importing."""

raise RuntimeError("boom at import")
