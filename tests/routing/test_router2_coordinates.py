"""Issue 12, second round: a latitude/longitude parameter takes the number written with its
hemisphere, south and west negative ("37.8651 N, 119.5383 W")."""

from __future__ import annotations

from playground.routing.base import Turn
from playground.routing.offline import OfflineRouter

FORECAST = {
    "name": "fetch_weather_data",
    "description": "Retrieves the hourly weather forecast for a location by its coordinates.",
    "parameters": {
        "type": "object",
        "properties": {
            "latitude": {"type": "number", "description": "The latitude of the location."},
            "longitude": {"type": "number", "description": "The longitude of the location."},
            "forecast_days": {"type": "integer", "description": "The number of days."},
        },
        "required": ["latitude", "longitude"],
    },
}


def test_hemispheres_give_the_signs() -> None:
    q = (
        "Could you provide me with the hourly forecast for the next 10 days at the "
        "coordinates 37.8651 N, 119.5383 W?"
    )
    mv = OfflineRouter().next_move([Turn(role="user", text=q)], [FORECAST])
    assert mv.calls[0].args["latitude"] == 37.8651
    assert mv.calls[0].args["longitude"] == -119.5383
    ev = mv.explanation["tools"][0]["arg_evidence"]["longitude"]
    assert ev["rule"] == "coordinate" and "negative" in ev["detail"]


def test_south_is_negative_and_east_positive() -> None:
    q = "the hourly weather forecast at 33.8688° S, 151.2093° E"
    args = OfflineRouter().next_move([Turn(role="user", text=q)], [FORECAST]).calls[0].args
    assert (args["latitude"], args["longitude"]) == (-33.8688, 151.2093)
