"""A stored old-shape stream (issue 19: old streams still replay): its pairings have no
`match_version`. After a rebuild, its unplayed matches are not taken for started, so the
organiser may still re-pair the round, as on a new stream; and the version the domain
assumes for them is the one the games side gives a match it has just made."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

import eventstore
from eventstore import NewEvent
from games.services import match_create
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.domain.state import MATCH_VERSION_WHEN_MADE
from tournaments.models import Pairing, Tournament
from tournaments.projections import tournament_rebuild_in_tx
from tournaments.repository import tournament_states_forget

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("mode", ["online", "table"])
def test_a_match_made_for_a_pairing_is_at_the_version_the_domain_assumes(mode, organiser):
    a, b = make_bots(2)
    match = match_create(player1=a, player2=b, mode=mode, organisers=[organiser])
    assert match.version == MATCH_VERSION_WHEN_MADE[mode]


def _old_round_one(tournament: Tournament, organiser: Any) -> list[str]:
    """Round 1 as the code before `match_version` stored it: the matches made, the events
    appended in the old shape (no match_version, no table numbers)."""
    players = [r.player for r in tournament.registrations.order_by("player_id")]
    pairs = [(players[0], players[1]), (players[2], players[3])]
    matches = [
        match_create(player1=p, player2=q, mode="online", organisers=[organiser]) for p, q in pairs
    ]
    pairings = [
        {"player1": p.pk, "player2": q.pk, "match": str(m.pk)}
        for (p, q), m in zip(pairs, matches, strict=True)
    ]
    who = {"id": organiser.pk, "username": organiser.username}
    old = [
        NewEvent(type="TournamentStarted",
                 data={"seeds": [p.pk for p in players], "rounds": 2, "by": who, "reason": ""}),
        NewEvent(type="RoundPaired",
                 data={"round": 1, "deadline": None, "pairings": pairings, "by": who,
                       "reason": ""}),
    ]  # fmt: skip
    tournament.refresh_from_db()
    with transaction.atomic():
        eventstore.append(
            stream_id=tournament.stream_id, expected_version=tournament.version, events=old
        )
        tournament_rebuild_in_tx(tournament=tournament)
    tournament_states_forget()
    return [str(m.pk) for m in matches]


def test_an_old_stream_s_round_re_pairs_after_a_rebuild(organiser, jobs):
    tournament = make_tournament(organiser, make_bots(4), rounds=2)
    old_matches = _old_round_one(tournament, organiser)
    rows = Pairing.objects.filter(round__tournament=tournament).order_by("table")
    assert [(p.table, str(p.match_id), p.match_version_at_pairing) for p in rows] == [
        (1, old_matches[0], MATCH_VERSION_WHEN_MADE["online"]),
        (2, old_matches[1], MATCH_VERSION_WHEN_MADE["online"]),
    ]
    with jobs():
        round_ = services.tournament_round_repair(
            tournament_id=tournament.pk, round_number=1, by=organiser, reason="wrong tables"
        )
    new = {str(p.match_id) for p in round_.pairings.all()}
    assert new and not new & set(old_matches)  # paired afresh: the old matches cancelled
