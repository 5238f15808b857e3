"""Restore a `manage.py backup` dump into an empty PostgreSQL database, then verify it.

    createdb hollywood_gin_restored
    python manage.py restore /backups/hollywood-gin-20261201T030000Z.dump \\
        --database-url postgres://user:pass@host:5432/hollywood_gin_restored

Refuses a database that holds any table. Checks the dump against its manifest (the
`.manifest.json` beside it: sha256, then after pg_restore the schema, event count, stream
heads and key ids), says which chain keys the seals need and whether this install has
them, then runs against the restored database `verify_events`, `verify_events --deep` and
`verify_projections`, and says OK only if all of them pass; exits 1 otherwise. Run it with
the chain keys of the install that made the backup (EVENT_CHAIN_KEYS ...): without them
the verifiers say which key is missing (docs/operators/backup-restore.md). A dump of an
older release (migrations this code has and it lacks) is refused unless `--migrate`: then
this code's `migrate` runs on the restored database before the verifiers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import environ
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connections

from eventstore.backups import (
    BackupError,
    database_alias,
    database_is_empty,
    file_sha256,
    manifest_differences,
    manifest_path_of,
    manifest_read,
    restore_into,
)
from eventstore.seals import keyring

ALIAS = "restore_target"
VERIFIERS = (
    ("verify_events",),
    ("verify_events", "--deep"),
    ("verify_projections",),
)


class Command(BaseCommand):
    help = "Restore a backup into an empty PostgreSQL database and verify it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dump", help="a .dump file written by manage.py backup")
        parser.add_argument(
            "--database-url", required=True, help="the empty database to restore into"
        )
        parser.add_argument(
            "--migrate",
            action="store_true",
            help="a dump of an older release: migrate the restored database before verifying",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        dump, url = Path(options["dump"]), options["database_url"]
        if not dump.is_file():
            raise CommandError(f"No such dump: {dump}")
        target = self._target(url)
        manifest = self._manifest(dump)
        started = time.monotonic()
        with database_alias(target, ALIAS):
            try:
                empty = database_is_empty(target, ALIAS)
            except DatabaseError as exc:
                raise CommandError(
                    f"Cannot reach {target['NAME']}: {exc}".strip() + " (create it first: createdb)"
                ) from exc
            if not empty:
                raise CommandError(
                    f"The database {target['NAME']} is not empty: restore only into an empty"
                    " database (drop and create it again, or name another)."
                )
            self._say(f"restoring {dump.name} into {target['NAME']} (pg_restore)")
            try:
                restore_into(dump=dump, settings_dict=target, progress=self._say)
            except BackupError as exc:
                raise CommandError(str(exc)) from exc
            self._say(f"restored in {time.monotonic() - started:.1f}s")
            migrated = self._migrate_if_older(dump, url, target, options["migrate"])
            self._say("reading it back")
            now = manifest_read(using=ALIAS)
        failed = self._compare(manifest, now, migrated=migrated)
        for command in VERIFIERS:
            self._say(f"running {' '.join(command)} against {target['NAME']}")
            code = self._run(command, url)
            self.stdout.write(f"{' '.join(command)}: {'passed' if code == 0 else 'FAILED'}")
            failed = failed or code != 0
        if failed:
            raise CommandError(
                f"The restore of {dump.name} into {target['NAME']} does not verify (above).",
                returncode=1,
            )
        self.stdout.write(
            f"OK: {dump.name} restored into {target['NAME']}: {now['events']} events in"
            f" {now['streams']} streams, seals, snapshots and read models verified"
            f" ({time.monotonic() - started:.1f}s)."
        )

    def _target(self, url: str) -> dict[str, Any]:
        try:
            parsed = environ.Env.db_url_config(url)
        except Exception as exc:  # django-environ raises several kinds
            raise CommandError(f"Not a database URL: {exc}") from exc
        if "postgresql" not in parsed.get("ENGINE", ""):
            raise CommandError("restore needs a PostgreSQL database (postgres://...).")
        base = connections["default"].settings_dict
        fields = ("NAME", "USER", "PASSWORD", "HOST", "PORT", "OPTIONS")
        return {**base, **{k: parsed.get(k, base.get(k)) for k in fields}}

    def _manifest(self, dump: Path) -> dict[str, Any] | None:
        path = manifest_path_of(dump)
        if not path.is_file():
            self._say(f"no manifest beside the dump ({path.name}): the dump is not compared")
            return None
        manifest = json.loads(path.read_text(encoding="utf-8"))
        self._say(f"checking the dump's sha256 against {path.name}")
        if file_sha256(dump) != manifest.get("dump_sha256"):
            raise CommandError(f"{dump} is not the dump its manifest describes (sha256 differs).")
        have = {k.key_id for k in keyring()}
        needed = manifest.get("key_ids", [])
        lacking = [k for k in needed if k not in have]
        self.stdout.write(
            f"chain keys needed: {', '.join(needed) or 'none'}"
            + (f"; this install lacks: {', '.join(lacking)}" if lacking else "; all present")
        )
        return manifest

    def _migrate_if_older(
        self, dump: Path, url: str, target: dict[str, Any], migrate: bool
    ) -> bool:
        """Is the restored database of an older release? Then migrate it (`--migrate`) or
        stop. True if it was migrated."""
        if self._run(("migrate", "--check", "-v", "0"), url, quiet=True) == 0:
            return False
        if not migrate:
            raise CommandError(
                f"{dump.name} is of an older release than this code (unapplied migrations):"
                " restore it with --migrate (this code's `migrate`, then the verifiers), or"
                " with the code of its release.",
                returncode=1,
            )
        self._say(f"migrating {target['NAME']} (a dump of an older release)")
        if self._run(("migrate", "-v", "1"), url) != 0:
            raise CommandError(f"migrate failed on {target['NAME']} (above).", returncode=1)
        return True

    def _compare(
        self, manifest: dict[str, Any] | None, now: dict[str, Any], *, migrated: bool
    ) -> bool:
        if manifest is None:
            return False
        if migrated:  # what migrating changes by design
            now = {**now, "schema": manifest.get("schema"), "key_ids": manifest.get("key_ids")}
        differences = manifest_differences(manifest, now)
        for line in differences:
            self.stderr.write(f"MANIFEST DIFFERS {line}")
        if not differences:
            self.stdout.write(
                f"manifest: matches ({now['events']} events, {now['streams']} stream heads)"
            )
        return bool(differences)

    def _run(self, command: tuple[str, ...], url: str, quiet: bool = False) -> int:
        """A command (a verifier) in a process of its own, on the restored database."""
        argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *command]
        env = {**os.environ, "DATABASE_URL": url}
        with subprocess.Popen(
            argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        ) as proc:
            out, err = (_drop, _drop) if quiet else (self.stdout.write, self.stderr.write)
            threads = [
                threading.Thread(target=_forward, args=(proc.stdout, out)),
                threading.Thread(target=_forward, args=(proc.stderr, err)),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        return proc.returncode

    def _say(self, text: str) -> None:
        if self.verbosity > 0:
            self.stderr.write(text)

    def execute(self, *args: Any, **options: Any) -> Any:
        self.verbosity = options.get("verbosity", 1)
        return super().execute(*args, **options)


def _drop(line: str) -> None:
    pass


def _forward(stream: IO[str] | None, write: Any) -> None:
    if stream is None:
        return
    for line in stream:
        write(line.rstrip("\n").split("\r")[-1])
