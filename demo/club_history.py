"""A club's history of finished evenings written straight as events, for the ratings bench
and tests: each tournament's stream (created, rounds paired, results recorded, finished)
and, per match, a match stream with only what the ratings read of it (the hands that ended
and how the match finished). No match is played: the rating *input* is generated, not the
games; the tournament rows are made finished. `club_history_correct` appends a corrected
result to a finished tournament, as the result path would after a correction."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

import eventstore
from players.models import Club, Player
from tournaments.models import Tournament


@dataclass(frozen=True)
class GeneratedMatch:
    round: int
    table: int
    player1: int
    player2: int
    winner: int
    match: str


def _append(stream_id: str, version: int, events: list[tuple[str, dict]]) -> int:
    recorded = eventstore.append(
        stream_id=stream_id,
        expected_version=version,
        events=[eventstore.NewEvent(type=t, data=d) for t, d in events],
    )
    return recorded[-1].version


def _match_stream(winner_seat: int, hands: int, reason: str) -> str:
    match_id = str(uuid.uuid4())
    events: list[tuple[str, dict]] = [
        ("HandRecorded", {"hand_number": n, "knocker": winner_seat, "gin": True,
                          "knocker_deadwood": 0, "defender_deadwood": 30})
        for n in range(1, hands + 1)
    ]  # fmt: skip
    events.append(("MatchFinished", {"winner": winner_seat, "reason": reason}))
    _append(f"match-{match_id}", 0, events)
    return match_id


def _result(m: GeneratedMatch | dict) -> dict[str, Any]:
    d = m if isinstance(m, dict) else m.__dict__
    return {
        "round": d["round"], "table": d["table"], "player1": d["player1"],
        "player2": d["player2"], "winner": d["winner"], "games1": 0, "games2": 0,
        "points1": 0, "points2": 0, "match": d["match"], "result": "played",
    }  # fmt: skip


def club_evening_generate(
    *,
    club: Club,
    players: list[Player],
    rounds: int,
    rng: random.Random,
    strength: dict[int, float] | None = None,
    name: str = "Evening",
    unrated_every: int = 0,
) -> tuple[Tournament, list[GeneratedMatch]]:
    """One finished Swiss-like evening of `players` (an even number): random pairings each
    round, the winner drawn by `strength` (Elo-like odds). Every `unrated_every`-th match
    (0: none) is a no-show, forfeited before any hand, so it is not rated."""
    strength = strength or {}
    tournament = Tournament.objects.create(
        name=name, club=club, format="swiss", rounds_planned=rounds, play_mode="table",
        status=Tournament.Status.FINISHED, finished_at=timezone.now(), current_round=rounds,
    )  # fmt: skip
    events: list[tuple[str, dict]] = [("TournamentCreated", {"format": "swiss"})]
    matches = []
    ids = [p.pk for p in players]
    count = 0
    for number in range(1, rounds + 1):
        rng.shuffle(ids)
        pairings, results = [], []
        for table, (a, b) in enumerate(zip(ids[::2], ids[1::2], strict=True), start=1):
            count += 1
            odds = 1 / (1 + 10 ** ((strength.get(b, 0) - strength.get(a, 0)) / 400))
            winner_seat = 0 if rng.random() < odds else 1
            no_show = unrated_every and count % unrated_every == 0
            match = _match_stream(
                winner_seat, 0 if no_show else 2, "forfeit" if no_show else "games"
            )
            m = GeneratedMatch(number, table, a, b, (a, b)[winner_seat], match)
            matches.append(m)
            pairings.append({"table": table, "player1": a, "player2": b, "match": match})
            results.append(("ResultRecorded", _result(m)))
        events += [("RoundPaired", {"round": number, "pairings": pairings}), *results]
        events.append(("RoundCompleted", {"round": number}))
    events.append(("TournamentFinished", {"rounds": rounds}))
    tournament.version = _append(tournament.stream_id, 0, events)
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version)
    return tournament, matches


def club_history_correct(*, tournament: Tournament, match: GeneratedMatch) -> GeneratedMatch:
    """Record the other player as the winner of `match` (ResultCorrected, after the
    tournament finished), as the result path does after a correction of the match."""
    tournament.refresh_from_db()
    other = match.player2 if match.winner == match.player1 else match.player1
    after = GeneratedMatch(match.round, match.table, match.player1, match.player2, other,
                           match.match)  # fmt: skip
    data = {"round": match.round, "table": match.table, "before": _result(match),
            "after": _result(after), "next_round": None}  # fmt: skip
    tournament.version = _append(tournament.stream_id, tournament.version,
                                 [("ResultCorrected", data)])  # fmt: skip
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version)
    return after
