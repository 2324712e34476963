"""A tool module with a syntax error."""

def broken(:
    pass
