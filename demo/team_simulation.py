"""A whole team event played by bots through the same services as the API (demo, tests,
`simulate_tournament --format team_swiss --teams 8 --boards 4`)."""

from __future__ import annotations

import time
from typing import Any

from tqdm import tqdm

from core.errors import ApplicationError
from demo.bots import match_play_bots
from demo.simulation import simulation_organiser
from players.models import Club, Player
from tournaments.services import tournament_create
from tournaments.teams import services
from tournaments.teams.models import TeamBoard, TeamEvent
from tournaments.teams.selectors import team_event_standings


def team_event_simulate(
    *,
    teams: int,
    boards: int,
    format: str = "team_swiss",  # noqa: A002
    rounds: int | None = None,
    ruleset: dict | None = None,
    clubs: int = 3,
    progress: bool = True,
    wait_seconds: float = 120.0,
) -> TeamEvent:
    """Bots in `clubs` clubs, one side per team of `boards` players (+1 reserve), a
    tournament of the team format (which owns its team event: tournaments.services
    .tournament_create), every board's match played by bots until the event ends. Between
    rounds this waits for the pairing job, pairing the round itself if the job is late.
    Returns the team event."""
    organiser = simulation_organiser()
    count = Player.objects.filter(name__startswith="Team bot").count()
    club_rows = [
        Club.objects.get_or_create(
            name=f"Simulated club {c + 1}", defaults={"slug": f"simulated-club-{c + 1}"}
        )[0]
        for c in range(clubs)
    ]
    tournament = tournament_create(
        name=f"Simulated {format} ({teams} teams x {boards} boards)",
        format=format,
        created_by=organiser,
        boards=boards,
        rounds=rounds,
        ruleset=ruleset,
    )
    event = TeamEvent.objects.get(tournament=tournament)
    for t in range(teams):
        club = club_rows[t % clubs]
        roster = []
        for _ in range(boards + 1):
            count += 1
            roster.append(Player.objects.create(name=f"Team bot {count:04d}", is_bot=True).pk)
        services.team_register(
            event_id=event.pk,
            name=f"{club.name} {t // clubs + 1}",
            roster=roster,
            captain=roster[0],
            club_id=club.pk,
            by=organiser,
        )
    services.team_round_pair(event_id=event.pk, round_number=1, by=organiser)
    bar = tqdm(unit="board", disable=not progress)
    while True:
        event.refresh_from_db()
        number = event.current_round
        for board in TeamBoard.objects.filter(event=event, round=number, result=""):
            match_play_bots(match_id=board.match_id)
            bar.update(1)
        _wait_for_next(event, number, wait_seconds)
        event.refresh_from_db()
        if event.status == TeamEvent.Status.FINISHED:
            break
    bar.close()
    return event


def _wait_for_next(event: TeamEvent, number: int, wait_seconds: float) -> None:
    deadline = time.monotonic() + wait_seconds
    while time.monotonic() < deadline:
        event.refresh_from_db()
        if event.status == TeamEvent.Status.FINISHED or event.current_round > number:
            return
        if not TeamBoard.objects.filter(event=event, round=number, result="").exists():
            services.team_round_pair(event_id=event.pk, round_number=number + 1)  # idempotent
            continue
        time.sleep(0.2)
    raise ApplicationError(f"round {number} did not end within {wait_seconds:.0f}s")


def team_standings_table(event: TeamEvent) -> str:
    names: dict[int, Any] = dict(event.teams.values_list("number", "name"))
    lines = [f"{'#':>3} {'team':<24} {'MP':>3} {'BP':>3} {'points':>7}"]
    for s in team_event_standings(event=event):
        lines.append(
            f"{s.rank:>3} {names[s.team]:<24} {s.match_points:>3} {s.board_points:>3} "
            f"{s.hollywood_points:>7}"
        )
    return "\n".join(lines) + "\n"
