"""The argument-filling rules of the offline router: the rule table (:mod:`.rules`), the
pairing weights (:mod:`.weights`) and the value rules for identifiers and source/target pairs
(:mod:`.identifiers`, :mod:`.source_target`). See ``playground/routing/README.md``."""
