"""Issue 32 item 11: on SQLite (`make run`, a club laptop) two writes at once answered 503:
a transaction that had read and then wrote found the other's lock and SQLite refused it at
once ("database is locked"), whatever the busy timeout. With the settings' SQLite options
(WAL, a busy timeout, transactions begun IMMEDIATE) the writes wait their turn: both land.

Run in a process of its own on a SQLite file, with `make run`'s settings, whatever database
the suite itself uses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Two threads, each its own connection: A reads in a transaction, then B starts its own
# transaction (read, then write) while A's is open; then A writes. Begun deferred, one of
# the two is refused ("database is locked"); begun IMMEDIATE, B waits for A's commit.
SCRIPT = r"""
import sys, threading
import django
django.setup()
from django.db import connection, connections, transaction

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE IF NOT EXISTS sheet (id INTEGER PRIMARY KEY, who TEXT)")
    cursor.execute("PRAGMA journal_mode")
    print("journal", cursor.fetchone()[0])
connections.close_all()

a_read, b_starting = threading.Event(), threading.Event()
failures = []

def save(who, before=None, after=None):
    try:
        if before is not None:
            assert before.wait(30), "the other write never began"
        if after is not None and who == "B":
            after.set()
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM sheet")
                if who == "A":
                    a_read.set()
                    assert b_starting.wait(30), "B never started"
                cursor.execute("INSERT INTO sheet (who) VALUES (%s)", [who])
    except Exception as exc:
        failures.append(f"{who}: {type(exc).__name__}: {exc}")
    finally:
        connection.close()

a = threading.Thread(target=save, args=("A",))
b = threading.Thread(target=save, args=("B", a_read, b_starting))
a.start(); b.start(); a.join(60); b.join(60)
with connection.cursor() as cursor:
    cursor.execute("SELECT count(*) FROM sheet")
    print("rows", cursor.fetchone()[0])
print("failures", failures)
sys.exit(1 if failures else 0)
"""


def test_two_writes_at_once_on_sqlite_both_land(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL")
    }
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "journal wal" in done.stdout
    assert "rows 2" in done.stdout
