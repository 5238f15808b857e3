"""Shared set-up of the players' pages' tests: two players with logins in an online match
on preset deals, short rules so a whole match is a few hands; the play page's hooks."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from games.services import match_create
from players.services import player_create

PASSWORD = "pw-play-123"
# One game to 25: a whole match is a few hands at most.
SHORT = {"game_target": 25, "games": 1}


def players(*names: str) -> list[Any]:
    return [player_create(name=n, username=n.lower(), password=PASSWORD) for n in names]


def online_match(
    p1: Any, p2: Any, *, by: Any = None, seed: str = "play-test", **kwargs: Any
) -> Any:
    """An online friendly on a seeded (preset) deal: player1 deals first."""
    return match_create(
        player1=p1, player2=p2, ruleset=kwargs.pop("ruleset", SHORT), seed=seed,
        first_dealer=p1, created_by=by, organisers=[by] if by else [], **kwargs,
    )  # fmt: skip


def embedded_view(html: str) -> str:
    """The JSON of the page's view (json_script "play-view")."""
    found = re.search(r'<script id="play-view" type="application/json">(.*?)</script>', html, re.S)
    assert found, "no play-view on the page"
    return found.group(1)


@contextmanager
def cuttable_proxy(target: str) -> Iterator[tuple[str, Any]]:
    """A TCP proxy in front of the test server whose every open connection can be cut at
    once (`cut()`): a lost connection as a phone on a train sees it. Yields (its base URL,
    cut)."""
    host, port = target.removeprefix("http://").split(":")
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    open_socks: list[socket.socket] = []
    lock = threading.Lock()
    stop = threading.Event()

    def pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while chunk := a.recv(65536):
                b.sendall(chunk)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def accept() -> None:
        while not stop.is_set():
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection((host, int(port)))
            with lock:
                open_socks.extend([client, upstream])
            threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()

    def cut() -> None:
        with lock:
            for s in open_socks:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass
            open_socks.clear()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}", cut
    finally:
        stop.set()
        listener.close()
        cut()


def team_event_with_captains(by: Any, *, boards: int = 2, **kwargs: Any) -> tuple[Any, list[Any]]:
    """A team Swiss in registration (issue 39): Lions and Owls, `boards` + 1 players each,
    each side's first player its captain with a login (username: the name in lower case,
    password PASSWORD), the others bots. Starts at 19:00 UTC on 2 March 2027, a round an
    hour, times shown in Tehran's zone unless told. Returns (its team event, captains)."""
    import datetime as dt

    from players.models import Player
    from tournaments.services import tournament_create
    from tournaments.teams.models import TeamEvent
    from tournaments.teams.services import team_register

    tournament = tournament_create(
        name=kwargs.pop("name", "Club league"), format="team_swiss", created_by=by,
        boards=boards, rounds=kwargs.pop("rounds", 2), ruleset=SHORT,
        starts_at=kwargs.pop("starts_at", dt.datetime(2027, 3, 2, 19, 0, tzinfo=dt.UTC)),
        round_interval=dt.timedelta(hours=1), time_zone=kwargs.pop("time_zone", "Asia/Tehran"),
    )  # fmt: skip
    event = TeamEvent.objects.get(tournament=tournament)
    captains = []
    for side in ("Lions", "Owls"):
        captain = player_create(name=f"{side} Cap", username=side.lower(), password=PASSWORD)
        others = [Player.objects.create(name=f"{side} {b}", is_bot=True) for b in range(boards)]
        roster = [captain.pk] + [p.pk for p in others]
        team_register(
            event_id=event.pk, name=side, roster=roster, captain=captain.pk, by=by,
            by_rating=False,
        )  # fmt: skip
        captains.append(captain)
    event.refresh_from_db()
    return event, captains
