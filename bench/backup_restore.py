"""Backup and restore times: `manage.py backup`, then `manage.py restore` into a new
database (pg_restore, the manifest read back, verify_events, verify_events --deep and
verify_projections), as an operator runs them.

1. Makes sure the database holds at least --events events (plays 16-player Swiss
   tournaments of 4 rounds with `manage.py simulate_tournament` until it does).
2. Times `manage.py backup --output-dir TMP` (a process of its own): seconds, dump size.
3. Creates an empty database beside it, times `manage.py restore DUMP --database-url ...`
   and prints its own account of the pg_restore step, then drops that database.

    .venv/bin/python bench/backup_restore.py [--events 20000]
    (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/hg_data_backup_bench)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/hg_data_backup_bench"


def manage(*args: str, url: str) -> subprocess.CompletedProcess:
    env = {"DJANGO_SETTINGS_MODULE": "config.settings.local", **os.environ, "DATABASE_URL": url}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


def psql(sql: str, url: str) -> str:
    admin = url.rsplit("/", 1)[0] + "/postgres"
    done = subprocess.run(["psql", admin, "-Atqc", sql], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=20000)
    options = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    name = url.rsplit("/", 1)[1]
    if not psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}'", url):
        psql(f'CREATE DATABASE "{name}"', url)
    assert manage("migrate", "-v", "0", url=url).returncode == 0
    count = int(psql_in(url, "SELECT count(*) FROM eventstore_event"))
    while count < options.events:
        played = manage("simulate_tournament", "--players", "16", "--rounds", "4",
                        "--no-progress", url=url)  # fmt: skip
        assert played.returncode == 0, played.stderr[-2000:]
        count = int(psql_in(url, "SELECT count(*) FROM eventstore_event"))
    print(f"database {name}: {count} events")

    with tempfile.TemporaryDirectory() as out:
        started = time.monotonic()
        done = manage("backup", "--output-dir", out, url=url)
        took = time.monotonic() - started
        assert done.returncode == 0, done.stderr
        dump = Path(done.stdout.split()[0])
        print(f"backup: {took:.1f}s, dump {dump.stat().st_size / 1e6:.1f} MB")

        target = f"{name}_restored"
        target_url = url.rsplit("/", 1)[0] + f"/{target}"
        psql(f'DROP DATABASE IF EXISTS "{target}"', url)
        psql(f'CREATE DATABASE "{target}"', url)
        try:
            started = time.monotonic()
            done = manage("restore", str(dump), "--database-url", target_url, url=url)
            took = time.monotonic() - started
            assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
            restored = re.search(r"restored in ([\d.]+)s", done.stderr)
            print(
                f"restore: {took:.1f}s in all, of which pg_restore"
                f" {restored.group(1) if restored else '?'}s; the rest: the manifest read"
                " back and the three verifiers"
            )
        finally:
            psql(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)', url)


def psql_in(url: str, sql: str) -> str:
    done = subprocess.run(["psql", url, "-Atqc", sql], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return done.stdout.strip()


if __name__ == "__main__":
    main()
