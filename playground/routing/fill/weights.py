"""The weights of the loose pairing (``pipeline.fill_loose``, scored in :mod:`.pairing`): how
much each kind of evidence adds when a value written in the question is paired with a parameter.
Pairs are taken best first; an optional parameter needs at least :attr:`Pairing.optional_floor`.

One table, so a weight is changed in one place and its effect measured with
``bench/bfcl.py`` (the rule weights of the scorer are ``playground.routing.scoring.Weights``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    """Score added to a (parameter, value) pair by each piece of evidence."""

    #: written as ``name=value`` naming the parameter
    assigned: float = 10.0
    #: a number's unit word is in the parameter's name or description
    unit: float = 3.0
    #: a time unit (years, hours) where the parameter's *name* says a time ...
    time_in_name: float = 2.5
    #: ... or only its description does
    time_in_doc: float = 1.0
    #: per name word next to the value (times ``_near``'s closeness); description words count 1
    name_word: float = 2.0
    #: the number counts the noun the parameter is named for ("three traits" for trait_count)
    counted_noun: float = 1.5
    #: the parameter's own word is part of the name written ("UUID SUPERFANCY" for project)
    own_word_in_name: float = 1.5
    #: after from/to or "between ... and" where the parameter is that end
    role_cue: float = 2.5
    #: followed by "as (the) WORD" where WORD is the parameter's ("David Leitch as the director")
    as_label: float = 3.0
    #: a name after in/at/near where the parameter wants a place
    place_cue: float = 2.0
    #: a known city for a parameter named city (GeoNames)
    known_city: float = 1.0
    #: written in its examples' 'X, Y' shape
    joined_shape: float = 1.5
    #: a URL / e-mail / path where the parameter wants one
    written_kind: float = 3.0
    #: an identifier (docs/reports) where the parameter wants a path
    identifier_as_path: float = 1.5
    #: the least score an optional parameter's pair needs (a mere neighbour is not enough)
    optional_floor: float = 1.0


PAIRING = Pairing()
