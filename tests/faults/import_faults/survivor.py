"""A healthy tool module next to the broken ones."""


def survivor_ping() -> dict:
    """Returns {"pong": true}."""
    return {"pong": True}


__tools__ = [survivor_ping]
