"""Issue 35: the production stack, for real. Production settings on PostgreSQL and Redis,
gunicorn (two workers, deploy/gunicorn.conf.py) and uvicorn (the streams), a Celery worker
and Celery beat, as docker-compose.yml runs them. A tournament match is played through the
API (the worker records its result); then /readyz answers 200, the metrics moved (summed
over gunicorn's workers), a JSON log line carries the request id sent, a stream follower is
counted; with beat stopped, /readyz answers 503 naming beat within its threshold."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
from pathlib import Path

import httpx
import pytest
import redis
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection
from prometheus_client.parser import text_string_to_metric_families

from tests.games.apis.helpers import choose
from tests.helpers import (
    Background,
    celery_sends_to,
    free_port,
    redis_url,
    wait_until,
    worker_database_url,
)
from tests.reliability.helpers import make_organiser, tournament_with_a_match
from tournaments.models import Pairing

pytestmark = [
    pytest.mark.slow,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.CELERY_BROKER_URL, reason="needs Redis (CELERY_BROKER_URL)"),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL"),
]

BIN = Path(sys.executable).parent
BEAT_SILENT = 6  # seconds: /readyz's threshold for beat here (production: 90)
PROXY = {"X-Forwarded-Proto": "https"}  # as the TLS proxy in front says


@pytest.fixture
def stack(tmp_path, settings):
    """Every service of docker-compose.yml but the proxy, on free ports."""
    broker, cache = (
        redis_url(settings.CELERY_BROKER_URL, 13),
        redis_url(settings.CELERY_BROKER_URL, 14),
    )
    for url in (broker, cache):
        redis.Redis.from_url(url).flushdb()  # databases of this test's own
    web, live, worker_metrics = free_port(), free_port(), free_port()
    # One event key for the stack and this process (which creates the tournament's match):
    # else the stack would see this process's snapshot seals as tampered with.
    settings.EVENT_CHAIN_KEY = "smoke-test-chain-key"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": worker_database_url(),
        "CELERY_BROKER_URL": broker,
        "CELERY_RESULT_BACKEND": "",
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CACHE_URL": cache.replace("redis://", "rediscache://"),
        "LOG_FORMAT": "json",
        "HEARTBEAT_SECONDS": "1",
        "READYZ_BEAT_SILENT_SECONDS": str(BEAT_SILENT),
        "READYZ_WORKER_SILENT_SECONDS": "30",
        "EVENT_CHAIN_KEY": settings.EVENT_CHAIN_KEY,
    }
    metrics_dir = tmp_path / "metrics"
    processes = {
        "web": Background(
            "gunicorn", [str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py", "config.wsgi"],
            env={**env, "GUNICORN_BIND": f"127.0.0.1:{web}", "WEB_CONCURRENCY": "2",
                 "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)},
            log=tmp_path / "web.log",
        ),
        "live": Background(
            "uvicorn",
            [str(BIN / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(live), "--no-access-log", "--log-config",
             "deploy/uvicorn-logging.json"],
            env={**env, "CONN_MAX_AGE": "0"}, log=tmp_path / "live.log",
        ),
        "worker": Background(
            "worker",
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork",
             "--concurrency=1", "-n", "smoke@localhost", "--without-gossip",
             "--without-mingle", "--without-heartbeat", "-l", "INFO"],
            env={**env, "WORKER_METRICS_PORT": str(worker_metrics),
                 "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "worker-metrics")},
            log=tmp_path / "worker.log",
        ),
        "beat": Background(
            "beat",
            [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "INFO",
             "--schedule", str(tmp_path / "beat-schedule")],
            env=env, log=tmp_path / "beat.log",
        ),
    }  # fmt: skip
    try:
        urls = {"web": f"http://127.0.0.1:{web}", "live": f"http://127.0.0.1:{live}"}
        for name, url in urls.items():
            wait_until(f"{name} to answer", lambda u=url, n=name: _answers(u, processes[n]))
        urls["worker"] = f"http://127.0.0.1:{worker_metrics}"
        with celery_sends_to(broker, "celery"):  # this process's jobs to the stack's worker
            yield urls, processes
    finally:
        for process in processes.values():
            process.stop()


def _answers(url: str, process: Background) -> bool:
    process.check_alive()
    try:
        return httpx.get(f"{url}/livez", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def metric(base: str, name: str, **labels: str) -> float:
    text = httpx.get(f"{base}/metrics", timeout=30).text
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                total += sample.value
    return total


def json_lines(process: Background) -> list[dict]:
    out = []
    for line in process.output().splitlines():
        if line.startswith("{"):
            with contextlib.suppress(ValueError):  # a line cut short as the process stopped
                out.append(json.loads(line))
    return out


def login(base: str, user) -> dict[str, str]:
    """Sign in through the API. The test settings hash with MD5, which production does not
    know: the password is hashed here as production does (PBKDF2, few rounds: a test)."""
    user.password = PBKDF2PasswordHasher().encode("secret-pass-1", "smokesalt", iterations=1000)
    user.save(update_fields=["password"])
    answer = httpx.post(
        f"{base}/api/auth/token/", json={"username": user.username, "password": "secret-pass-1"},
        headers=PROXY, timeout=30,
    )  # fmt: skip
    assert answer.status_code == 200, answer.text
    return {**PROXY, "Authorization": f"Token {answer.json()['token']}"}


def play_to_the_end(base: str, match_id: str, players: dict[int, dict]) -> list[str]:
    """Both players' moves through the API until the match ends: the request ids sent."""
    url = f"{base}/api/matches/{match_id}/"
    sent = []
    with httpx.Client(timeout=30) as client:
        for n in range(2000):
            view = client.get(url, headers=next(iter(players.values()))).json()
            if view["status"] == "finished":
                return sent
            mover = client.get(url, headers=players[view["turn"]]).json()
            request_id = f"smoke-{n}-{secrets.token_hex(4)}"
            answer = client.post(
                f"{url}actions/", json={**choose(mover), "expected_version": mover["version"]},
                headers={**players[view["turn"]], "X-Request-ID": request_id},
            )  # fmt: skip
            assert answer.status_code == 201, answer.text
            assert answer.headers["X-Request-ID"] == request_id
            sent.append(request_id)
    raise AssertionError("the match did not end")


