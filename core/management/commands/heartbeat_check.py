"""`manage.py heartbeat_check beat` (or `worker`): exit 0 if that process's newest
heartbeat (core.heartbeats) is younger than its /readyz threshold, else 1, saying why. The
beat container's healthcheck (docker-compose.yml) and a cron or monitoring probe."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.heartbeats import BEAT, WORKER_PREFIX, heartbeat_age


class Command(BaseCommand):
    help = "Exit 1 unless beat's (or a worker's) heartbeat is recent."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("process", choices=["beat", "worker"])
        parser.add_argument(
            "--max-age", type=float, default=None,
            help="Seconds (default: READYZ_BEAT_SILENT_SECONDS / READYZ_WORKER_SILENT_SECONDS).",
        )  # fmt: skip

    def handle(self, *args: Any, process: str, max_age: float | None, **options: Any) -> None:
        if process == "beat":
            prefix, limit = BEAT, settings.READYZ_BEAT_SILENT_SECONDS
        else:
            prefix, limit = WORKER_PREFIX, settings.READYZ_WORKER_SILENT_SECONDS
        limit = max_age if max_age is not None else limit
        age = heartbeat_age(prefix)
        if age is None:
            raise CommandError(f"{process}: no heartbeat yet")
        if age.total_seconds() > limit:
            raise CommandError(f"{process}: silent for {int(age.total_seconds())}s (> {limit:g}s)")
        self.stdout.write(f"{process}: alive ({int(age.total_seconds())}s ago)")
