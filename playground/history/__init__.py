"""History: every hand-test call record and episode, kept in a local SQLite file.

This package owns the history file and nothing else: the store that opens, guards and writes it
(:mod:`.store`), its schema and the migrations that take it forward (:mod:`.migrations`), what an
entry is and the line a list shows for it (:mod:`.entries`), what is cut out before storing
(:mod:`.redaction`), reading it back — filters, SQL, rows as entries or JSON lines
(:mod:`.queries`) — and what a run stores beside its record (:mod:`.runs`). It depends only on
:mod:`playground.core` and the standard library's :mod:`sqlite3`; tool sources are seen only
through duck-typed attributes (``label``, ``spec``), so it never imports
:mod:`playground.sources`.
"""
