"""Reads for a player's page: the tournaments they played with their places, their matches
the viewer may follow, head-to-head against each opponent, and their game statistics; and
a club page's tournaments. Only what the viewer may see (a private tournament's matches
are left out for those who may not see it; they still count in the ratings)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from games.selectors import PlayerMatchStats, player_match_stats
from players.models import Club, Player
from tournaments.models import Standing, Tournament
from tournaments.ratings.selectors import User
from tournaments.selectors import matches_followable, tournament_list_for


def player_tournament_places(*, player: Player, user: User) -> list[Standing]:
    """The player's final (or current) place in each tournament the viewer may see."""
    visible = tournament_list_for(user=user).values("pk")
    return list(
        Standing.objects.filter(player=player, tournament__in=visible)
        .select_related("tournament", "tournament__club")
        .order_by("-tournament__created_at", "-tournament_id")
    )


def tournament_field_sizes(*, tournament_ids: list[int]) -> dict[int, int]:
    counts = Counter(
        Standing.objects.filter(tournament_id__in=tournament_ids).values_list(
            "tournament_id", flat=True
        )
    )
    return dict(counts)


def player_matches(*, player: Player, user: User, limit: int) -> list[Any]:
    """The player's matches the viewer may follow, newest first, at most `limit`."""
    return list(
        matches_followable(user=user)
        .filter(Q(player1=player) | Q(player2=player))
        .select_related("player1", "player2", "winner")[:limit]
    )


@dataclass(frozen=True)
class HeadToHead:
    opponent: Player
    won: int
    lost: int

    @property
    def played(self) -> int:
        return self.won + self.lost


def head_to_head(*, player: Player, matches: list[Any]) -> list[HeadToHead]:
    """Won and lost against each opponent over the finished matches given, most played
    first."""
    won: Counter[int] = Counter()
    lost: Counter[int] = Counter()
    opponents: dict[int, Player] = {}
    for m in matches:
        if m.status != "finished" or m.winner_id is None:
            continue
        other = m.player2 if m.player1_id == player.pk else m.player1
        opponents[other.pk] = other
        (won if m.winner_id == player.pk else lost)[other.pk] += 1
    rows = [HeadToHead(opponents[p], won[p], lost[p]) for p in opponents]
    return sorted(rows, key=lambda h: (-h.played, h.opponent.name))


def player_statistics(*, player: Player, matches: list[Any]) -> PlayerMatchStats:
    return player_match_stats(player_id=player.pk, match_ids=[m.pk for m in matches])


def club_tournaments(*, club: Club, user: User) -> tuple[list[Tournament], list[Tournament]]:
    """The club's tournaments the viewer may see: upcoming (registration open or in play,
    soonest first) and the ten most recently finished."""
    mine = tournament_list_for(user=user).filter(club=club)
    upcoming = list(
        mine.exclude(status=Tournament.Status.FINISHED).order_by("starts_at", "created_at")[:20]
    )
    recent = list(
        mine.filter(status=Tournament.Status.FINISHED).order_by("-finished_at", "-pk")[:10]
    )
    return upcoming, recent
