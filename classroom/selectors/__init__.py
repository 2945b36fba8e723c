"""Read-only queries: what pages and sockets show. Nothing here writes."""
