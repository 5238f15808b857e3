"""Issue 26.2: every read model is compared with a replay of its events
(`manage.py verify_projections`): a forged row of each kind (a match's winner, a game of its
scoresheet, a hand; a pairing, a registration, a standing; a rating period, a current
rating, a rating history entry, a season standing) is named with its table, row, field, the
stored and the replayed value; the command exits 1; `--rebuild` puts every one right."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import CommandError, call_command

from games.models import Match, MatchHand
from players.models import Club
from tests.tournaments.helpers import make_bots, record_gins, table_tournament
from tournaments.models import Pairing, Registration, Standing, Tournament
from tournaments.ratings.models import ClubPeriod, ClubRating, RatingEntry, SeasonStanding
from tournaments.ratings.services import season_create

pytestmark = pytest.mark.django_db


def verify(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_projections", *args, stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, err.getvalue() + out.getvalue()
    return 0, err.getvalue() + out.getvalue()


@pytest.fixture
def jobs(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def evening(organiser, jobs):
    """A finished club tournament at tables (two rounds, hands recorded), rated, and a
    season holding it."""
    club = Club.objects.create(name="Verify Club", slug="verify-club")
    club.organisers.add(organiser)
    players = make_bots(4, prefix="V")
    with jobs():
        t = table_tournament(organiser, players, club=club)
    for _ in range(2):
        t.refresh_from_db()
        for p in Pairing.objects.filter(round__tournament=t, round__number=t.current_round):
            with jobs():
                record_gins(p.match_id, organiser, p.player1)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    today = dt.date.today()
    season = season_create(
        club_id=club.pk, by=organiser, name="Winter", starts_on=today - dt.timedelta(days=1),
        ends_on=today + dt.timedelta(days=1), place_points=[3, 2, 1],
    )  # fmt: skip
    assert ClubRating.objects.filter(club=club).count() == 4
    assert SeasonStanding.objects.filter(season=season).count() == 4
    return t


def test_read_models_as_written_match_a_replay(evening):
    code, text = verify()
    assert code == 0, text
    assert "OK: every read model match a replay" in text


def _forge(model, row, **changes):
    model.objects.filter(pk=row.pk).update(**changes)


def _flip(pair, winner):
    return pair[1] if winner == pair[0] else pair[0]


FORGERIES = {
    "match winner": lambda t: _forge_match_winner(t),
    "match state": lambda t: _forge(Match, _a_match(t), status="in_progress"),
    "scoresheet game": lambda t: _forge_scoresheet(t),
    "hand": lambda t: _forge_hand(t),
    "pairing winner": lambda t: _forge_pairing(t),
    "registration": lambda t: _forge(
        Registration, Registration.objects.filter(tournament=t).first(), status="withdrawn"
    ),
    "standing": lambda t: _forge(
        Standing, Standing.objects.get(tournament=t, rank=1), match_wins=9
    ),
    "rating period": lambda t: _forge(
        ClubPeriod, ClubPeriod.objects.get(tournament=t), standings=[[1, 1, 9]]
    ),
    "current rating": lambda t: _forge(
        ClubRating, ClubRating.objects.filter(club_id=t.club_id).first(), rating=2999.0
    ),
    "rating history": lambda t: _forge(
        RatingEntry, RatingEntry.objects.filter(tournament=t).first(), rd=12.5
    ),
    "season standing": lambda t: _forge(
        SeasonStanding, SeasonStanding.objects.get(season__club_id=t.club_id, rank=1), points=99
    ),
}
# What each forgery must be named by: table, row, field, stored value.
NAMED = {
    "match winner": ("games_match", "match ", "winner_id: stored"),
    "match state": ("games_match", "match ", "status: stored 'in_progress'"),
    "scoresheet game": ("games_match.scoresheet", " game 1", "scores: stored [99, 0]"),
    "hand": ("games_matchhand", " hand 1", "points: stored 1"),
    "pairing winner": ("tournaments_pairing", "round 1 table 1", "winner_id: stored"),
    "registration": ("tournaments_registration", "player ", "status: stored 'withdrawn'"),
    "standing": ("tournaments_standing", "player ", "match_wins: stored 9"),
    "rating period": ("ratings_clubperiod", "tournament ", "standings: stored [[1, 1, 9]]"),
    "current rating": ("ratings_clubrating", "player ", "rating: stored 2999.0"),
    "rating history": ("ratings_ratingentry", "player ", "rd: stored 12.5"),
    "season standing": ("ratings_seasonstanding", "season ", "points: stored 99"),
}


def _a_match(t):
    return Match.objects.get(pk=Pairing.objects.filter(round__tournament=t).first().match_id)


def _forge_match_winner(t):
    match = _a_match(t)
    _forge(Match, match, winner_id=_flip((match.player1_id, match.player2_id), match.winner_id))


def _forge_scoresheet(t):
    match = _a_match(t)
    sheet = match.scoresheet
    sheet["games"][0]["scores"] = [99, 0]
    _forge(Match, match, scoresheet=sheet)


def _forge_hand(t):
    hand = MatchHand.objects.filter(match=_a_match(t), hand_number=1).get()
    _forge(MatchHand, hand, points=1)


def _forge_pairing(t):
    p = Pairing.objects.get(round__tournament=t, round__number=1, table=1)
    _forge(Pairing, p, winner_id=_flip((p.player1_id, p.player2_id), p.winner_id))


@pytest.mark.parametrize("kind", sorted(FORGERIES))
def test_a_forged_read_model_row_is_named_and_rebuilt(evening, kind):
    FORGERIES[kind](evening)
    code, text = verify()
    assert code == 1, text
    table, row, field = NAMED[kind]
    lines = [line for line in text.splitlines() if line.startswith("DIFFERS ")]
    assert any(
        line.startswith(f"DIFFERS {table} ") and row in line and field in line for line in lines
    ), text
    assert "the events say" in text
    code, text = verify("--rebuild")
    assert code == 0 and "REBUILT" in text, text
    code, text = verify()
    assert code == 0, text


def test_a_deleted_or_an_extra_row_is_named(evening):
    hand = MatchHand.objects.filter(match=_a_match(evening)).first()
    MatchHand.objects.filter(pk=hand.pk).delete()
    stranger = make_bots(1, prefix="Nobody")[0]
    ClubRating.objects.create(
        club_id=evening.club_id, player=stranger, rating=2000.0, rd=50.0, volatility=0.06
    )
    code, text = verify()
    assert code == 1
    assert f"games_matchhand match {hand.match_id} hand {hand.hand_number}: missing" in text
    assert (
        f"ratings_clubrating club {evening.club_id} player {stranger.pk}: stored, but the"
        " events have no such row"
    ) in text
    code, _ = verify("--rebuild")
    assert code == 0
    assert MatchHand.objects.filter(match_id=hand.match_id, hand_number=hand.hand_number).exists()
    assert verify()[0] == 0
