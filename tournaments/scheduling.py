"""Who plays whom in a round: reads the tournament's rows and calls the pure pairing code.

No writes here; tournaments.services turns the pairs into rounds, pairings and matches.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence

from tournaments.domain import standings_of
from tournaments.domain.state import results_of
from tournaments.models import Pairing, Registration, Tournament
from tournaments.pairing import Pair
from tournaments.pairing.knockout import bracket_size, knockout_first_round, knockout_next_round
from tournaments.pairing.round_robin import round_robin_rounds
from tournaments.pairing.swiss import SwissPlayer, swiss_pair
from tournaments.projections import tournament_state, tournament_tiebreaks


def active_registrations(*, tournament: Tournament) -> list[Registration]:
    """Players who may be paired now, in seed order (unseeded late entries last)."""
    statuses = [Registration.Status.CHECKED_IN]
    if not tournament.check_in_required:
        statuses.append(Registration.Status.REGISTERED)
    regs = Registration.objects.filter(tournament=tournament, status__in=statuses)
    return sorted(
        regs.select_related("player"),
        key=lambda r: (r.seed is None, r.seed or 0, -r.player.rating, r.registered_at, r.pk),
    )


def round_count(*, tournament: Tournament, players: int) -> int:
    """Rounds the tournament will have, fixed when round 1 is paired."""
    if tournament.format == Tournament.Format.SWISS:
        return tournament.rounds_planned or 1
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return len(round_robin_rounds(list(range(1, players + 1))))
    return max(1, (bracket_size(players) - 1).bit_length())


def round_start(*, tournament: Tournament, number: int) -> dt.datetime | None:
    """When round `number` is scheduled to be paired (UTC), or None: as soon as possible.

    Never raises: a time past the calendar's end (a schedule stored before its instants
    were range-checked: year 9999 plus a few intervals) or a stored time that does not
    parse counts as no scheduled time, so the job computing it (recording a result,
    queueing the next round) goes on rather than leave a pairing pending for ever."""
    try:
        if len(tournament.round_starts) >= number:
            return dt.datetime.fromisoformat(tournament.round_starts[number - 1])
        if tournament.starts_at is None:
            return None
        if number == 1:
            return tournament.starts_at
        if tournament.round_interval is None:
            return None
        return tournament.starts_at + (number - 1) * tournament.round_interval
    except (OverflowError, ValueError, TypeError):
        return None


def _without_withdrawn(pairs: Sequence[Pair], active: set[int]) -> list[Pair]:
    """A withdrawn player is not paired again: their opponent gets a bye instead."""
    kept = []
    for pair in pairs:
        present = [p for p in (pair.first, pair.second) if p is not None and p in active]
        if len(present) == 2:
            kept.append(pair)
        elif present:
            kept.append(Pair(first=present[0], second=None))
    return kept


def _previous_pairings(*, tournament: Tournament, before: int) -> list[Pairing]:
    return list(
        Pairing.objects.filter(round__tournament=tournament, round__number__lt=before)
        .select_related("round")
        .order_by("round__number", "table")
    )


def _swiss_pairs(*, tournament: Tournament, number: int, seeded: list[int]) -> list[Pair]:
    state = tournament_state(tournament=tournament)
    lines = standings_of(state, also=seeded)
    line_of = {line.player: line for line in lines}
    seed_index = {player: i for i, player in enumerate(seeded)}
    tiebreaks = tournament_tiebreaks(tournament=tournament)
    # Equal on every tiebreak (all of round 1): the better seed ranks first.
    order = sorted(
        seeded,
        # Head-to-head has no value per player: it orders within the standings only.
        key=lambda p: (tuple(-getattr(line_of[p], tb, 0) for tb in tiebreaks), seed_index[p]),
    )
    players = [
        SwissPlayer(id=p, score=float(line_of[p].match_wins), rank=i + 1)
        for i, p in enumerate(order)
    ]
    previous = _previous_pairings(tournament=tournament, before=number)
    played = {frozenset((p.player1_id, p.player2_id)) for p in previous if p.player2_id}
    had_bye = {p.player1_id for p in previous if p.player2_id is None}
    dealt_first = Counter(p.player1_id for p in previous if p.player2_id)
    return swiss_pair(
        players=players,
        played=played,
        had_bye=had_bye,
        dealt_first=dict(dealt_first),
        results=[r for r in results_of(state) if r.round < number],  # who floated last round
    )


def _round_robin_pairs(*, tournament: Tournament, number: int) -> list[Pair]:
    # The schedule is fixed by the seeds given when round 1 was paired.
    seeded = Registration.objects.filter(tournament=tournament, seed__isnull=False)
    ids = [r.player_id for r in seeded.order_by("seed")]
    schedule = round_robin_rounds(ids)
    return list(schedule[number - 1]) if number <= len(schedule) else []


def _knockout_pairs(*, tournament: Tournament, number: int, seeded: list[int]) -> list[Pair]:
    if number == 1:
        return knockout_first_round(seeded)
    previous = [p for p in _previous_pairings(tournament=tournament, before=number)]
    winners = [p.winner_id for p in previous if p.round.number == number - 1]
    return knockout_next_round(winners)


def pairs_for_round(*, tournament: Tournament, number: int, seeded: list[int]) -> list[Pair]:
    """The pairs of round `number` for the active players `seeded` (in seed order)."""
    if tournament.format == Tournament.Format.SWISS:
        pairs = _swiss_pairs(tournament=tournament, number=number, seeded=seeded)
    elif tournament.format == Tournament.Format.ROUND_ROBIN:
        pairs = _round_robin_pairs(tournament=tournament, number=number)
    else:
        pairs = _knockout_pairs(tournament=tournament, number=number, seeded=seeded)
    return _without_withdrawn(pairs, set(seeded))
