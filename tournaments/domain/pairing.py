"""Who plays whom in a round, from the folded state: the seeds, the active players and the
pure pairing code (tournaments.pairing) for the tournament's format. No database."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tournaments.domain.standings import results_of, standings_of, tiebreak_order
from tournaments.domain.state import CHECKED_IN, FINISHED, REGISTERED, TournamentState
from tournaments.pairing import Pair
from tournaments.pairing.double_elimination import DoubleElimination, double_elimination
from tournaments.pairing.forbidden import knockout_first_round_avoiding, swiss_pair_avoiding
from tournaments.pairing.knockout import bracket_size, knockout_first_round, knockout_next_round
from tournaments.pairing.round_robin import round_robin_rounds
from tournaments.pairing.standings import tied_groups
from tournaments.pairing.swiss import SwissPlayer
from tournaments.pairing.top_cut import third_place_pair, top_cut_seeds


def active_players(state: TournamentState, ratings: dict[int, float] | None = None) -> list[int]:
    """Players who may be paired now, in seed order (unseeded: by rating, then in order of
    registration; late entries are seeded after everyone)."""
    statuses = {CHECKED_IN} if state.check_in_required else {CHECKED_IN, REGISTERED}
    ratings = ratings or {}
    entries = [e for e in state.entries.values() if e.status in statuses]
    entries.sort(key=lambda e: (e.seed is None, e.seed or 0, -ratings.get(e.player, 0.0), e.order))
    return [e.player for e in entries]


def cut_rounds(size: int) -> int:
    """The knockout rounds of a top cut of `size` (4: 2, 8: 3, 16: 4)."""
    return size.bit_length() - 1


def round_count(state: TournamentState, players: int) -> int | None:
    """Rounds the tournament will have, fixed when round 1 is paired (double elimination:
    not known ahead, the bracket says when it is over; a top cut: its Swiss rounds, then
    its knockout's)."""
    if state.format == "double_elimination":
        return None
    if state.format == "swiss" and state.top_cut:
        return (state.rounds_planned or 1) + cut_rounds(state.top_cut)
    if state.format == "swiss":
        return state.rounds_planned or 1
    if state.format == "round_robin":
        return len(round_robin_rounds(list(range(1, players + 1))))
    return max(1, (bracket_size(players) - 1).bit_length())


def without_withdrawn(pairs: Sequence[Pair], active: set[int]) -> list[Pair]:
    """A withdrawn player is not paired again: their opponent gets a bye instead."""
    kept = []
    for pair in pairs:
        present = [p for p in (pair.first, pair.second) if p is not None and p in active]
        if len(present) == 2:
            kept.append(pair)
        elif present:
            kept.append(Pair(first=present[0], second=None))
    return kept


Paired = tuple[list[Pair], tuple[tuple[int, int], ...]]  # the pairs, forbidden pairs met


def played_pairs(state: TournamentState, before: int | None = None) -> set[frozenset[int]]:
    """Who has met whom (in rounds before `before`, or in every round)."""
    return {
        frozenset((t.player1, t.player2))
        for n, r in state.rounds.items()
        if before is None or n < before
        for t in r.tables
        if t.player2 is not None
    }


def _met(pairing: object) -> tuple[tuple[int, int], ...]:
    met = getattr(pairing, "forbidden_met", ())
    return tuple(tuple(sorted(p)) for p in met)  # type: ignore[misc]


def _swiss_pairs(state: TournamentState, number: int, seeded: list[int]) -> Paired:
    lines = standings_of(state, also=seeded)
    line_of = {line.player: line for line in lines}
    seed_index = {player: i for i, player in enumerate(seeded)}
    tiebreaks = tiebreak_order(state)
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
    previous = [t for n, r in sorted(state.rounds.items()) if n < number for t in r.tables]
    played = {frozenset((t.player1, t.player2)) for t in previous if t.player2 is not None}
    had_bye = {t.player1 for t in previous if t.player2 is None}
    dealt_first = Counter(t.player1 for t in previous if t.player2 is not None)
    pairing = swiss_pair_avoiding(
        players=players,
        played=played,
        had_bye=had_bye,
        forbidden=state.forbidden,
        dealt_first=dict(dealt_first),
        results=[r for r in results_of(state) if r.round < number],  # who floated last round
        bye_points=state.bye_points,
    )
    return list(pairing.pairs), _met(pairing)


def _round_robin_pairs(state: TournamentState, number: int) -> list[Pair]:
    # The schedule is fixed by the seeds given when round 1 was paired.
    seeded = sorted((e for e in state.entries.values() if e.seed is not None), key=lambda e: e.seed)
    schedule = round_robin_rounds([e.player for e in seeded])
    return list(schedule[number - 1]) if number <= len(schedule) else []


def _knockout_pairs(state: TournamentState, number: int, seeded: list[int]) -> Paired:
    if number == 1:
        pairing = knockout_first_round_avoiding(seeded, state.forbidden)
        return list(pairing.pairs), _met(pairing)
    previous = state.rounds.get(number - 1)
    winners = [t.winner for t in previous.tables] if previous else []
    return knockout_next_round(winners), ()


def seeds_of(state: TournamentState) -> list[int]:
    """The seeds fixed when round 1 was paired, seed 1 first."""
    seeded = [e for e in state.entries.values() if e.seed is not None]
    return [e.player for e in sorted(seeded, key=lambda e: e.seed or 0)]


def bracket_of(state: TournamentState) -> DoubleElimination:
    """The double-elimination bracket as the results recorded so far draw it (the pure
    tournaments.pairing.double_elimination; raises its BracketResultError)."""
    seeds = seeds_of(state)
    results = {
        t.slot: t.winner
        for r in state.rounds.values()
        for t in r.tables
        if t.slot is not None and t.status == FINISHED and t.winner is not None
    }
    return double_elimination(
        seeded=seeds,
        results=results,
        withdrawn=[p for p in state.withdrawals if p in set(seeds)],
        reset=state.bracket_reset,
        forbidden=[set(p) for p in state.bracket_forbidden],
    )


def double_elimination_wave(
    state: TournamentState,
) -> tuple[list[Pair], list[str], tuple[tuple[int, int], ...]]:
    """The next wave's pairs, their bracket slots, and the forbidden pairs its first round
    could not keep apart."""
    bracket = bracket_of(state)
    matches = list(bracket.next_wave)
    return [m.pair for m in matches], [m.id for m in matches], _met(bracket)


def in_top_cut(state: TournamentState, number: int) -> bool:
    """Is round `number` one of a top cut's knockout rounds?"""
    return bool(state.top_cut) and state.swiss_rounds is not None and number > state.swiss_rounds


def top_cut_qualifiers(
    state: TournamentState, ratings: dict[int, float], lots: Sequence[int]
) -> list[int]:
    """The top cut's seeds from the Swiss standings (tiebreak groups), then the club
    rating, then the recorded draw of lots; withdrawn players do not qualify."""
    groups = tied_groups(
        players=sorted(state.paired),
        results=results_of(state),
        tiebreaks=tiebreak_order(state),
        bye_points=state.bye_points,
        bye_buchholz=state.bye_buchholz,
    )
    assert state.top_cut is not None
    return top_cut_seeds(
        swiss_groups=groups, size=state.top_cut, rating=ratings, lots=lots,
        withdrawn=state.withdrawn,
    )  # fmt: skip


def top_cut_pairs(state: TournamentState, number: int, cut: Sequence[int]) -> list[Pair]:
    """A top cut's knockout round: seeded from `cut` first, then the previous round's
    winners in bracket order; the final with the third-place match where there is one."""
    if number == (state.swiss_rounds or 0) + 1:
        return knockout_first_round(list(cut))
    previous = state.rounds[number - 1]
    pairs = knockout_next_round([t.winner for t in previous.tables])
    last = number == state.rounds_planned
    losers = [t.player2 if t.winner == t.player1 else t.player1 for t in previous.tables]
    losers = [p for p in losers if p is not None]
    if last and state.third_place and len(previous.tables) == 2 and len(losers) == 2:
        pairs.append(third_place_pair(losers, state.cut_seeds))
    return pairs


def pairs_for_round(state: TournamentState, number: int, seeded: list[int]) -> Paired:
    """The pairs of round `number` for the active players `seeded` (in seed order), and the
    forbidden pairs it could not keep apart (where no valid pairing does)."""
    met: tuple[tuple[int, int], ...] = ()
    if state.format == "double_elimination":
        pairs, _, met = double_elimination_wave(state)
        return pairs, met if number == 1 else ()
    if state.format == "swiss":
        pairs, met = _swiss_pairs(state, number, seeded)
    elif state.format == "round_robin":
        pairs = _round_robin_pairs(state, number)
    else:
        pairs, met = _knockout_pairs(state, number, seeded)
    return without_withdrawn(pairs, set(seeded)), met


def ordered_tables(state: TournamentState, pairs: Sequence[Pair], number: int = 0) -> list[Pair]:
    """Byes last, so tables 1..k are the real matches; a knockout (a top cut's too) keeps
    its bracket order, which the next round's pairing reads back from the tables."""
    ordered = list(pairs)
    bracket = state.format in ("knockout", "double_elimination") or in_top_cut(state, number)
    if not bracket:
        ordered.sort(key=lambda pair: pair.second is None)
    return ordered
