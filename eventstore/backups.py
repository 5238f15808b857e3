"""Backups and restores around PostgreSQL's own tools (`pg_dump -Fc`, `pg_restore`), with a
manifest that says what a restore must find: `manage.py backup` and `manage.py restore`
(docs/operators/backup-restore.md).

The manifest and the dump see the same moment: the manifest is read in a REPEATABLE READ
transaction whose snapshot pg_dump is given (`--snapshot`), so writes going on during a
backup are in both or in neither. The manifest holds the schema (the latest applied
migration of each app), the number of events and streams, a digest of every stream's head
(id, version, hash), the number of checkpoints, the ids of the chain keys the seals need,
never the keys, and the dump's sha256.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.db import connections, transaction
from django.db.models import Max

from eventstore.models import ChainKeyRecord, Checkpoint, Snapshot, StoredEvent
from eventstore.seals import keyring

MANIFEST_FORMAT = "hollywood-gin/backup-manifest"
PREFIX = "hollywood-gin-"
Progress = Callable[[str], None]


class BackupError(Exception):
    """A backup or restore that cannot go on; its text is for the operator."""


# --- the manifest --------------------------------------------------------------------------


def manifest_read(*, using: str = "default") -> dict[str, Any]:
    """What the database holds now, as a manifest (without the dump's name and digest)."""
    conn = connections[using]
    with conn.cursor() as cursor:
        cursor.execute("SELECT app, name FROM django_migrations ORDER BY app, name")
        schema: dict[str, str] = {}
        for app, name in cursor.fetchall():
            schema[app] = max(name, schema.get(app, ""))
    heads = (
        StoredEvent.objects.using(using)
        .values("stream_id")
        .annotate(head=Max("version"))
        .order_by("stream_id")
        .values_list("stream_id", "head")
    )
    head_list = list(heads)
    hashes = dict(
        ((sid, version), digest)
        for sid, version, digest in _heads_hashes(using, head_list)
    )  # fmt: skip
    digest = hashlib.sha256()
    for sid, version in head_list:
        digest.update(f"{sid}\t{version}\t{hashes[(sid, version)]}\n".encode())
    return {
        "format": MANIFEST_FORMAT,
        "version": 1,
        "schema": schema,
        "events": StoredEvent.objects.using(using).count(),
        "streams": len(head_list),
        "heads_sha256": digest.hexdigest(),
        "checkpoints": Checkpoint.objects.using(using).count(),
        "snapshots": Snapshot.objects.using(using).count(),
        "key_ids": key_ids_needed(using=using),
    }


def _heads_hashes(using: str, heads: list[tuple[str, int]]) -> Iterator[tuple[str, int, str]]:
    """(stream id, version, hash) of each head, in one query (a join on the heads)."""
    with connections[using].cursor() as cursor:
        cursor.execute(
            "SELECT e.stream_id, e.version, e.hash FROM eventstore_event AS e JOIN"
            " (SELECT stream_id, max(version) AS v FROM eventstore_event GROUP BY stream_id)"
            " AS h ON e.stream_id = h.stream_id AND e.version = h.v"
        )
        yield from cursor.fetchall()


def key_ids_needed(*, using: str = "default") -> list[str]:
    """The ids of the chain keys that made the stored seals, checkpoints and snapshots (the
    seals without an id: the key recorded as theirs, or else the install's first)."""
    ids: set[str | None] = set()
    for model in (StoredEvent, Checkpoint, Snapshot):
        rows = model.objects.using(using)  # type: ignore[attr-defined]
        if model is not Checkpoint:
            rows = rows.filter(seal__isnull=False)
        ids |= set(rows.values_list("key_id", flat=True).distinct())
    if None in ids:
        ids.discard(None)
        unlabelled = (
            ChainKeyRecord.objects.using(using)
            .filter(unlabelled=True)
            .values_list("key_id", flat=True)
            .first()
        )
        ids.add(unlabelled or keyring()[0].key_id)
    return sorted(i for i in ids if i is not None)


def manifest_differences(kept: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """What a restored database holds otherwise than the manifest kept with its dump."""
    out = []
    for name in ("schema", "events", "streams", "heads_sha256", "checkpoints", "key_ids"):
        if kept.get(name) != now.get(name):
            out.append(
                f"{name}: the manifest has {kept.get(name)!r}, the database {now.get(name)!r}"
            )
    return out


# --- backup --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Backup:
    dump: Path
    manifest: Path
    seconds: float


def backup_write(*, output_dir: Path, progress: Progress, using: str = "default") -> Backup:
    """pg_dump -Fc of the database into `output_dir`, with its manifest beside it."""
    conn = connections[using]
    if conn.vendor != "postgresql":
        raise BackupError(
            f"backup needs PostgreSQL (pg_dump); this database is {conn.vendor}. For a SQLite"
            " file: stop the app and copy the file, or use `sqlite3 db.sqlite3 .backup`."
        )
    _tool("pg_dump")
    started = dt.datetime.now(dt.UTC)
    output_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{PREFIX}{started.strftime('%Y%m%dT%H%M%SZ')}"
    dump, manifest_path = output_dir / f"{stem}.dump", output_dir / f"{stem}.manifest.json"
    if dump.exists() or manifest_path.exists():
        raise BackupError(f"{dump} already exists: one backup a second at most.")
    partial = output_dir / f".{stem}.dump.partial"
    with transaction.atomic(using=using), conn.cursor() as cursor:
        # The manifest's reads and pg_dump share this transaction's snapshot.
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        cursor.execute("SELECT pg_export_snapshot()")
        (snapshot,) = cursor.fetchone()
        progress("reading the manifest (events, stream heads, key ids)")
        manifest = manifest_read(using=using)
        progress(f"{manifest['events']} events in {manifest['streams']} streams; dumping")
        command = ["pg_dump", "-Fc", f"--snapshot={snapshot}", f"--file={partial}"]
        _run_watched(command + _pg_args(conn.settings_dict), _pg_env(conn.settings_dict),
                     lambda: _size_text(partial), progress)  # fmt: skip
    progress("computing the dump's sha256")
    manifest |= {
        "created_at": started.isoformat().replace("+00:00", "Z"),
        "dump": dump.name,
        "dump_bytes": partial.stat().st_size,
        "dump_sha256": file_sha256(partial),
    }
    manifest_path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    os.replace(partial, dump)
    seconds = (dt.datetime.now(dt.UTC) - started).total_seconds()
    return Backup(dump, manifest_path, seconds)


def backups_prune(*, output_dir: Path, keep: int) -> list[Path]:
    """Delete all but the `keep` newest backups (dump and manifest) in `output_dir`."""
    dumps = sorted(output_dir.glob(f"{PREFIX}*.dump"), key=lambda p: p.name, reverse=True)
    removed = []
    for dump in dumps[keep:]:
        for path in (dump, manifest_path_of(dump)):
            if path.exists():
                path.unlink()
                removed.append(path)
    return removed


def manifest_path_of(dump: Path) -> Path:
    return dump.with_name(dump.name.removesuffix(".dump") + ".manifest.json")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- restore -------------------------------------------------------------------------------


def restore_into(*, dump: Path, settings_dict: dict[str, Any], progress: Progress) -> None:
    """pg_restore `dump` into the (empty) database of `settings_dict`."""
    _tool("pg_restore")
    listing = subprocess.run(["pg_restore", "-l", str(dump)], capture_output=True, text=True)
    if listing.returncode != 0:
        raise BackupError(f"{dump} is not a pg_dump -Fc archive: {listing.stderr.strip()}")
    items = sum(1 for line in listing.stdout.splitlines() if line and not line.startswith(";"))
    done = 0

    def restored() -> str:
        return f"{done} of {items} items"

    command = ["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", "--verbose"]
    command += [*_pg_args(settings_dict, flag="--dbname"), str(dump)]
    env = _pg_env(settings_dict)

    def count(line: str) -> None:
        nonlocal done
        if "creating " in line or "processing " in line:
            done = min(items, done + 1)

    _run_watched(command, env, restored, progress, on_stderr=count)


def database_is_empty(settings_dict: dict[str, Any], alias: str) -> bool:
    with connections[alias].cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace"
            " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')"
            " AND n.nspname NOT LIKE 'pg_toast%%' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')"
        )
        (count,) = cursor.fetchone()
    return count == 0


@contextmanager
def database_alias(settings_dict: dict[str, Any], alias: str) -> Iterator[str]:
    """Another database, reachable as `alias` for the time of the block."""
    connections.databases[alias] = settings_dict
    try:
        yield alias
    finally:
        connections[alias].close()
        del connections[alias]
        del connections.databases[alias]


# --- running pg tools ----------------------------------------------------------------------


def _tool(name: str) -> None:
    if shutil.which(name) is None:
        raise BackupError(
            f"{name} is not installed: install PostgreSQL's client tools (package"
            " postgresql-client), of the server's major version or newer."
        )


def _pg_args(settings_dict: dict[str, Any], flag: str = "--dbname") -> list[str]:
    args = [f"{flag}={settings_dict['NAME']}"]
    if settings_dict.get("HOST"):
        args.append(f"--host={settings_dict['HOST']}")
    if settings_dict.get("PORT"):
        args.append(f"--port={settings_dict['PORT']}")
    if settings_dict.get("USER"):
        args.append(f"--username={settings_dict['USER']}")
    return args


def _pg_env(settings_dict: dict[str, Any]) -> dict[str, str]:
    env = {**os.environ}
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings_dict["PASSWORD"])
    return env


