"""The argument-filling rules of the offline router, one module per rule, phase or kind of
value: the rule table (:mod:`.rules`), the pairing weights (:mod:`.weights`), the per-language
word lists (:mod:`.lang`), the pipeline's top level (:mod:`.pipeline`: ``fill_structured``,
``fill_loose``) and the modules of each rule below it. ``playground/routing/README.md`` lists
them by layer and says how to add a rule or a language."""
