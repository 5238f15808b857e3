"""Helpers of the reliability tests: the roles of the access matrix, a tournament with one
match in play, a real Celery worker to kill."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from players.selectors import ORGANISERS_GROUP
from players.services import player_create
from tests.helpers import celery_sends_to, token_client, worker_database_url
from tournaments import services
from tournaments.models import Pairing

ROOT = Path(__file__).resolve().parents[2]
FAST_RULES = {"game_target": 25, "end_when_decided": True}


def make_organiser(username: str) -> Any:
    player = player_create(name=username.title(), username=username, password="secret-pass-1")
    player.user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    return player.user


def tournament_with_a_match(*, organiser: Any, players: list, is_public: bool) -> tuple[Any, str]:
    """A tournament of `players` (two), started: (tournament, its round-1 match id)."""
    tournament = services.tournament_create(
        name="Private" if not is_public else "Open", format="swiss", rounds=1,
        created_by=organiser, ruleset=FAST_RULES, is_public=is_public,
    )  # fmt: skip
    for player in players:
        services.tournament_register(tournament_id=tournament.pk, player=player, by=organiser)
        services.tournament_check_in(tournament_id=tournament.pk, player=player, by=organiser)
    services.tournament_start(tournament_id=tournament.pk, by=organiser)
    pairing = Pairing.objects.filter(round__tournament=tournament, match__isnull=False).first()
    return tournament, str(pairing.match_id)


def role_clients(*, player: Any, organiser: Any) -> dict[str, APIClient]:
    """anonymous, a player of the match, a stranger, the tournament's organiser, another
    organiser, staff."""
    stranger = player_create(name="Stranger", username="stranger", password="secret-pass-1")
    staff = get_user_model().objects.create_user(username="staff", password="x", is_staff=True)
    return {
        "anonymous": APIClient(),
        "player": token_client(player.user),
        "stranger": token_client(stranger.user),
        "organiser": token_client(organiser),
        "other_organiser": token_client(make_organiser("otherorg")),
        "staff": token_client(staff),
    }


# --- every endpoint of the API -------------------------------------------------------------


def api_routes() -> list[str]:
    """Every URL pattern under /api/ and /api-auth/, as the resolver holds them."""

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern)

    return [r for r in walk(get_resolver().url_patterns) if r.startswith("api")]


def fill(route: str, ids: dict) -> str:
    path = "/" + route
    for name, value in ids.items():
        for converter in ("str", "int", "uuid"):
            path = path.replace(f"<{converter}:{name}>", str(value))
    assert "<" not in path, path
    return path + ("?version=1" if route.endswith("/replay/") else "")


# --- a real Celery worker on Redis, started, killed and restarted --------------------------


database_url = worker_database_url
app_sends_to = celery_sends_to


def wait_for(what: str, check: Callable[[], Any], timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


class Worker:
    """`celery worker` (prefork, one process in the pool) on `url`, consuming `queue`, in a
    process group of its own, so that a SIGKILL takes the main process and the pool."""

    def __init__(self, *, url: str, queue: str, log_dir: Path) -> None:
        self.url, self.queue, self.log_dir = url, queue, log_dir
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self, *, kill_on: str = "", visibility_timeout: int = 5) -> None:
        self.starts += 1
        self.log = self.log_dir / f"worker-{self.starts}.log"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": self.url,
            "CELERY_RESULT_BACKEND": self.url,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "HG_TEST_QUEUE": self.queue,
            "HG_KILL_ON": kill_on,
            "HG_VISIBILITY_TIMEOUT": str(visibility_timeout),
        }
        node = f"{self.queue}-{self.starts}@localhost"
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "tests.reliability.worker_app", "worker",
                 "--pool=prefork", "--concurrency=1", "-n", node, "-Q", self.queue, "-l", "INFO",
                 "--without-gossip", "--without-mingle", "--without-heartbeat"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        wait_for(f"worker {node} to be ready (log: {self.log})", self._ready, timeout=60)

    def _ready(self) -> bool:
        assert self.proc is not None and self.proc.poll() is None, self.log.read_text()[-3000:]
        return " ready." in self.log.read_text()

    def wait_killed(self, timeout: float = 60.0) -> None:
        """Until the worker has killed itself (it was sent the job it dies on)."""
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the worker was not killed (log: {self.log})") from None
        assert code == -signal.SIGKILL, (code, self.log.read_text()[-3000:])
        assert "KILLED on receipt" in self.log.read_text()
        # Every process of the group is gone (no pool process carries on the job).
        wait_for("the worker's pool to be gone", lambda: not _group_alive(self.proc.pid), 10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@dataclass
class Served:
    """A server process started by `asgi_process`: its port, and its output once it ended."""

    process: subprocess.Popen
    port: int
    output: str = ""


@contextmanager
def asgi_process(*, cache: str, graceful: int, **env: str) -> Iterator[Served]:
    """`uvicorn config.asgi:application` as served (a process of its own, lifespan on) on the
    test database and a free port, once it listens. Its output goes to a file (a pipe nobody
    reads until the end fills, some 500 request lines, and then blocks the server's loop on
    its next log line), read into `output` when the block ends; a server still running then
    is killed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": worker_database_url(),
        "CELERY_BROKER_URL": "",
        "CACHE_URL": f"locmemcache://{cache}",
        **env,
    }
    with tempfile.TemporaryFile(mode="w+") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--log-level", "info", "--no-access-log",
             "--timeout-graceful-shutdown", str(graceful)],
            cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        served = Served(process=process, port=port)
        try:

            def listening() -> bool:
                with socket.socket() as s:
                    return s.connect_ex(("127.0.0.1", port)) == 0

            wait_for("uvicorn to listen", listening, 120)
            yield served
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            log.seek(0)
            served.output = log.read()