def _run_watched(
    command: list[str],
    env: dict[str, str],
    status: Callable[[], str],
    progress: Progress,
    on_stderr: Callable[[str], None] | None = None,
) -> None:
    """Run a pg tool, saying `status()` every few seconds until it ends; raise with its
    error output if it fails."""
    errors: list[str] = []
    with subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True) as proc:
        reader = threading.Thread(target=_read_lines, args=(proc.stderr, errors, on_stderr))
        reader.start()
        while True:
            try:
                proc.wait(timeout=5)
                break
            except subprocess.TimeoutExpired:
                progress(f"  ... {status()}")
        reader.join()
    progress(f"  {command[0]} done")
    if proc.returncode != 0:
        tail = "\n".join(line for line in errors if "error" in line.lower())[-2000:]
        raise BackupError(f"{command[0]} failed (exit {proc.returncode}): {tail or errors[-5:]}")


def _read_lines(
    stream: IO[str] | None, into: list[str], on_line: Callable[[str], None] | None
) -> None:
    if stream is None:
        return
    for line in stream:
        into.append(line.rstrip())
        if on_line is not None:
            on_line(line)


def _size_text(path: Path) -> str:
    size = path.stat().st_size if path.exists() else 0
    return f"{size / 1e6:.1f} MB written"