def test_the_production_stack_plays_a_match_and_says_when_beat_stops(stack, make_player):
    urls, processes = stack
    web, live = urls["web"], urls["live"]
    organiser = make_organiser("smokeorg")
    ann, ben = make_player("Ann"), make_player("Ben")
    _, match_id = tournament_with_a_match(organiser=organiser, players=[ann, ben], is_public=True)
    players = {p.pk: login(web, p.user) for p in (ann, ben)}
    actions_before = metric(web, "hg_http_requests_total", method="POST", status="201")

    # A follower of the match's stream on uvicorn, counted while it is connected.
    with httpx.stream(
        "GET", f"{live}/api/matches/{match_id}/stream/", headers=players[ann.pk], timeout=30
    ) as stream:
        assert stream.status_code == 200
        wait_until("the follower counted", lambda: metric(live, "hg_stream_followers") == 1)
        sent = play_to_the_end(web, match_id, players)

    # The worker recorded the result (the job queued by the last action's request).
    wait_until(
        "the worker to record the result",
        lambda: Pairing.objects.filter(match_id=match_id, status="finished").exists(),
    )
    # The worker's own metrics (its pool's processes added up): the result it appended.
    recorded = metric(urls["worker"], "hg_events_appended_total", type="ResultRecorded")
    assert recorded >= 1
    assert metric(urls["worker"], "hg_db_queries_total", view="task:tournaments.match_finished")
    ready = wait_until("/readyz to answer 200", lambda: _ready(web))
    assert ready["checks"]["worker"] == ready["checks"]["beat"] == "ok"
    # Counted by both gunicorn workers, added up: every action once.
    moved = metric(web, "hg_http_requests_total", method="POST", status="201") - actions_before
    assert moved == len(sent)
    assert metric(web, "hg_match_actions_total") >= len(sent)
    assert metric(web, "hg_events_appended_total") > len(sent)

    # The request id sent is on the app's JSON log line of that request, and on the
    # worker's lines of the job that request queued.
    logged = {line.get("request_id") for line in json_lines(processes["web"])}
    assert set(sent) <= logged
    request_line = next(
        line for line in json_lines(processes["web"])
        if line.get("logger") == "hg.request" and line.get("request_id") == sent[-1]
    )  # fmt: skip
    assert request_line["route"] == "api/matches/<str:match_id>/actions/"
    assert request_line["user_id"] and request_line["duration_ms"] > 0 and request_line["time"]
    assert sent[-1] in {line.get("request_id") for line in json_lines(processes["worker"])}

    # Nothing went wrong on the way.
    for name, process in processes.items():
        errors = [line for line in json_lines(process) if line["level"] in ("ERROR", "CRITICAL")]
        assert not errors, (name, errors[:3])
        assert not [line for line in json_lines(process) if "seal mismatch" in line["message"]]

    # Beat stopped: /readyz names it within its threshold (a condition waited for).
    processes["beat"].stop()
    failing = wait_until("/readyz to name beat", lambda: _failing(web), within=BEAT_SILENT * 10)
    assert failing["failed"] == ["beat"], failing


def _ready(base: str) -> dict | None:
    answer = httpx.get(f"{base}/readyz", timeout=30)
    return answer.json() if answer.status_code == 200 else None


def _failing(base: str) -> dict | None:
    answer = httpx.get(f"{base}/readyz", timeout=30)
    return answer.json() if answer.status_code == 503 else None
