"""Helpers shared by the tests of every app: API clients, waiting for a condition (never for
a fixed time: a busy machine stretches any), and what a real Celery worker subprocess
needs."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import kombu.pools
from django.db import connection
from jsonschema import Draft202012Validator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def token_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def password_login(player: Any, password: str = "secret-pass-1") -> dict:
    """`POST /api/auth/token/` as the player's own client would: the answer's JSON (the
    token, its id and expiry)."""
    answer = APIClient().post(
        "/api/auth/token/", {"username": player.user.username, "password": password}
    )
    assert answer.status_code == 200, answer.content
    return answer.json()


def key_client(key: str, scheme: str = "Token") -> APIClient:
    """A client sending `key` in the Authorization header (with `scheme`)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")
    return client


# --- waiting for a condition -----------------------------------------------------------------


def wait_until(what: str, check: Callable[[], object], *, within: float = 120.0) -> object:
    """`check()`'s first true value, tried every 20 ms; AssertionError naming `what` if
    none comes `within` seconds (generous: the bound of a wait, not a measure of speed)."""
    deadline = time.monotonic() + within
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {within:.0f}s waiting for {what}")
        time.sleep(0.02)


def backends_waiting_for_a_lock() -> int:
    """How many other sessions of this database are waiting for a lock right now
    (PostgreSQL; this connection's statistics snapshot cleared first, so a wait inside a
    transaction sees the present)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


# --- a real Celery worker on Redis: what its subprocess and this process need ------------


def redis_url(broker_url: str, db: int) -> str:
    """`broker_url` on Redis database `db` (each worker test has one of its own)."""
    parts = urlsplit(broker_url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", "", ""))


def worker_database_url() -> str:
    """The test database as a URL, for a worker subprocess (the test must commit:
    transaction=True)."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    return f"postgres://{auth}@{host}:{port}/{db['NAME']}"


def _celery_reset() -> None:
    """Forget cached broker and backend connections after the URLs changed."""
    from config.celery import app as celery_app

    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
    celery_app._pool = None
    # kombu's global producer pools still hold the closed connection pool: without this a
    # later eager job (Celery acquires a producer even then) fails "Acquire on closed pool".
    kombu.pools.reset()
    # The AMQP helper caches the queues and router built from the settings: start afresh.
    celery_app.__dict__.pop("amqp", None)
    celery_app._backend_cache = None
    if hasattr(celery_app._local, "backend"):
        del celery_app._local.backend


@contextmanager
def celery_sends_to(url: str, queue: str) -> Iterator[None]:
    """This process's jobs go to Redis at `url`, queue `queue` (not run eagerly)."""
    from config.celery import app as celery_app

    conf = celery_app.conf
    keys = ("broker_url", "result_backend", "task_always_eager", "task_default_queue")
    saved = {k: conf[k] for k in keys}
    # Celery reads CELERY_BROKER_URL from the environment before its own settings.
    saved_env = {k: os.environ.get(k) for k in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")}
    os.environ.update(CELERY_BROKER_URL=url, CELERY_RESULT_BACKEND=url)
    conf.update(
        broker_url=url, result_backend=url, task_always_eager=False, task_default_queue=queue
    )
    _celery_reset()
    try:
        yield
    finally:
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        conf.update(saved)
        _celery_reset()


# --- the served schema as a validator (answers and stream messages checked against it) ---


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0's `nullable` as JSON Schema's null type (for the validator)."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: _json_schema(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable"):
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
        elif "type" not in out:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def openapi_validator(schema: dict, component: str) -> Draft202012Validator:
    """A JSON Schema validator of the served OpenAPI `schema`'s `component`: what an answer
    or a stream message must look like."""
    components = _json_schema(schema["components"])
    return Draft202012Validator(
        {"$ref": f"#/components/schemas/{component}", "components": components}
    )


# --- servers and background processes started by a test ------------------------------------


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (for a server the test starts)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Background:
    """A process a test starts (gunicorn, uvicorn, a Celery worker or beat), in a process
    group of its own, its output in `log`; stopped with SIGTERM (then SIGKILL) by `stop`."""

    def __init__(self, name: str, command: list[str], *, env: dict[str, str], log) -> None:
        import subprocess

        self.name, self.log = name, log
        with open(log, "w") as out:
            self.proc = subprocess.Popen(  # noqa: S603
                command, cwd=_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def alive(self) -> bool:
        return self.proc.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def check_alive(self) -> None:
        assert self.alive(), f"{self.name} exited: {self.output()[-3000:]}"

    def stop(self) -> None:
        import signal
        import subprocess

        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


_ASSET = re.compile(
    r"""<(?:script|link|img|iframe|source)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']*)["']""", re.I
)
_ELSEWHERE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.I)


def assets_from_elsewhere(html: str) -> list[str]:
    """The scripts, stylesheets, images and frames a page loads from another host (a CDN):
    any asset address with a scheme or starting with //. Words in the page (a CSRF token
    holding the letters "cdn") are not assets."""
    return [url for url in _ASSET.findall(html) if _ELSEWHERE.match(url)]
