"""Issue 33, the restore drill: a small tournament played, backed up (`manage.py backup`),
restored into a new database (`manage.py restore`, which runs the verifiers against it),
and every table of the restored database identical to the original's: events, seals,
checkpoints, snapshots, read models, standings."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

import eventstore
from demo.simulation import tournament_simulate

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_dump: PostgreSQL only"),
]


def admin(sql: str) -> None:
    """CREATE / DROP DATABASE, outside any transaction."""
    with connection.cursor() as cursor:
        cursor.execute(sql)


@pytest.fixture
def restore_db():
    """An empty database beside the test database, dropped afterwards; its URL."""
    base = connection.settings_dict["NAME"].removeprefix("test_")
    name = f"{base}_restore_drill"
    admin(f'DROP DATABASE IF EXISTS "{name}"')
    admin(f'CREATE DATABASE "{name}"')
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    yield name, f"postgres://{auth}@{s['HOST'] or 'localhost'}:{s['PORT'] or 5432}/{name}"
    admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def restore(dump: Path, url: str) -> subprocess.CompletedProcess:
    """`manage.py restore` as an operator runs it (a process of its own: the test's database
    connections stay the test's)."""
    return subprocess.run(
        [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "restore", str(dump),
         "--database-url", url],
        capture_output=True, text=True, env=os.environ, timeout=600,
    )  # fmt: skip


def tables_digest(cursor) -> dict[str, str]:
    """md5 of every table's rows (as text, in order) by table name."""
    cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
    tables = [t for (t,) in cursor.fetchall()]
    out = {}
    for table in tables:
        cursor.execute(
            f"SELECT count(*), md5(coalesce(string_agg(t::text, chr(10) ORDER BY t::text),"
            f" '')) FROM \"{table}\" AS t"
        )
        count, digest = cursor.fetchone()
        out[table] = f"{count} {digest}"
    return out


def test_a_backup_restores_into_a_new_database_identical_and_verified(tmp_path, restore_db):
    tournament = tournament_simulate(
        players=4, format="round_robin", rounds=None,
        ruleset={"game_target": 10, "games": 1}, progress=False,
    )  # fmt: skip
    eventstore.checkpoints_take()
    standings = list(
        tournament.standings.order_by("rank").values_list("player_id", "match_wins", "points_diff")
    )
    assert standings
    out = io.StringIO()
    call_command("backup", "--output-dir", str(tmp_path), "--keep", "14", stdout=out)
    dump, manifest = (Path(p) for p in out.getvalue().split())
    assert dump.name.startswith("hollywood-gin-") and dump.suffix == ".dump"
    kept = json.loads(manifest.read_text())
    assert kept["events"] == eventstore.event_count() > 0
    assert kept["key_ids"] and kept["checkpoints"] > 0
    assert "secret" not in manifest.read_text().lower()

    name, url = restore_db
    done = restore(dump, url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK:" in done.stdout and "manifest: matches" in done.stdout
    for verifier in ("verify_events: passed", "verify_events --deep: passed",
                     "verify_projections: passed"):  # fmt: skip
        assert verifier in done.stdout

    with psycopg.connect(url) as restored_db, restored_db.cursor() as cursor:
        restored = tables_digest(cursor)
        cursor.execute(
            "SELECT player_id, match_wins, points_diff FROM tournaments_standing"
            " WHERE tournament_id = %s ORDER BY rank",
            [tournament.pk],
        )
        restored_standings = [tuple(row) for row in cursor.fetchall()]
    with connection.cursor() as cursor:
        original = tables_digest(cursor)
    assert restored == original
    assert {"eventstore_event", "eventstore_snapshot", "eventstore_checkpoint"} <= set(original)
    assert restored_standings == standings

    # A second restore into the same (no longer empty) database is refused.
    again = restore(dump, url)
    assert again.returncode != 0 and "is not empty" in again.stderr
