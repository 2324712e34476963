"""A tool module that never finishes importing."""

while True:
    pass
