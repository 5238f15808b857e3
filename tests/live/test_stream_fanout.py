"""Issue 41: the pump of a stream writes each batch to every follower's connection itself
(no task woken per follower and message); a follower whose client does not read is given
a bounded buffer, then dropped with the retry hint, never slowing the others."""

from __future__ import annotations

import socket
import threading
import time

import pytest

import eventstore
from core import live, live_fanout
from tests.helpers import wait_until
from tests.live.helpers import Follower
from tests.reliability.helpers import make_organiser
from tests.tournaments.helpers import make_bots
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)

CHUNK = 100_000


def _hub(tournament) -> live_fanout.Hub:
    return live_fanout._hubs[(eventstore.NOTIFY_CHANNEL, tournament.stream_id)]


def _joined(tournament) -> list[live_fanout.Member]:
    hubs = live_fanout._hubs
    hub = hubs.get((eventstore.NOTIFY_CHANNEL, tournament.stream_id))
    return [m for m in list(hub.members) if m.version is not None] if hub else []


def _tournament():
    organiser = make_organiser("fanorg")
    tournament = services.tournament_create(
        name="Fan", format="swiss", rounds=3, created_by=organiser, is_public=True
    )
    return organiser, tournament


def _raw(url: str, path: str, *, rcvbuf: int | None = None) -> socket.socket:
    """A follower's connection, its response's head read (and no more)."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect((host, int(port)))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert b" 200 " in head.split(b"\r\n", 1)[0], head
    return sock


def test_the_pump_writes_each_batch_to_the_followers_itself(server) -> None:
    organiser, tournament = _tournament()
    url = f"{server}/api/tournaments/{tournament.pk}/stream/"
    followers = [Follower(url, headers={"Last-Event-ID": str(tournament.version)})]
    followers += [Follower(url, headers={"Last-Event-ID": str(tournament.version)})]
    wait_until("two followers joined", lambda: len(_joined(tournament)) == 2)
    for bot in make_bots(3):
        services.tournament_register(tournament_id=tournament.pk, player=bot, by=organiser)
    for follower in followers:
        assert [m.id for m in follower.take(3)] == [2, 3, 4]
    # Each joined follower was written to by the pump (its task was not woken for it).
    assert all(member.written >= 1 for member in _joined(tournament))
    for follower in followers:
        follower.close()


def test_a_follower_that_does_not_read_is_dropped_with_the_retry_hint(server, settings) -> None:
    settings.LIVE_FOLLOWER_BUFFER_BYTES = 4 * CHUNK
    settings.LIVE_DROP_GRACE_SECONDS = 60
    settings.LIVE_KEEPALIVE_SECONDS = 60
    _, tournament = _tournament()
    path = f"/api/tournaments/{tournament.pk}/stream/?after={tournament.version}"
    slow = _raw(server, path, rcvbuf=4096)
    wait_until("the slow follower joined", lambda: len(_joined(tournament)) == 1)
    (stuck,) = _joined(tournament)
    fast = _raw(server, path)
    wait_until("two followers joined", lambda: len(_joined(tournament)) == 2)
    (reading,) = [m for m in _joined(tournament) if m is not stuck]
    got = bytearray()

    def read() -> None:
        while data := fast.recv(1 << 20):
            got.extend(data)

    reader = threading.Thread(target=read)
    reader.start()
    hub = _hub(tournament)
    loop = live.waker(eventstore.NOTIFY_CHANNEL).followed_in
    assert loop is not None
    chunk = b": " + b"x" * (CHUNK - 4) + b"\n\n"
    sent = 0
    while stuck in hub.members and sent < 400:  # the slow one's buffer fills, and it is gone
        batches = [(member, chunk, member.version or 0) for member in (stuck, reading)]
        loop.call_soon_threadsafe(hub.deliver, batches)
        sent += 1
        time.sleep(0.01)
    assert stuck not in hub.members, "a follower that does not read was never dropped"
    assert reading in hub.members  # the one that reads was not slowed down, nor dropped
    wait_until("every chunk read", lambda: got.count(b"x\n\n") >= sent)
    assert reading.written > 0  # written by the pump itself (unless its client lagged)

    # The slow client reads at last: what it was written, then the hint, and the end.
    slow.settimeout(60)
    tail = bytearray()
    while data := slow.recv(1 << 20):
        tail.extend(data)
    assert tail.endswith(live_fanout.BEHIND + b"\r\n0\r\n\r\n"), bytes(tail[-200:])
    assert tail.count(b"x\n\n") < sent
    slow.close()
    fast.close()
    reader.join(10)


def test_a_parked_follower_whose_client_left_is_gone_within_seconds(server) -> None:
    """Followers the pump writes to (their tasks parked), their clients gone: each ends,
    whether or not a batch comes for it first."""
    organiser, tournament = _tournament()
    path = f"/api/tournaments/{tournament.pk}/stream/?after={tournament.version}"
    socks = [_raw(server, path) for _ in range(20)]
    wait_until("20 followers joined", lambda: len(_joined(tournament)) == 20)
    for sock in socks[:10]:
        sock.close()
    services.tournament_register(tournament_id=tournament.pk, player=make_bots(1)[0], by=organiser)
    for sock in socks[10:]:
        sock.close()
    wait_until("every follower gone", lambda: live_fanout.followers() == 0, within=30)
