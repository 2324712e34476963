"""Rule ``coded``: codes a description explains, "'1' corresponds to Bangkok, '2' to Chiang Mai",
taken when the question says what a code stands for -- before an example's shape would take any
number of the question."""

from __future__ import annotations

from tests.routing.helpers import call

SERVICE = {
    "name": "get_service_id",
    "description": "Retrieve the unique identifier for a service based on its type and location.",
    "parameters": {
        "type": "object",
        "properties": {
            "service_id": {
                "type": "integer",
                "description": "The ID of a service type. For example, '1' represents a cleaning "
                "service, '2' represents an ironing service.",
            },
            "province_id": {
                "type": "integer",
                "description": "The ID of a province. For example, '1' corresponds to Bangkok, "
                "'2' to Chiang Mai, and '3' to Chonburi.",
            },
        },
        "required": ["service_id"],
    },
}


def test_a_code_is_read_from_what_it_stands_for() -> None:
    args, evidence = call(
        "Help find a housekeeper who provides ironing services in Chiang Mai, rated 4 stars",
        SERVICE,
    )
    assert args == {"service_id": 2, "province_id": 2}
    assert evidence["service_id"]["rule"] == "coded"
    assert evidence["province_id"]["text"] == "Chiang Mai"
