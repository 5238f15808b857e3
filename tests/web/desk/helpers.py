"""Shared set-up of the desk's tests: an organiser who is not staff, a tournament at tables
with checked-in players, and a started round."""

from __future__ import annotations

import os
import re
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from demo.bots import match_play_bots
from players.models import Player
from players.selectors import ORGANISERS_GROUP
from players.services import player_create
from tests.live.helpers import asgi_server
from tournaments import services
from tournaments.teams import services as teams_services
from tournaments.teams.models import TeamBoard, TeamEvent


def organiser(username: str = "td") -> Any:
    """A club director: in the organisers group, not staff."""
    user = get_user_model().objects.create_user(username=username, password="pw-desk-123")
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    user.groups.add(group)
    return user


def table_swiss(by: Any, *, players: int = 4, rounds: int = 2, **kwargs: Any) -> Any:
    tournament = services.tournament_create(
        name="Tuesday Swiss",
        format="swiss",
        created_by=by,
        rounds=rounds,
        play_mode="table",
        time_zone=kwargs.pop("time_zone", "Europe/Berlin"),
        **kwargs,
    )
    for i in range(players):
        player = player_create(name=f"Player {i + 1:02d}")
        services.tournament_register(tournament_id=tournament.pk, player=player, by=by)
        services.tournament_check_in(tournament_id=tournament.pk, player=player, by=by)
    return tournament


def started(by: Any, **kwargs: Any) -> Any:
    tournament = table_swiss(by, **kwargs)
    services.tournament_start(tournament_id=tournament.pk, by=by)
    tournament.refresh_from_db()
    return tournament


# A Hollywood match (three games to 100) decided in eight hands, as a paper sheet has it:
# knocker (1 or 2, 0 drawn), knocker's deadwood, defender's deadwood.
EIGHT_HANDS = [
    ("1", "0", "40"),  # gin: 25 + 40 = 65 to player 1 (game 1)
    ("1", "5", "30"),  # 25 (games 1, 2)
    ("2", "0", "33"),  # gin: 58 to player 2 (game 1)
    ("1", "2", "20"),  # 18 (games 1-3): player 1 wins game 1, 108-58
    ("0", "", ""),  # drawn
    ("2", "0", "45"),  # gin: 70 to player 2 (game 2)
    ("2", "3", "30"),  # 27 (games 2, 3)
    ("1", "0", "57"),  # gin: 82 (games 2, 3): player 1 wins both, the match 3-0
]


def version_of(page: str) -> str:
    """The hidden `version` field of a page's form."""
    match = re.search(r'name="version" value="(\d+)"', page)
    assert match, "no version field on the page"
    return match.group(1)


# -- the browser (Debian's chromium driven by Playwright; no browser download) -------------

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
# The manual's tutorial shows some of these (docs/organisers/first-club-evening.md): with
# HG_DOCS_SCREENSHOTS=1 they are written there too, to be committed (tests/docs checks that
# each image the tutorial shows is one a browser test takes).
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "organisers" / "img"


