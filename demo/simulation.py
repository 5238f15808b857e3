"""A whole tournament played by bots through the same services as the API (demo, tests)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from tqdm import tqdm

from core.errors import ApplicationError
from demo.bots import match_play_bots
from players.models import Player
from tournaments import services
from tournaments.models import Pairing, Tournament
from tournaments.selectors import tournament_standings

SIM_ORGANISER = "simulation-organiser"
NUDGE_AFTER = dt.timedelta(seconds=10)


def simulation_organiser() -> Any:
    user, created = get_user_model().objects.get_or_create(
        username=SIM_ORGANISER, defaults={"is_staff": True, "is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def tournament_simulate(
    *,
    players: int,
    format: str,  # noqa: A002
    rounds: int | None,
    ruleset: dict | None = None,
    name: str = "",
    progress: bool = True,
    wait_seconds: float = 120.0,
    organiser: Any = None,
    prefix: str = "Sim bot",
    top_cut: int | None = None,
    third_place: bool = False,
) -> Tournament:
    """Create bots and a tournament, play every match with bots until the tournament ends.

    Pairing happens wherever the Celery jobs run (in process when eager, else a worker);
    between rounds this waits for it, calling the idempotent pairing service itself if the
    job is late."""
    organiser = organiser or simulation_organiser()
    count = Player.objects.filter(name__startswith=prefix).count()
    bots = [
        Player.objects.create(name=f"{prefix} {count + i:03d}", is_bot=True)
        for i in range(1, players + 1)
    ]
    tournament = services.tournament_create(
        name=name or f"Simulated {format}{f' top {top_cut}' if top_cut else ''} ({players} bots)",
        format=format,
        rounds=rounds,
        ruleset=ruleset,
        created_by=organiser,
        is_public=True,
        top_cut=top_cut,
        third_place=third_place,
    )
    for bot in bots:
        services.tournament_register(tournament_id=tournament.pk, player=bot, by=organiser)
        services.tournament_check_in(tournament_id=tournament.pk, player=bot, by=organiser)
    services.tournament_start(tournament_id=tournament.pk, by=organiser, reason="simulation")
    tournament.refresh_from_db()
    bar = tqdm(total=_expected_matches(tournament, players), unit="match", disable=not progress)
    while True:
        tournament.refresh_from_db()
        number = tournament.current_round
        bar.set_description(f"round {number}/{tournament.rounds_planned or '?'}")
        for pairing in Pairing.objects.filter(round__tournament=tournament, round__number=number):
            if pairing.match_id is not None:
                match_play_bots(match_id=pairing.match_id)
                bar.update(1)
        _wait_for_next(tournament, number, wait_seconds)
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            break
    bar.close()
    return tournament


def _expected_matches(tournament: Tournament, players: int) -> int:
    if tournament.format == Tournament.Format.KNOCKOUT:
        return players - 1  # every match knocks one player out
    if tournament.format == Tournament.Format.DOUBLE_ELIMINATION:
        return 2 * players - 1  # two losses each but the champion's; at most one reset
    return (tournament.rounds_planned or 1) * (players // 2)


def _wait_for_next(tournament: Tournament, number: int, wait_seconds: float) -> None:
    deadline = time.monotonic() + wait_seconds
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED or tournament.current_round > number:
            return
        round_ = tournament.rounds.get(number=number)
        late = round_.completed_at and timezone.now() - round_.completed_at > NUDGE_AFTER
        if round_.status == round_.Status.COMPLETED and late:
            # The job should have paired it by now; pairing is idempotent, so nudging is safe.
            services.tournament_round_pair(tournament_id=tournament.pk, round_number=number + 1)
            continue
        time.sleep(0.2)
    raise ApplicationError(
        f"round {number} did not end within {wait_seconds:.0f}s (is a worker up?)"
    )


def standings_table(tournament: Tournament) -> str:
    lines = [f"{'#':>3} {'player':<16} {'wins':>4} {'games':>5} {'points':>7} {'buchholz':>8}"]
    for s in tournament_standings(tournament=tournament):
        mark = " (withdrawn)" if s.withdrawn else ""
        lines.append(
            f"{s.rank:>3} {s.player.name:<16} {s.match_wins:>4} {s.games_won:>5} "
            f"{s.points_diff:>+7} {s.buchholz:>8.1f}{mark}"
        )
    return "\n".join(lines) + "\n"
