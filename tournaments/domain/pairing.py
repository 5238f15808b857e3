"""Who plays whom in a round, from the folded state: the seeds, the active players and the
pure pairing code (tournaments.pairing) for the tournament's format. No database."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tournaments.domain.seeding import bracket_of, seeds_of
from tournaments.domain.standings import results_of, standings_of, tiebreak_order
from tournaments.domain.state import CHECKED_IN, REGISTERED, Table, TournamentState
from tournaments.pairing import Pair
from tournaments.pairing.forbidden import knockout_first_round_avoiding, swiss_pair_avoiding
from tournaments.pairing.knockout import bracket_size, knockout_first_round, knockout_next_slots
from tournaments.pairing.knockout_bracket import THIRD_PLACE
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


Slotted = list[tuple[str, Pair]]  # (bracket slot, pair) in bracket order


def knockout_round(
    state: TournamentState, number: int, seeded: Sequence[int], cut: Sequence[int] = ()
) -> tuple[Slotted, tuple[tuple[int, int], ...]]:
    """Round `number` of a knockout (a knockout tournament's, or a top cut's after its Swiss
    rounds) as (slot, pair) in bracket order, and the forbidden pairs its first round could
    not keep apart.

    Slots are the bracket's ("K<round>-<index>", "3P" for a top cut's third-place match),
    recorded with the tables, so a round is paired from the slots of the round before:
    seats stay where the seeding put them whoever withdraws. The first round is drawn from
    the seeds fixed at the start (a top cut's: its qualifiers, `cut`), also when it is
    re-paired; a withdrawn player is not paired again: their opponent has a bye, and a slot
    both of whose players withdrew is left empty (no table), its neighbour's winner going
    on by a bye (tournaments.pairing.knockout.knockout_next_slots)."""
    top = in_top_cut(state, number)
    first = (state.swiss_rounds or 0) + 1 if top else 1
    field = list(cut or state.cut_seeds) if top else seeds_of(state)
    bracket_round = number - first + 1
    met: tuple[tuple[int, int], ...] = ()
    if bracket_round == 1:
        if top:
            pairs = knockout_first_round(field)
        else:
            pairing = knockout_first_round_avoiding(field, state.forbidden)
            pairs, met = list(pairing.pairs), _met(pairing)
        slotted = [(f"K1-{i}", pair) for i, pair in enumerate(pairs, 1)]
    else:
        previous = state.rounds.get(number - 1)
        tables = [t for t in previous.tables if t.slot != THIRD_PLACE] if previous else []
        slots = bracket_size(len(field)) >> (bracket_round - 1)
        following = knockout_next_slots(_winners_by_slot(tables, slots))
        slotted = [(f"K{bracket_round}-{j}", p) for j, p in enumerate(following, 1) if p]
        last = number == state.rounds_planned
        out = [t.player2 if t.winner == t.player1 else t.player1 for t in tables]
        losers = [p for p in out if p is not None]
        if top and last and state.third_place and len(tables) == 2 and len(losers) == 2:
            slotted.append((THIRD_PLACE, third_place_pair(losers, state.cut_seeds)))
    active = set(seeded)
    kept = [(slot, q) for slot, pair in slotted for q in without_withdrawn([pair], active)]
    return kept, met


def _winners_by_slot(tables: Sequence[Table], slots: int) -> list[int | None]:
    """The winner of each slot of a finished knockout round, None where nobody came out
    (an empty slot). Tables of a stream older than the slots: their order is the bracket's."""
    if not tables or any(t.slot is None for t in tables):
        return [t.winner for t in tables]
    winners: list[int | None] = [None] * slots
    for t in tables:
        index = int(str(t.slot).rsplit("-", 1)[1]) - 1
        if 0 <= index < slots:
            winners[index] = t.winner
    return winners


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
        slotted, met = knockout_round(state, number, seeded)
        return [pair for _, pair in slotted], met
    return without_withdrawn(pairs, set(seeded)), met


def ordered_tables(state: TournamentState, pairs: Sequence[Pair], number: int = 0) -> list[Pair]:
    """Byes last, so tables 1..k are the real matches; a knockout (a top cut's too) keeps
    its bracket order, which the next round's pairing reads back from the tables."""
    ordered = list(pairs)
    bracket = state.format in ("knockout", "double_elimination") or in_top_cut(state, number)
    if not bracket:
        ordered.sort(key=lambda pair: pair.second is None)
    return ordered
