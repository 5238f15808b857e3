"""Where reads go (core/replicas.py), without a standby: the settings, the router's rule, a
writer's read-after position, and a replica that is down skipped, never an error. The
standby itself: test_replicas_standby.py."""

from __future__ import annotations

import importlib
import socket
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test import override_settings
from rest_framework.test import APIClient

from core import replicas
from core.metrics import replica_skipped
from players.models import Player


def settings_with(monkeypatch: pytest.MonkeyPatch, **env: str) -> Any:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for name in ("config.settings.test", "config.settings.base"):
        sys.modules.pop(name, None)
    try:
        return importlib.import_module("config.settings.test")
    finally:
        for name in ("config.settings.test", "config.settings.base"):
            sys.modules.pop(name, None)


def test_without_replica_urls_nothing_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_REPLICA_URL", raising=False)
    monkeypatch.delenv("DATABASE_POOLER", raising=False)
    plain = settings_with(monkeypatch)
    assert list(plain.DATABASES) == ["default"]
    assert plain.DATABASE_ROUTERS == []
    assert "core.replicas.ReplicaReadsMiddleware" not in plain.MIDDLEWARE
    assert plain.DB_PREPARED_STATEMENTS is True


def test_replica_urls_add_replicas_the_router_and_the_middleware(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    configured = settings_with(
        monkeypatch,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/hg",
        DATABASE_REPLICA_URL="postgres://postgres@10.0.0.2:5432/hg,postgres://u@10.0.0.3/hg",
    )
    assert list(configured.DATABASES) == ["default", "replica1", "replica2"]
    assert configured.DATABASES["replica2"]["HOST"] == "10.0.0.3"
    assert configured.DATABASES["replica1"]["OPTIONS"]["connect_timeout"] == 2
    assert configured.DATABASE_ROUTERS == ["core.replicas.ReplicaRouter"]
    # Outside the session middleware: a session saved at the end is before the position.
    middleware = configured.MIDDLEWARE
    assert middleware.index("core.replicas.ReplicaReadsMiddleware") < middleware.index(
        "django.contrib.sessions.middleware.SessionMiddleware"
    )


def test_pgbouncer_turns_off_what_needs_a_session(monkeypatch: pytest.MonkeyPatch) -> None:
    pooled = settings_with(
        monkeypatch,
        DATABASE_URL="postgres://postgres@127.0.0.1:6432/hg",
        DATABASE_POOLER="pgbouncer",
    )
    assert pooled.DB_PREPARED_STATEMENTS is False
    assert pooled.DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] is True
    with pytest.raises(ValueError, match="DATABASE_POOLER"):
        settings_with(monkeypatch, DATABASE_POOLER="pgpool")


def test_wal_positions_are_read_as_postgresql_prints_them() -> None:
    assert replicas.lsn_parse("0/16B3748") == 0x16B3748
    assert replicas.lsn_parse("16/B374D848") == (0x16 << 32) + 0xB374D848
    assert replicas.lsn_parse("1/0") > replicas.lsn_parse("0/FFFFFFFF")  # type: ignore[operator]
    for junk in (None, "", "16", "x/1", "1/2/3", "0/123456789"):
        assert replicas.lsn_parse(junk) is None


@pytest.mark.django_db(transaction=True)
def test_the_router_reads_from_the_request_replica_only_outside_a_transaction() -> None:
    router = replicas.ReplicaRouter()
    assert router.db_for_read(Player) == "default"  # no request chose one: the primary
    token = replicas.read_alias_var.set("replica1")
    try:
        assert router.db_for_read(Player) == "replica1"
        assert router.db_for_write(Player) == "default"
        with transaction.atomic():
            assert router.db_for_read(Player) == "default"  # a read inside a write
        assert router.db_for_read(Player) == "replica1"
    finally:
        replicas.read_alias_var.reset(token)
    assert router.allow_migrate("default", "games") and not router.allow_migrate("replica1", "x")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")  # set up before the test's database access is checked
def dead_replica() -> Iterator[None]:
    """`replica1`: a PostgreSQL address nothing listens on, as a standby that is down."""
    connections.settings["replica1"] = {
        **connection.settings_dict,
        "HOST": "127.0.0.1",
        "PORT": str(_closed_port()),
        "TEST": {"MIRROR": "default"},
        "OPTIONS": {"connect_timeout": 2},
    }
    middleware = ["core.requestid.RequestIdMiddleware", "core.replicas.ReplicaReadsMiddleware"]
    replicas._states.clear()
    try:
        from django.conf import settings

        with override_settings(
            MIDDLEWARE=middleware + settings.MIDDLEWARE[1:],
            DATABASE_ROUTERS=["core.replicas.ReplicaRouter"],
        ):
            yield
    finally:
        connections["replica1"].close()
        del connections["replica1"]
        del connections.settings["replica1"]
        replicas._states.clear()


@pytest.mark.django_db(transaction=True, databases=["default", "replica1"])
def test_a_replica_that_is_down_is_skipped_and_a_writer_gets_its_position(
    dead_replica: None, organiser: Any, caplog: pytest.LogCaptureFixture
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("replicas and WAL positions are PostgreSQL's")
    client = APIClient()
    client.force_authenticate(organiser)
    down = replica_skipped.labels("replica1", "down")
    before = down._value.get()
    created = client.post(
        "/api/tournaments/",
        {"name": "Down Swiss", "format": "swiss", "rounds": 1},
        format="json",
    )
    assert created.status_code == 201, created.json()
    position = created[replicas.HEADER]
    assert replicas.lsn_parse(position) is not None
    assert client.cookies[replicas.COOKIE].value == position
    for _ in range(2):
        read = client.get(f"/api/tournaments/{created.json()['id']}/")
        assert read.status_code == 200 and replicas.HEADER not in read
    assert down._value.get() > before
    # Said once when it goes down, not on every request.
    assert [r.getMessage() for r in caplog.records if r.name == "hg.replicas"] == [
        "replica replica1 skipped: down (lag 0.0 s)"
    ]


@pytest.mark.django_db(transaction=True, databases=["default", "replica1"])
def test_under_asgi_a_write_gets_its_position_and_reads_answer(
    dead_replica: None,
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("replicas and WAL positions are PostgreSQL's")
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    client = AsyncClient()
    refused = async_to_sync(client.post)("/api/tournaments/", {}, content_type="application/json")
    assert refused.status_code == 401
    assert replicas.lsn_parse(refused[replicas.HEADER]) is not None
    read = async_to_sync(client.get)("/api/tournaments/")
    assert read.status_code == 200 and replicas.HEADER not in read
