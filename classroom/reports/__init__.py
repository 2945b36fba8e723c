"""Reports built from a class's trials for reading and printing (``progress``)."""
