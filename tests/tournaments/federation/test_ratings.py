"""A federation's rating list equals a re-computation from its clubs' events, and follows
a correction."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from demo.club_history import club_evening_generate, club_history_correct
from players.models import Club
from players.services import player_create
from tournaments.domain.glicko2 import PeriodGame, RatingSettings, club_rate
from tournaments.federation.ratings import federation_rating_list, monthly_periods
from tournaments.federation.services import federation_get_or_create

pytestmark = pytest.mark.django_db


def recomputed(matches: list) -> dict[int, float]:
    """Glicko-2 over the matches as one month's period (every evening finished this month)."""
    state = club_rate([[PeriodGame(m.winner, m.player1 if m.winner == m.player2 else m.player2)
                        for m in matches]], RatingSettings())  # fmt: skip
    return {p: r.rating for p, r in state.current.items()}


def test_the_federation_list_is_every_clubs_events_rated_together() -> None:
    rng = random.Random(39)
    clubs = [Club.objects.create(name=n, slug=n.lower()) for n in ("North", "South")]
    federation = federation_get_or_create(name="Fed", club_slugs=["north", "south"])
    Club.objects.create(name="Outside", slug="outside")
    players = [player_create(name=f"P{i}") for i in range(12)]
    played = []
    evenings = []
    for n, club in enumerate([*clubs, clubs[0]]):
        field = players[:8] if n != 1 else players[4:]  # players 4-7 play in both clubs
        tournament, matches = club_evening_generate(club=club, players=field, rounds=3, rng=rng,
                                                     name=f"Evening {n}")  # fmt: skip
        played += matches
        evenings.append((tournament, matches))
    # An evening of a club outside the federation: not rated in its list.
    club_evening_generate(
        club=Club.objects.get(slug="outside"), players=players[:4], rounds=2, rng=rng
    )
    lines = federation_rating_list(federation=federation)
    assert {x.player: round(x.rating, 6) for x in lines} == {
        p: round(r, 6) for p, r in recomputed(played).items()
    }
    assert [x.rank for x in lines] == list(range(1, len(lines) + 1))
    assert {x.player for x in lines if x.matches == 9} == {p.pk for p in players[4:8]}
    # A correction after the evening re-rates the list: it equals the re-computation again.
    tournament, matches = evenings[1]
    after = club_history_correct(tournament=tournament, match=matches[0])
    played[played.index(matches[0])] = after
    again = {x.player: round(x.rating, 6) for x in federation_rating_list(federation=federation)}
    assert again == {p: round(r, 6) for p, r in recomputed(played).items()}


def test_periods_are_calendar_months_in_order() -> None:
    def period(day: str, position: int, games: list) -> dict:
        return {"finished_at": dt.datetime.fromisoformat(day), "finished_position": position,
                "games": games}  # fmt: skip

    months = monthly_periods([
        period("2026-11-20T20:00+00:00", 30, [[3, 4]]),
        period("2026-10-02T20:00+00:00", 10, [[1, 2]]),
        period("2026-11-03T20:00+00:00", 20, [[5, 6]]),
    ])  # fmt: skip
    assert [m for m, _ in months] == ["2026-10", "2026-11"]
    assert months[1][1] == [PeriodGame(5, 6), PeriodGame(3, 4)]
