"""Export test helpers: a small tournament played to its end (table hands, a correction, a
bye), and what of a tournament must come back the same from an export."""

from __future__ import annotations

from typing import Any

from games.models import Match, MatchHand
from games.services import match_rule
from tests.tournaments.helpers import forfeit_round, make_bots, record_gins, table_tournament
from tournaments.models import Pairing, Standing, Tournament
from tournaments.projections import projected_rows


def played_tournament(organiser: Any, jobs: Any) -> Tournament:
    """A Swiss of five at tables over two rounds (so a bye each round): round 1 by table
    hands, one hand voided afterwards by a ruling, round 2 by forfeits."""
    bots = make_bots(5)
    with jobs():
        tournament = table_tournament(organiser, bots, rounds=2, time_zone="Europe/Berlin")
    for pairing in Pairing.objects.filter(round__tournament=tournament, match__isnull=False):
        with jobs():
            record_gins(pairing.match_id, organiser, pairing.player1, hands=2)
    first = Pairing.objects.filter(round__tournament=tournament, match__isnull=False).first()
    with jobs():
        match_rule(
            match_id=first.match_id, by=organiser, type="void_hand", hand_number=1, reason="misdeal"
        )
    with jobs():
        record_gins(first.match_id, organiser, first.player2, hands=2)
    with jobs():
        forfeit_round(tournament, organiser, winner_seat=1)
    tournament.refresh_from_db()
    return tournament


def what_must_survive(tournament_id: int) -> dict[str, Any]:
    """Every projected row of the tournament (its row, registrations, rounds, pairings and
    standings: `projected_rows`, the rebuild's own columns), the players' names, every
    match's summary, scoresheet and hands: as an import must rebuild them."""
    t = Tournament.objects.get(pk=tournament_id)
    pairings = Pairing.objects.filter(round__tournament=t).order_by("round__number", "table")
    match_ids = [p.match_id for p in pairings if p.match_id]
    rows = projected_rows(tournament=t)  # the tournament's every projected row
    return {
        **rows,
        "organisers": sorted(t.organisers.values_list("username", flat=True)),
        "names": sorted(
            Standing.objects.filter(tournament=t).values_list("player_id", "player__name")
        ),
        "matches": list(
            Match.objects.filter(pk__in=match_ids)
            .order_by("pk")
            .values_list(
                "pk",
                "stream_id",
                "status",
                "version",
                "scoresheet",
                "games_won_p1",
                "games_won_p2",
                "points_p1",
                "points_p2",
                "winner_id",
                "finish_reason",
                "player1_id",
                "player2_id",
                "label",
                "mode",
            )  # fmt: skip
        ),
        "hands": list(
            MatchHand.objects.filter(match_id__in=match_ids)
            .order_by("match_id", "hand_number")
            .values_list(
                "match_id",
                "hand_number",
                "kind",
                "points",
                "games",
                "voided",
                "void_reason",
                "version",
                "after_end",
            )  # fmt: skip
        ),
    }
