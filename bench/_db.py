"""The benches' own PostgreSQL databases: made before django.setup() (so no Django here)."""

from __future__ import annotations

import environ
import psycopg


def libpq(url: str) -> str:
    """A `postgres://` URL as libpq (psycopg) spells it."""
    return url.replace("postgres://", "postgresql://", 1)


def database_name(url: str) -> str:
    return environ.Env.db_url_config(url)["NAME"]


def ensure_database(url: str, *, fresh: bool = False) -> None:
    """Create the bench's database if it is not there yet (`fresh`: drop it first)."""
    name = database_name(url)
    server = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(libpq(server), autocommit=True) as c:
        if fresh:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            c.execute(f'CREATE DATABASE "{name}"')
            if not fresh:
                print(f"created database {name}")
