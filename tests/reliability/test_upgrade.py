"""Issue 33: an upgrade is `manage.py migrate` alone. A database made by the code of the
previous release (the commit in .ci/previous-release, checked out with `git worktree`), with
a tournament played on it, is migrated with today's code; then `verify_events`,
`verify_events --deep` and `verify_projections` all exit 0. 46cbc18 (an older release,
before seals) too. A backup of the previous release restores with `restore --migrate`.
The previous release's code also keeps working on the migrated schema
(as its processes do while `migrate` runs), and what it writes then verifies."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(settings.BASE_DIR)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="upgrades are PostgreSQL's"),
]


def previous_release() -> str:
    return (ROOT / ".ci" / "previous-release").read_text().split()[0]


def git(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def old_code(request, tmp_path):
    """A worktree of the release's commit, removed afterwards."""
    commit = request.param
    if git("cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
        pytest.skip(f"commit {commit} is not in this clone (a shallow checkout?)")
    tree = tmp_path / "old"
    made = git("worktree", "add", "--detach", str(tree), commit)
    assert made.returncode == 0, made.stderr
    yield commit, tree
    git("worktree", "remove", "--force", str(tree))


def empty_database(name: str) -> str:
    """A new empty database beside the test database; its URL."""
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or 'localhost'}:{s['PORT'] or 5432}/{name}"


@pytest.fixture
def database_name(request):
    """A database name beside the test database's (and its `_2`), both dropped after."""
    base = connection.settings_dict["NAME"].removeprefix("test_")
    name = f"{base}_upgrade_{request.node.callspec.id}"[:60]
    yield name
    with connection.cursor() as cursor:
        for suffix in ("", "_2"):
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}{suffix}" WITH (FORCE)')


# Run an older tree's manage.py without this checkout's editable install: its import
# finder maps our packages' names to this tree, so the old code's `import web.templatetags`
# (a package it does not have) found today's, which imports models the old code lacks.
_WITHOUT_EDITABLE_FINDER = (
    "import runpy, sys;"
    "sys.meta_path[:] = [f for f in sys.meta_path"
    " if 'editable' not in getattr(f, '__module__', '')];"
    "sys.path_hooks[:] = [h for h in sys.path_hooks"
    " if 'editable' not in getattr(h, '__module__', '')];"
    "sys.path_importer_cache.clear();"
    "sys.argv[0] = 'manage.py';"
    "runpy.run_path('manage.py', run_name='__main__')"
)


def manage(code: Path, url: str, *args: str) -> subprocess.CompletedProcess:
    """`manage.py` of that code on that database (the same interpreter and packages)."""
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(code)}
    command = [sys.executable, "manage.py", *args]
    if Path(code).resolve() != ROOT.resolve():
        command = [sys.executable, "-c", _WITHOUT_EDITABLE_FINDER, *args]
    return subprocess.run(
        command, cwd=code, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip


PLAY = ("simulate_tournament", "--players", "4", "--format", "round_robin", "--game-target",
        "10", "--no-progress")  # fmt: skip


@pytest.mark.parametrize("old_code", [previous_release(), "46cbc18"], indirect=True)
def test_a_database_of_an_older_release_verifies_clean_after_migrate_alone(
    old_code, database_name, tmp_path
):
    commit, tree = old_code
    database_url = empty_database(database_name)
    for args in (("migrate", "-v", "0"), PLAY):
        done = manage(tree, database_url, *args)
        assert done.returncode == 0, f"{commit} {args[0]}: {done.stderr[-3000:]}"

    if commit == previous_release():
        # A backup of the previous release restored with today's code: refused as it is,
        # migrated and verified with --migrate.
        dump = tmp_path / "previous.dump"
        dumped = subprocess.run(["pg_dump", "-Fc", f"--file={dump}", database_url])
        assert dumped.returncode == 0
        copy = empty_database(f"{database_name}_2")
        done = manage(ROOT, database_url, "restore", str(dump), "--database-url", copy)
        assert done.returncode == 1 and "older release" in done.stderr
        copy = empty_database(f"{database_name}_2")
        done = manage(ROOT, database_url, "restore", str(dump), "--database-url", copy,
                      "--migrate")  # fmt: skip
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
        assert "OK:" in done.stdout

    started = time.monotonic()
    done = manage(ROOT, database_url, "migrate", "-v", "0")
    assert done.returncode == 0, done.stderr[-3000:]
    print(f"{commit}: migrated with today's code in {time.monotonic() - started:.1f}s")

    if commit == previous_release():
        # Expand, then contract (docs/contributing/migrations.md): the previous release's
        # processes, still running while `migrate` runs, keep working on the new schema,
        # and what they write verifies.
        done = manage(tree, database_url, *PLAY)
        assert done.returncode == 0, f"{commit} on the new schema: {done.stderr[-3000:]}"

    for args in (("verify_events",), ("verify_events", "--deep"), ("verify_projections",)):
        done = manage(ROOT, database_url, *args, "-v", "1")
        assert done.returncode == 0, f"{' '.join(args)}: {done.stdout[-2000:]}{done.stderr[-3000:]}"
        assert "OK" in done.stdout
