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


def test_the_monthly_report_widens_the_deviation_of_those_who_did_not_play() -> None:
    """The report for a month shows the list as it stood then: a player who did not play
    that month has the deviation the list gives them (widened once a rating period), not
    the one of the last month they played."""
    from tournaments.federation.models import FederationRatingMonth
    from tournaments.federation.selectors import federation_month_report

    a, b, c, d = (player_create(name=n).pk for n in "ABCD")
    months = ["2026-09", "2026-10", "2026-11"]
    periods = [
        [PeriodGame(a, b), PeriodGame(c, d)],
        [PeriodGame(a, c)],  # b and d idle
        [PeriodGame(c, a)],  # b and d idle again
    ]
    federation = federation_get_or_create(name="Fed", club_slugs=[])
    settings = RatingSettings()
    state = club_rate([], settings)
    for month, games in zip(months, periods, strict=True):
        state = club_rate([games], settings, state=state)
        for e in state.entries[-len({p for g in games for p in (g.winner, g.loser)}) :]:
            FederationRatingMonth.objects.create(
                federation=federation, player_id=e.player, month=month,
                rating_before=e.before.rating, rd_before=e.before.rd, rating=e.after.rating,
                rd=e.after.rd, volatility=e.after.volatility, matches=len(e.played),
            )  # fmt: skip
    report = {x.player: x for x in federation_month_report(federation=federation, month="2026-11")}
    for player, rating in state.current.items():  # the list after the last period
        assert report[player].rd == pytest.approx(rating.rd)
        assert report[player].rating == pytest.approx(rating.rating)
    stored_b = FederationRatingMonth.objects.get(player_id=b).rd
    assert report[b].rd > stored_b and report[b].change is None and report[b].matches == 0
