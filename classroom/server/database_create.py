"""``python -m classroom.server.database_create``: create DATABASE_URL's PostgreSQL database if it
does not exist yet (``make cluster`` on a fresh machine). SQLite needs nothing.

``--drop`` drops it instead, sessions still connected and all (``make bench-analytics-school``
throws its database away with it).
"""

from __future__ import annotations

import os
import sys

import dj_database_url
import psycopg
from psycopg import sql


def main(argv: list[str] | None = None) -> int:
    drop = "--drop" in (sys.argv[1:] if argv is None else argv)
    config = dj_database_url.parse(os.environ.get("DATABASE_URL", ""))
    if not str(config.get("ENGINE", "")).endswith("postgresql"):
        return 0
    name = str(config["NAME"])
    with psycopg.connect(
        host=config.get("HOST") or "127.0.0.1",
        port=int(config.get("PORT") or 5432),
        user=config.get("USER") or "postgres",
        password=config.get("PASSWORD") or None,
        dbname="postgres",
        autocommit=True,
    ) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if drop and exists is not None:
            connection.execute(
                sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name))
            )
            print(f"Dropped the PostgreSQL database {name}.")
        elif not drop and exists is None:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"Created the PostgreSQL database {name}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
