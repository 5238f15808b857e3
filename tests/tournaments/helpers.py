"""Tournament test helpers: quick rules, bot players, a tournament with its field checked in,
and a round finished fast by forfeits."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games.hand_entries import HandEntry
from players.models import Player
from tournaments import services
from tournaments.models import Tournament

FAST_RULES = {"game_target": 25, "end_when_decided": True}


def make_bots(n: int, *, prefix: str = "Bot") -> list[Player]:
    return [Player.objects.create(name=f"{prefix} {i:02d}", is_bot=True) for i in range(1, n + 1)]


def players_with_logins(languages: Any, *, name: str = "Player") -> list[Player]:
    """A player per language, each with a login and an e-mail address (`<lang>@example.org`)
    and that language as their own."""
    users = get_user_model().objects
    return [
        Player.objects.create(
            name=f"{name} {lang}",
            language=lang,
            user=users.create_user(username=f"{name}-{lang}".lower(), email=f"{lang}@example.org"),
        )
        for lang in languages
    ]


def make_tournament(
    organiser: Any,
    players: list[Player],
    *,
    format: str = "swiss",  # noqa: A002
    rounds: int | None = 3,
    check_in: bool = True,
    **kwargs: Any,
) -> Tournament:
    kwargs.setdefault("ruleset", FAST_RULES)
    tournament = services.tournament_create(
        name="Evening", format=format, rounds=rounds, created_by=organiser, **kwargs
    )
    for player in players:
        services.tournament_register(tournament_id=tournament.pk, player=player, by=organiser)
        if check_in:
            services.tournament_check_in(tournament_id=tournament.pk, player=player, by=organiser)
    return tournament


def forfeit_round(tournament: Tournament, organiser: Any, *, winner_seat: int = 0) -> None:
    """Finish every match of the current round fast: a forfeit ruling per match."""
    from games.services import match_rule
    from tournaments.models import Pairing

    tournament.refresh_from_db()
    pending = Pairing.objects.filter(
        round__tournament=tournament,
        round__number=tournament.current_round,
        status=Pairing.Status.PENDING,
    ).select_related("player1", "player2")
    for pairing in pending:
        winner = pairing.player1 if winner_seat == 0 else pairing.player2
        match_rule(
            match_id=pairing.match_id, by=organiser, type="forfeit", player=winner, reason="test"
        )


def forfeited_to_the_end(
    tournament: Tournament, organiser: Any, jobs: Any, *, rounds: int = 20
) -> None:
    """Start the tournament and forfeit round after round (the winner's seat alternating)
    until it has finished; jobs (pairing the next round) run as each round ends."""
    from tournaments import services

    with jobs():
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    for n in range(rounds):
        tournament.refresh_from_db()
        if tournament.status == "finished":
            break
        with jobs():
            forfeit_round(tournament, organiser, winner_seat=n % 2)
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def table_tournament(
    organiser: Any, players: list[Player], *, start: bool = True, **kwargs: Any
) -> Tournament:
    """A tournament played at tables (hands recorded, short games: 25 points, decided at
    two), its players registered and checked in, and (`start`) round 1 paired."""
    kwargs.setdefault("format", "swiss")
    kwargs.setdefault("rounds", 2 if kwargs["format"] == "swiss" else None)
    tournament = services.tournament_create(
        name="Tuesday",
        created_by=organiser,
        ruleset={"game_target": 25, "end_when_decided": True},
        play_mode="table",
        **kwargs,
    )
    for player in players:
        services.tournament_register(tournament_id=tournament.pk, player=player, by=organiser)
        services.tournament_check_in(tournament_id=tournament.pk, player=player, by=organiser)
    if start:
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    return tournament


def record_gins(match_id: Any, organiser: Any, knocker: Player, hands: int = 2) -> None:
    """`hands` table hands won by `knocker` with gin against 30 deadwood (55 points each:
    with the short games above, two of them decide a match)."""
    from games.services import match_record_hand

    for _ in range(hands):
        match_record_hand(
            match_id=match_id,
            by=organiser,
            hand=HandEntry(knocker=knocker.pk, gin=True, knocker_deadwood=0, defender_deadwood=30),
        )
