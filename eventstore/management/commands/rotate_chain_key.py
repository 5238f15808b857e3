"""Make a new chain key, the newest of the keyring (eventstore.seals): it signs from the
restart on, and the old keys stay to verify what they signed. History is not touched.

    python manage.py rotate_chain_key --keys-file /etc/hollywood-gin/chain-keys [--id 2027]
    python manage.py rotate_chain_key --id 2027      # prints the new id:secret line only

With `--keys-file`: the file gets the keys this install has now (when it does not exist
yet), then the new one, as `id:secret` lines, readable by its owner only; the secret is not
printed. Then: point EVENT_CHAIN_KEYS_FILE at it (unset EVENT_CHAIN_KEY and
EVENT_CHAIN_KEYS), restart web, workers and beat, run `manage.py migrate` (records the new
key's check value) and copy the file to where the keys are kept (docs/operators/
backup-restore.md, Key rotation). Without it, the new `id:secret` line is printed on
stdout, to be added last to EVENT_CHAIN_KEYS.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import secrets
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from eventstore.models import ChainKeyRecord
from eventstore.seals import KEY_ID_PATTERN, keyring, secret_text


class Command(BaseCommand):
    help = "Make a new chain key (the newest signs; the old ones keep verifying)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--keys-file", help="the keyring file to write (id:secret lines)")
        parser.add_argument("--id", help="the new key's id (default: today's UTC date)")

    def handle(self, *args: Any, **options: Any) -> None:
        key_id = options["id"] or dt.datetime.now(dt.UTC).strftime("%Y%m%d")
        if not KEY_ID_PATTERN.fullmatch(key_id):
            raise CommandError(f"{key_id!r} is not 1 to 40 letters, digits, '.', '_' or '-'.")
        path = Path(options["keys_file"]) if options["keys_file"] else None
        try:
            lines = self._current(path)
        except (OSError, ImproperlyConfigured) as exc:
            raise CommandError(f"Cannot read the current keys: {exc}") from exc
        taken = {line.partition(":")[0] for line in lines}
        # Not migrated yet (an upgrade's first step): none recorded.
        with contextlib.suppress(DatabaseError):
            taken |= set(ChainKeyRecord.objects.values_list("key_id", flat=True))
        if key_id in taken:
            raise CommandError(f"The key id {key_id} is already used: choose another (--id).")
        new_line = f"{key_id}:{secrets.token_urlsafe(48)}"
        if path is None:
            self.stdout.write(new_line)
            self.stderr.write(
                f"Add it last to EVENT_CHAIN_KEYS ({','.join(sorted(taken)) or 'the current'}"
                " keys first, in their order), restart web, workers and beat, then run"
                " manage.py migrate. Keep it where the keys are kept, never with the database."
            )
            return
        self._write(path, [*lines, new_line])
        self.stdout.write(
            f"Wrote {path}: keys {', '.join(line.partition(':')[0] for line in lines)} and,"
            f" newest, {key_id}.\nNext: set EVENT_CHAIN_KEYS_FILE={path} (and unset"
            " EVENT_CHAIN_KEY, EVENT_CHAIN_KEY_FILE, EVENT_CHAIN_KEYS), restart web, workers"
            " and beat, run manage.py migrate, then copy the file to where the keys are kept."
        )

    def _current(self, path: Path | None) -> list[str]:
        """The keyring as id:secret lines: the file's, or this install's."""
        if path is not None and path.exists():
            text = path.read_text(encoding="utf-8")
            return [ln.strip() for ln in text.splitlines() if ln.strip() and ln[0] != "#"]
        return [f"{k.key_id}:{secret_text(k)}" for k in keyring()]

    def _write(self, path: Path, lines: list[str]) -> None:
        if any(k.key_id.startswith("derived-") for k in keyring()) and not path.exists():
            self.stderr.write(
                "Note: this install's key is derived from SECRET_KEY; it is written to the"
                " file (hex:) as it is, so that what it sealed keeps verifying without it."
            )
        partial = path.with_name(path.name + ".partial")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write("# chain keys, oldest first; the last one signs (id:secret)\n")
            out.write("\n".join(lines) + "\n")
        os.replace(partial, path)
