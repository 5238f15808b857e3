"""A corrected table result flows on into the tournament: the result is recorded again
(ResultCorrected, before and after), standings follow, and the organiser is told whether the
next round may still be re-paired; a match put back in play withdraws its result."""

from __future__ import annotations

from typing import Any

import pytest

from games.hand_entries import HandEntry
from games.models import Match
from games.services import match_record_hand, match_rule
from players.models import Player
from tests.tournaments.helpers import record_gins, table_tournament
from tournaments import services
from tournaments.models import Pairing
from tournaments.projections import standings_from_events
from tournaments.selectors import tournament_standings

pytestmark = pytest.mark.django_db(transaction=True)  # the result jobs run after commit


def _events(tournament: Any) -> list[Any]:
    import eventstore

    return eventstore.load(stream_id=tournament.stream_id)


def test_a_corrected_last_result_flows_into_the_standings(organiser):
    ann, ben = (Player.objects.create(name=n) for n in ("Ann", "Ben"))
    tournament = table_tournament(organiser, [ann, ben])
    pairing = Pairing.objects.get(round__tournament=tournament, round__number=1)
    seat_of_ann = 0 if pairing.player1_id == ann.pk else 1
    record_gins(pairing.match_id, organiser, ben, hands=1)  # entered as Ben's gin: a typo
    record_gins(pairing.match_id, organiser, ann, hands=2)
    pairing.refresh_from_db()
    assert pairing.status == "finished" and pairing.winner_id == ann.pk
    assert sorted((pairing.games1, pairing.games2)) == [1, 2]
    match_rule(
        match_id=pairing.match_id,
        by=organiser,
        type="correct_hand",
        reason="hand 1 was Ann's gin",
        hand_number=1,
        hand=HandEntry(knocker=ann.pk, gin=True, knocker_deadwood=0, defender_deadwood=30),
    )
    pairing.refresh_from_db()
    ann_games = pairing.games1 if seat_of_ann == 0 else pairing.games2
    ben_games = pairing.games2 if seat_of_ann == 0 else pairing.games1
    assert (pairing.winner_id, ann_games, ben_games) == (ann.pk, 2, 0)
    corrected = [e for e in _events(tournament) if e.type == "ResultCorrected"]
    assert len(corrected) == 1
    data = corrected[0].data
    assert data["before"]["winner"] == data["after"]["winner"] == ann.pk
    assert data["after"] != data["before"]
    # Round 2 was paired when round 1 ended, and none of its matches has started: the
    # organiser is told it may be re-paired, and it can be.
    assert data["next_round"] == 2 and data["repair_possible"] is True
    assert services.tournament_round_repair(
        tournament_id=tournament.pk, round_number=2, by=organiser, reason="result corrected"
    )
    # The standings rebuilt from the tournament's events alone say what the rows say.
    lines, _ = standings_from_events(
        events=_events(tournament), tiebreaks=["match_wins", "games_won"]
    )
    rows = list(tournament_standings(tournament=tournament))
    assert [line.player for line in lines] == [row.player_id for row in rows]
    assert [line.games_won for line in lines] == [row.games_won for row in rows]


def test_a_reopened_match_withdraws_its_result(organiser):
    ann, ben = (Player.objects.create(name=n) for n in ("Ann", "Ben"))
    tournament = table_tournament(organiser, [ann, ben])
    pairing = Pairing.objects.get(round__tournament=tournament, round__number=1)
    record_gins(pairing.match_id, organiser, ann)
    match_rule(
        match_id=pairing.match_id,
        by=organiser,
        type="void_hand",
        reason="hand 2 was never played",
        hand_number=2,
    )
    assert Match.objects.get(pk=pairing.match_id).status == "in_progress"
    pairing.refresh_from_db()
    assert pairing.status == "pending" and pairing.winner_id is None
    withdrawn = [e for e in _events(tournament) if e.type == "ResultCorrected"]
    assert withdrawn[-1].data["after"] is None


def test_once_the_next_round_has_started_its_pairings_stand(organiser):
    ann, ben, cy, di = (Player.objects.create(name=n) for n in ("Ann", "Ben", "Cy", "Di"))
    tournament = table_tournament(organiser, [ann, ben, cy, di])
    first = list(Pairing.objects.filter(round__tournament=tournament, round__number=1))
    for pairing in first:
        record_gins(pairing.match_id, organiser, pairing.player1)
    second = list(Pairing.objects.filter(round__tournament=tournament, round__number=2))
    assert len(second) == 2
    # A hand is recorded at one table of round 2: the round has started.
    match_record_hand(
        match_id=second[0].match_id,
        by=organiser,
        hand=HandEntry(
            knocker=second[0].player1.pk, gin=False, knocker_deadwood=5, defender_deadwood=20
        ),
    )
    before = {row.player_id: row.match_wins for row in tournament_standings(tournament=tournament)}
    loser = first[0].player2
    # Round 1, table 1 was really the other player's: both hands corrected.
    for hand in (1, 2):
        match_rule(
            match_id=first[0].match_id,
            by=organiser,
            type="correct_hand",
            reason="entered the wrong way round",
            hand_number=hand,
            hand=HandEntry(knocker=loser.pk, gin=True, knocker_deadwood=0, defender_deadwood=30),
        )
    corrected = [e for e in _events(tournament) if e.type == "ResultCorrected"]
    assert corrected[-1].data["next_round"] == 2
    assert corrected[-1].data["repair_possible"] is False  # the pairings stand
    after = {row.player_id: row.match_wins for row in tournament_standings(tournament=tournament)}
    assert after[loser.pk] == before[loser.pk] + 1
    assert after[first[0].player1_id] == before[first[0].player1_id] - 1
    # Round 2's pairings are those made before the correction.
    assert {
        p.pk for p in Pairing.objects.filter(round__number=2, round__tournament=tournament)
    } == {p.pk for p in second}
