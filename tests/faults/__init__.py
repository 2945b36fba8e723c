"""Fault tests: bad input, floods and network trouble against the live sockets."""