def shoot(page: Any, name: str, *, full_page: bool = True) -> Path:
    """A screenshot for a person to look at: tests/artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    if os.environ.get("HG_DOCS_SCREENSHOTS") and (DOCS_SCREENSHOTS / f"{name}.png").exists():
        page.screenshot(path=str(DOCS_SCREENSHOTS / f"{name}.png"), full_page=full_page)
    return path


def no_sideways_scroll(page: Any) -> bool:
    """Nothing wider than the window: wide tables scroll inside their own box."""
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    )


def player_with_login(name: str, username: str) -> Any:
    """A player who signs in on a phone (password pw-desk-123)."""
    return player_create(name=name, username=username, password="pw-desk-123")


def started_with_logins(by: Any, names: tuple[str, ...] = ("Anna", "Boris"), **kwargs: Any) -> Any:
    """A started table tournament whose players sign in (username: the name in lower case,
    password pw-desk-123)."""
    tournament = services.tournament_create(
        name=kwargs.pop("name", "Dispute Night"),
        format="swiss",
        created_by=by,
        rounds=kwargs.pop("rounds", 2),
        play_mode="table",
        time_zone="Europe/Berlin",
        **kwargs,
    )
    for name in names:
        player = player_with_login(name, name.lower())
        services.tournament_register(tournament_id=tournament.pk, player=player, by=by)
        services.tournament_check_in(tournament_id=tournament.pk, player=player, by=by)
    services.tournament_start(tournament_id=tournament.pk, by=by)
    tournament.refresh_from_db()
    return tournament


# -- the pages under uvicorn (ASGI), where the live streams are served --------------------


def asgi_server_with_static() -> AbstractContextManager[str]:
    """The app with its static files under uvicorn (tests/live/helpers.py): its base URL."""
    return asgi_server(static=True)


def two_phones_at_a_table() -> tuple[Any, Any, dict[str, Any], Any]:
    """A started table Swiss of Ann and Ben (logins "ann", "ben"), each signed in on a phone
    of their own: (tournament, their pairing, phones by name, the desk's client)."""
    from django.test import Client

    from tournaments.models import Pairing

    td = organiser()
    tournament = table_swiss(td, players=0)
    ann, ben = player_with_login("Ann", "ann"), player_with_login("Ben", "ben")
    for p in (ann, ben):
        services.tournament_register(tournament_id=tournament.pk, player=p, by=td)
        services.tournament_check_in(tournament_id=tournament.pk, player=p, by=td)
    services.tournament_start(tournament_id=tournament.pk, by=td)
    pairing = Pairing.objects.get(round__tournament=tournament)
    phones = {}
    for p in (ann, ben):
        phones[p.name] = Client()
        phones[p.name].force_login(p.user)
    desk = Client()
    desk.force_login(td)
    return tournament, pairing, phones, desk


def finish_tournament(tournament: Any, by: Any) -> Any:
    """Each match of the tournament's round in play forfeited to its first player (a ruling,
    through the services): for a one-round tournament, the tournament finishes."""
    from django.test import TestCase

    from games.services import match_rule
    from tournaments.models import Pairing, Tournament

    pairings = Pairing.objects.filter(round__tournament=tournament, match__status="in_progress")
    with TestCase.captureOnCommitCallbacks(execute=True):  # the results reach the tournament
        for pairing in pairings.select_related("player1"):
            match_rule(
                match_id=pairing.match_id, by=by, type="forfeit", reason="no-show",
                player=pairing.player1,
            )  # fmt: skip
    return Tournament.objects.get(pk=tournament.pk)


FAST = {"game_target": 10, "games": 1}


def team_tournament_in_play(by: Any, *, teams: int = 4, boards: int = 2) -> Any:
    """A team Swiss of bot sides (issue 39) whose round 1 was played by the bots and whose
    round 2 is paired: board results, standings and a round in play. Returns its team
    event."""
    tournament = services.tournament_create(
        name="Ligă · لیگ", format="team_swiss", created_by=by, boards=boards, rounds=3,
        ruleset=FAST,
    )  # fmt: skip
    event = TeamEvent.objects.get(tournament=tournament)
    names = ["Lions", "Owls", "شیرها", "Vulpi", "Bären", "Vilkai"]
    for t in range(teams):
        roster = [
            Player.objects.create(name=f"{names[t]} {b + 1}", is_bot=True).pk
            for b in range(boards + 1)
        ]
        teams_services.team_register(
            event_id=event.pk, name=names[t], roster=roster, captain=roster[0], by=by,
            by_rating=False,
        )  # fmt: skip
    teams_services.team_round_pair(event_id=event.pk, round_number=1, by=by)
    for board in TeamBoard.objects.filter(event=event, round=1):
        match_play_bots(match_id=board.match_id)
        teams_services.team_board_record(match_id=str(board.match_id))
    teams_services.team_round_pair(event_id=event.pk, round_number=2, by=by)
    event.refresh_from_db()
    return event
